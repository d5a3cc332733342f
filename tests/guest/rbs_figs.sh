#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Quest's temporal isolation (figure 3) and shared against separate I/O
# servers (figure 6) (tests/guest/rbs_resv.c), which need a CPU of their
# own; the experiments read from the trace window by window, Steere's 3.1
# and the adversary, run under --icount (rbs_windows.sh). Run in a
# one-CPU boot:
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

$T/rbs_resv -c 0 isolation || fails=$((fails + 1))
$T/rbs_resv -c 0 ioshare || fails=$((fails + 1))

exit $((fails > 0))
