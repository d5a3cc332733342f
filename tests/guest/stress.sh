#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The safety stress of BVT and VTRR in a boot of its own with more CPUs
# than the main boot (scripts/check runs it with 4, in two NUMA nodes of
# one core of two SMT threads each, after checks of the classes'
# balancing across the nodes and of core scheduling): threads that block
# and wake at a high rate while others change their policy, parameters
# and affinity and PI-boost them, and the normal class flips, for 60 s
# under lockdep; then the inactive-timer case of patches/0023
# (dl_offline) and 60 s of the churn campaign (churn.sh) on those CPUs.
# scripts/check fails the boot on any WARNING, BUG, lockdep or RCU splat
# in its kernel log.

. "$(dirname "$0")/tap.sh"

# scripts/check boots this with two NUMA nodes (qemu-run --numa 2): the
# classes' placement and balancing across them first, then the stress.
numa_nodes() {
	n0=$(cat /sys/devices/system/node/node0/cpulist 2>/dev/null)
	n1=$(cat /sys/devices/system/node/node1/cpulist 2>/dev/null)
	echo "node0: CPUs ${n0:-none}, node1: CPUs ${n1:-none}"
	[ "$n0" = 0-1 ] && [ "$n1" = 2-3 ]
}
check "numa: the guest has two NUMA nodes, CPUs 0-1 and 2-3" numa_nodes
# Water-filling of 2 2 1 1 1 1 over 4 CPUs: 100 100 50 50 50 50, which
# only a placement over both nodes gives; 10 points is bvt_spread's
# tolerance in the main boot's 2-CPU runs.
measure "bvt: hogs of weights 2 2 1 1 1 1 started on CPU 0 spread over both NUMA nodes' 4 CPUs by weight (within 10 points)" \
	$T/bvt_spread 2 2 1 1 1 1
measure "vtrr: hogs of shares 2 2 1 1 1 1 started on CPU 0 spread over both NUMA nodes' 4 CPUs by share (within 10 points)" \
	$T/bvt_spread -p vtrr 2 2 1 1 1 1

# Core scheduling (qemu-run --threads 2): each node is one core of two
# SMT threads, and tasks of different cookies never share a core. The
# bounds and their sources are in ms_core.c.
smt_pairs() {
	s0=$(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list)
	s2=$(cat /sys/devices/system/cpu/cpu2/topology/thread_siblings_list)
	echo "cpu0's SMT siblings: $s0, cpu2's: $s2"
	[ "$s0" = 0-1 ] && [ "$s2" = 2-3 ]
}
check "core: the guest's cores have two SMT threads each, CPUs 0-1 and 2-3" smt_pairs
for c in bvt vtrr; do
	measure "core: $c hogs of weights 2 and 1 with different cookies on the two threads of a core share it 2:1 (within 10 points), never at once (110% of a CPU at most)" \
		$T/ms_core pair $c
done
measure "core: a bvt hog keeps its core (85% or more) against a fair hog of another cookie on the sibling, which gets 15% or less" \
	$T/ms_core rank bvt other
measure "core: a bvt hog keeps its core (85% or more) against a vtrr hog of another cookie on the sibling, which gets 15% or less" \
	$T/ms_core rank bvt vtrr
measure "core: an rbs reservation of 30% gets 25% or more (its 30% less 5 points) against a SCHED_FIFO hog of another cookie on the sibling, which gets 85% or less" \
	$T/ms_core rank rbs fifo

measure "stress: $(nproc) CPUs, 60 s of blocking and waking workers moved between BVT, VTRR, BEBS (best-effort and periodic), RBS (own, shared and joined reservations) and the mainline policies, re-pinned and PI-boosted; every worker progressed" \
	$T/ms_stress -t 60 -w 12
check "stress: the normal class is fair again" \
	grep -qx fair /proc/sys/kernel/sched_normal_class
# Many shared RBS reservations made at one moment: none fails for want
# of one in the pool (patch 0033), and every CPU's bandwidth comes back.
$T/rbs_resv burst || fails=$((fails + 1))
# A kernel without patches/0023 divides by zero here and panics: the
# boot ends without an exit status.
measure "deadline: a task that blocked as SCHED_DEADLINE, left it asleep, and whose CPU went offline before its inactive timer fired: the kernel goes on (3 rounds)" \
	$T/dl_offline -n 3
# the churn campaign, 60 s on 4 CPUs (5 TAP lines)
$T/churn.sh -t 60 || fails=$((fails + 1))

exit $((fails > 0))
