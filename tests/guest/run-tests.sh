#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of `make check`: runs inside the patched kernel booted by
# scripts/qemu-run and prints one TAP line per check ("ok - name" or
# "not ok - name"); scripts/check numbers them and adds the host tests.
# Exits 1 if any check failed.

. "$(dirname "$0")/tap.sh"

# --- KUnit: the suites built into the kernel ran at boot ------------------
kunit_results() {
	# Top-level KTAP result lines of each suite, e.g. "ok 1 multisched".
	dmesg | sed -n 's/^\[[^]]*\] //p' | grep -E '^(not )?ok [0-9]+ [a-z_]+$'
}
suites=$(kunit_results)
if [ -z "$suites" ]; then
	notok "kunit: no KUnit suite results in the boot log"
else
	echo "$suites" | while read -r word rest; do
		case $word in
		ok)	echo "ok - kunit: suite ${rest#* }" ;;
		*)	echo "not ok - kunit: suite ${rest#* }" ;;
		esac
	done
	# every suite this build has: the common one and one per class that
	# accepts tasks (the main boot checks below that BVT and VTRR do)
	for s in multisched $(cat /proc/sys/kernel/sched_ms_classes); do
		echo "$suites" | grep -q "^ok [0-9]* $s\$" ||
			notok "kunit: the $s suite ran and passed"
	done
	echo "$suites" | grep -q '^not ok' && fails=$((fails + 1))
	dmesg | grep -E '# multisched: (pass|Totals)' | sed 's/^/# /'
fi

# --- the extended sched_attr ABI ------------------------------------------
$T/ms_abi || fails=$((fails + 1))

# --- sysctls and the normal class ----------------------------------------
check "sysctl: kernel.sched_normal_class reads fair" \
	grep -qx fair /proc/sys/kernel/sched_normal_class
for c in bvt vtrr bebs; do
	if grep -qw $c /proc/sys/kernel/sched_ms_classes; then
		continue
	fi
	expect_fail "sysctl: sched_normal_class=$c refused while $c accepts no tasks" \
		1 "Invalid argument" sh -c "echo $c > /proc/sys/kernel/sched_normal_class"
done
expect_fail "sysctl: sched_normal_class=rbs refused (not general-purpose)" \
	1 "Invalid argument" sh -c 'echo rbs > /proc/sys/kernel/sched_normal_class'
expect_fail "sysctl: sched_normal_class=nonsense refused" \
	1 "Invalid argument" sh -c 'echo nonsense > /proc/sys/kernel/sched_normal_class'
check "sysctl: sched_normal_class=fair accepted" \
	sh -c 'echo fair > /proc/sys/kernel/sched_normal_class'
expect_fail "sysctl: kernel.sched_ms_classes is read-only" \
	1 "" sh -c 'echo bvt > /proc/sys/kernel/sched_ms_classes'
check "boot: sched_normal_class=rbs on the command line was refused, not applied" \
	sh -c 'dmesg | grep -q "sched_normal_class=rbs: no such" &&
	       grep -qx fair /proc/sys/kernel/sched_normal_class'
# tracepoints_fire: ms_setattr and ms_normal_class record what happened
tracepoints_fire() {
	tr=/sys/kernel/tracing
	echo > $tr/trace
	echo 1 > $tr/events/multisched/ms_setattr/enable
	echo 1 > $tr/events/multisched/ms_normal_class/enable
	schedctl -c bvt -w 300 -- true
	echo bvt > /proc/sys/kernel/sched_normal_class
	echo fair > /proc/sys/kernel/sched_normal_class
	echo 0 > $tr/events/multisched/ms_setattr/enable
	echo 0 > $tr/events/multisched/ms_normal_class/enable
	grep -E 'ms_setattr|ms_normal_class' $tr/trace | tail -n 5
	grep -q 'ms_setattr: comm=schedctl pid=[0-9]* policy=8 weight=300 ' $tr/trace &&
	grep -q 'ms_normal_class: from=fair to=bvt moved=[1-9]' $tr/trace &&
	grep -q 'ms_normal_class: from=bvt to=fair moved=[1-9]' $tr/trace
}
measure "tracepoints: ms_setattr records a schedctl -c bvt -w 300, ms_normal_class a switch to bvt and back with the tasks moved" \
	tracepoints_fire

# --- existing binaries keep working ----------------------------------------
# chrt_has PATTERN ARGS...: chrt ARGS starts a shell whose own policy, as
# chrt -p reports it, matches PATTERN
chrt_has() {
	want=$1; shift
	got=$(chrt "$@" sh -c 'chrt -p $$') && echo "$got" | grep -q "$want" ||
		{ echo "$got"; return 1; }
}
check "chrt: SCHED_FIFO 10 round trip" chrt_has "SCHED_FIFO" -f 10
check "chrt: SCHED_FIFO priority reads back" chrt_has "priority: 10" -f 10
check "chrt: SCHED_BATCH" chrt_has "SCHED_BATCH" -b 0
check "chrt: SCHED_IDLE" chrt_has "SCHED_IDLE" -i 0
check "chrt: SCHED_DEADLINE 1ms/10ms" \
	chrt_has "SCHED_DEADLINE" -d -T 1000000 -P 10000000 0
# rt_cycles WANT CMD...: CMD prints one rt-tests result line
# "T: 0 (...) P:.. I:.. C: N Min: a Act: b Avg: c Max: d"; it must have
# run at least WANT cycles with Min <= Max and Avg <= Max. Not Min <=
# Avg: cyclicdeadline takes a Min of 0 for "no minimum yet", so a cycle
# that wakes on time (latency 0, or early, which it also counts as 0)
# forgets the minimum while the 0 still enters the average. In one
# fresh-clone run it printed C 199, Min 20393 and Avg 15432, which is
# what a thread prints that woke on time until the host skipped two of
# its periods and then ran 20 ms behind its own grid (cyclicdeadline
# never moves the grid later). WANT is half of
# duration / interval: a thread that never ran, or stopped waking, gets
# far fewer; a slow spell of the emulated machine (in one boot hackbench
# took 4 times its usual time, and these counts fell by up to 16%) does
# not take half.
rt_cycles() {
	want=$1; shift
	out=$("$@") || { echo "$out"; return 1; }
	echo "$out" | grep 'C:'
	# a field and its value are not always apart: "Act:15295 Avg:11300"
	echo "$out" | awk -v want=$want '/C:/ {
		line = $0
		gsub(/:/, ": ", line)
		nf = split(line, f, /[ \t]+/)
		for (i = 1; i < nf; i++) {
			if (f[i] == "C:") c = f[i + 1]; if (f[i] == "Min:") mn = f[i + 1]
			if (f[i] == "Avg:") av = f[i + 1]; if (f[i] == "Max:") mx = f[i + 1]
		}
		n++ }
		END { exit !(n == 1 && c >= want && mn <= mx && av <= mx) }'
}
measure "cyclictest: a SCHED_FIFO thread runs >= 1000 of its 2000 1 ms cycles in 2 s" \
	rt_cycles 1000 cyclictest -q -D 2 -t 1 -p 80 -i 1000 -m
measure "cyclicdeadline: a SCHED_DEADLINE thread runs >= 100 of its 200 10 ms cycles in 2 s" \
	rt_cycles 100 cyclicdeadline -q -D 2 -t 1 -i 10000 -s 1000
cat > /tmp/rtapp.json <<'EOF'
{
	"tasks": {
		"dl": { "policy": "SCHED_DEADLINE", "dl-runtime": 2000,
			"dl-period": 10000, "dl-deadline": 10000,
			"runtime": 1000, "timer": { "ref": "t", "period": 10000 } },
		"ff": { "policy": "SCHED_FIFO", "priority": 10,
			"runtime": 1000, "timer": { "ref": "f", "period": 10000 } }
	},
	"global": { "duration": 4, "default_policy": "SCHED_OTHER",
		    "calibration": 100, "lock_pages": false, "logdir": "/tmp" }
}
EOF
# rt-app logs one line per period of each task in /tmp/rt-app-NAME-N.log;
# each of the two must run at least 100 10 ms periods, half of 2 s, as
# cyclictest above (168 and 179 in the slow spell of one boot). The run
# lasts 4 s. Three fresh-clone runs (2026-11-25 with 2 s, 2026-11-29
# with 4 s) printed both threads starting and exiting at once, logged no
# period and exited 0: rt-app 1.0 starts its threads' loops after a
# barrier that each thread reaches after mlockall(MCL_CURRENT |
# MCL_FUTURE), which its "lock_pages" (on unless turned off, whatever its
# tutorial says) asks for, and its main thread ends the run "duration"
# seconds after creating them, whether or not they got past the barrier.
# Faulting in and locking every mapping, thread stacks included, twice,
# is slow under TCG, and slower on a slow host; locked pages are not what
# this check is about, so they are off.
rtapp_runs() {
	rm -f /tmp/rt-app-*.log
	rt-app /tmp/rtapp.json > /tmp/rtapp.out 2>&1 || { tail -5 /tmp/rtapp.out; return 1; }
	r=0
	for t in dl ff; do
		f=$(ls /tmp/rt-app-$t-*.log 2>/dev/null | head -1)
		n=$(grep -cv '^#' "${f:-/dev/null}")
		echo "$t: $n periods logged in ${f:-no log}"
		[ "$n" -ge 100 ] || r=1
	done
	# what rt-app itself said, when it ran too few periods (it once
	# logged none for either task and exited 0, in one fresh-clone run)
	[ $r -eq 0 ] || tail -8 /tmp/rtapp.out
	return $r
}
measure "rt-app: a SCHED_DEADLINE and a SCHED_FIFO task each run >= 100 of their 10 ms periods in a 4 s run" \
	rtapp_runs
# hackbench prints "Time: SECONDS" once all its messages went through
hackbench_time() {
	out=$(hackbench -g 2 -l 50) || { echo "$out"; return 1; }
	echo "$out" | grep Time
	echo "$out" | grep -Eq '^Time: [0-9]+\.[0-9]+$'
}
measure "hackbench: 2 groups, 50 loops, reports its time" hackbench_time

# --- the shared bandwidth accounting ---------------------------------------
# /proc/sys/kernel/sched_ms_bandwidth: "cpuN used_ppm total_ppm" per CPU.
# With no reservation admitted, used is SCHED_DEADLINE's share
# of the CPU (its root domain's admitted bandwidth over the active CPUs,
# which holds the fair, BEBS, BVT and VTRR servers of its CPUs; debugfs
# shows each server's runtime and period), and
# total the sched_rt_runtime_us/period_us limit; both are rounded up.
# A SCHED_DEADLINE task of 20 ms every 100 ms adds 20% to the root
# domain, so to the sum over the CPUs, give or take what the fixed point
# loses: DL's ratio and its division over the CPUs each round down (by
# less than 2^-20, 0.96 ppm) and each line rounds up (less than 1 ppm),
# so each CPU's line may be off by under 2 ppm.
BW=/proc/sys/kernel/sched_ms_bandwidth
bw_sum() { awk '{ s += $2 } END { print s }' $BW; }
bandwidth_file() {
	n=$(grep -c '^cpu[0-9]* [0-9]* [0-9]*$' $BW)
	lines=$(wc -l < $BW)
	rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
	per=$(cat /proc/sys/kernel/sched_rt_period_us)
	want_total=$(( (rt * 1000000 + per - 1) / per ))
	total=$(awk 'NR == 1 { print $3 }' $BW)
	# with no SCHED_DEADLINE task, the root domain holds the servers of
	# its CPUs, fair's and each general class's: (runtime << 20) / period
	# each in DL's fixed point, their sum divided over the CPUs, in ppm
	# rounded up
	servers=0 kinds=$(ls /sys/kernel/debug/sched | sed -n 's/_server$//p')
	for c in $(seq 0 $((n - 1))); do
		for k in $kinds; do
			d=/sys/kernel/debug/sched/${k}_server/cpu$c
			r=$(cat $d/runtime) p=$(cat $d/period)
			echo "cpu$c: $k server ${r}/${p} ns"
			servers=$((servers + (r << 20) / p))
		done
	done
	want=$(( ((servers / n) * 1000000 + (1 << 20) - 1) >> 20 ))
	bad_cpu=
	for c in $(seq 0 $((n - 1))); do
		got=$(awk -v c=cpu$c '$1 == c { print $2 }' $BW)
		echo "cpu$c: want $want ppm, got ${got:-none}"
		[ "$got" = "$want" ] || bad_cpu=1
	done
	before=$(bw_sum)
	chrt -d -T 20000000 -P 100000000 0 sleep 3 & pid=$!
	sleep 1
	during=$(bw_sum)
	kill $pid; wait $pid 2>/dev/null
	# DL releases a dead task's bandwidth when it has switched out for
	# the last time, which can come after wait returns: allow it 2 s
	for i in 1 2 3 4 5 6 7 8 9 10; do
		after=$(bw_sum)
		[ "$after" -eq "$before" ] && break
		sleep 0.2
	done
	echo "CPUs $n (lines $lines, nproc $(nproc)), total $total ppm (want $want_total)"
	echo "sum of used ppm: $before before, $during with a 20% DL task, $after after"
	delta=$((during - before))
	[ -z "$bad_cpu" ] && [ "$n" -eq "$lines" ] && [ "$n" -eq "$(nproc)" ] &&
	[ "$total" -eq "$want_total" ] &&
	[ "$delta" -ge $((200000 - 2 * n)) ] && [ "$delta" -le $((200000 + 2 * n)) ] &&
	[ "$after" -eq "$before" ] && echo "$before" > /tmp/bw.start
}
measure "sched_ms_bandwidth: a line per CPU with its share of the servers (fair and each general class) and the rt limit, and a 20% SCHED_DEADLINE task adds 20% over the CPUs (2 ppm per CPU)" \
	bandwidth_file

# --- schedctl ---------------------------------------------------------------
check "schedctl: --list names every class" \
	sh -c 'schedctl --list | grep -q "SCHED_BVT" &&
	       schedctl --list | grep -q "SCHED_RBS" &&
	       schedctl --list | grep -q "SCHED_DEADLINE"'
check "schedctl: runs a command under SCHED_FIFO 20" \
	sh -c 'schedctl -c fifo --prio 20 -- sh -c "chrt -p \$\$" | grep -q "priority: 20"'
check "schedctl: sets and shows a running pid" \
	sh -c 'sleep 5 & p=$!; schedctl -c batch --nice 7 -p $p &&
	       schedctl -p $p | grep -q SCHED_BATCH &&
	       schedctl -p $p | grep -q "nice: 7"; r=$?; kill $p; exit $r'
check "schedctl: -a sets every thread of a process" \
	sh -c 'stress-ng --cpu 2 --timeout 5s >/dev/null 2>&1 & sleep 1;
	       p=$(pgrep -o stress-ng); schedctl -a -c batch -p $p &&
	       for t in /proc/$p/task/*; do
	           schedctl -p ${t##*/} | grep -q SCHED_BATCH || exit 1; done;
	       kill $p; wait'
for c in bvt vtrr bebs rbs; do
	grep -qw $c /proc/sys/kernel/sched_ms_classes && continue
	expect_fail "schedctl: $c explains EINVAL as not available" \
		1 "not available in this kernel" schedctl -c $c -- true
done
expect_fail "schedctl: EINVAL for a bad FIFO priority explains the range" \
	1 "priority 1..99" schedctl -c fifo --prio 200 -- true
expect_fail "schedctl: EPERM names the missing privilege" \
	1 "needs CAP_SYS_NICE" $T/as_user 65534 schedctl -c fifo --prio 10 -- true
expect_fail "schedctl: EPERM for another user's task" \
	1 "belongs to another user" $T/as_user 65534 schedctl -c batch -p 1
expect_fail "schedctl: ESRCH for a missing pid" \
	1 "no such process" schedctl -c batch -p 999999
expect_fail "schedctl: a bad time unit is a usage error" \
	2 "unknown unit" schedctl -c bvt --warp 1.5xs -- true
expect_fail "schedctl: a negative time is a usage error" \
	2 "cannot be negative" schedctl -c bvt --unwarp -5ms -- true
expect_fail "schedctl: a missing command exits 127" \
	127 "" schedctl -c other -- /nonexistent
# a set changes only what it names (read-modify-write through sched_getattr)
schedctl_keeps() {
	sleep 30 >/dev/null 2>&1 & p=$!
	schedctl -c bvt -w 2048 --warp 20ms --warp-limit 5ms --unwarp 50ms --warp-signal -p $p &&
	schedctl -c bvt --warp 10ms -p $p && schedctl -p $p > /tmp/sc.keep &&
	schedctl -c bvt --flags none -p $p && schedctl -p $p > /tmp/sc.none; r=$?
	kill $p
	cat /tmp/sc.keep /tmp/sc.none
	[ $r -eq 0 ] && grep -q "weight: 2048" /tmp/sc.keep && grep -q "warp: 10ms" /tmp/sc.keep &&
	grep -q "warp limit: 5ms" /tmp/sc.keep && grep -q "unwarp: 50ms" /tmp/sc.keep &&
	grep -q "flags: warp-signal" /tmp/sc.keep &&
	grep -q "flags: none" /tmp/sc.none && grep -q "weight: 2048" /tmp/sc.none &&
	grep -q "warp: 10ms" /tmp/sc.none
}
check "schedctl: a set that names only --warp keeps weight, L, U and flags; --flags none drops only the flags" \
	schedctl_keeps
check "schedctl: -c batch -p PID keeps the nice value 7 of a SCHED_OTHER task" \
	sh -c 'sleep 30 >/dev/null 2>&1 & p=$!
	       schedctl -c other --nice 7 -p $p && schedctl -c batch -p $p &&
	       schedctl -p $p > /tmp/sc.nice; r=$?; kill $p; cat /tmp/sc.nice
	       [ $r -eq 0 ] && grep -q SCHED_BATCH /tmp/sc.nice && grep -q "nice: 7" /tmp/sc.nice'
# without CAP_SYS_NICE, nice 7 -> 0 would be EPERM: keeping it is allowed
schedctl_user_batch() {
	$T/as_user 65534 sleep 30 >/dev/null 2>&1 & u=$!
	sleep 0.2
	schedctl -c other --nice 7 -p $u || { kill $u; return 1; }
	$T/as_user 65534 schedctl -c batch -p $u; r=$?
	schedctl -p $u > /tmp/sc.user
	kill $u
	cat /tmp/sc.user
	[ $r -eq 0 ] && grep -q SCHED_BATCH /tmp/sc.user && grep -q "nice: 7" /tmp/sc.user
}
check "schedctl: an unprivileged user moves their own nice-7 task to batch and it keeps nice 7" \
	schedctl_user_batch
schedctl_reset() {
	sleep 30 >/dev/null 2>&1 & p=$!
	schedctl -c bvt -w 2048 --warp 20ms --warp-limit 5ms --unwarp 50ms --warp-signal -p $p &&
	schedctl --reset -c bvt --warp 10ms -p $p && schedctl -p $p > /tmp/sc.reset &&
	schedctl -c batch --nice 7 -p $p && schedctl --reset -c batch -p $p &&
	schedctl -p $p >> /tmp/sc.reset; r=$?
	kill $p
	cat /tmp/sc.reset
	[ $r -eq 0 ] && grep -q "weight: 0" /tmp/sc.reset && grep -q "warp: 10ms" /tmp/sc.reset &&
	grep -q "warp limit: 0 (none)" /tmp/sc.reset && grep -q "unwarp: 0$" /tmp/sc.reset &&
	grep -q "flags: none" /tmp/sc.reset && grep -q "nice: 0" /tmp/sc.reset
}
check "schedctl: --reset gives every parameter it does not name its default (weight, L, U, flags, nice)" \
	schedctl_reset
check "schedctl: running a command starts from schedctl's own parameters (nice 5 kept into batch)" \
	sh -c 'schedctl -c other --nice 5 -- schedctl -c batch -- sh -c "schedctl -p \$\$" > /tmp/sc.cmd
	       cat /tmp/sc.cmd; grep -q SCHED_BATCH /tmp/sc.cmd && grep -q "nice: 5" /tmp/sc.cmd'
expect_fail "schedctl: a time without a unit is a usage error that names the units" \
	2 "needs a unit: ns, us, ms or s" schedctl -c bvt --warp 50 -- true
expect_fail "schedctl: -b (chrt's SCHED_BATCH) is refused, naming -c batch and --budget" \
	2 "use -c batch for that, or --budget" schedctl -c deadline -b 1ms -P 10ms -- true
expect_fail "schedctl: -d (chrt's SCHED_DEADLINE) is refused, naming -c deadline and --deadline" \
	2 "use -c deadline for that, or --deadline" schedctl -c deadline --budget 1ms -d 10ms -P 10ms -- true
# -p PID,PID and -p repeated; a missing pid fails the call but not the others
schedctl_pids() {
	sleep 30 >/dev/null 2>&1 & a=$!
	sleep 30 >/dev/null 2>&1 & b=$!
	sleep 30 >/dev/null 2>&1 & c=$!
	schedctl -c batch --nice 3 -p $a,$b -p $c; r=$?
	schedctl -c idle -p $a,999999,$b; r2=$?
	schedctl -p $a,$b -p $c > /tmp/sc.pids
	kill $a $b $c
	cat /tmp/sc.pids
	[ $r -eq 0 ] && [ $r2 -eq 1 ] &&
	[ "$(grep -c "nice: 3" /tmp/sc.pids)" -eq 3 ] &&
	[ "$(grep -c "policy: SCHED_IDLE" /tmp/sc.pids)" -eq 2 ] &&
	grep -q "pid $c's policy: SCHED_BATCH" /tmp/sc.pids
}
check "schedctl: several pids in one call (-p A,B -p C), and a missing one fails only itself" \
	schedctl_pids
schedctl_list_tasks() {
	schedctl -c bvt -w 777 -- sleep 30 >/dev/null 2>&1 & p=$!
	sleep 0.2
	schedctl --list-tasks bvt > /tmp/sc.list; r=$?
	schedctl --list-tasks > /tmp/sc.all || r=1
	kill $p
	cat /tmp/sc.list
	[ $r -eq 0 ] && grep -Eq "^ *$p +$p +SCHED_BVT +sleep +nice=0 weight=777 " /tmp/sc.list &&
	! grep -q SCHED_OTHER /tmp/sc.list && grep -Eq "^ +1 +1 " /tmp/sc.all &&
	grep -Eq "^ *$p +$p +SCHED_BVT " /tmp/sc.all
}
check "schedctl: --list-tasks bvt lists a BVT thread with its weight, and only BVT threads" \
	schedctl_list_tasks
# busybox has no JSON parser: check the structure (the host test parses it)
schedctl_json() {
	schedctl -c bvt -w 777 --warp 5ms --warp-limit 2ms --warp-signal -- sleep 30 >/dev/null 2>&1 & p=$!
	sleep 0.2
	schedctl --json -p $p > /tmp/sc.json && schedctl --list-tasks bvt --json > /tmp/sc.ljson &&
	schedctl --list --json > /tmp/sc.pjson; r=$?
	kill $p
	cat /tmp/sc.json /tmp/sc.ljson /tmp/sc.pjson
	[ $r -eq 0 ] && [ "$(head -n 1 /tmp/sc.json)" = "[" ] && [ "$(tail -n 1 /tmp/sc.json)" = "]" ] &&
	[ $(tr -cd '{' < /tmp/sc.json | wc -c) -eq $(tr -cd '}' < /tmp/sc.json | wc -c) ] &&
	grep -q "{\"pid\": $p, \"tid\": $p, \"policy\": \"SCHED_BVT\", \"policy_nr\": 8, \"class\": \"bvt\"" /tmp/sc.json &&
	grep -q '"weight": 777, "warp_ns": 5000000, "warp_limit_ns": 2000000, "unwarp_ns": 0, "flags": \["warp-signal"\]' /tmp/sc.json &&
	grep -q '"ms": {"ms.class": "bvt", "ms.weight": 777, ' /tmp/sc.json &&
	grep -q "{\"pid\": $p, \"tid\": $p, \"comm\": \"sleep\", \"policy\": \"SCHED_BVT\"" /tmp/sc.ljson &&
	grep -q '"name": "bvt", "policy": "SCHED_BVT", "nr": 8, "available": true' /tmp/sc.pjson &&
	grep -q '"multisched_classes": \[.*"bvt"' /tmp/sc.pjson
}
check "schedctl: --json of showing, --list-tasks and --list has the expected members" \
	schedctl_json

# --- the classes this kernel is built with must all accept tasks; a class
# that regressed to refusing them would otherwise skip its whole block ------
for c in bvt vtrr bebs rbs; do
	check "classes: $c is built and accepts tasks (kernel.sched_ms_classes)" \
		grep -qw $c /proc/sys/kernel/sched_ms_classes
done

# --- SCHED_BVT: the experiments of the paper ---------------------------------
# Where the share tolerances come from:
#  - 2 points over 10 s (3 over 3 s for experiment 5): BVT keeps each
#    thread within C + mcu of its weight's share (paper, section 2.1):
#    4 ms over 10 s, 0.04 points. The rest is the measurement: the
#    watcher reads the children's schedstat one after another from the
#    other virtual CPU, and a stall of that vCPU by the host between two
#    reads skews the shares by the stall over the window: 2 points allows
#    a 200 ms stall in 10 s (90 ms in 3 s), the longest TCG stalls seen
#    in the guest logs are tens of ms.
#  - 10 points for the SMP spread: the balancer moves whole threads, and
#    any placement but the right one is at least 17 points off (3 1 | 1 1
#    gives 75/25/50/50 against 100/33/33/33; 2 1 | 1 gives 67/33/100
#    against 100/50/50), so 10 points tells the right placement from every
#    other while allowing the balancer's 20 ms pushes in the window.
if grep -qw bvt /proc/sys/kernel/sched_ms_classes; then
	measure "bvt: figure 1, weights 2:1 on one CPU get 2/3 and 1/3 within 2 points over 10 s" \
		$T/ms_share -t 10 2 1
	# Seven runs in a row, never retried: every run must pass, and the
	# spread of each weight's share over the runs is printed. (Ten until
	# 2026-11-27; three fewer keep make check within its time.)
	share_runs() {
		runs=$1; shift
		bad=0 r=0
		: > /tmp/shares
		while [ $r -lt "$runs" ]; do
			out=$($T/ms_share "$@") || { bad=$((bad + 1)); echo "run $r failed:"; echo "$out"; }
			echo "$out" | sed -n 's/^ms_share: weight \([0-9]*\) got \([0-9.]*\)%.*/\1 \2/p' >> /tmp/shares
			r=$((r + 1))
		done
		echo "weight min max (percent over $runs runs, $bad failed)"
		for w in $(cut -d' ' -f1 /tmp/shares | sort -nu); do
			grep "^$w " /tmp/shares | cut -d' ' -f2 | sort -n |
				sed -n '1p;$p' | tr '\n' ' ' | sed "s/^/$w /;s/ $//"
			echo
		done
		[ "$bad" -eq 0 ] && [ "$(wc -l < /tmp/shares)" -eq $((runs * ($# - 2))) ]
	}
	measure "bvt: five hogs with weights 1..5 get their proportion within 2 points over 10 s, in each of 7 runs in a row" \
		share_runs 7 -t 10 1 2 3 4 5
	measure "bvt: figure 2, a thread that slept 5 s shares fairly from its wakeup: over 10 s (2 points) and over the first 500 ms (2 points + C)" \
		$T/ms_share -s 5 -t 10 1 1

	# figure 3, the warp in a signal handler, tables 4 and 5, the
	# unwarped sleeper and the HRTICK checks run under --icount
	# (tests/guest/bvt_latency.sh)

	# experiment 5: the reserved-effort level against a growing best-effort one
	measure "bvt: experiment 5, a reserved thread of weight 1024 keeps 1024/(1024 + be_weight) of a CPU with 1, 10 and 50 best-effort threads (3 points)" \
		$T/bvt_levels -t 3 1 10 50
	measure "bvt: experiment 5 contrast, the same thread unreserved falls to 1/(N + 1) (printed, not checked)" \
		$T/bvt_levels -x -t 3 1 10 50

	# load balancing: whole threads, by weight, across CPUs and hotplug
	measure "bvt: weights 3 1 1 1 started on CPU 0 spread over two CPUs as 100/33/33/33% (10 points)" \
		$T/bvt_spread 3 1 1 1
	# 2 and 1 on CPU 0, 1 on CPU 1: only the thread of weight 1 narrows
	# the gap, and the tick finds it queued while the other runs; a push
	# left to the next switch would find them swapped, every time
	measure "bvt: weights 2 and 1 started on CPU 0 and 1 on CPU 1 even out as 100/50/50% (10 points): the tick pushes the light thread while the heavy one runs" \
		$T/bvt_spread -c 0,0,1 2 1 1
	measure "bvt: weights 2 1 1 get 100/50/50%, 50/25/25% with CPU 1 offline, and 100/50/50% again once it is back (10 points)" \
		$T/bvt_spread -H 2 1 1
	check "bvt: CPU 1 is online after the hotplug test" \
		grep -qx 1 /sys/devices/system/cpu/cpu1/online

	# the ABI and schedctl with a class that accepts tasks
	check "bvt: schedctl sets weight, warp, L and U and reads them back" \
		sh -c 'schedctl -c bvt -w 2048 --warp 20ms --warp-limit 5ms --unwarp 50ms -- \
			sh -c "schedctl -p \$\$" > /tmp/bvt.show &&
		       grep -q "weight: 2048" /tmp/bvt.show && grep -q "warp: 20ms" /tmp/bvt.show &&
		       grep -q "warp limit: 5ms" /tmp/bvt.show && grep -q "unwarp: 50ms" /tmp/bvt.show &&
		       grep -q "ms.bvt.A" /tmp/bvt.show'
	expect_fail "bvt: a negative warp is EINVAL" 1 "invalid parameters for SCHED_BVT" \
		schedctl -c bvt --warp -5ms -- true
	expect_fail "bvt: a warp limit below 10us is EINVAL" 1 "invalid parameters for SCHED_BVT" \
		schedctl -c bvt --warp 1ms --warp-limit 5us -- true
	expect_fail "bvt: an unprivileged --reserved is EPERM (RLIMIT_RTPRIO 1)" 1 "reserved level (--reserved) needs CAP_SYS_NICE" \
		$T/as_user -r 1 65534 schedctl -c bvt --reserved -- true
	check "bvt: a privileged --reserved thread runs" \
		schedctl -c bvt --reserved -- true
	# keeping the reserved level is not asking for it: the unprivileged
	# owner of a reserved thread may change its nice or call
	# sched_setparam(2), which keeps its class parameters
	bvt_keep_reserved() {
		$T/as_user -r 1 65534 sleep 30 & u=$!
		sleep 0.2
		schedctl -c bvt --reserved -p $u || return 1
		$T/as_user -r 1 65534 schedctl -c bvt --reserved --nice 3 -p $u; r=$?
		schedctl -p $u | grep -E "flags|nice"
		schedctl -p $u | grep -q reserved || r=1
		kill $u; wait $u 2>/dev/null
		return $r
	}
	measure "bvt: the unprivileged owner of a reserved thread may keep it reserved while raising its nice" \
		bvt_keep_reserved
	# bvt_level ARGS...: ms.bvt.level of a shell started by schedctl -c bvt ARGS
	bvt_level() {
		schedctl -c bvt "$@" -- sh -c 'cat /proc/$$/sched' |
			sed -n 's/^ms\.bvt\.level *: *\([0-9]*\).*/\1/p'
	}
	bvt_levels_shown() {
		re=$(bvt_level --reserved)
		be=$(bvt_level)
		echo "ms.bvt.level: reserved '$re', best effort '$be'"
		[ "$re" = 0 ] && [ "$be" = 1 ]
	}
	check "bvt: /proc/PID/sched shows ms.bvt.level 0 for a reserved thread, 1 for a best-effort one" \
		bvt_levels_shown
	expect_fail "bvt: kernel.sched_bvt_be_weight=0 is refused" \
		1 "Invalid argument" sh -c 'echo 0 > /proc/sys/kernel/sched_bvt_be_weight'
	expect_fail "bvt: kernel.sched_bvt_be_mode=2 is refused" \
		1 "Invalid argument" sh -c 'echo 2 > /proc/sys/kernel/sched_bvt_be_mode'
	check "bvt: kernel.sched_bvt_be_mode takes 0 and 1, kernel.sched_bvt_be_weight 2048 (then restored)" \
		sh -c 'm=/proc/sys/kernel/sched_bvt_be_mode w=/proc/sys/kernel/sched_bvt_be_weight
		       mode=$(cat $m) && weight=$(cat $w) || exit 1
		       echo 0 > $m && grep -qx 0 $m && echo 1 > $m && grep -qx 1 $m &&
		       echo 2048 > $w && grep -qx 2048 $w; r=$?
		       echo $mode > $m; echo $weight > $w; exit $r'
	# what each parameter does, not only that its sysctl reads back
	# (bvt_behave.c gives each bound's derivation)
	measure "bvt: U, a warped thread waking every 2 ms with U 20 ms warps at most once per U (>= 45 warps in 2 s, none closer than U); with U 0 at >= 90% of its wakeups" \
		$T/bvt_behave unwarp
	measure "bvt: MS_FLAG_WARP_OFF keeps W (sched_getattr reads it) but none of 100 wakeups warps; without the flag >= 90 do" \
		$T/bvt_behave warpoff
	measure "bvt: C, direct switches between two equal hogs stay within their CPU time / 2C + interruptions + 1, for C 2 ms and 8 ms" \
		$T/bvt_behave csw
	measure "bvt: M, a spinner moved beside a hog waits M longer to run with M 20 ms than with M 0 (medians of 7 moves, two ticks)" \
		$T/bvt_behave migrate
	measure "bvt: mcu, 200 runs of 200 us are charged a whole 5 ms mcu each (A grows >= 0.9 s, and by half an mcu per run more than the CPU time); with mcu 0 <= 2x" \
		$T/bvt_behave mcu
	measure "bvt: best-effort modes, with a 10 ms threshold a W 5 ms thread lifts the aggregate only in direct mode, a W 50 ms one in both" \
		$T/bvt_behave bemode
	expect_fail "bvt: an unprivileged raise of weight is EPERM (RLIMIT_RTPRIO 1)" 1 "needs CAP_SYS_NICE" \
		$T/as_user -r 1 65534 schedctl -c bvt -w 5000 -- true
	check "bvt: an unprivileged thread may lower its weight (RLIMIT_RTPRIO 1)" \
		$T/as_user -r 1 65534 schedctl -c bvt -w 100 -- true
	expect_fail "bvt: an unprivileged thread may not warp (RLIMIT_RTPRIO 1)" 1 "needs CAP_SYS_NICE" \
		$T/as_user -r 1 65534 schedctl -c bvt --warp 1ms -- true
	# entering a class above fair needs what SCHED_FIFO needs
	expect_fail "bvt: an unprivileged task with RLIMIT_RTPRIO 0 may not enter SCHED_BVT" \
		1 "non-zero RLIMIT_RTPRIO (it is 0)" $T/as_user 65534 schedctl -c bvt -- true
	check "bvt: an unprivileged task with RLIMIT_RTPRIO 1 may enter SCHED_BVT" \
		$T/as_user -r 1 65534 schedctl -c bvt -- true
	check "bvt: with sched_normal_class=bvt an unprivileged task may enter SCHED_BVT with RLIMIT_RTPRIO 0" \
		sh -c 'echo bvt > /proc/sys/kernel/sched_normal_class &&
		       '$T'/as_user 65534 schedctl -c bvt -- true; r=$?
		       echo fair > /proc/sys/kernel/sched_normal_class; exit $r'
	# a warped thread may give up its warp, but not loosen L, U or the flags
	bvt_loosen() {
		$T/as_user -r 1 65534 sleep 30 & u=$!
		sleep 0.2
		schedctl -c bvt --warp 10ms --warp-limit 2ms --unwarp 5ms --warp-signal -p $u || return 1
		r=0
		for args in "--warp-limit 5ms --unwarp 5ms --warp-signal" \
			    "--warp-limit 0ns --unwarp 5ms --warp-signal" \
			    "--warp-limit 2ms --unwarp 1ms --warp-signal" \
			    "--warp-limit 2ms --unwarp 5ms --flags none"; do
			out=$($T/as_user -r 1 65534 schedctl -c bvt --warp 10ms $args -p $u 2>&1)
			rc=$?
			echo "$args: exit $rc: $out"
			[ $rc -eq 1 ] && echo "$out" | grep -q "loosen" || r=1
		done
		$T/as_user -r 1 65534 schedctl -c bvt --warp 10ms --warp-limit 1ms --unwarp 10ms --warp-signal -p $u ||
			{ echo "tightening refused"; r=1; }
		$T/as_user -r 1 65534 schedctl --reset -c bvt -p $u || { echo "giving up the warp refused"; r=1; }
		# a --warp-signal thread without an L has the default 10 ms one
		schedctl --reset -c bvt --warp 10ms --warp-signal -p $u || r=1
		out=$($T/as_user -r 1 65534 schedctl -c bvt --warp 10ms --warp-limit 10s --warp-signal -p $u 2>&1)
		rc=$?
		echo "--warp-signal, no L, then --warp-limit 10s: exit $rc: $out"
		[ $rc -eq 1 ] && echo "$out" | grep -q "loosen" || r=1
		kill $u; wait $u 2>/dev/null
		return $r
	}
	measure "bvt: an unprivileged owner of a warped thread gets EPERM for a longer or no L, a shorter U and dropping --warp-signal; may tighten them or drop the warp" \
		bvt_loosen
	printf '#!/bin/sh\nschedctl -p $$\n' > /tmp/showself.sh
	check "bvt: a child inherits SCHED_BVT and its weight" \
		sh -c 'schedctl -c bvt -w 300 -- sh -c "sh /tmp/showself.sh; true" | grep -q "weight: 300"'
	check "bvt: reset-on-fork sends children back to SCHED_OTHER" \
		sh -c 'schedctl -R -c bvt -w 300 -- sh -c "sh /tmp/showself.sh; true" | grep -q "SCHED_OTHER"'

	# the whole system under BVT, switched at run time and back
	check "bvt: kernel.sched_normal_class=bvt moves every SCHED_NORMAL task, hackbench runs, and back to fair" \
		sh -c 'echo bvt > /proc/sys/kernel/sched_normal_class &&
		       grep -q "ms.class.*bvt" /proc/1/sched &&
		       hackbench -g 2 -l 50 >/dev/null &&
		       echo fair > /proc/sys/kernel/sched_normal_class &&
		       ! grep -q "ms.class" /proc/1/sched'
fi

# --- safety: the windows of BVT and VTRR under stress (2 CPUs for 30 s
# here, 4 for 60 s in the stress boot) ----------------------------------------
if grep -qw bvt /proc/sys/kernel/sched_ms_classes &&
   grep -qw vtrr /proc/sys/kernel/sched_ms_classes; then
	cat /proc/sys/kernel/sched_ms_bandwidth > /tmp/bw.before
	measure "stress: 2 CPUs, 30 s of blocking and waking workers moved between BVT, VTRR, BEBS (best-effort and periodic), RBS (own, shared and joined reservations) and the mainline policies, re-pinned and PI-boosted; every worker progressed" \
		$T/ms_stress -t 30 -w 8
	check "stress: with the workers gone every reservation (periodic BEBS, RBS, shared) is released: each CPU's admitted bandwidth is what it was before" \
		sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do
			       cmp -s /tmp/bw.before /proc/sys/kernel/sched_ms_bandwidth && exit 0
			       sleep 0.2
		       done
		       cat /tmp/bw.before /proc/sys/kernel/sched_ms_bandwidth; exit 1'
else
	notok "stress: BVT and VTRR are both available"
fi

# --- SCHED_VTRR: the experiments of the paper --------------------------------
if grep -qw vtrr /proc/sys/kernel/sched_ms_classes; then
	echo "# KUnit, section 5.1: average service time error in milli time units (max/min per algorithm)"
	dmesg | sed -n 's/^.*# vtrr_test_simulation: vtrr sim: /# /p'
	measure "vtrr: five hogs with shares 1..5 on one CPU get their proportion within 2 points over 10 s" \
		$T/ms_share -p vtrr -t 10 1 2 3 4 5
	measure "vtrr: shares 3:2:1 started together: >= 90% of >= 20 scheduling cycles serve A, B, C 3, 2, 1 times in 6 picks of VTRR's scan, and >= 10 as A, B, C, A, B, A when no turn was stretched by a stalled vCPU (vtrr_pick trace)" \
		$T/vtrr_order
	measure "vtrr: the same with affinity changes of running and waiting clients every 1 ms: no client gets a turn beyond its share" \
		$T/vtrr_order -a
	measure "vtrr: a 500 us quantum ends on time with the HRTICK feature (median turn of two hogs <= 750 us) and at the tick without it (>= 900 us; sched_switch trace)" \
		$T/ms_hrtick -m vtrr
	check "vtrr: schedctl runs a command with share 3 and shows its share, VFT, counter and service" \
		sh -c 'schedctl -c vtrr -w 3 -- sh -c "schedctl -p \$\$" > /tmp/vtrr.show &&
		       grep -q "weight: 3" /tmp/vtrr.show &&
		       grep -Eq "ms.vtrr.share +: +3$" /tmp/vtrr.show &&
		       grep -q "ms.vtrr.VFT" /tmp/vtrr.show &&
		       grep -q "ms.vtrr.counter" /tmp/vtrr.show &&
		       grep -q "ms.vtrr.service_ns" /tmp/vtrr.show'
	# the pid is asleep when it moves: /proc shows the share it will wake with
	check "vtrr: schedctl moves a sleeping pid into VTRR with share 7" \
		sh -c 'sleep 5 & p=$!
		       while ! grep -q "^[0-9]* (sleep) S" /proc/$p/stat; do sleep 0.1; done
		       schedctl -c vtrr -w 7 -p $p &&
		       grep -Eq "ms.vtrr.share +: +7$" /proc/$p/sched; r=$?; kill $p; exit $r'
	check "vtrr: share 0 takes the weight of the nice value (nice 5 = 335)" \
		sh -c 'schedctl -c vtrr -w 0 --nice 5 -- cat /proc/self/sched |
		       grep -Eq "ms.vtrr.share +: +335$"'
	check "vtrr: the whole system can be switched to VTRR and back at run time" \
		sh -c 'echo vtrr > /proc/sys/kernel/sched_normal_class &&
		       grep -Eq "ms.class +: +vtrr$" /proc/1/sched &&
		       grep -q "^ms.vtrr.VFT" /proc/2/sched &&
		       echo fair > /proc/sys/kernel/sched_normal_class &&
		       grep -qx fair /proc/sys/kernel/sched_normal_class &&
		       ! grep -q "^ms\." /proc/1/sched'
	expect_fail "vtrr: share 100001 (above 100000) is EINVAL" 1 "invalid parameters for SCHED_VTRR" \
		schedctl -c vtrr -w 100001 -- true
	expect_fail "vtrr: a BVT parameter (warp) is EINVAL" 1 "invalid parameters for SCHED_VTRR" \
		schedctl -c vtrr --warp 1ms -- true
	expect_fail "vtrr: a class flag is EINVAL" 1 "invalid parameters for SCHED_VTRR" \
		schedctl -c vtrr --reserved -- true
	expect_fail "vtrr: an unprivileged share above the current weight is EPERM (RLIMIT_RTPRIO 1)" 1 "needs CAP_SYS_NICE" \
		$T/as_user -r 1 65534 schedctl -c vtrr -w 2048 -- true
	check "vtrr: an unprivileged share below the current weight is allowed (RLIMIT_RTPRIO 1)" \
		$T/as_user -r 1 65534 schedctl -c vtrr -w 512 -- true
	expect_fail "vtrr: an unprivileged task with RLIMIT_RTPRIO 0 may not enter SCHED_VTRR" \
		1 "non-zero RLIMIT_RTPRIO (it is 0)" $T/as_user 65534 schedctl -c vtrr -w 512 -- true
	expect_fail "vtrr: quantum sysctl below 100 us is EINVAL" 1 "Invalid argument" \
		sh -c 'echo 99999 > /proc/sys/kernel/sched_vtrr_quantum_ns'
	expect_fail "vtrr: quantum sysctl above 1 s is EINVAL" 1 "Invalid argument" \
		sh -c 'echo 1000000001 > /proc/sys/kernel/sched_vtrr_quantum_ns'
	check "vtrr: quantum sysctl reads 4 ms by default and takes 1 ms" \
		sh -c 'grep -qx 4000000 /proc/sys/kernel/sched_vtrr_quantum_ns &&
		       echo 1000000 > /proc/sys/kernel/sched_vtrr_quantum_ns &&
		       grep -qx 1000000 /proc/sys/kernel/sched_vtrr_quantum_ns &&
		       echo 4000000 > /proc/sys/kernel/sched_vtrr_quantum_ns'
	# figure 3 (vtrr_overhead) runs in a boot of its own: overhead.sh
	measure "vtrr: shares 3 1 1 1 started on CPU 0 spread over two CPUs as 100/33/33/33% (10 points)" \
		$T/bvt_spread -p vtrr 3 1 1 1
	measure "vtrr: shares 2 and 1 started on CPU 0 and 1 on CPU 1 even out as 100/50/50% (10 points): the tick pushes the small client while the large one runs" \
		$T/bvt_spread -p vtrr -c 0,0,1 2 1 1
	measure "vtrr: shares 2 1 1 get 100/50/50%, 50/25/25% with CPU 1 offline, and 100/50/50% again once it is back (10 points)" \
		$T/bvt_spread -p vtrr -H 2 1 1
	check "vtrr: CPU 1 is online after the hotplug test" \
		grep -qx 1 /sys/devices/system/cpu/cpu1/online
fi

# --- SCHED_BEBS: best-effort bandwidth servers over EDF --------------------
if grep -qw bebs /proc/sys/kernel/sched_ms_classes; then
	# Two hogs of importance 2 and 1 (u = q / L * U_BE, section 4.3): each
	# runs its budget b = e_max per period p = b / u, and slack
	# reclamation keeps their order when the CPU would idle, so the error
	# is at most one budget (200 ms) in 10 s: 2 points.
	measure "bebs: hogs of importance 2 and 1 on one CPU get 67/33% within 2 points over 10 s (one e_max budget in 10 s)" \
		$T/ms_share -p bebs -t 10 2 1
	measure "bebs: alone on a CPU a BEBS hog runs as much as a SCHED_OTHER hog there (2 points): slack reclamation gives it the CPU beyond U_BE" \
		$T/bebs_behave alone
	measure "bebs: beside a SCHED_OTHER hog a BEBS hog runs U_BE of the CPU and fair the rest (3 points): slack is reclaimed only when the CPU would idle" \
		$T/bebs_behave mixed
	measure "bebs: budgets end by their hrtimer, also for a server slack releases and the CPU picks again (at least 5 in 300 ms of a lone hog), and no BEBS timer fires in 2 s after it sleeps (timer:hrtimer_expire_entry)" \
		$T/bebs_behave idle -t 2
	# a periodic sleeper beside 2 hogs runs under --icount
	# (tests/guest/budgets.sh)
	check "bebs: schedctl runs a command as a best-effort server and shows its state, budget, period, e_avg and deadline" \
		sh -c 'schedctl -c bebs -- sh -c "schedctl -p \$\$" > /tmp/bebs.show &&
		       grep -q "SCHED_BEBS" /tmp/bebs.show &&
		       grep -Eq "ms.bebs.state +: +(executing|blocked)$" /tmp/bebs.show &&
		       grep -Eq "ms.bebs.budget_ns +: +[1-9][0-9]*$" /tmp/bebs.show &&
		       grep -Eq "ms.bebs.period_ns +: +[1-9][0-9]*$" /tmp/bebs.show &&
		       grep -q "ms.bebs.e_avg_ns" /tmp/bebs.show &&
		       grep -q "ms.bebs.deadline" /tmp/bebs.show'
	# periodic real-time tasks: admission and their CPU (their jobs,
	# overruns and a priority-inheritance boost of a throttled one run
	# under --icount: tests/guest/budgets.sh)
	$T/bebs_hard admit || fails=$((fails + 1))
	check "bebs: U_BE,min (sysctl sched_bebs_u_be_min_ppm, 5%) is left free: 3 ms every 10 ms is refused with it at 70% and admitted with it at 5%" \
		sh -c 'f=/proc/sys/kernel/sched_bebs_u_be_min_ppm
		       grep -qx 50000 $f && echo 700000 > $f &&
		       ! schedctl -c bebs --periodic --budget 3ms -P 10ms -- true 2>/dev/null &&
		       echo 50000 > $f &&
		       schedctl -c bebs --periodic --budget 3ms -P 10ms -- true'
	check "bebs: schedctl runs a periodic task of 1 ms every 10 ms and shows its 10% reservation" \
		sh -c 'schedctl -c bebs --periodic --budget 1ms -P 10ms -- cat /proc/self/sched |
		       grep -Eq "ms.bebs.reserved_ppm +: +100000$"'
	expect_fail "bebs: schedctl explains EBUSY for a new periodic task no CPU of its affinity has room for, and how it is placed" \
		1 "admits a new periodic task on the first CPU of its affinity with room" \
		schedctl -c bebs --periodic --budget 9ms -P 10ms -- true
	expect_fail "bebs: schedctl explains EBUSY for an admitted periodic task that grows past its CPU's room, naming the CPU" \
		1 "changes an admitted periodic task on the CPU it holds, CPU [0-9]" \
		sh -c 'schedctl -c bebs --periodic --budget 1ms -P 10ms -- sh -c "schedctl -p \$\$ -c bebs --periodic --budget 9ms -P 10ms"'
	expect_fail "bebs: a periodic task without CAP_SYS_NICE is EPERM even with RLIMIT_RTPRIO 1, as SCHED_DEADLINE" \
		1 "needs CAP_SYS_NICE to reserve" \
		$T/as_user -r 1 65534 schedctl -c bebs --periodic --budget 1ms -P 10ms -- true
	check "bebs: an unprivileged task with RLIMIT_RTPRIO 1 may enter SCHED_BEBS as a best-effort server" \
		$T/as_user -r 1 65534 schedctl -c bebs -- true
	expect_fail "bebs: entering BEBS without CAP_SYS_NICE or RLIMIT_RTPRIO is EPERM" \
		1 "non-zero RLIMIT_RTPRIO (it is 0)" $T/as_user 65534 schedctl -c bebs -- true
	check "bebs: the e_max sysctl reads 200 ms, takes 50 ms and refuses 2 s" \
		sh -c 'f=/proc/sys/kernel/sched_bebs_e_max_ns
		       grep -qx 200000000 $f && echo 50000000 > $f &&
		       grep -qx 50000000 $f && ! echo 2000000000 > $f 2>/dev/null &&
		       echo 200000000 > $f'
	measure "bebs: importance 3 1 1 1 started on CPU 0 spread over two CPUs as 100/33/33/33% (10 points)" \
		$T/bvt_spread -p bebs 3 1 1 1
	measure "bebs: importance 2 and 1 started on CPU 0 and 1 on CPU 1 even out as 100/50/50% (10 points)" \
		$T/bvt_spread -p bebs -c 0,0,1 2 1 1
fi

# --- SCHED_RBS: reservations (the traced experiments run in the rbs-figs
# boot, on one CPU: tests/guest/rbs_figs.sh) -------------------------------
if grep -qw rbs /proc/sys/kernel/sched_ms_classes; then
	# bounds, privilege, admission against the limit and the
	# rate-monotonic bound, release, fork
	$T/rbs_resv admit || fails=$((fails + 1))
	# background mode (MS_FLAG_RBS_BACKGROUND), changes of a live
	# reservation, I/O servers (MS_FLAG_RBS_IO) and priority inheritance
	# run under --icount (tests/guest/budgets.sh)
	# a thread a boost took off its reservation's CPU goes back there
	$T/rbs_resv away || fails=$((fails + 1))
	# a reservation shared by threads of two users, made, joined,
	# changed by a member, outliving its maker
	$T/rbs_resv shared || fails=$((fails + 1))
	check "rbs: schedctl --shared makes a reservation, --join puts a command in it, and schedctl shows its 2 members" \
		sh -c 'schedctl -c rbs --shared --budget 1ms -P 10ms -- sleep 5 & m=$!
		       sleep 0.5
		       schedctl -c rbs --join $m -- sh -c "schedctl -p \$\$" > /tmp/rbs.join
		       kill $m
		       grep -Eq "ms.rbs.members +: +2$" /tmp/rbs.join &&
		       grep -Eq "ms.rbs.shared_id +: +$m$" /tmp/rbs.join &&
		       grep -Eq "ms.rbs.budget_ns +: +1000000$" /tmp/rbs.join'
	check "rbs: schedctl --io-server runs a command as an I/O server of 10% at 10 ms and shows it, admitted as (2 - U) U = 19%" \
		sh -c 'schedctl -c rbs --io-server --budget 10% -P 10ms -- sh -c "schedctl -p \$\$" > /tmp/rbs.io &&
		       grep -Eq "ms.rbs.io_period_ns +: +10000000$" /tmp/rbs.io &&
		       grep -Eq "ms.rbs.reserved_ppm +: +(189999|190000)$" /tmp/rbs.io'
	check "rbs: schedctl runs a command in a reservation of 1 ms every 10 ms and shows it (10%, its budget and period)" \
		sh -c 'schedctl -c rbs --budget 1ms -P 10ms -- sh -c "schedctl -p \$\$" > /tmp/rbs.show &&
		       grep -q "SCHED_RBS" /tmp/rbs.show &&
		       grep -Eq "ms.rbs.reserved_ppm +: +100000$" /tmp/rbs.show &&
		       grep -Eq "ms.rbs.budget_ns +: +1000000$" /tmp/rbs.show &&
		       grep -Eq "ms.rbs.period_ns +: +10000000$" /tmp/rbs.show'
	# rbs_ctl, the feedback controller (sched-rbs-ctl.rst): its
	# experiments run in a boot of their own under --icount
	# (tests/guest/rbs_ctl.sh); here, schedctl's side of it. The
	# command's stdin pipe is kept nearly full (it does not read it), so
	# that the controller raises the allocation: with an empty
	# pipe it would run the shell at the least allocation, 0.5%
	check "rbs_ctl: schedctl --feedback --consumer 0 runs a command as a real-rate thread whose stdin pipe is its metric" \
		sh -c 'head -c 60000 /dev/zero | schedctl -c rbs --feedback --consumer 0 -- sh -c "schedctl -p \$\$" > /tmp/rbsctl.show &&
		       grep -q "feedback" /tmp/rbsctl.show &&
		       grep -Eq "ms.rbs_ctl.kind +: real-rate$" /tmp/rbsctl.show &&
		       grep -Eq "ms.rbs_ctl.metrics +: +1$" /tmp/rbsctl.show'
	# refused before schedctl enters the class (rbs_ctl bad checks the
	# kernel's EINVAL)
	expect_fail "rbs_ctl: schedctl refuses --consumer of a regular file and says why" \
		1 "not a pipe, FIFO or socket" \
		schedctl -c rbs --feedback --consumer 0 -- true < /proc/version
	# cpu1 holds about 20% (the servers' share): 70% more fits under the
	# 95% limit but not under the bound for two tasks, 82.8%
	expect_fail "rbs: schedctl explains an EBUSY of the rate-monotonic bound" \
		1 "rate-monotonic bound" taskset -c 1 schedctl -c rbs --budget 70ms -P 100ms -- true
fi

# --- no class starves another: each general class (and fair) has a
# dl_server per CPU, which runs it when the classes above starve it -------
for v in bebs bvt vtrr other; do
	measure "servers: a SCHED_$(echo $v | tr a-z A-Z) task keeps its server's runtime per period ((6 s / period - 1) * runtime) beside hogs of every class above it on its CPU" \
		$T/ms_pairs share $v
	measure "servers: a SCHED_$(echo $v | tr a-z A-Z) task holding a plain mutex beside hogs of every class above it lets a SCHED_FIFO waiter have it within two server periods" \
		$T/ms_pairs lock $v
done
# a server's runtime and period are set per CPU in debugfs, as fair's
server_debugfs() {
	d=/sys/kernel/debug/sched/bvt_server/cpu1
	before=$(bw_sum)
	echo 25000000 > $d/runtime || return 1
	half=$(bw_sum)
	echo 1000 > $d/period 2>/dev/null && { echo "a period of 1 us was taken"; return 1; }
	echo 2000000000 > $d/runtime 2>/dev/null && { echo "a runtime above the period was taken"; return 1; }
	echo 50000000 > $d/runtime || return 1
	after=$(bw_sum)
	echo "sum of used ppm: $before with 50 ms, $half with 25 ms, $after with 50 ms again; runtime $(cat $d/runtime) period $(cat $d/period)"
	# 25 ms every second is 25000 ppm less over the CPUs, give or take
	# 2 ppm per CPU, as in the bandwidth test
	n=$(nproc)
	[ $((before - half)) -ge $((25000 - 2 * n)) ] &&
	[ $((before - half)) -le $((25000 + 2 * n)) ] &&
	[ "$after" -eq "$before" ] && [ "$(cat $d/runtime)" = 50000000 ]
}
measure "servers: debugfs bvt_server/cpu1 takes a runtime of 25 ms (25000 ppm less admitted) and back, refuses a 1 us period and a runtime above the period" \
	server_debugfs
# the CPU hotplug tests above rebuilt the root domains: what is admitted
# must be back to what the bandwidth test found at boot
bandwidth_after_hotplug() {
	start=$(cat /tmp/bw.start 2>/dev/null) || { echo "no starting value"; return 1; }
	now=$(bw_sum)
	cat $BW
	echo "sum of used ppm: $start at the start, $now after the hotplug tests"
	[ "$now" -eq "$start" ]
}
measure "sched_ms_bandwidth: after CPU hotplug the admitted bandwidth (DL's and the servers') is what it was at the start" \
	bandwidth_after_hotplug

# --- cgroups, autogroup and cpusets (a distribution's kernel) --------------
# (tests/guest/cgroup.sh runs under --icount: tests/guest/budgets.sh)

# --- utilisation signals ---------------------------------------------------
# The classes' run time counts in the CPU's RT utilisation (avg_rt), so
# fair treats a CPU they saturate as it treats one SCHED_FIFO saturates:
# two fair hogs started there move to the other CPU and share it
# (ms_util; each at least 37.5% of a CPU). Without the signal, in a
# boot of November 2026, 5 of 6 such runs failed (least shares of 11.7
# to 30.3%); with it, the least share was 42.0 to 52.3% in 12 runs.
# Two rounds each, all to pass (without the signal, both would pass in
# about one case of 36);
# SCHED_FIFO first, mainline's behaviour in this boot, which the class
# checks assume: if it fails, that is a failure of its own. The class's
# tick feeds the signal too, so a hog that saturates its CPU does not
# tell whether the updates at each switch are right; those were checked
# by reading every transition against rt.c.
util_rounds() {
	for r in 1 2; do
		$T/ms_util -n 2 -m "$1" || return 1
	done
}
measure "util: two fair hogs leave a CPU that SCHED_FIFO saturates for the other CPU and share it (mainline's reference, 2 rounds)" \
	util_rounds fifo
for c in bvt vtrr bebs; do
	grep -qw $c /proc/sys/kernel/sched_ms_classes || continue
	measure "util: two fair hogs leave a CPU that $c saturates for the other CPU and share it, as with SCHED_FIFO (avg_rt; 2 rounds)" \
		util_rounds $c
done

# last: the churn campaign, 30 s on this boot's 2 CPUs (5 TAP lines); the
# stress boot runs it for 60 s on 4
$T/churn.sh -t 30 || fails=$((fails + 1))

exit $((fails > 0))
