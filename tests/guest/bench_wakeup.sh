#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The cost of placing a waking task, BVT and VTRR against EEVDF, in one
# boot: hackbench (processes, 2 groups per CPU) runs with every task in
# SCHED_OTHER, SCHED_BVT or SCHED_VTRR while the function_graph tracer
# times every call of the class's ->select_task_rq()
# (select_task_rq_fair, _bvt, _vtrr) on every CPU for SECS seconds. Each
# class runs once per round, in a rotated order, for ROUNDS rounds
# (default 5); the table gives each class's median call time over the
# rounds' medians, its range, the calls traced, and the ratio of its
# median to EEVDF's. The times include the tracer's own cost, the same
# for the three functions. A report, not a test: make bench-wakeup runs
# it at 2 and 8 virtual CPUs (Documentation/scheduler/sched-multisched.rst).
#
# Run it with the virtual CPUs in one host thread (qemu-run --tcg-single):
# the tracer patches a function the other CPUs are running, which QEMU's
# multi-threaded TCG does not always survive (tests/guest/vtrr_overhead.c).
#
#   bench_wakeup.sh [ROUNDS [SECS]]

rounds=${1:-5}
secs=${2:-2}
case $rounds$secs in *[!0-9]*|'') echo "usage: $0 [ROUNDS [SECS]]" >&2; exit 2 ;; esac
for p in schedctl hackbench awk sort; do
	command -v $p >/dev/null 2>&1 || { echo "$0: $p is not in PATH" >&2; exit 1; }
done
TR=/sys/kernel/tracing
[ -w $TR/current_tracer ] || { echo "$0: no tracefs at $TR" >&2; exit 1; }

. "$(dirname "$0")/rounds.sh"

W=$(mktemp -d) || exit 1
trap 'echo nop > $TR/current_tracer; echo > $TR/set_ftrace_filter; rm -rf "$W"' EXIT

groups=$((2 * $(nproc)))
classes="other bvt vtrr"
fn_other=select_task_rq_fair
fn_bvt=select_task_rq_bvt
fn_vtrr=select_task_rq_vtrr



# one CLASS ROUND: hackbench in CLASS, SECS s of traced calls; prints
# "median_ns calls" to $W/CLASS.ROUND
one() {
	eval fn=\$fn_$1
	echo nop > $TR/current_tracer
	echo > $TR/trace
	echo "$fn" > $TR/set_ftrace_filter || return 1
	echo function_graph > $TR/current_tracer
	echo 0 > $TR/tracing_on
	schedctl -c "$1" -- hackbench -g $groups -l 1000000 >/dev/null 2>&1 &
	hb=$!
	sleep 1
	echo 1 > $TR/tracing_on
	sleep "$secs"
	echo 0 > $TR/tracing_on
	kill $hb 2>/dev/null
	wait $hb 2>/dev/null
	killall hackbench 2>/dev/null
	# "  1)   1.234 us    |  select_task_rq_bvt();"
	grep "$fn();" $TR/trace | awk '{
		for (i = 1; i < NF; i++)
			if ($(i + 1) == "us") { printf "%d\n", $i * 1000; break }
	}' > $W/d
	n=$(wc -l < $W/d)
	echo "$(median < $W/d) $n" > $W/$1.$2
}

echo "# $(nproc) CPUs, hackbench -g $groups, ${secs} s traced per class and round, $rounds rounds"
r=1
while [ $r -le "$rounds" ]; do
	for c in $(rotate $((r - 1)) $classes); do
		one $c $r || exit 1
		echo "round $r $c: $(cat $W/$c.$r) (median ns, calls)"
	done
	r=$((r + 1))
done

printf '%-8s %10s %17s %10s %8s\n' class median_ns range_ns calls ratio
base=
for c in $classes; do
	m=$(cat $W/$c.* | awk '{ print $1 }' | median)
	lo=$(cat $W/$c.* | awk '{ print $1 }' | sort -n | head -1)
	hi=$(cat $W/$c.* | awk '{ print $1 }' | sort -n | tail -1)
	calls=$(cat $W/$c.* | awk '{ s += $2 } END { print s }')
	[ -n "$base" ] || base=$m
	ratio=$(awk -v m="$m" -v b="$base" 'BEGIN { if (b > 0) printf "%.2f", m / b; else print "-" }')
	printf '%-8s %10s %17s %10s %8s\n' $c "$m" "$lo-$hi" "$calls" "$ratio"
done
