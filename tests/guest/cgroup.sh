#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The classes under cgroups (issue 13, a distribution's kernel): the test
# kernel has the cpu and cpuset controllers and autogroup, as Debian's
# has. A task of each class:
#
#   - moved between two cpu cgroups (sched_move_task(): a dequeue with
#     DEQUEUE_SAVE and an enqueue with ENQUEUE_RESTORE), or into a new
#     autogroup by setsid(), keeps its policy and parameters and runs on;
#   - in a group whose cpu.max allows 10% keeps what its class gives it:
#     the cpu controller's bandwidth throttles fair's group entities only,
#     and a fair hog in the same group, the control, gets at most 15%;
#   - with a reservation (RBS, periodic BEBS), moved by a cpuset to a CPU
#     it was not admitted on, takes its bandwidth along (sched_ms_bandwidth
#     shows it there) and keeps its share; a member of a shared RBS
#     reservation runs on a server of its own while away, counted on the
#     CPU it runs on, and goes back when the cpuset lets it.
#
# Prints TAP lines; exits 1 if a check failed. Run from budgets.sh.

. "$(dirname "$0")/tap.sh"

CG=/sys/fs/cgroup
BW=/proc/sys/kernel/sched_ms_bandwidth

# the CPU time of $1 in ns
cpu_ns() { cut -d' ' -f1 /proc/$1/schedstat 2>/dev/null || echo 0; }
# the share of a CPU, in per cent, that $1 got over $2 seconds
share() {
	a=$(cpu_ns $1); sleep $2; b=$(cpu_ns $1)
	echo $(((b - a) / ($2 * 10000000)))
}
# the lines of schedctl -p that name the policy and its parameters
params() { schedctl -p $1 | grep "^pid $1's"; }
# the admitted ppm of cpu $1
used() { awk -v c=cpu$1 '$1 == c { print $2 }' $BW; }
# hog CPU SCHEDCTL-ARGS...: a spinning shell in that class on CPU; its pid
hog() {
	cpu=$1; shift
	taskset -c $cpu schedctl "$@" -- sh -c 'while :; do :; done' > /dev/null 2>&1 &
	echo $!
}

if ! mkdir -p $CG || ! mount -t cgroup2 none $CG ||
   ! echo "+cpu +cpuset" > $CG/cgroup.subtree_control ||
   ! mkdir -p $CG/a $CG/b; then
	notok "cgroup: cgroup2 mounted with the cpu and cpuset controllers"
	exit 1
fi

# --- moves between cpu cgroups, and autogroup -------------------------------
moves() {
	p=$(hog 1 "$@")
	sleep 0.3
	before=$(params $p)
	echo $p > $CG/a/cgroup.procs && sleep 0.2 &&
	echo $p > $CG/b/cgroup.procs && sleep 0.2 &&
	echo $p > $CG/cgroup.procs || { kill $p; return 1; }
	after=$(params $p)
	s=$(share $p 1)
	kill $p; wait $p 2>/dev/null
	echo "$* : before the moves: $(echo $before | tr '\n' ' ')"
	echo "$* : after: $(echo $after | tr '\n' ' '); then ${s}% of cpu1"
	[ -n "$before" ] && [ "$before" = "$after" ] && [ "$s" -ge 5 ]
}
autogroup() {
	b=$(schedctl "$@" -- sh -c 'schedctl -p $$ | grep "^pid $$.s" | cut -d" " -f3-;
				   cat /proc/self/autogroup')
	a=$(schedctl "$@" -- setsid sh -c 'schedctl -p $$ | grep "^pid $$.s" | cut -d" " -f3-;
					   cat /proc/self/autogroup')
	echo "$* : without setsid: $(echo $b | tr '\n' ' ')"
	echo "$* : after setsid: $(echo $a | tr '\n' ' ')"
	# the same policy and parameters, in another autogroup
	[ -n "$b" ] && [ "$(echo "$b" | grep -v autogroup)" = "$(echo "$a" | grep -v autogroup)" ] &&
	[ "$(echo "$b" | grep autogroup)" != "$(echo "$a" | grep autogroup)" ]
}
for args in "-c bvt -w 300" "-c vtrr -w 3" "-c bebs" "-c bebs --periodic --budget 2ms -P 10ms" \
	    "-c rbs --budget 2ms -P 10ms"; do
	# shellcheck disable=SC2086
	measure "cgroup: schedctl $args: a hog moved between two cpu cgroups and back keeps its policy and parameters and runs on" \
		moves $args
	# shellcheck disable=SC2086
	measure "cgroup: schedctl $args: setsid() moves a task into a new autogroup, and it keeps its policy and parameters" \
		autogroup $args
done

# --- cpu.max -----------------------------------------------------------------
# A group capped at 10% of a CPU holds a hog of the class on cpu1 and a
# fair hog on cpu0: the fair hog gets at most 15%; the class's hog what
# its class gives it alone on a CPU (80% and up for the general classes,
# the servers of the classes below taking their share; 18% and up for a
# reservation of 20%), not the group's 10%.
capped() {
	want=$1; shift
	echo "10000 100000" > $CG/a/cpu.max || return 1
	p=$(hog 1 "$@")
	f=$(hog 0 -c other)
	sleep 0.2
	echo $p > $CG/a/cgroup.procs && echo $f > $CG/a/cgroup.procs || { kill $p $f; return 1; }
	sleep 0.3
	a1=$(cpu_ns $p) f1=$(cpu_ns $f)
	sleep 2
	a2=$(cpu_ns $p) f2=$(cpu_ns $f)
	kill $p $f; wait $p $f 2>/dev/null
	echo max > $CG/a/cpu.max
	sp=$(((a2 - a1) / 20000000)) sf=$(((f2 - f1) / 20000000))
	echo "$* : in a group with cpu.max 10000 100000, ${sp}% of cpu1 (want >= $want); the fair hog ${sf}% of cpu0 (want <= 15)"
	[ $sp -ge $want ] && [ $sf -le 15 ]
}
for args in "80 -c bvt" "80 -c vtrr" "80 -c bebs" "18 -c rbs --budget 2ms -P 10ms"; do
	# shellcheck disable=SC2086
	measure "cgroup: cpu.max of a cpu cgroup leaves a task of the class alone (schedctl ${args#* }: at least ${args%% *}% of its CPU in a group capped at 10%, where a fair hog gets at most 15%)" \
		capped $args
done

# --- cpusets move reservations ------------------------------------------------
# A reservation of 20% on cpu1 moved by a cpuset to cpu0 takes its
# bandwidth along (200000 ppm more on cpu0, less on cpu1, +-2 ppm of
# rounding) and keeps its share there (18 to 22%); all is back when it
# ends.
cpuset_move() {
	echo 0 > $CG/b/cpuset.cpus || return 1
	u0=$(used 0) u1=$(used 1)
	p=$(hog 1 "$@")
	sleep 0.3
	m0=$(used 0) m1=$(used 1)
	echo $p > $CG/b/cgroup.procs || { kill $p; return 1; }
	sleep 0.3
	n0=$(used 0) n1=$(used 1)
	where=$(awk '{ print $39 }' /proc/$p/stat)
	s=$(share $p 2)
	kill $p; wait $p 2>/dev/null
	sleep 0.2
	e0=$(used 0) e1=$(used 1)
	echo "$* : used ppm cpu0/cpu1: $u0/$u1 before, $m0/$m1 admitted, $n0/$n1 after the cpuset move, $e0/$e1 after the end"
	echo "$* : on cpu$where after the move, ${s}% of it"
	[ "$where" = 0 ] && [ "$m0" = "$u0" ] &&
	[ $((m1 - u1)) -ge 199998 ] && [ $((m1 - u1)) -le 200002 ] &&
	[ $((n0 - u0)) -ge 199998 ] && [ $((n0 - u0)) -le 200002 ] && [ "$n1" = "$u1" ] &&
	[ "$e0" = "$u0" ] && [ "$e1" = "$u1" ] && [ $s -ge 18 ] && [ $s -le 22 ]
}
for args in "-c rbs --budget 2ms -P 10ms" "-c bebs --periodic --budget 2ms -P 10ms"; do
	# shellcheck disable=SC2086
	measure "cgroup: schedctl $args: a cpuset that moves the task from cpu1 to cpu0 moves its reservation (sched_ms_bandwidth), it keeps 20% there, and all is given back when it ends" \
		cpuset_move $args
done

# A task made periodic (or given a reservation) while it sleeps on cpu1,
# with cpu0 and cpu1 allowed, is admitted first-fit on cpu0 and moves
# there at its next wakeup (ms_place()). A cpuset that allows only cpu1
# before it wakes leaves it where it is: the reservation follows it to
# cpu1 (sched_ms_bandwidth: 200000 ppm, +-2, leave cpu0 for cpu1), not
# stays counted on a CPU it may no longer use, and all is back when it
# ends.
stranded() {
	echo 0-1 > $CG/b/cpuset.cpus || return 1
	u0=$(used 0) u1=$(used 1)
	taskset -c 1 sleep 100 &
	p=$!
	sleep 0.2
	taskset -p -c 0,1 $p > /dev/null &&
	schedctl "$@" -p $p > /dev/null || { kill $p; return 1; }
	m0=$(used 0) m1=$(used 1)
	w0=$(awk '{ print $39 }' /proc/$p/stat)
	echo 1 > $CG/b/cpuset.cpus &&
	echo $p > $CG/b/cgroup.procs || { kill $p; return 1; }
	sleep 0.2
	n0=$(used 0) n1=$(used 1)
	w1=$(awk '{ print $39 }' /proc/$p/stat)
	kill $p; wait $p 2>/dev/null
	sleep 0.2
	e0=$(used 0) e1=$(used 1)
	echo 0-1 > $CG/b/cpuset.cpus
	echo "$* : asleep on cpu$w0, admitted: used ppm cpu0/cpu1 $u0/$u1 before, $m0/$m1 admitted, $n0/$n1 once a cpuset allowed only cpu1 (on cpu$w1), $e0/$e1 after the end"
	[ "$w0" = 1 ] && [ "$w1" = 1 ] && [ "$m1" = "$u1" ] &&
	[ $((m0 - u0)) -ge 199998 ] && [ $((m0 - u0)) -le 200002 ] &&
	[ "$n0" = "$u0" ] &&
	[ $((n1 - u1)) -ge 199998 ] && [ $((n1 - u1)) -le 200002 ] &&
	[ "$e0" = "$u0" ] && [ "$e1" = "$u1" ]
}
for args in "-c rbs --budget 2ms -P 10ms" "-c bebs --periodic --budget 2ms -P 10ms"; do
	# shellcheck disable=SC2086
	measure "cgroup: schedctl $args on a task asleep on cpu1, admitted on cpu0: a cpuset that allows only cpu1 moves the reservation to cpu1 (sched_ms_bandwidth), and all is given back when it ends" \
		stranded $args
done

# The same while the task is boosted into the real-time class by
# priority inheritance, whose callbacks leave the reservation behind:
# back in its class on the CPU the cpuset left it, its reservation
# follows it there (rbs_resv boostcs, for RBS and for periodic BEBS, where
# a best-effort hog there gives up the 20% at once), or, for the member of
# a shared reservation, is counted there.
$T/rbs_resv -c 1 -g $CG/b boostcs || fails=$((fails + 1))
$T/rbs_resv -c 1 -g $CG/b -B boostcs || fails=$((fails + 1))
$T/rbs_resv -c 1 -g $CG/b -S boostcs || fails=$((fails + 1))
# and a member that a cpuset change finds asleep where the boost took it
$T/rbs_resv -c 1 -g $CG/b -S -z boostcs || fails=$((fails + 1))
echo 0-1 > $CG/b/cpuset.cpus

# A member of a shared reservation of 20% on cpu1 that a cpuset sends to
# cpu0 runs there on a server of its own with the reservation's C and T
# (ms.rbs.on_own_server 1, 18 to 22% of cpu0), counted there without
# admission (200000 ppm more on cpu0, +-2 ppm, and ms.rbs.away_ppm) while
# the reservation stays counted on cpu1; when the cpuset allows cpu1
# again the tick sends it back (on_own_server 0, on cpu1) and cpu0's
# count is what it was. Sent away again and killed there, it gives cpu0's
# count back at its exit, and cpu1's goes with the last member.
onown() { awk '$1 == "ms.rbs.on_own_server" { print $3 }' /proc/$1/sched; }
member_away() {
	echo 0 > $CG/b/cpuset.cpus || return 1
	u0=$(used 0) u1=$(used 1)
	m=$(hog 1 -c rbs --shared --budget 2ms -P 10ms)
	sleep 0.3
	j=$(hog 1 -c rbs --join $m)
	sleep 0.3
	m1=$(used 1)
	echo $j > $CG/b/cgroup.procs || { kill $m $j; return 1; }
	sleep 0.3
	away=$(onown $j)
	appm=$(awk '$1 == "ms.rbs.away_ppm" { print $3 }' /proc/$j/sched)
	a0=$(used 0) a1=$(used 1)
	w1=$(awk '{ print $39 }' /proc/$j/stat)
	s=$(share $j 2)
	echo 0-1 > $CG/b/cpuset.cpus
	sleep 0.5
	back=$(onown $j)
	b0=$(used 0) b1=$(used 1)
	w2=$(awk '{ print $39 }' /proc/$j/stat)
	members=$(awk '$1 == "ms.rbs.members" { print $3 }' /proc/$m/sched)
	echo 0 > $CG/b/cpuset.cpus
	sleep 0.3
	again=$(onown $j) g0=$(used 0)
	kill $j
	sleep 0.3
	k0=$(used 0) k1=$(used 1)
	kill $m
	sleep 0.3
	e0=$(used 0) e1=$(used 1)
	echo "away: on cpu$w1, on_own_server $away, ${s}% of it, away_ppm $appm; back: on cpu$w2, on_own_server $back; the reservation has $members members"
	echo "used ppm cpu0/cpu1: $u0/$u1 before, $u0/$m1 with the reservation, $a0/$a1 while the member was away, $b0/$b1 after it went back, cpu0 $g0 while away again (on_own_server $again), $k0/$k1 after it exited there, $e0/$e1 after the last member"
	[ "$away" = 1 ] && [ "$w1" = 0 ] && [ $s -ge 18 ] && [ $s -le 22 ] &&
	[ $((m1 - u1)) -ge 199998 ] && [ $((m1 - u1)) -le 200002 ] &&
	[ $((a0 - u0)) -ge 199998 ] && [ $((a0 - u0)) -le 200002 ] && [ "$a1" = "$m1" ] &&
	[ "${appm:-0}" -ge 199998 ] && [ "${appm:-0}" -le 200002 ] &&
	[ "$b0" = "$u0" ] && [ "$b1" = "$m1" ] && [ "$back" = 0 ] && [ "$w2" = 1 ] &&
	[ "$members" = 2 ] && [ "$again" = 1 ] && [ "$g0" = "$a0" ] &&
	[ "$k0" = "$u0" ] && [ "$k1" = "$m1" ] && [ "$e0" = "$u0" ] && [ "$e1" = "$u1" ]
}
measure "cgroup: a member of a shared RBS reservation that a cpuset moves off its CPU runs on a server of its own (C and T of the reservation), counted on the CPU it runs on, and gives that back when it goes back or exits there" \
	member_away

echo 0-1 > $CG/b/cpuset.cpus
rmdir $CG/a $CG/b
umount $CG
[ $fails -eq 0 ]
