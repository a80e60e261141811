# What every capture test checks of a snapshot; sourced by tests/capture.sh
# and tests/capture-failures.sh after lib.sh. Sourcing it makes $tmp, the
# test's own directory (readable by nobody, for the unprivileged capture),
# removed at exit with the tmpfs mounts a test makes in it ($tmp/full,
# $tmp/work) unmounted first.

tmp=$(mktemp -d) || exit 99
trap 'umount "$tmp/full" 2> /dev/null; umount "$tmp/work" 2> /dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
FIXTURE_TMP=$tmp/fixtures

# same_audit LIVE.json REPLAY.json: the audit a replay must reproduce
same_audit() {
	diff <(jq -S '{memory, devices, block, findings, exit_status, swiotlb}' "$1") \
	     <(jq -S '{memory, devices, block, findings, exit_status, swiotlb}' "$2") | diag
	return "${PIPESTATUS[0]}"
}

# capture_checks NAME DIR: what a movable snapshot must be
capture_checks() {
	local name=$1 dir=$2 k
	check "$name: no absolute symlinks" test -z "$(find "$dir" -type l -lname '/*' | head -1)"
	check "$name: no device nodes, FIFOs or sockets" \
		test -z "$(find "$dir" \( -type b -o -type c -o -type p -o -type s \) | head -1)"
	# one realpath for all the links (a readlink each took 170 s at 80,000)
	check "$name: every link points inside the snapshot" bash -c '
		cd "$1" && top=$(pwd -P) && out=$(find . -type l -print0 | xargs -0 -r realpath -m --) &&
		bad=$(printf "%s\n" "$out" | grep -v -e "^$top/" -e "^\$" | head -3) &&
		{ [ -z "$bad" ] || { echo "$bad" | sed "s/^/# outside: /"; exit 1; }; }' _ "$dir"
	for k in arch page_size kernel_release endianness uid captured_by captured_at; do
		check "$name: MANIFEST has $k" grep -q "^$k=." "$dir/MANIFEST"
	done
	check "$name: MANIFEST starts with manifest_version=2" test "$(head -1 "$dir/MANIFEST")" = manifest_version=2
	check "$name: MANIFEST ends with complete=1" test "$(tail -1 "$dir/MANIFEST")" = complete=1
	check "$name: no temporaries or lock file left" \
		test -z "$(find "$dir" -maxdepth 1 -name '.*' ! -name . | head -1)"
	check "$name: dev/kmsg is a regular file when captured" bash -c '[ ! -e "$1/dev/kmsg" ] || [ -f "$1/dev/kmsg" ]' _ "$dir"
}
