#!/bin/bash
# make check: every libFuzzer target replays its seeds (the fixture machines)
# and regression inputs; with FUZZ_SECONDS it then fuzzes that long (wall,
# all targets at once). CI fuzzes once, longer, two targets at a time
# (tools/setup: make check-fuzz), not in each of its builds.
. "${SRCDIR:?}/tests/lib.sh"
if [ -z "${FUZZ_SECONDS:-}" ]; then
	exec "$SRCDIR/tests/fuzz/run" --fuzz-dir "$(dirname "$TOOL")/fuzz" --replay-only --tap
fi
exec "$SRCDIR/tests/fuzz/run" --fuzz-dir "$(dirname "$TOOL")/fuzz" --seconds "$FUZZ_SECONDS" --tap
