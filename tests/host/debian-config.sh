#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The patch in a distribution's kernel: kernel/sched/ and every other C
# file the patch touches build with Debian's own amd64 configurations of
# 6.12 (linux-config-6.12, which scripts/setup installs: the generic one
# and the PREEMPT_RT one) plus Kconfig.fragment, with W=1, with no error
# and no warning. The test kernel's own configuration (scripts/kconfig)
# lacks much of what these enable: 8192 CPUs, NUMA, group scheduling,
# PREEMPT_DYNAMIC, PREEMPT_RT's sleeping locks, and no KUnit (the first
# run of this test found vtrr_insert(), used only by the KUnit suite,
# defined but unused there).
#
# The tree is a hard-linked copy of the pristine one with the patched
# files ($MS_STAGE, refreshed by scripts/build) copied over, built out of
# tree in $MS_BUILD/debian; about half a minute per configuration on the
# project's machine.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

dir=$MS_BUILD/debian
src=$dir/src
confs=/usr/src/linux-config-6.12

if [ ! -d "$MS_PRISTINE" ] || [ ! -d "$MS_STAGE" ]; then
	echo "not ok - debian-config: no pristine or staged tree (run scripts/build first)"
	exit 0
fi

rm -rf "$src"
mkdir -p "$dir"
if ! cp -al "$MS_PRISTINE" "$src"; then
	echo "not ok - debian-config: cannot copy the pristine tree"
	exit 0
fi
# The staged files replace their links, so the pristine tree stays as it was.
(cd "$MS_STAGE" && find . -type f) | while read -r f; do
	rm -f "$src/$f"
	mkdir -p "$(dirname "$src/$f")"
	cp "$MS_STAGE/$f" "$src/$f"
done

# kernel/sched/ and the object of every other C file the patch touches
targets="kernel/sched/"
for f in $(cd "$MS_STAGE" && find kernel init mm lib arch -name '*.c' 2>/dev/null); do
	case $f in
	kernel/sched/*) ;;
	*) targets="$targets ${f%.c}.o" ;;
	esac
done

for c in amd64_none_amd64 amd64_rt_amd64; do
	name="debian-config: kernel/sched/ and the other C files the patch touches ($targets) build with Debian's config.$c plus Kconfig.fragment and W=1, with no warning or error"
	out=$dir/out-$c
	log=$dir/build-$c.log
	if [ ! -f "$confs/config.$c.xz" ]; then
		echo "not ok - $name"
		echo "# $confs/config.$c.xz is missing: scripts/setup installs linux-config-6.12"
		continue
	fi
	mkdir -p "$out"
	{ xz -dc "$confs/config.$c.xz"; cat "$MS_TOP/Kconfig.fragment"; } > "$out/.config.want"
	if ! cmp -s "$out/.config.want" "$out/.config.in" 2>/dev/null; then
		cp "$out/.config.want" "$out/.config.in"
		cp "$out/.config.want" "$out/.config"
	fi
	start=$SECONDS
	# shellcheck disable=SC2086
	if ! make -C "$src" O="$out" olddefconfig > "$log" 2>&1 ||
	   ! make -C "$src" O="$out" -j"$(nproc)" W=1 $targets >> "$log" 2>&1; then
		echo "not ok - $name"
		grep -E 'error|Error' "$log" | head -n 20 | sed 's/^/# /'
		continue
	fi
	# the classes must be in: a fragment the configuration overrode
	# would build nothing of the patch
	missing=
	for k in $(sed -n 's/^\(CONFIG_SCHED_[A-Z]*\)=y$/\1/p' "$MS_TOP/Kconfig.fragment"); do
		case $k in *KUNIT*) continue ;; esac
		grep -qx "$k=y" "$out/.config" || missing="$missing $k"
	done
	# compiler diagnostics in the kernel's sources, not in host tools
	# (genksyms' grammar has bison conflicts of its own)
	diag=$(grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$log" |
		grep -v -E '/(scripts|tools)/')
	if [ -n "$missing" ] || [ -n "$diag" ]; then
		echo "not ok - $name"
		[ -n "$missing" ] && echo "# not enabled:$missing"
		[ -n "$diag" ] && printf '%s\n' "$diag" | head -n 20 | sed 's/^/# /'
		continue
	fi
	echo "ok - $name"
	echo "# $c: $(grep -c '^  CC *kernel/' "$log") kernel objects compiled in $((SECONDS - start)) s"
done
