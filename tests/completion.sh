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
check "--format offers text, json and prometheus" test "$(complete_words dmamask-audit --format '' | sort | tr '\n' ' ')" = "json prometheus text "
check "--fail-on w completes to warning" test "$(complete_words dmamask-audit --fail-on w)" = "warning"
check "every option in --help is completed" bash -c '
	for o in $("$1" --help | grep -o -- "--[a-z-]*" | sort -u); do
		grep -q -- "$o" "$2" || { echo "# missing $o"; exit 1; }
	done' _ "$TOOL" "$SRCDIR/completions/bash/dmamask-audit"
check "--format=<TAB> (split at '=') offers the formats" \
	test "$(complete_words dmamask-audit --format = '' | sort | tr '\n' ' ')" = "json prometheus text "
check "--format=js completes to json" test "$(complete_words dmamask-audit --format = js)" = "json"
check "--color=al completes to always" test "$(complete_words dmamask-audit --color = al)" = "always"
check "--color <TAB> offers nothing (the argument needs '=')" test -z "$(complete_words dmamask-audit --color '')"
check "-o VERD completes a column" test "$(complete_words dmamask-audit -o VERD)" = "VERDICT"
check "-o DEVICE,DRI completes the list's last item" test "$(complete_words dmamask-audit -o DEVICE,DRI)" = "DEVICE,DRIVER"
check "every column of --list-columns is completed" bash -c '
	for c in $("$1" --list-columns | awk "{print \$1}"); do
		grep -qw -- "$c" "$2" || { echo "# missing $c"; exit 1; }
	done' _ "$TOOL" "$SRCDIR/completions/bash/dmamask-audit"
check "zsh completion names every column" bash -c '
	for c in $("$1" --list-columns | awk "{print \$1}"); do
		grep -qw -- "$c" "$2" || { echo "# missing $c"; exit 1; }
	done' _ "$TOOL" "$SRCDIR/completions/zsh/_dmamask-audit"
tap_done
