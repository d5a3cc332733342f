#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# rbs_ctl, the RBS feedback controller (sched-rbs-ctl.rst): bad input and
# leaks, two miscellaneous threads at 1:3, figure 6 (a consumer following
# its producer), figure 7 (the pair beside a CPU hog), a three-stage
# pipeline whose middle stage gets heavier, a quality exception and
# figure 5 (the controller's cost and its timer). Run in a boot of its
# own under --icount, where the guest's clocks count its instructions:
#
#	scripts/qemu-run --smp 2 --icount -- /tests/rbs_ctl.sh
#
# Under TCG's wall clock a stall of the host while a reservation's thread
# runs is charged to it as run, and an overrun of whole budgets is paid
# back in periods: a consumer of a few percent waits a quarter of a second
# or more for a stall of 20 ms, and the fill levels these tests hold
# within 10% of half leave the band (tests/guest/rbs_ctl.c, lockouts).
# Under --icount the host's stalls do not exist for the guest.
#
# Prints one TAP line per check and exits 1 if any check failed.

. "$(dirname "$0")/tap.sh"

$T/rbs_ctl bad || fails=$((fails + 1))
$T/rbs_ctl misc || fails=$((fails + 1))
$T/rbs_ctl follow || fails=$((fails + 1))
$T/rbs_ctl hogs || fails=$((fails + 1))
$T/rbs_ctl pipeline || fails=$((fails + 1))
$T/rbs_ctl exception || fails=$((fails + 1))
$T/rbs_ctl overhead 1 10 20 40 100 || fails=$((fails + 1))

exit $((fails > 0))
