#!/bin/bash
# The bash completion completes options, formats and severities.
set -u
. "$(dirname "$0")/lib.sh"

# complete_words WORDS...: what the completion offers for the last word
complete_words() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
		_dmamask_audit
		printf "%s\n" "${COMPREPLY[@]}"' _ "$SRCDIR/completions/bash/dmamask-audit" "$@"
}
complete_words_run() { complete_words dmamask-audit --sysroot "$1" l; }
export -f complete_words complete_words_run 2> /dev/null
check "--form completes to --format" test "$(complete_words dmamask-audit --form)" = "--format"
check "--format offers text, json, ndjson and prometheus" test "$(complete_words dmamask-audit --format '' | sort | tr '\n' ' ')" = "json ndjson prometheus text "
check "--fail-on w completes to warning" test "$(complete_words dmamask-audit --fail-on w)" = "warning"
check "--what-if offers its four keys" test "$(complete_words dmamask-audit --what-if '' | sort | tr '\n' ' ')" = "cmdline= device= kernel= ram= "
check "--what-if k completes to kernel=" test "$(complete_words dmamask-audit --what-if k)" = "kernel="
check "--what-i completes to --what-if" test "$(complete_words dmamask-audit --what-i)" = "--what-if"
check "every option in --help is completed" bash -c '
	for o in $("$1" --help | grep -o -- "--[a-z-]*" | sort -u); do
		grep -q -- "$o" "$2" || { echo "# missing $o"; exit 1; }
	done' _ "$TOOL" "$SRCDIR/completions/bash/dmamask-audit"
check "every option in --help is in the man page" bash -c '
	for o in $("$1" --help | grep -o -- "--[a-z-]*" | sort -u); do
		grep -q -- "\*$o\*" "$2" || { echo "# missing $o"; exit 1; }
	done' _ "$TOOL" "$SRCDIR/man/dmamask-audit.8.scd"
check "--format=<TAB> (split at '=') offers the formats" \
	test "$(complete_words dmamask-audit --format = '' | sort | tr '\n' ' ')" = "json ndjson prometheus text "
check "-x offers the columns" test "$(complete_words dmamask-audit -x VERD)" = "VERDICT"
check "--format=js completes to json" test "$(complete_words dmamask-audit --format = js)" = "json"
check "--color=al completes to always" test "$(complete_words dmamask-audit --color = al)" = "always"
check "--color <TAB> offers nothing (the argument needs '=')" test -z "$(complete_words dmamask-audit --color '')"
check "--col<TAB> completes to --color= (no space: the value is joined)" \
	test "$(complete_words dmamask-audit --col)" = "--color="
check "--obs<TAB> offers --observe= and --observe-probe" \
	test "$(complete_words dmamask-audit --obs | tr '\n' ' ')" = "--observe= --observe-probe "
check "--observe-p<TAB> completes to --observe-probe" \
	test "$(complete_words dmamask-audit --observe-p)" = "--observe-probe"
check "--observe-probe <TAB> offers the disks lsblk lists" \
	test "$(complete_words dmamask-audit --observe-probe '' | sort | tr '\n' ' ')" = \
	"$(lsblk -dno NAME 2> /dev/null | sort | tr '\n' ' ')"
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
check "-<TAB> offers the short options" bash -c '
	for o in -s -f -J -o -r -n -b -v -V -h; do
		printf "%s\n" "$@" | grep -qx -- "$o" || { echo "# missing $o"; exit 1; }
	done' _ $(complete_words dmamask-audit -)
check "-o verd completes the lowercase column" test "$(complete_words dmamask-audit -o verd)" = "verdict"
dirs=$(mktemp -d) || exit 99
trap 'rm -rf "$dirs"' EXIT
mkdir -p "$dirs/snap-a/sys"
check "--sysroot completes a directory and continues with /" \
	test "$(complete_words dmamask-audit --sysroot "$dirs/snap")" = "$dirs/snap-a/"
touch "$dirs/snap-b.tar.gz" "$dirs/snap-c.txt"
check "--sysroot completes snapshot archives too, not other files" \
	test "$(complete_words dmamask-audit --sysroot "$dirs/snap" | sort | tr '\n' ' ')" = "$dirs/snap-a/ $dirs/snap-b.tar.gz "
check "--capture completes directories only" \
	test "$(complete_words dmamask-audit --capture "$dirs/snap")" = "$dirs/snap-a/"
FIXTURE_TMP=$dirs/fixtures
root=$(fixture_root arm64-rpi4) || exit 99
# the tool itself lists the devices: complete_words runs the build's
export PATH="$(dirname "$TOOL"):$PATH"
check "--assume-mask fe<TAB> offers the snapshot's platform device, then =" \
	test "$(complete_words dmamask-audit --sysroot "$root" --assume-mask fe)" = "fe340000.mmc="
check "a DEVICE word fe<TAB> offers the snapshot's platform device, no =" \
	test "$(complete_words dmamask-audit --sysroot "$root" fe)" = "fe340000.mmc"
check "a DEVICE word mmc<TAB> offers the snapshot's disk" \
	test "$(complete_words dmamask-audit --sysroot "$root" mmc)" = "mmcblk0"
check "--assume-mask mmc<TAB> offers no disk (a mask is a device's)" \
	test -z "$(complete_words dmamask-audit --sysroot "$root" --assume-mask mmc)"
# a TAB lists sysfs: it runs no audit (a tool that cannot run still completes)
check "a DEVICE word runs no audit: a missing tool still completes fe<TAB>" \
	test "$(complete_words /nonexistent/dmamask-audit --sysroot "$root" fe)" = "fe340000.mmc"
tar -C "$root" -czf "$dirs/snap.tar.gz" . || exit 99
check "an archive is not unpacked for a TAB: nothing offered" \
	test -z "$(complete_words dmamask-audit --sysroot "$dirs/snap.tar.gz" fe)"
lo_root=$(fixture_root arm64-virt) || exit 99
check "a DEVICE word offers network interfaces (lo)" \
	bash -c '"$@" | grep -qx lo' _ complete_words_run "$lo_root"
check "--assume-mask 0000:01<TAB> (one word) offers what follows the last ':'" \
	test "$(complete_words dmamask-audit --sysroot "$root" --assume-mask 0000:01)" = "01:00.0="
check "--assume-mask 0000:01<TAB> (split at ':' by bash) still sees --assume-mask" bash -c '
	. "$1"; shift
	COMP_WORDS=(dmamask-audit --sysroot "$1" --assume-mask 0000 : 01); COMP_CWORD=6
	COMP_LINE="dmamask-audit --sysroot $1 --assume-mask 0000:01"; COMP_POINT=${#COMP_LINE}
	_dmamask_audit
	test "${COMPREPLY[*]}" = "01:00.0="' _ "$SRCDIR/completions/bash/dmamask-audit" "$root"
check "--explain fe<TAB> offers the snapshot's platform device, no =" \
	test "$(complete_words dmamask-audit --sysroot "$root" --explain fe)" = "fe340000.mmc"
check "zsh completes --explain with a device, no =" \
	grep -q -- "--explain=.*:device:_dmamask_audit_device'" "$SRCDIR/completions/zsh/_dmamask-audit"
check "--assume-mask DEV=<TAB> offers no mask" \
	test -z "$(complete_words dmamask-audit --sysroot "$root" --assume-mask fe340000.mmc=)"
check "--assume-mask DEV=<TAB> split at '=' by bash offers nothing either" bash -c '
	. "$1"; shift
	COMP_WORDS=(dmamask-audit --assume-mask fe340000.mmc = ""); COMP_CWORD=4
	COMP_LINE="dmamask-audit --assume-mask fe340000.mmc="; COMP_POINT=${#COMP_LINE}
	_dmamask_audit
	test ${#COMPREPLY[@]} -eq 0' _ "$SRCDIR/completions/bash/dmamask-audit"
tap_done
