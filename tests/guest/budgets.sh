#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The checks of budget-enforced tasks that read what a task ran against a
# bound of a few milliseconds: BEBS periodic tasks' jobs, overruns and
# priority-inheritance boosts (tests/guest/bebs_hard.c), RBS background
# mode, live changes, I/O servers and boosts (tests/guest/rbs_resv.c),
# and the classes under cgroups and cpusets (tests/guest/cgroup.sh). Run
# on two CPUs under --icount:
#
#	scripts/qemu-run --icount=2 -- /tests/budgets.sh
#
# Under TCG's wall clock a stall of the host while a task runs is charged
# to it as run: in fresh-clone make check runs of November 2026 a BEBS
# holder deboosted after a boost ran 21.2 ms where a budget and 4 ms
# (14 ms) bound it, a BEBS periodic task moved by a cpuset got 23 and 24%
# of a CPU for its 20%, and an I/O server's 90th percentile of request
# waits was 2.2 ms against 1.3. Under --icount the guest's clocks count
# its instructions, and the host's stalls do not exist for it; a shift of
# 2 (4 ns an instruction) keeps the two virtual CPUs, which share one
# host thread, about as fast as under the wall clock.
#
# Prints one TAP line per check and exits 1 if any check failed.

. "$(dirname "$0")/tap.sh"

if grep -qw bebs /proc/sys/kernel/sched_ms_classes; then
	$T/bebs_hard jobs || fails=$((fails + 1))
	$T/bebs_hard overrun || fails=$((fails + 1))
	$T/bebs_hard sigxcpu || fails=$((fails + 1))
	$T/bebs_hard pi || fails=$((fails + 1))
fi
if grep -qw rbs /proc/sys/kernel/sched_ms_classes; then
	$T/rbs_resv background || fails=$((fails + 1))
	$T/rbs_resv change || fails=$((fails + 1))
	$T/rbs_resv io || fails=$((fails + 1))
	$T/rbs_resv pi || fails=$((fails + 1))
fi
$T/cgroup.sh || fails=$((fails + 1))

exit $((fails > 0))
