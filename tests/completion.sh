#!/bin/bash
# The bash completion completes options, formats and severities.
set -u
. "$(dirname "$0")/lib.sh"

# complete_words WORDS...: what the completion offers for the last word
complete_words() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_dmamask_audit
		printf "%s\n" "${COMPREPLY[@]}"' _ "$SRCDIR/completions/bash/dmamask-audit" "$@"
}
check "--form completes to --format" test "$(complete_words dmamask-audit --form)" = "--format"
check "--format offers text and json" test "$(complete_words dmamask-audit --format '' | sort | tr '\n' ' ')" = "json text "
check "--fail-on w completes to warning" test "$(complete_words dmamask-audit --fail-on w)" = "warning"
check "every option in --help is completed" bash -c '
	for o in $("$1" --help | grep -o -- "--[a-z-]*" | sort -u); do
		grep -q -- "$o" "$2" || { echo "# missing $o"; exit 1; }
	done' _ "$TOOL" "$SRCDIR/completions/bash/dmamask-audit"
tap_done
