#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The classes on a nohz_full CPU, in a boot of its own with nohz_full=1
# (scripts/check): a CPU with one task of any class stops its tick, and
# one with two BVT or two VTRR tasks keeps it, since they switch at the
# tick, as do two members of a shared RBS reservation; BEBS switches
# with hrtimers and shares the CPU without it. The
# bounds and their sources are in ms_nohz.c.

. "$(dirname "$0")/tap.sh"

# mainline's reference in this boot, reported: a lone SCHED_OTHER task
# keeps the 6.12 fair server's timer
$T/ms_nohz lone other 2>&1 | sed 's/^/# reference: /'
measure "nohz_full: a lone SCHED_FIFO hog runs without the tick (the boot's nohz_full works)" \
	$T/ms_nohz lone fifo
for c in bvt vtrr bebs; do
	measure "nohz_full: a lone $c hog runs without the tick (its class server brings no tick back)" \
		$T/ms_nohz lone $c
done
for c in bvt vtrr; do
	measure "nohz_full: two $c hogs share the CPU 50/50 within 2 points and both run in every 100 ms (the tick stays on for them: 500 or more timer interrupts a second), and the tick stops again when one is killed" \
		$T/ms_nohz share $c
done
measure "nohz_full: two members of a shared rbs reservation take turns, 50/50 within 2 points and both in every 100 ms (the tick stays on for them: 500 or more timer interrupts a second), and the tick stops again when one is killed" \
	$T/ms_nohz share rbs
measure "nohz_full: two bebs hogs share the CPU 50/50 within 10 points with fewer than 100 timer interrupts a second (budgets by hrtimer, no tick)" \
	$T/ms_nohz share bebs

exit $((fails > 0))
