#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The whole system under SCHED_BVT: run in a boot with sched_normal_class=bvt
# on the kernel command line, where every SCHED_NORMAL and SCHED_BATCH task,
# kernel threads included, runs in BVT with its weight from nice:
#
#	scripts/qemu-run --append sched_normal_class=bvt -- /tests/whole-system.sh
#
# Prints one TAP line per check ("ok - name" or "not ok - name") and exits 1
# if any check failed.

. /tests/tap.sh

# in_bvt FILE: a /proc/.../sched file shows the BVT statistics
in_bvt() {
	grep -q '^ms\.bvt\.A *:' "$1" || { grep '^ms\.' "$1"; return 1; }
}
kthreadd_in_bvt() { grep -qx kthreadd /proc/2/comm && in_bvt /proc/2/sched; }

# every_normal_in_bvt: every SCHED_NORMAL (0) and SCHED_BATCH (3) thread,
# kernel threads included, is in BVT; threads that exit meanwhile are skipped
every_normal_in_bvt() {
	n=0 bad=
	for f in /proc/[0-9]*/task/[0-9]*/sched; do
		pol=$(sed -n 's/^policy *: *\([0-9]*\).*/\1/p' "$f" 2>/dev/null)
		case $pol in
		0|3)	;;
		*)	continue ;;
		esac
		n=$((n + 1))
		if ! grep -q '^ms\.class *: *bvt$' "$f" 2>/dev/null && [ -e "$f" ]; then
			bad="$bad ${f#/proc/}"
		fi
	done
	echo "$n SCHED_NORMAL/SCHED_BATCH threads"
	[ -z "$bad" ] || { echo "not in BVT:$bad"; return 1; }
	[ "$n" -gt 0 ]
}

check "boot: sched_normal_class=bvt is on the kernel command line" \
	grep -qw 'sched_normal_class=bvt' /proc/cmdline
check "sysctl: kernel.sched_normal_class reads bvt" \
	grep -qx bvt /proc/sys/kernel/sched_normal_class
check "init (pid 1) runs in BVT: /proc/1/sched shows ms.bvt.A" \
	in_bvt /proc/1/sched
check "kthreadd (pid 2), a kernel thread, runs in BVT: /proc/2/sched shows ms.bvt.A" \
	kthreadd_in_bvt
check "a new shell is SCHED_OTHER and runs in BVT" \
	sh -c 'chrt -p $$ | grep -q SCHED_OTHER && grep -q "^ms\.bvt\.A *:" /proc/$$/sched'
check "every SCHED_NORMAL and SCHED_BATCH thread, kernel threads included, is in BVT" \
	every_normal_in_bvt
measure "bvt: SCHED_OTHER hogs at nice 0 and 5 on one CPU get 75.4% and 24.6% (nice weights 1024 and 335, 3 points)" \
	$T/bvt_share -N -e 3 -t 10 0 5
check "hackbench: 2 groups, 50 loops" hackbench -g 2 -l 50
check "cyclictest: a SCHED_OTHER thread for 2 s" \
	sh -c 'cyclictest -q -D 2 -t 1 -i 1000 -m | grep -q "Max:"'

exit $((fails > 0))
