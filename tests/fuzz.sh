#!/bin/bash
# make check: every libFuzzer target replays its seeds (the fixture machines)
# and regression inputs, then fuzzes FUZZ_SECONDS (default 30) of wall time,
# all targets at once. Longer runs: make check-fuzz.
. "${SRCDIR:?}/tests/lib.sh"
exec "$SRCDIR/tests/fuzz/run" --fuzz-dir "$(dirname "$TOOL")/fuzz" --seconds "${FUZZ_SECONDS:-30}" --tap
