#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The RBS experiments that count what a reservation runs in every window
# of its period, read from the trace (tests/guest/rbs_resv.c): the
# reservation of section 3.1 of Steere et al. under fair and RT load, and
# the sporadic server's window invariant against an adversary. Run in a
# one-CPU boot (tests/guest/rbs_figs.sh says why one CPU) under --icount:
#
#	scripts/qemu-run --smp 1 --icount -- /tests/rbs_windows.sh
#
# Under TCG's wall clock a stall of the host is charged to the thread it
# stalls, and comes late to the timers: in fresh-clone make check runs of
# November 2026 the host stalled an hrtimer by over 300 us 181 to 249
# times in Steere's 10 s, and a window's most or least went past its
# bound although the analysis discounts the stalls it sees. Under
# --icount the guest's clocks count its instructions, and the host's
# stalls do not exist for it (0 stalls, timers at most 18 us late, in a
# boot of 2026-11-29).
#
# Prints one TAP line per check and exits 1 if any check failed.

. "$(dirname "$0")/tap.sh"

$T/rbs_resv -c 0 steere || fails=$((fails + 1))
$T/rbs_resv -c 0 adversary || fails=$((fails + 1))

exit $((fails > 0))
