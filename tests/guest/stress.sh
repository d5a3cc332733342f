#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The safety stress of BVT and VTRR in a boot of its own with more CPUs
# than the main boot (scripts/check runs it with 4): threads that block
# and wake at a high rate while others change their policy, parameters
# and affinity and PI-boost them, and the normal class flips, for 60 s
# under lockdep; then the inactive-timer case of patches/0023
# (dl_offline) and 60 s of the churn campaign (churn.sh) on those CPUs.
# scripts/check fails the boot on any WARNING, BUG, lockdep or RCU splat
# in its kernel log.

. "$(dirname "$0")/tap.sh"

measure "stress: $(nproc) CPUs, 60 s of blocking and waking workers moved between BVT, VTRR, BEBS (best-effort and periodic), RBS (own, shared and joined reservations) and the mainline policies, re-pinned and PI-boosted; every worker progressed" \
	$T/ms_stress -t 60 -w 12
check "stress: the normal class is fair again" \
	grep -qx fair /proc/sys/kernel/sched_normal_class
# A kernel without patches/0023 divides by zero here and panics: the
# boot ends without an exit status.
measure "deadline: a task that blocked as SCHED_DEADLINE, left it asleep, and whose CPU went offline before its inactive timer fired: the kernel goes on (3 rounds)" \
	$T/dl_offline -n 3
# the churn campaign, 60 s on 4 CPUs (4 TAP lines)
$T/churn.sh -t 60 || fails=$((fails + 1))

exit $((fails > 0))
