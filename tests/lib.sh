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
	jq -S 'del(.tool.version) | .host.sysroot = "ROOT" | .generated_at = "TIME" | .invocation.argv = "ARGV"' "$1"
}

# same_report A B: two reports alike but for when each was made (JSON
# generated_at, dmamask_last_run_timestamp_seconds): a second may pass between runs
same_report() {
	local strip='/^dmamask_last_run_timestamp_seconds /d; /^dmamask_report_timestamp_seconds /d'
	if [ "$(head -c 1 "$1")" = "{" ]; then # JSON: when, and the command line that asked
		cmp -s <(jq -S 'del(.generated_at, .invocation)' "$1") <(jq -S 'del(.generated_at, .invocation)' "$2")
		return
	fi
	cmp -s <(sed "$strip" "$1") <(sed "$strip" "$2")
}

# jqe FILE EXPR [jq options...]: true when EXPR holds for the JSON in FILE
jqe() {
	local f="$1" e="$2"; shift 2
	jq -e "$@" "$e" "$f" > /dev/null 2>&1
}

# fixtures: the names of every fixture machine (a tests/machines/NAME/checks file)
fixtures() {
	local d
	for d in "$SRCDIR"/tests/machines/*/; do
		[ -f "$d/checks" ] && basename "$d"
	done
}

# fixture_root NAME: the sysroot of a fixture. Generated ones (gen-fixtures.py
# --list) are built, and captured ones (NAME/root.tar.gz) unpacked, once per
# test script under $FIXTURE_TMP; hand-written ones are read from the source tree.
fixture_root() {
	local name=$1
	if [ -z "${GENERATED_FIXTURES+x}" ]; then
		GENERATED_FIXTURES=" $("$PYTHON" "$SRCDIR/tests/machines/gen-fixtures.py" --list | tr '\n' ' ') "
	fi
	# snapshots of real kernels travel as tarballs (util-linux keeps its dumps so)
	if [ -f "$SRCDIR/tests/machines/$name/root.tar.gz" ]; then
		: "${FIXTURE_TMP:?fixture_root needs FIXTURE_TMP}"
		if [ ! -d "$FIXTURE_TMP/$name/root" ]; then
			mkdir -p "$FIXTURE_TMP/$name" &&
				tar xzf "$SRCDIR/tests/machines/$name/root.tar.gz" -C "$FIXTURE_TMP/$name" >&2 ||
				return 1
		fi
		echo "$FIXTURE_TMP/$name/root"
		return 0
	fi
	case "$GENERATED_FIXTURES" in
	*" $name "*)
		: "${FIXTURE_TMP:?fixture_root needs FIXTURE_TMP}"
		if [ ! -d "$FIXTURE_TMP/$name/root" ]; then
			"$PYTHON" "$SRCDIR/tests/machines/gen-fixtures.py" --out "$FIXTURE_TMP" "$name" >&2 || return 1
		fi
		echo "$FIXTURE_TMP/$name/root" ;;
	*)
		echo "$SRCDIR/tests/machines/$name/root" ;;
	esac
}
