#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# BVT's latency experiments: figure 3 and the warp in a signal handler
# (tests/guest/bvt_latency.c), tables 4 and 5 (bvt_table5.c), and the
# unwarped periodic sleeper's table and catch-up after a stall, with and
# without HRTICK (bvt_sleeper.c). Run on two CPUs under --icount, at 4 ns
# an instruction:
#
#	scripts/qemu-run --icount=2 -- /tests/bvt_latency.sh
#
# Until 2026-11-29 they ran in the main boot, on TCG's wall clock, where a
# stall of the host is charged to the thread it stalls and delays
# whichever thread is waking: the comments below tell how each check
# was made to hold beside such stalls, and fresh-clone make check runs
# of November 2026 still failed them (the warp in a signal handler's
# medians of 944 us unwarped, 1018 warped and 860 SCHED_FIFO; table 4's
# rt p99; the sleeper table). Under --icount the guest's clocks count its
# instructions, and the host's stalls do not exist for it.
#
# Prints one TAP line per check and exits 1 if any check failed.

. "$(dirname "$0")/tap.sh"

if grep -qw bvt /proc/sys/kernel/sched_ms_classes; then
	# figure 3 / table 4: warped, unwarped and SCHED_FIFO wakeup latency.
	# A periodic thread (1 ms of work every 10 ms) shares a CPU with two
	# hogs, as the paper's MPEG player does with gcc and bigsim, and with
	# what the paper says delays it without a warp: another interactive
	# thread "with the same AVT" (bvt_latency -i: unwarped, same grid,
	# woken 200 us earlier, running 1.5 ms). Both use less than their
	# share, so both wake C behind SVT: unwarped, the thread waits for
	# the competitor's run (about 1.3 ms); warped it is dispatched at
	# once. Without a competitor a thread within its share is dispatched
	# at once unwarped too (see the sleeper test), and a warp gains
	# nothing. The checks compare medians, which TCG's noise moves less
	# than p99s; p99s are printed.
	# Figure 3 compares p95s: three interleaved rounds of a 5 s run of
	# each thread (about 500 samples a run, so a p95 is about the 25th worst); p50s
	# and p99s are printed. Without additive slack: the warp must remove
	# at least three quarters of the delay the unwarped thread has beyond
	# SCHED_FIFO's (the wait for the competitor's run), i.e.
	#	4 * (warped - fifo) <= unwarped - fifo
	# in the median round: each round's three runs follow one another
	# within 15 s, so they share the host's slow spells, which in some
	# boots doubled the warped p95 (to 350-500 us) for a minute. The
	# median of each thread's p95s over the rounds mixes rounds: a
	# fresh-clone run of November 2026 had 0.236 that way, and rounds of
	# 0.17, -0.10 and 0.25. What the warp cannot remove is the cost of
	# BVT's requeue and pick (30-80 us at p95 under TCG); a thread whose
	# warp did nothing has about 1.
	# A p95 shows the warp only while the host's stalls hit fewer than 5%
	# of the wakeups. In a round where SCHED_FIFO's p95 is beyond the
	# unwarped thread's p50 (the wait the warp removes) they did, and
	# the p95s of all three threads are the stalls': a fresh-clone make
	# check of 2026-11-29 had SCHED_FIFO p95s of 2.1 to 3.7 ms against
	# unwarped p50s of 1.7 to 2.1 ms, and rounds of -124, 0.33 and 0.80.
	# Such a round compares the p50s instead (0.10 to 0.13 and below 0
	# in those rounds); a warp that did nothing has about 1 at either.
	# L is 10 ms, as in table 4 below: the host charges a stall to the
	# thread it stalls, and with L 2 ms a stall in the warped thread's
	# 1 ms run unwarped it for the rest of that run. A thread that finds
	# itself behind its grid counts how late it is once and drops the
	# periods it missed (bvt_latency.c). In one boot of November 2026,
	# the rounds were 0.27 (median) with L 2 ms and that count, 0.76 with
	# L 2 ms and the catching up of before, and 0.08 as now.
	# lat95 ARGS...: "p50 p95 p99" of one 5 s run
	lat95() {
		$T/bvt_latency -t 5 -i 1500 "$@" |
			sed -n 's/^latency_us \([0-9]*\) \([0-9]*\) .*/\1 \2/p; s/^p95_us //p' |
			tr '\n' ' ' | awk 'NF == 3 { print $1, $3, $2 }'
	}
	fig3() {
		: > /tmp/fig3
		for r in 1 2 3; do
			echo "u $(lat95 -w 0)" >> /tmp/fig3
			echo "w $(lat95 -w 50000 -L 10000 -U 2000)" >> /tmp/fig3
			echo "f $(lat95 -m fifo)" >> /tmp/fig3
		done
		cat /tmp/fig3
		# med K COL: the median of column COL over K's three runs
		med() { awk -v k=$1 -v c=$2 '$1 == k && NF == 4 { print $c }' /tmp/fig3 | sort -n | sed -n 2p; }
		u95=$(med u 3) w95=$(med w 3) f95=$(med f 3)
		echo "wakeup latency p50/p95/p99 (medians of 3 interleaved 5 s runs) of a thread running 1 ms every 10 ms beside 2 CPU hogs and an interactive competitor: unwarped $(med u 2)/${u95}/$(med u 4)us, warped $(med w 2)/${w95}/$(med w 4)us, SCHED_FIFO $(med f 2)/${f95}/$(med f 4)us"
		# each round's (warped - fifo) / (unwarped - fifo), at p95, or
		# at p50 in a round whose SCHED_FIFO p95 is over the unwarped
		# thread's p50 (marked "p50:")
		r=$(awk '$1 == "u" && NF == 4 { u = $3; u50 = $2 } $1 == "w" && NF == 4 { w = $3; w50 = $2 }
			$1 == "f" && NF == 4 {
				if ($3 > u50) { if (u50 > $2) printf "%.3f:p50\n", (w50 - $2) / (u50 - $2); else print "9:p50" }
				else if (u > $3) printf "%.3f\n", (w - $3) / (u - $3); else print 9 }' /tmp/fig3 |
			sort -n | tr '\n' ' ')
		echo "the warped thread's p95 (p50 where marked) beyond SCHED_FIFO's, as a part of the unwarped one's, in each round: $r(at most 0.25 in the median round)"
		r=$(echo "$r" | sed 's/:p50//g')
		set -- $r
		[ $# -eq 3 ] && awk -v m=$2 'BEGIN { exit !(m <= 0.25) }'
	}
	measure "bvt: figure 3, the warp removes at least 3/4 of an unwarped periodic thread's p95 wakeup latency beyond SCHED_FIFO's (p50 in a round whose SCHED_FIFO p95 is over the unwarped p50; median of 3 interleaved rounds)" \
		fig3

	# warping only in signal handlers: the periodic thread waits in
	# sigsuspend for a POSIX timer's signal and takes its latency in the
	# handler; with a warp, bvt_latency -S sets MS_FLAG_WARP_SIGNAL. As
	# figure 3 does, the check takes what a SCHED_FIFO handler waits in
	# the same rounds as the host's and the signal's own cost: the warp
	# must remove at least half of the rest of the unwarped median,
	#	2 * (warped - fifo) < unwarped - fifo.
	# Plain halves failed on slow hosts, whose fixed costs are in both
	# (1008 us warped against 2000 us unwarped, November 2026). L is
	# figure 3's 10 ms: a host stall is charged to the thread it stalls,
	# and at the default L it unwarped the handler.
	slat() {
		$T/bvt_latency -t 5 -i 1500 -S "$@" |
			sed -n 's/^latency_us \([0-9]*\) \([0-9]*\) .*/\1 \2/p'
	}
	for r in 1 2 3; do
		echo "u $(slat -w 0)"
		echo "w $(slat -w 50000 -L 10000 -U 2000)"
		echo "f $(slat -m fifo)"
	done > /tmp/slat
	# smed K COL: the median of column COL over K's three runs
	smed() { awk -v k=$1 -v c=$2 '$1 == k && NF == 3 { print $c }' /tmp/slat | sort -n | sed -n 2p; }
	su=$(smed u 2) sw=$(smed w 2) sf=$(smed f 2)
	echo "# timer signal handler latency p50/p99, 1 ms handler every 10 ms, beside 2 CPU hogs and an interactive competitor (medians of 3 interleaved runs): unwarped ${su}/$(smed u 3)us, warped in the handler (L 10 ms) ${sw}/$(smed w 3)us, SCHED_FIFO ${sf}/$(smed f 3)us"
	if [ -n "$su" ] && [ -n "$sw" ] && [ -n "$sf" ] &&
	   [ $((2 * (sw - sf))) -lt $((su - sf)) ]; then
		ok "bvt: MS_FLAG_WARP_SIGNAL, a timer signal handler's median latency beyond SCHED_FIFO's is under half the unwarped one's (3 interleaved rounds)"
	else
		notok "bvt: MS_FLAG_WARP_SIGNAL, a timer signal handler's median latency beyond SCHED_FIFO's is under half the unwarped one's (3 interleaved rounds)"
	fi

	# warp_signal_events: a shell with MS_FLAG_WARP_SIGNAL waits for a
	# long sleep (so that no SIGCHLD comes); count its bvt_warp trace
	# events for 1 s without signals, then while it gets 20 SIGUSR1s
	# (busybox's handler runs, then sigreturn). Prints "quiet N signalled
	# N ended N".
	warp_signal_events() {
		tr=/sys/kernel/tracing
		schedctl -c bvt --warp 10ms --warp-signal -- \
			sh -c 'trap ":" USR1; sleep 60 & c=$!; echo $c > /tmp/wse.child
			       while :; do wait $c; done' > /dev/null 2>&1 &
		sp=$!
		sleep 0.5
		echo > $tr/trace
		echo 1 > $tr/events/multisched/bvt_warp/enable
		sleep 1
		quiet=$(grep -c "pid=$sp .* warp why=allowed" $tr/trace)
		echo > $tr/trace
		i=0
		while [ $i -lt 20 ]; do kill -USR1 $sp; sleep 0.05; i=$((i + 1)); done
		echo 0 > $tr/events/multisched/bvt_warp/enable
		signalled=$(grep -c "pid=$sp .* warp why=allowed" $tr/trace)
		ended=$(grep -c "pid=$sp .* unwarp why=off" $tr/trace)
		kill $sp $(cat /tmp/wse.child); wait $sp 2>/dev/null
		echo "quiet $quiet signalled $signalled ended $ended"
		[ "$quiet" -eq 0 ] && [ "$signalled" -ge 10 ] && [ "$ended" -ge 10 ]
	}
	measure "bvt: MS_FLAG_WARP_SIGNAL warps only around signal handlers (no warp in 1 s of sleeping; >= 10 of 20 signals warp and unwarp at sigreturn)" \
		warp_signal_events

	# a signal that runs no handler does not warp: SIGTERM kills a
	# MS_FLAG_WARP_SIGNAL sleep(1) without the wakeup being warped
	warp_fatal_signal() {
		tr=/sys/kernel/tracing
		schedctl -c bvt --warp 10ms --warp-signal -- sleep 60 &
		sp=$!
		sleep 0.5
		echo > $tr/trace
		echo 1 > $tr/events/multisched/bvt_warp/enable
		kill -TERM $sp; wait $sp 2>/dev/null
		echo 0 > $tr/events/multisched/bvt_warp/enable
		n=$(grep -c "pid=$sp .* warp why=allowed" $tr/trace)
		echo "warped wakeups of a sleep killed by SIGTERM: $n"
		[ "$n" -eq 0 ]
	}
	measure "bvt: MS_FLAG_WARP_SIGNAL does not warp for a signal that runs no handler (a fatal SIGTERM)" \
		warp_fatal_signal
	# a handler that never returns (as one left by siglongjmp() never
	# reaches sigreturn) is unwarped by the default L of 10 ms: the L hit
	# is counted only when the warp timer unwarps it. The hogs' share is
	# printed, not checked: the looping thread has their weight, so they
	# keep 2/3 with or without L (table 5 below checks containment).
	out=$($T/bvt_latency -t 8 -S -w 50000 -l)
	share=$(echo "$out" | sed -n 's/^hogs_share \([0-9]*\).*/\1/p')
	hits=$(echo "$out" | sed -n 's/^L_hits \([0-9]*\)/\1/p')
	echo "# a MS_FLAG_WARP_SIGNAL handler without L that loops: hogs kept ${share}% (fair share 66.7%), L hits ${hits}"
	if [ "${hits:-0}" -ge 1 ]; then
		ok "bvt: a MS_FLAG_WARP_SIGNAL thread that set no L is unwarped by the default L when its handler loops"
	else
		notok "bvt: a MS_FLAG_WARP_SIGNAL thread that set no L is unwarped by the default L when its handler loops"
	fi

	# tables 4 and 5: rt (weight 768 of 2816, 27%; W 1 s; L 10 ms) runs
	# 500 us every 10 ms beside int (1024, 3 ms every 10 ms) and cont
	# (1024, a hog), then falls into an infinite loop (bvt_table5.c). rt's
	# weight covers what it uses with a wakeup's cost (6.5-9% here, 17% on
	# the slowest host seen, where the 11% it had then ran its A near W
	# and left the -L 0 run a warped stretch of 28 ms), as the paper's rt
	# had a share "according to its CPU consumption". L is the
	# 10 ms at which the paper's kernel checked it (its mcu): the host
	# charges a stall to the thread it stalls, and with L 2 ms a stall in
	# one of rt's 500 us runs unwarped rt for the rest of that run with
	# its A ahead by 4 times the stall (its weight was 256 then), which cost
	# it waits of 20 to 30 ms in 1 of 3 runs of a quiet boot.
	#  - In table 4 warped rt waits for no thread (W 1 s puts it first), so
	#    its p99 dispatch latency stays within int's p99, which does wait
	#    for rt and for cont's C, plus C and a tick for noise. A weight below
	#    its use runs rt's A past W and breaks this by 20 ms to 600 ms.
	# After L the looping rt is an ordinary thread of weight 768, so, from
	# the weights:
	#  - rt gets at most its weight's part of what int leaves,
	#    (100 - int%) * 768 / 1792, and int keeps its share: it loses at
	#    most 2 points, as the share tests allow. int asks for a fixed
	#    3 ms of CPU a period, so its share is that plus what its wakeups
	#    and switches cost, which TCG varies: it may gain (31.3% then
	#    33.5% in a fresh-clone run of November 2026, with rt and cont
	#    splitting the rest exactly 1:4), and a gain harms nobody;
	#  - int waits at most for rt's one warped stretch L and then, waking
	#    C behind SVT, preempts as it did before the loop: its p99 stays
	#    within its p99 before the loop + L + C + one tick (the paper's int
	#    kept its 10 ms, its L check granularity). The p99 before the loop
	#    is the larger of two runs' in this boot (this one's table 4 and
	#    a run that stops after table 4), as one run's p99 can be a host
	#    stall's (see table 4 below).
	# A thread that finds itself behind its grid counts how late it was
	# once and drops the periods it missed, so a host stall is one sample,
	# not one per period of a backlog (bvt_table5.c says why).
	# The same run without L (-L 0) must break that bound: rt stays warped
	# and, at the start of its loop, runs W * 768 / 1024 (about 750 ms)
	# with int waiting. That is one sample of int, so its max shows it:
	# it must exceed the bound, and half the 750 ms, as no host stall
	# seen here came near (int's max beside a behaving rt was at most
	# 60 ms in the slowest boots of November 2026). With L, int's max
	# during the loop must stay under that half: its p99 alone would not
	# see the one wait an L that did nothing leaves.
	$T/bvt_table5 -1 > /tmp/t4.3 || rm -f /tmp/t4.3
	table5_check() {
		[ -s /tmp/t4.3 ] || return 1
		$T/bvt_table5 -L 10000 > /tmp/t5 || return 1
		cat /tmp/t5
		cp /tmp/t5 /tmp/t4.1
		# "table N (...): share rt X% int Y% cont Z%"
		set -- $(awk '/^table 4/ { sub("%", "", $9); i1 = $9 }
			/^table 5/ { sub("%", "", $7); sub("%", "", $9); rt = $7; i2 = $9 }
			/int latency_us/ { p[++n] = $4; m = $5 }
			END { print rt, i1, i2, p[1], p[2], m }' /tmp/t5)
		[ $# -eq 6 ] || return 1
		before=$(awk '/int latency_us/ { print $4; exit }' /tmp/t4.3)
		case $before$4$5$6 in ''|*[!0-9]*) return 1 ;; esac
		[ "$4" -gt "$before" ] && before=$4
		C=$(cat /proc/sys/kernel/sched_bvt_csw_allowance_ns)
		bound=$((before + 10000 + C / 1000 + 1000))
		echo "rt ${1}% (at most (100 - $3) * 768 / 1792 + 2), int ${2}% then ${3}% (loses at most 2 points), int p99 ${4} then ${5} us (bound $bound from the larger table 4 p99, $before us), int's max during the loop $6 us (under half of W * 768 / 1024, 375000 us)"
		awk -v rt=$1 -v i1=$2 -v i2=$3 'BEGIN {
			exit !(rt <= (100 - i2) * 768 / 1792 + 2 &&
			       i1 - i2 <= 2) }' || return 1
		echo "$bound" > /tmp/t5.bound
		[ "$5" -le "$bound" ] && [ "$6" -lt 375000 ]
	}
	measure "bvt: table 5, a looping warped thread of weight 27% is unwarped at L: it gets its weight's share, int keeps its share (loses at most 2 points), its p99 within p99 before + L + C + tick and its max under half of W * 768 / 1024" \
		table5_check
	table5_no_limit() {
		bound=$(cat /tmp/t5.bound 2>/dev/null) || bound=$((2000 + 10000 + 1000 + 1000))
		$T/bvt_table5 -L 0 > /tmp/t5 || return 1
		cat /tmp/t5
		cp /tmp/t5 /tmp/t4.2
		max=$(awk '/int latency_us/ { p = $5 } END { print p }' /tmp/t5)
		echo "without L: int's max latency during the loop $max us, the bound with L $bound us, half of W * 768 / 1024 375000 us"
		[ -n "$max" ] && [ "$max" -gt "$bound" ] && [ "$max" -ge 375000 ]
	}
	measure "bvt: table 5 contrast, the same loop without L makes int wait over the bound with L and half of W * 768 / 1024 (rt stays warped)" \
		table5_no_limit
	# Table 4 in three runs: the two above (rt behaves for their first
	# 4 s) and the one before them that stops after table 4. rt drops
	# the periods a host stall made it miss, so it sleeps in every period
	# it keeps and reaches L only when a stall lengthens one run. The host
	# stalls the emulated CPU at times, and a stall delays whichever
	# thread is waking: a fresh-clone run of November 2026 saw int wait
	# 16 ms, where it waits at most for rt's 0.5 ms, cont's C and a tick,
	# and four of rt's 400 wakeups over 8.7 ms, so one run's p99 can be
	# the host's. The bound must hold in 2 of the 3 runs; the failure it
	# guards against (rt's A past W) is the workload's, in every run.
	# It checks rt's dispatch, not its warp: an rt with W 0 passed too
	# (p99 979, 261 and 546 us), as a thread under its share wakes C
	# behind SVT and preempts. Warp's own effect is the figure 3 and
	# table 5 contrast checks' to show.
	table4_rt() {
		[ -s /tmp/t4.3 ] || return 1
		cat /tmp/t4.3
		C=$(cat /proc/sys/kernel/sched_bvt_csw_allowance_ns)
		good=0
		for f in /tmp/t4.1 /tmp/t4.2 /tmp/t4.3; do
			set -- $(awk '/int latency_us/ && !i { i = $4 }
				/rt latency_us/ { r = $4 } END { print i, r }' $f)
			[ $# -eq 2 ] || return 1
			echo "table 4: rt p99 $2 us, int p99 $1 us, bound $(($1 + C / 1000 + 1000)) us"
			[ "$2" -le $(($1 + C / 1000 + 1000)) ] && good=$((good + 1))
		done
		[ $good -ge 2 ]
	}
	measure "bvt: table 4, warped rt's p99 dispatch latency within int's p99 + C + tick in 2 of 3 runs (rt waits for no thread)" \
		table4_rt
	# Under SCHED_FIFO the loop leaves the hogs what RT throttling
	# leaves the classes below rt, at most 1 - sched_rt_runtime_us /
	# sched_rt_period_us (5%), plus the 2 points of the share tests.
	out=$($T/bvt_latency -t 8 -m fifo -l)
	share=$(echo "$out" | sed -n 's/^hogs_share \([0-9]*\).*/\1/p')
	rt=$(cat /proc/sys/kernel/sched_rt_runtime_us) per=$(cat /proc/sys/kernel/sched_rt_period_us)
	left=$(( 100 - rt * 100 / per + 2 ))
	echo "# the same loop under SCHED_FIFO: hogs kept ${share}% (at most $left)"
	if [ -n "$share" ] && [ "$share" -le "$left" ]; then
		ok "bvt: table 5 contrast, the same loop under SCHED_FIFO starves the others (at most what RT throttling leaves, 5%, + 2 points)"
	else
		notok "bvt: table 5 contrast, the same loop under SCHED_FIFO starves the others (at most what RT throttling leaves, 5%, + 2 points)"
	fi

	# An unwarped periodic sleeper among equal-weight hogs (the paper's
	# claim for unwarped threads: fair share, latency bounded by C). It
	# sleeps to absolute deadlines P apart, with no work or half its fair
	# share P/(2(n+1)) of work, beside n hogs, all of weight 1024 on CPU 0.
	# The bound on its p99 lateness, with C = 2 ms and the tick T = 1 ms:
	#  - a thread that uses at most its share wakes with A <= SVT + C
	#    (BVT's error between share and allocation is at most C plus one
	#    mcu, section 2.1; mcu is 0 here), and every hog has A >= SVT;
	#  - a hog runs until it is C past the lowest A, checked at each tick,
	#    so a hog that runs before the sleeper runs at most 2C + T;
	#  - at most the n hogs run before it: B = n * (2C + T),
	# plus what no class can avoid, a host stall: the largest lateness of
	# a SCHED_FIFO sleeper beside the same hogs in this boot, taken up to
	# 100 ms (40 ms at most seen), so that a sleeper kept waiting for
	# long at its wakeups still fails its rows. (The bug this table was
	# written for, a sleeper that waited C plus a tick at every wakeup
	# and fell a second behind its grid, is within the bound once passed
	# deadlines are dropped: the catch-up test after this one fails on
	# it.)
	# A sleeper that needs at most its share drops the deadlines a late
	# wakeup finds passed (bvt_sleeper -d), as a player drops frames: its
	# lateness is then the dispatch latency the claim is about, and one
	# stall of the TCG host is one late sample. Chained to its grid, one
	# stall was a late wakeup for every period of the backlog run off at
	# its share, and the stalls, in spells of tens of ms on the hosts of
	# November 2026, decided the p99s: a fresh-clone make check at
	# 26754cf measured BVT p99s of 32, 21 and 1.5 ms in three runs of one
	# row, and EEVDF p99s of 73 ms beside one hog. How such a sleeper
	# catches up with its share after a stall is the next test's.
	# The rows are held to the bound, or to no later than EEVDF's p99 in
	# the same row (mainline under the same noise, one run beside as many
	# EEVDF hogs, dropping too). BVT's p99 is the median of three runs,
	# all three printed. A sleeper that needs more than its share falls
	# behind under any fair scheduler, as EEVDF's numbers show; it stays
	# chained to its grid, runnable all along once behind, and its row
	# checks that it gets its share of the CPU: 85% of 1/(n+1) at least,
	# the first periods, before it falls behind, being spent asleep.
	# Its demand is the work plus what a wakeup costs (a slow TCG host
	# raises that to a few hundred us), measured as the CPU time per
	# period of the SCHED_FIFO sleeper (which sleeps and wakes every
	# period) beside the same hogs; each row prints it.
	C=$(cat /proc/sys/kernel/sched_bvt_csw_allowance_ns)
	sleeper_p99() {
		$T/bvt_sleeper "$@" | sed -n 's/^lateness_us [0-9]* \([0-9]*\) .*/\1/p'
	}
	# sleeper_runs ARGS: three runs, "p99:cpu_per_loop_us:got_pct_x10" each
	sleeper_runs() {
		for r in 1 2 3; do
			$T/bvt_sleeper "$@" | awk '
				/^lateness_us/ { p = $3 }
				/^demand_us/ { d = $2; g = int($4 * 10) }
				END { if (p != "" && d != "") print p ":" d ":" g; else print "none" }'
		done | tr '\n' ' ' | sed 's/ $//'
	}
	# field K (1 p99, 2 CPU per loop, 3 share x10) of each run, median
	median_field() {
		k=$1; shift
		case "$*" in *none*) return ;; esac
		printf '%s\n' "$@" | cut -d: -f$k | sort -n | sed -n 2p
	}
	bvt_sleeper_table() {
		bad=0 rows=0
		echo "hogs period_us work_us fifo_max bound_us bvt_p99 (runs p99:cpu_per_loop_us:share_x10) demand_us eevdf_p99"
		for n in 1 2 8; do
			out=$($T/bvt_sleeper -m fifo -d -n $n -P 2000 -k 500)
			fifo=$(echo "$out" | sed -n 's/^lateness_us [0-9]* [0-9]* \([0-9]*\) .*/\1/p')
			fifo99=$(echo "$out" | sed -n 's/^lateness_us [0-9]* \([0-9]*\) .*/\1/p')
			# a stall of 100 ms or more leaves the row to fail
			[ -z "$fifo" ] || [ "$fifo" -le 100000 ] || fifo=100000
			wake=$(echo "$out" | sed -n 's/^demand_us \([0-9]*\) .*/\1/p')
			[ -n "$fifo" ] && [ -n "$wake" ] ||
				{ echo "no SCHED_FIFO baseline for $n hogs"; return 1; }
			echo "$n hogs: a SCHED_FIFO sleeper's p99 $fifo99 us and max $fifo us, a wakeup costs $wake us of CPU"
			bound=$((n * (2 * C / 1000 + 1000) + fifo))
			for P in 1000 2000 5000 10000; do
				# 500 and 200 periods a run: a p99 is the 5th
				# and the 2nd worst wakeup (1000 and 300 until
				# make check had to fit its 45 minutes)
				k=500; [ $P -ge 5000 ] && k=200
				for w in 0 $((P / (2 * (n + 1)))); do
					d=$((w + wake))
					share=$((P / (n + 1)))
					drop=
					[ "$d" -gt "$share" ] || drop=-d
					runs=$(sleeper_runs -m bvt $drop -n $n -P $P -r $w -k $k)
					b=$(median_field 1 $runs)
					g=$(median_field 3 $runs)
					# EEVDF's p99 in the same row: mainline
					# under the same host's stalls
					e=$(sleeper_p99 -m other $drop -n $n -P $P -r $w -k $k)
					flag=
					if [ -z "$b" ] || [ -z "$e" ]; then
						flag=" <-- no result"; bad=$((bad + 1))
					elif [ "$d" -le "$share" ]; then
						[ "$b" -le "$bound" ] || [ "$b" -le "$e" ] ||
							{ flag=" <-- over the bound and EEVDF's p99"; bad=$((bad + 1)); }
					elif [ "$g" -ge $((850 / (n + 1))) ]; then
						flag=" (needs more than its share $share us: got $((g / 10)).$((g % 10))% of the CPU)"
					else
						flag=" <-- needs more than its share and got $((g / 10)).$((g % 10))% of the CPU, under 85% of 1/$((n + 1))"; bad=$((bad + 1))
					fi
					echo "$n $P $w $fifo $bound ${b:-none} ($runs) ${d:-none} ${e:-none}$flag"
					rows=$((rows + 1))
				done
			done
		done
		echo "$bad of $rows rows out (at most a quarter: a stall of the TCG host spans every period of a run)"
		[ $((4 * bad)) -le "$rows" ]
	}
	measure "bvt: an unwarped periodic sleeper (P 1, 2, 5, 10 ms; no work or half its share) beside 1, 2 and 8 hogs keeps p99 lateness (median of 3 runs, passed deadlines dropped) within n*(2C+T) + SCHED_FIFO's max or EEVDF's p99 while it needs at most its share, and gets its share when it needs more, in 3 rows of 4 at least" \
		bvt_sleeper_table

	# The same sleeper (P 1 ms, 2 hogs) after a 10 ms stall of its CPU by
	# a SCHED_FIFO thread, as a long interrupt or a stalled virtual CPU
	# would cause: it is 10 ms behind, its sleeps return at once, and it
	# must catch up with its share. Before the fix, each of its wakeups
	# waited for the tick (it woke C behind a running hog at SVT and the
	# C test was strict), so it made one period of progress per period
	# and stayed 10 ms late for good (750 periods, the rest of the run);
	# the table above failed whenever TCG stalled the guest that long.
	# Its work is set so that it needs half its share of 333 us, with
	# what a wakeup costs measured in this boot (the SCHED_FIFO sleeper
	# beside the same hogs): with a surplus as large as its demand, the
	# time to catch up is no quotient by a small surplus. Closer to its
	# share it is, and a slow TCG host made it hundreds of periods under
	# EEVDF as well (a make check in November 2026: 223 periods for
	# EEVDF, beside a demand of 270 us with a fixed 166 us of work).
	# Recovery is counted in periods to the first wakeup less than one
	# period late. A boot of the same month measured 31 to 35 periods
	# for BVT and 23 to 40 for EEVDF at half the share (a loop costs
	# more than the SCHED_FIFO sleeper's wakeup once it is behind); the
	# bound is 100 periods, three times that, or twice EEVDF's recovery
	# in this boot if that is more (medians of 3 runs each). A host
	# whose wakeups cost more than 166 us left no room for work, and
	# the sleeper then needed more than half its share: in a fresh-clone
	# make check of 2026-11-27 a wakeup cost 271 us, the sleeper needed
	# 81% of its share, and BVT took 171 periods against EEVDF's 61.
	# So the period grows to six wakeups on such a host (the share is a
	# third of it), and the sleeper needs half its share whatever the
	# host's speed; the stall stays 10 ms. One hog and a
	# 500 us share were tried: BVT took 68 periods against EEVDF's 27,
	# since each brief block lets the hog run to the next tick
	# (sched-bvt.rst, "Virtual time").
	recovery() {
		for r in 1 2 3; do
			$T/bvt_sleeper -m "$1" -n $n -P $P -r $work -k 1000 -s 10000 |
				sed -n 's/^recovered_periods //p'
		done | sort -n | sed -n 2p
	}
	sleeper_recovery() {
		n=2 P=1000
		wake=$($T/bvt_sleeper -m fifo -n $n -P $P -k 1000 |
			sed -n 's/^demand_us \([0-9]*\) .*/\1/p')
		[ -n "$wake" ] || { echo "no SCHED_FIFO baseline"; return 1; }
		[ $((6 * wake)) -le $P ] || P=$(((6 * wake + 99) / 100 * 100))
		share=$((P / 3))
		work=$((share / 2 - wake))
		[ $work -ge 0 ] || work=0
		b=$(recovery bvt) e=$(recovery other)
		bound=100
		[ -n "$e" ] && [ $((2 * e)) -gt $bound ] && bound=$((2 * e))
		echo "$n hogs, a share of $share us; a wakeup costs $wake us of CPU; work $work us per $P us period"
		echo "periods to catch up after a 10 ms stall (median of 3): BVT ${b:-none}, EEVDF ${e:-none}; bound $bound"
		[ -n "$b" ] && [ -n "$e" ] && [ "$b" -le $bound ]
	}
	measure "bvt: after a 10 ms stall a periodic sleeper that needs half its share catches up within 100 periods, or twice EEVDF's if more" \
		sleeper_recovery

	measure "bvt: with C at 100 us two hogs switch between ticks with the HRTICK feature (the hrtick armed within C of the point where the other is C ahead, median, from the trace; half the turns or more end at an hrtick; median turn shorter than without it) and at the tick without it (>= 900 us; sched_switch and hrtimer trace)" \
		$T/ms_hrtick -m bvt

	# With HRTICK, a woken sleeper that does not preempt is let in when
	# the hog is C ahead, not at the tick after (bvt_hrtick() from
	# wakeup_preempt_bvt()). The same stall beside one hog, with work
	# such that the sleeper needs two thirds of its 500 us share: in a
	# boot of November 2026, with the tick it never caught up (750
	# periods of 750 in 3 runs, sched-bvt.rst "Virtual time"), with
	# HRTICK it took 33 to 35 periods, EEVDF 39 to 41. At three
	# quarters HRTICK took 46 to 98, too close to the bound of 100
	# periods, as above. The surplus the sleeper catches up with, a
	# sixth of its share, is what a slow host's switches eat first (a
	# fresh-clone make check of 2026-11-26 took 178 periods, with
	# wakeups of 105 us and hrtick switches 110 us late): so, as
	# above, the bound is twice EEVDF's in the same runs if that is
	# more, both with HRTICK on. As above, a host whose wakeups cost more
	# than a third of the period gets a period of three wakeups.
	sleeper_recovery_hrtick() {
		F=/sys/kernel/debug/sched/features
		n=1 P=1000
		wake=$($T/bvt_sleeper -m fifo -n $n -P $P -k 1000 |
			sed -n 's/^demand_us \([0-9]*\) .*/\1/p')
		[ -n "$wake" ] || { echo "no SCHED_FIFO baseline"; return 1; }
		[ $((3 * wake)) -le $P ] || P=$(((3 * wake + 99) / 100 * 100))
		share=$((P / 2))
		work=$((share * 2 / 3 - wake))
		[ $work -ge 0 ] || work=0
		was=HRTICK
		grep -qw NO_HRTICK $F && was=NO_HRTICK
		echo HRTICK > $F || return 1
		b=$(recovery bvt) e=$(recovery other)
		echo $was > $F
		bound=100
		[ -n "$e" ] && [ $((2 * e)) -gt $bound ] && bound=$((2 * e))
		echo "1 hog, a share of $share us; a wakeup costs $wake us of CPU; work $work us per $P us period"
		echo "periods to catch up after a 10 ms stall with HRTICK (median of 3): BVT ${b:-none}, EEVDF ${e:-none}; bound $bound"
		[ -n "$b" ] && [ -n "$e" ] && [ "$b" -le $bound ]
	}
	measure "bvt: with HRTICK, after a 10 ms stall a periodic sleeper that needs 2/3 of its share beside one hog catches up within 100 periods, or twice EEVDF's if more" \
		sleeper_recovery_hrtick

fi

exit $((fails > 0))
