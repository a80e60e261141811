# Shared by the shell tests: TAP output, the tool, JSON checks.
# Sourced; expects TOOL (the binary) and SRCDIR (the source tree) from make.
: "${TOOL:=$(pwd)/dmamask-audit}"
: "${SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
SCHEMA="$SRCDIR/schema/dmamask-audit.schema.json"
# Debian's python3 has python3-jsonschema; a pyenv python3 earlier on PATH may not.
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

tap_n=0
tap_failed=0
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $*"; }
# check DESCRIPTION COMMAND...: one TAP line from a command's exit status
check() {
	local d="$1"; shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $* # SKIP"; }
diag() { sed 's/^/# /'; }
tap_done() { echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]; }

# valid_json FILE: parses, and matches the schema
valid_json() {
	"$PYTHON" "$SRCDIR/tests/validate-json.py" "$SCHEMA" "$1" 2>&1 | diag
	return "${PIPESTATUS[0]}"
}

# normalise FILE: what may differ between runs of the same machine
normalise() {
	jq -S 'del(.tool.version) | .host.sysroot = "ROOT"' "$1"
}

# jqe FILE EXPR [jq options...]: true when EXPR holds for the JSON in FILE
jqe() {
	local f="$1" e="$2"; shift 2
	jq -e "$@" "$e" "$f" > /dev/null 2>&1
}
