#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The whole system under one class: run in a boot with sched_normal_class=bvt
# (or =vtrr, or =bebs) on the kernel command line, where every SCHED_NORMAL and
# SCHED_BATCH task, kernel threads included, runs in that class with its
# weight (share) from nice:
#
#	scripts/qemu-run --append sched_normal_class=bvt -- /tests/whole-system.sh
#
# Prints one TAP line per check ("ok - name" or "not ok - name") and exits 1
# if any check failed.

. "$(dirname "$0")/tap.sh"

c=$(sed -n 's/.*sched_normal_class=\([a-z]*\).*/\1/p' /proc/cmdline)
C=$(echo "$c" | tr a-z A-Z)
# the line of /proc/<pid>/sched that only a task in the class shows
case $c in
bvt)	key='ms\.bvt\.A' ;;
vtrr)	key='ms\.vtrr\.VFT' ;;
bebs)	key='ms\.bebs\.budget_ns' ;;
*)	notok "boot: sched_normal_class=bvt, =vtrr or =bebs is on the kernel command line"
	exit 1 ;;
esac

# in_class FILE: a /proc/.../sched file shows the class's statistics
in_class() {
	grep -q "^$key *:" "$1" || { grep '^ms\.' "$1"; return 1; }
}
kthreadd_in_class() { grep -qx kthreadd /proc/2/comm && in_class /proc/2/sched; }

# every_normal_in_class: every SCHED_NORMAL (0) and SCHED_BATCH (3) thread,
# kernel threads included, is in the class; threads that exit meanwhile
# are skipped
every_normal_in_class() {
	n=0 bad=
	for f in /proc/[0-9]*/task/[0-9]*/sched; do
		pol=$(sed -n 's/^policy *: *\([0-9]*\).*/\1/p' "$f" 2>/dev/null)
		case $pol in
		0|3)	;;
		*)	continue ;;
		esac
		n=$((n + 1))
		if ! grep -q "^ms\.class *: *$c\$" "$f" 2>/dev/null && [ -e "$f" ]; then
			bad="$bad ${f#/proc/}"
		fi
	done
	echo "$n SCHED_NORMAL/SCHED_BATCH threads"
	[ -z "$bad" ] || { echo "not in $C:$bad"; return 1; }
	[ "$n" -gt 0 ]
}

check "boot: sched_normal_class=$c is on the kernel command line" \
	grep -qw "sched_normal_class=$c" /proc/cmdline
check "sysctl: kernel.sched_normal_class reads $c" \
	grep -qx "$c" /proc/sys/kernel/sched_normal_class
check "init (pid 1) runs in $C: /proc/1/sched shows its ${key#*.}" \
	in_class /proc/1/sched
check "kthreadd (pid 2), a kernel thread, runs in $C" \
	kthreadd_in_class
check "a new shell is SCHED_OTHER and runs in $C" \
	sh -c "chrt -p \$\$ | grep -q SCHED_OTHER && grep -q '^$key *:' /proc/\$\$/sched"
check "every SCHED_NORMAL and SCHED_BATCH thread, kernel threads included, is in $C" \
	every_normal_in_class
measure "$c: SCHED_OTHER hogs at nice 0 and 5 on one CPU get 75.4% and 24.6% (nice weights 1024 and 335, 3 points)" \
	$T/ms_share -N -e 3 -t 10 0 5
check "hackbench: 2 groups, 50 loops" hackbench -g 2 -l 50
check "cyclictest: a SCHED_OTHER thread for 2 s" \
	sh -c 'cyclictest -q -D 2 -t 1 -i 1000 -m | grep -q "Max:"'

exit $((fails > 0))
