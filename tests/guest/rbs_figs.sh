#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The RBS experiments read from the trace (tests/guest/rbs_resv.c): the
# reservation of section 3.1 of Steere et al. under fair and RT load, and
# the sporadic server's window invariant against an adversary; and Quest's
# temporal isolation (figure 3) and shared against separate I/O servers
# (figure 6), which need a CPU of their own. Run in a one-CPU boot:
#
#	scripts/qemu-run --smp 1 -- /tests/rbs_figs.sh
#
# One CPU because tracing is turned on and off around each run, which
# rewrites the code of the tracepoints, and under QEMU's multi-threaded
# TCG another virtual CPU may still run a stale translation of a
# tracepoint being rewritten and take an int3 that is no longer there
# (seen twice at __schedule's sched_switch in RBS test boots of November
# 2026).
#
# Prints one TAP line per check and exits 1 if any check failed.

. "$(dirname "$0")/tap.sh"

$T/rbs_resv -c 0 steere || fails=$((fails + 1))
$T/rbs_resv -c 0 adversary || fails=$((fails + 1))
$T/rbs_resv -c 0 isolation || fails=$((fails + 1))
$T/rbs_resv -c 0 ioshare || fails=$((fails + 1))

exit $((fails > 0))
