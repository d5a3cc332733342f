#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of `make demo`: list the classes, then compare the
# scheduling classes on hackbench (throughput) and on cyclictest wakeup
# latency while hackbench loads the machine. Hackbench runs are interleaved
# (A B A B ...) and repeated; the table reports medians and ratios against
# SCHED_OTHER (EEVDF) and SCHED_FIFO measured in this same boot, since
# absolute times under QEMU TCG are inflated and noisy. With SCHED_BVT it
# also reports the BVT paper's targets (hackbench within 5% of EEVDF, a
# warped thread's p99 within 1.5x of SCHED_FIFO's); they are not asserted.
#
#   demo.sh [ROUNDS] [SECONDS]   (defaults: 5 rounds, 5 s per latency run)

rounds=${1:-5}
secs=${2:-5}
HB="hackbench -g 4 -l 100"

# The BVT paper's targets, as ratios (reported, not asserted).
HB_TARGET=1.05		# hackbench in BVT over EEVDF: within 5%
P99_TARGET=1.50		# warped cyclictest p99 over SCHED_FIFO's

# The warped cyclictest of the "SCHED_BVT warped" row, after the paper's
# hard real-time recipe (section 6.1):
#   w 100000 a weight above the CPU share it uses: under TCG a cycle takes
#           100-200 us, 10-20% of a CPU, against 80 hackbench tasks of
#           weight 1024 per CPU. With a weight of 1024 its actual virtual
#           time runs more than W ahead of theirs and the warp stops helping;
#   W 50ms  puts its effective virtual time 50 ms behind its actual one, so
#           on each wakeup it runs before every hackbench task whose virtual
#           time is within 50 ms of its own, which is all of them;
#   L 5ms   lets it run 5 ms warped per wakeup, far more than a cycle takes,
#           so the limit only contains a runaway;
#   U 0     because U counts from every sleep that ends a warped stretch: any
#           U beyond the 1 ms cycle would leave most wakeups unwarped.
BVT_WARP="-w 100000 --warp 50ms --warp-limit 5ms --unwarp 0"

echo "== classes in this kernel"
schedctl --list
echo

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

# ratio A B: A / B to two decimals, or "-" when either is not a number or B is 0
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a !~ /^[0-9]+(\.[0-9]*)?$/ || b !~ /^[0-9]+(\.[0-9]*)?$/ || b + 0 == 0)
			print "-"
		else
			printf "%.2f\n", a / b
	}'
}

# hb_time CMD-PREFIX: seconds one hackbench run takes under the prefix
hb_time() { $1 $HB 2>/dev/null | awk '/^Time:/ { print $2 }'; }

# Throughput: hackbench under each class, interleaved.
classes="other fifo"
grep -qw bvt /proc/sys/kernel/sched_ms_classes 2>/dev/null && classes="$classes bvt"
grep -qw vtrr /proc/sys/kernel/sched_ms_classes 2>/dev/null && classes="$classes vtrr"
for c in $classes; do : > /tmp/hb.$c; done
prefix_other="schedctl -c other --"
prefix_fifo="schedctl -c fifo --prio 10 --"
prefix_bvt="schedctl -c bvt --"
prefix_vtrr="schedctl -c vtrr --"
i=0
while [ $i -lt "$rounds" ]; do
	for c in $classes; do
		eval p=\$prefix_$c
		hb_time "$p" >> /tmp/hb.$c
	done
	i=$((i + 1))
done

# Latency: one measuring thread, period 1 ms, while hackbench loops.
# load_start [CMD-PREFIX]: start the loop, each hackbench run under the
# prefix (none: in the class of this shell). The loop stops at the end of
# its current run once /tmp/load.stop exists.
load_start() {
	load_prefix=$1
	rm -f /tmp/load.stop
	( while [ ! -e /tmp/load.stop ]; do $load_prefix $HB; done ) >/dev/null 2>&1 &
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

CT="cyclictest -q -m -t 1 -i 1000 -D $secs -h 20000"

lat_cyclictest() {
	load_start
	$CT "$@" 2>/dev/null | hist_pct
	load_stop
}

lat_deadline() {
	load_start
	cyclicdeadline -q -t 1 -i 10000 -s 1000 -D "$secs" 2>/dev/null |
		awk '/Max:/ { for (i = 1; i <= NF; i++) if ($i == "Max:") m = $(i + 1);
			      print "-", "-", m }'
	load_stop
}

# ct_looping PID: wait until a thread of PID other than its main one has
# slept 10 times, that is, cyclictest's measuring thread is in its loop and
# past the sched_setscheduler() it makes when it starts. Fails if none is
# within 10 s or PID is gone.
ct_looping() {
	n=0
	while [ $n -lt 100 ] && [ -d /proc/$1 ]; do
		for t in /proc/$1/task/*; do
			[ "${t##*/}" = "$1" ] && continue
			s=$(awk '/^voluntary_ctxt_switches:/ { print $2 }' $t/status 2>/dev/null)
			[ "${s:-0}" -ge 10 ] && return 0
		done
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# "SCHED_BVT warped": every thread of cyclictest in SCHED_BVT with warp
# $BVT_WARP, under a hackbench loop whose tasks are all in SCHED_BVT,
# unwarped. BVT sits above SCHED_OTHER, which gets only what the fair
# dl_server gives it while the load runs, so:
#  - cyclictest resets its measuring thread to the --policy it is given when
#    that thread starts; it is therefore started before the load, and its
#    threads are warped once the measuring thread is in its loop. The
#    histogram includes the few unloaded cycles before the load starts.
#  - this shell moves into SCHED_BVT (unwarped) for the run, so that it,
#    and the load loop it forks, are not starved; it goes back after.
#  - the histogram is read only after the load has stopped.
lat_bvt_warped() {
	schedctl -c bvt -p $$ >/dev/null
	$CT --policy=other > /tmp/ct.bvt 2>/dev/null &
	ct=$!
	if ct_looping $ct &&
	   schedctl -a -c bvt $BVT_WARP -p $ct >/dev/null 2>/tmp/ct.err; then
		load_start "$prefix_bvt"
		wait $ct
		load_stop
		hist_pct < /tmp/ct.bvt
	else
		wait $ct
		echo "- - -"
		{ echo "(SCHED_BVT warped: could not warp cyclictest's threads; no latency)"
		  sed 's/^/ /' /tmp/ct.err 2>/dev/null; } >> /tmp/notes
	fi
	schedctl -c other -p $$ >/dev/null
}

: > /tmp/notes
lat_cyclictest --policy=other > /tmp/lat.other
lat_cyclictest -p 80 --policy=fifo > /tmp/lat.fifo
lat_deadline > /tmp/lat.deadline
case $classes in
*bvt*)
	lat_bvt_warped > /tmp/lat.bvtwarp
	# The whole system, kernel threads included, under BVT: cyclictest's
	# SCHED_OTHER thread and the hackbench load both run in BVT, unwarped.
	echo bvt > /proc/sys/kernel/sched_normal_class
	lat_cyclictest --policy=other > /tmp/lat.bvtall
	echo fair > /proc/sys/kernel/sched_normal_class
	;;
esac
case $classes in
*vtrr*)
	# The whole system under VTRR: cyclictest's SCHED_OTHER thread and the
	# hackbench load run in VTRR with shares from nice.
	echo vtrr > /proc/sys/kernel/sched_normal_class
	lat_cyclictest --policy=other > /tmp/lat.vtrrall
	echo fair > /proc/sys/kernel/sched_normal_class
	;;
esac

base=$(median < /tmp/hb.other)
fifo_p99=$(awk '{ print $2 }' /tmp/lat.fifo)
echo "== hackbench -g 4 -l 100, $rounds interleaved runs per class (median);"
echo "== cyclictest -i 1000us for ${secs}s per row under a hackbench loop"
echo
printf '%-16s %12s %10s %8s %8s %8s %9s\n' \
	class "hackbench s" "vs OTHER" "p50 us" "p99 us" "max us" "p99/FIFO"
row() {
	name=$1 hb=${2:--} lat=$3
	hbr=$(ratio "$hb" "$base")
	set -- $lat
	printf '%-16s %12s %10s %8s %8s %8s %9s\n' "$name" "$hb" "$hbr" \
		"${1:--}" "${2:--}" "${3:--}" "$(ratio "$2" "$fifo_p99")"
}

# target WHAT VALUE LIMIT WHY: one line saying whether VALUE <= LIMIT
target() {
	if [ "$2" = - ]; then
		verdict="not measured"
	elif awk -v v="$2" -v l="$3" 'BEGIN { exit !(v <= l) }'; then
		verdict=met
	else
		verdict="not met"
	fi
	printf '  %-44s %5s  target <= %s (%s): %s\n' "$1" "$2" "$3" "$4" "$verdict"
}

row SCHED_OTHER "$base" "$(cat /tmp/lat.other)"
row SCHED_FIFO "$(median < /tmp/hb.fifo)" "$(cat /tmp/lat.fifo)"
row SCHED_DEADLINE "" "$(cat /tmp/lat.deadline)"
case $classes in
*bvt*)
	hb_bvt=$(median < /tmp/hb.bvt)
	row "SCHED_BVT warped" "$hb_bvt" "$(cat /tmp/lat.bvtwarp)"
	row "BVT whole system" "" "$(cat /tmp/lat.bvtall)"
	;;
esac
case $classes in
*vtrr*)
	hb_vtrr=$(median < /tmp/hb.vtrr)
	row SCHED_VTRR "$hb_vtrr" ""
	row "VTRR whole system" "" "$(cat /tmp/lat.vtrrall)"
	;;
esac
echo
case $classes in
*bvt*)
	echo "BVT paper targets (reported, not asserted):"
	target "hackbench SCHED_BVT / SCHED_OTHER (EEVDF)" \
		"$(ratio "$hb_bvt" "$base")" $HB_TARGET "within 5%"
	target "cyclictest p99 SCHED_BVT warped / SCHED_FIFO" \
		"$(ratio "$(awk '{ print $2 }' /tmp/lat.bvtwarp)" "$fifo_p99")" $P99_TARGET "within 1.5x"
	echo
	;;
esac
case $classes in
*vtrr*)
	echo "VTRR target (reported, not asserted):"
	target "hackbench SCHED_VTRR / SCHED_OTHER (EEVDF)" \
		"$(ratio "$hb_vtrr" "$base")" $HB_TARGET "within 5%"
	echo
	;;
esac
cat /tmp/notes
echo "(vs OTHER: median hackbench time over SCHED_OTHER's, lower is faster."
echo " p99/FIFO: p99 latency over SCHED_FIFO's, lower is better. The load"
echo " loop runs in SCHED_OTHER for the SCHED_OTHER, SCHED_FIFO (cyclictest at"
echo " priority 80) and SCHED_DEADLINE rows. SCHED_DEADLINE latency is from"
echo " cyclicdeadline, which reports only its maximum; hackbench does not run"
echo " under SCHED_DEADLINE."
case $classes in
*bvt*)
	echo " SCHED_BVT warped: hackbench with all its tasks in SCHED_BVT, unwarped;"
	echo " cyclictest's threads in SCHED_BVT with weight 100000, W 50ms, L 5ms, U 0 while the"
	echo " load loop runs with all its tasks in SCHED_BVT, unwarped."
	echo " BVT whole system: kernel.sched_normal_class=bvt, so every SCHED_NORMAL"
	echo " task, kernel threads, the load and cyclictest included, runs in BVT,"
	echo " unwarped."
	;;
*)	echo " This kernel has no SCHED_BVT: no BVT rows." ;;
esac
case $classes in
*vtrr*)
	echo " SCHED_VTRR: hackbench with all its tasks in SCHED_VTRR, share 1024."
	echo " VTRR whole system: kernel.sched_normal_class=vtrr; cyclictest's thread"
	echo " and the load run in VTRR with shares from nice.)"
	;;
*)	echo " This kernel has no SCHED_VTRR: no VTRR rows.)" ;;
esac
