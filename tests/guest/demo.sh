#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of `make demo`: list the classes, then compare the
# scheduling classes on hackbench (throughput) and on cyclictest wakeup
# latency while hackbench loads the machine. Runs are interleaved
# (A B A B ...) and repeated; the table reports medians and ratios against
# SCHED_OTHER measured in this same boot, since absolute times under QEMU
# TCG are inflated and noisy.
#
#   demo.sh [ROUNDS] [SECONDS]   (defaults: 5 rounds, 5 s per latency run)

rounds=${1:-5}
secs=${2:-5}
HB="hackbench -g 4 -l 100"

echo "== classes in this kernel"
schedctl --list
echo

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

# hb_time CMD-PREFIX: seconds one hackbench run takes under the prefix
hb_time() { $1 $HB 2>/dev/null | awk '/^Time:/ { print $2 }'; }

# Throughput: hackbench under each class, interleaved.
classes="other fifo"
grep -qw bvt /proc/sys/kernel/sched_ms_classes 2>/dev/null && classes="$classes bvt"
for c in $classes; do : > /tmp/hb.$c; done
prefix_other="schedctl -c other --"
prefix_fifo="schedctl -c fifo --prio 10 --"
prefix_bvt="schedctl -c bvt --"
i=0
while [ $i -lt "$rounds" ]; do
	for c in $classes; do
		eval p=\$prefix_$c
		hb_time "$p" >> /tmp/hb.$c
	done
	i=$((i + 1))
done

# Latency: one measuring thread, period 1 ms, while hackbench loops. The
# load loop stops at the end of its current run once /tmp/load.stop exists.
load_start() {
	rm -f /tmp/load.stop
	( while [ ! -e /tmp/load.stop ]; do $HB; done ) >/dev/null 2>&1 &
	load=$!
}
load_stop() {
	touch /tmp/load.stop
	wait $load
}

# cyclictest's histogram (-h) to "p50 p99 max" in microseconds
hist_pct() {
	# busybox awk reads a leading 0 as octal: strip cyclictest's padding
	awk 'function dec(s) { sub(/^0+/, "", s); return s + 0 }
	     /^[0-9]+ +[0-9]+/ { v = dec($2); if (v) { n[dec($1)] = v; top = dec($1) } tot += v }
	     /^# Max Latencies/ { max = dec($4) }
	     END {
		if (!tot) { print "- - -"; exit }
		p50 = -1
		for (us = 0; us <= top; us++) {
			c += n[us]
			if (p50 < 0 && c >= tot * 0.50)
				p50 = us
			if (c >= tot * 0.99)
				break
		}
		printf "%d %d %d\n", p50, us, max
	     }'
}

lat_cyclictest() {
	load_start
	cyclictest -q -m -t 1 -i 1000 -D "$secs" -h 20000 "$@" 2>/dev/null | hist_pct
	load_stop
}

lat_deadline() {
	load_start
	cyclicdeadline -q -t 1 -i 10000 -s 1000 -D "$secs" 2>/dev/null |
		awk '/Max:/ { for (i = 1; i <= NF; i++) if ($i == "Max:") m = $(i + 1);
			      print "-", "-", m }'
	load_stop
}

lat_cyclictest --policy=other > /tmp/lat.other
lat_cyclictest -p 80 --policy=fifo > /tmp/lat.fifo
lat_deadline > /tmp/lat.deadline
case $classes in
*bvt*)
	# The whole system, kernel threads included, under BVT: cyclictest's
	# SCHED_OTHER thread and the hackbench load both run in BVT, unwarped.
	echo bvt > /proc/sys/kernel/sched_normal_class
	lat_cyclictest --policy=other > /tmp/lat.bvt
	echo fair > /proc/sys/kernel/sched_normal_class
	;;
esac

base=$(median < /tmp/hb.other)
echo "== hackbench -g 4 -l 100, $rounds interleaved runs per class (median);"
echo "== cyclictest -i 1000us for ${secs}s per class under a hackbench loop"
echo
printf '%-16s %12s %10s %8s %8s %8s\n' \
	class "hackbench s" "vs OTHER" "p50 us" "p99 us" "max us"
row() {
	name=$1 hb=$2 lat=$3
	if [ -n "$hb" ] && [ -n "$base" ]; then
		ratio=$(awk -v a="$hb" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
	else
		hb=- ratio=-
	fi
	set -- $lat
	printf '%-16s %12s %10s %8s %8s %8s\n' "$name" "$hb" "$ratio" \
		"${1:--}" "${2:--}" "${3:--}"
}
row SCHED_OTHER "$base" "$(cat /tmp/lat.other)"
row SCHED_FIFO "$(median < /tmp/hb.fifo)" "$(cat /tmp/lat.fifo)"
row SCHED_DEADLINE "" "$(cat /tmp/lat.deadline)"
case $classes in
*bvt*)	row SCHED_BVT "$(median < /tmp/hb.bvt)" "$(cat /tmp/lat.bvt)" ;;
esac
echo
echo "(SCHED_DEADLINE latency from cyclicdeadline, which reports only its"
echo " maximum; hackbench does not run under SCHED_DEADLINE. SCHED_BVT latency"
echo " with every SCHED_NORMAL task, the load included, switched into BVT and"
echo " no warp; tests/guest/bvt_latency measures warped latency.)"
