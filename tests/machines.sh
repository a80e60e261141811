#!/bin/bash
# Fixture machines: tests/machines/NAME/root is a sysroot; the tool's JSON
# for it must match NAME/expected.json (after normalise), validate against
# the schema, and satisfy each jq expression in NAME/checks (one a line),
# which must name every verdict (not idle) and finding of the output, and the
# evidence that decides each (tests/machines/deciding-evidence.json).
# NAME/args holds extra options. `tests/machines.sh --regen [NAME...]`
# rewrites expected.json: review the diff before committing it.
#
# For tools/mutate (a mutant must be caught by a rule, not by a blessed output):
#   MACHINES_NO_EXPECTED=1  skip the expected.json and expected.txt comparisons
#   MACHINES_CHECKS_ONLY=1  that, and only the JSON run, its exit status and the
#                           checks (no schema, text or ndjson renderings)
#   MACHINES_FIXTURE_DIR=D  build generated and unpack captured roots in D, kept
#                           between runs (default: a temporary directory)
set -u
. "$(dirname "$0")/lib.sh"

regen=false
if [ "${1:-}" = --regen ]; then regen=true; shift; fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
FIXTURE_TMP=${MACHINES_FIXTURE_DIR:-$tmp/fixtures}
checks_only=false
[ -n "${MACHINES_CHECKS_ONLY:-}" ] && checks_only=true
no_expected=$checks_only
[ -n "${MACHINES_NO_EXPECTED:-}" ] && no_expected=true

# The numbers (sizes, addresses, counts) and table headings of a text report, sorted.
numbers_of() {
	grep -v '^sysroot ' "$1" | tr -s ' \t' '\n\n' | grep -E '^(0x[0-9a-f]+|[0-9][0-9.]*|[A-Z_]{4,})[,:;)]*$' | sort
}

quiet() { "$@" > /dev/null; }

# Fixtures whose checks do not yet name every finding's deciding evidence (issue 36):
# each still runs the check, as a TAP TODO, and passing it fails the suite until its
# name leaves this list. Shrink it, never grow it.
evidence_todo=(
)
in_evidence_todo() { local n; for n in "${evidence_todo[@]}"; do [ "$n" = "$1" ] && return 0; done; return 1; }

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	mapfile -t names < <(fixtures)
fi

for name in "${names[@]}"; do
	dir="$SRCDIR/tests/machines/$name"
	args=()
	[ -f "$dir/args" ] && read -r -a args < "$dir/args"
	out="$tmp/$name.json"
	root=$(fixture_root "$name") || { not_ok "$name: fixture builds"; continue; }
	"$TOOL" --sysroot "$root" --json "${args[@]}" > "$out" 2> "$tmp/$name.err"
	rc=$?
	text80() { # the text report at 80 columns in a UTF-8 locale, its sysroot line made stable
		COLUMNS=80 LC_ALL=C.UTF-8 "$TOOL" --sysroot "$root" "${args[@]}" 2>&1 |
			sed 's|^sysroot .*|sysroot ROOT|'
	}
	if $regen; then
		normalise "$out" > "$dir/expected.json" && echo "# regenerated $name"
		text80 > "$dir/expected.txt"
		continue
	fi
	check "$name: exits 0 or 1 ($rc)" test "$rc" -le 1
	$checks_only || check "$name: JSON matches the schema" valid_json "$out"
	check "$name: exit status $rc is the report's exit_status" \
		test "$(jq .exit_status "$out")" = "$rc"
	if $no_expected; then
		: # blessed output: not what a rule is tested by
	elif normalise "$out" | diff -u "$dir/expected.json" - > "$tmp/diff"; then
		ok "$name: output matches expected.json"
	else
		not_ok "$name: output matches expected.json"
		diag < "$tmp/diff"
	fi
	if [ -f "$dir/checks" ]; then
		# every check of the fixture in one jq run (a jq start a check was a third of the
		# script's time): each as `jq -e` judges it, by its last output, an error false
		exprs=()
		while IFS= read -r expr; do
			case "$expr" in ''|'#'*) continue ;; esac
			exprs+=("$expr")
		done < "$dir/checks"
		prog=""
		for expr in "${exprs[@]}"; do
			prog+="${prog:+, }(try ([$expr] | last | . != null and . != false) catch false)"
		done
		mapfile -t verdicts < <(jq -c "[$prog] | .[]" "$out" 2> /dev/null)
		for i in "${!exprs[@]}"; do
			if [ "${verdicts[$i]:-}" = true ]; then
				ok "$name: ${exprs[$i]}"
			else
				not_ok "$name: ${exprs[$i]}"
			fi
		done
	fi
	# the checks carry every verdict and finding as a fact of their own: each device not
	# idle is named (as "ID") on a line with .verdict, each finding by a line naming "ID"
	# and, when it has one, "DEVICE" (a line asserting the whole findings list counts).
	# A comment "# unpinned: ..." naming them the same way, with why, counts too: a
	# verdict nothing vouches for (a kernel that showed no traffic) or one held wrong.
	# It fails on any new verdict or finding, like a blessed output: not for tools/mutate.
	if ! $no_expected; then
		jq -r --rawfile c "$dir/checks" '
			[$c | split("\n")[] | select((test("^\\s*(#|$)") | not) or startswith("# unpinned: "))] as $lines
			| def named($words): any($lines[]; . as $l | all($words[]; . as $w | $l | contains($w)));
			(.devices[] | select(.verdict != "idle") | select(named([(.id | tojson), ".verdict"]) | not)
				| "verdict of \(.id) (\(.verdict))"),
			(.findings[] | select(named([(.id | tojson)] + if .device then [.device | tojson] else [] end) | not)
				| "finding \(.id)\(if .device then " of \(.device)" else "" end)")' \
			"$out" > "$tmp/unpinned" 2>&1
		if [ $? -eq 0 ] && [ ! -s "$tmp/unpinned" ]; then
			ok "$name: checks pin every verdict and finding"
		else
			not_ok "$name: checks pin every verdict and finding"
			sed 's/^/not pinned: /' "$tmp/unpinned" | diag
		fi
	fi
	# the evidence that decides each finding and verdict (tests/machines/deciding-evidence.json:
	# the bytes, the reach, the layer that bounces) is named by a check on a line naming its
	# device, or by a "# unpinned: ..." line naming both, with why
	if ! $no_expected; then
		jq -r --rawfile c "$dir/checks" --slurpfile t "$SRCDIR/tests/machines/deciding-evidence.json" '
			[$c | split("\n")[] | select((test("^\\s*(#|$)") | not) or startswith("# unpinned: "))] as $lines
			| def named($words): any($lines[]; . as $l | all($words[]; . as $w | $l | contains($w)));
			def pinned($dev): . as $i | (if $dev != null and ($i.machine | not) then [$dev | tojson] else [] end) as $by
				| any($i.any[]; named($by + [.]));
			(.devices[] | . as $d | ($t[0].verdicts[.verdict] // [])[] | select(pinned($d.id) | not)
				| "\($d.verdict) of \($d.id): \(.what) (\(.any | join(", ")))"),
			(.findings[] | . as $f | ($t[0].findings[.id] // [])[] | . as $i
				| select(($i.when == null or ($f.evidence | has($i.when)))
					and ($i.unless == null or ($f.evidence | has($i.unless) | not)))
				| select(pinned($f.device) | not)
				| "finding \($f.id)\(if $f.device then " of \($f.device)" else "" end): \(.what) (\(.any | join(", ")))")' \
			"$out" > "$tmp/evidence" 2>&1
		erc=$?
		what="$name: checks name every finding's deciding evidence"
		if in_evidence_todo "$name"; then
			# a TODO: failing is expected (XFAIL), passing (XPASS) fails the suite
			if [ $erc -eq 0 ] && [ ! -s "$tmp/evidence" ]; then
				echo "ok $((tap_n += 1)) - $what # TODO passes now: remove it from evidence_todo"
			else
				echo "not ok $((tap_n += 1)) - $what # TODO in evidence_todo, $(wc -l < "$tmp/evidence") unnamed"
			fi
		elif [ $erc -eq 0 ] && [ ! -s "$tmp/evidence" ]; then
			ok "$what"
		else
			not_ok "$what"
			sed 's/^/not named: /' "$tmp/evidence" | diag
		fi
	fi
	$checks_only && continue
	"$TOOL" --sysroot "$root" "${args[@]}" > "$tmp/$name.txt" 2>&1
	check "$name: text output exits like JSON" test $? -eq "$rc"
	check "$name: text output is not empty" test -s "$tmp/$name.txt"
	COLUMNS=80 "$TOOL" --sysroot "$root" "${args[@]}" > "$tmp/$name.80" 2>&1
	# (the "sysroot PATH" line holds one unbreakable path, as long as the tree's)
	check "$name: text fits an 80-column terminal" \
		test "$(awk '!/^sysroot / { if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/$name.80")" -le 80
	if $no_expected; then
		:
	elif text80 | diff -u "$dir/expected.txt" - > "$tmp/diff"; then
		ok "$name: text at 80 columns matches expected.txt"
	else
		not_ok "$name: text at 80 columns matches expected.txt"
		diag < "$tmp/diff"
	fi
	# narrow or wide, wrapping moves words but never splits a number or a heading
	for cols in 60 200; do
		COLUMNS=$cols LC_ALL=C.UTF-8 "$TOOL" --sysroot "$root" "${args[@]}" > "$tmp/$name.$cols" 2>&1
	done
	check "$name: at 60 and 200 columns the same numbers and headings, none split" \
		cmp -s <(numbers_of "$tmp/$name.60") <(numbers_of "$tmp/$name.200")
	# ndjson: the document's devices, each on a line with its own findings, then the machine's
	"$TOOL" --sysroot "$root" --format ndjson "${args[@]}" > "$tmp/$name.ndjson" 2> /dev/null
	check "$name: ndjson is the document, a line per device and one for the machine" \
		quiet jq -e -n --slurpfile doc "$out" '[inputs] as $l | $doc[0] as $d
			| ($l | map(select(.record == "device").device)) == $d.devices
			and ($l | last | .record == "machine" and .device == null)
			and ([$l[].findings[]] | sort) == ($d.findings | sort)
			and all($l[]; .exit_status == $d.exit_status and .kernel_release == $d.kernel.release)
			and all($l[]; .ram_bytes == $d.memory.ram_bytes and .base_pfn == $d.memory.base_pfn
				and .swiotlb_active == $d.swiotlb.active and .swiotlb_size_bytes == $d.swiotlb.size_bytes
				and .swiotlb_pool_start == $d.swiotlb.pool_start and .swiotlb_pool_end == $d.swiotlb.pool_end)
			and all($l[] | select(.record == "device"); .pci_id ==
				(.device.pci_ids | if . then .vendor + ":" + .device else null end))
			and ($l | last | .pci_id == null)
			and all($l[] | select(.record == "device"); . as $r | all(.findings[]; .device == $r.device.id))' \
		"$tmp/$name.ndjson"
done
if ! $regen; then
	# every fixture's lines against the schema's record, in one run
	$checks_only || check "ndjson of every fixture matches the schema's definitions/ndjson_record" \
		bash -c '"$1" "$2/tests/validate-json.py" "$3" --lines "#/definitions/ndjson_record" "$4"/*.ndjson 2>&1 | sed "s/^/# /"
			exit "${PIPESTATUS[0]}"' _ "$PYTHON" "$SRCDIR" "$SCHEMA" "$tmp"
	tap_done
fi
