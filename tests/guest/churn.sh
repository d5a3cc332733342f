#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# churn.sh [-t SECS]: the churn campaign (ms_churn) for SECS seconds
# (default 60) on every CPU the guest has, and its verdict as TAP lines.
# make stress runs it for 30 minutes under KASAN, UBSAN and lockdep, on the
# patched kernel and on the unpatched baseline, where it runs all the
# same: on a kernel without the multisched classes ms_churn counts their
# policies' EINVAL like any other. make check runs it at the end of the
# main boot (30 s on 2 CPUs) and of the stress boot (60 s on 4 CPUs).
# Every line ms_churn prints is shown as "# churn: ...".

. "$(dirname "$0")/tap.sh"

secs=60
[ "${1:-}" = -t ] && secs=$2
# not $out or $rc: tap.sh's check and measure set those
cout=/tmp/churn.out
klog=/tmp/churn.klog
dmesg -c > /dev/null
$T/ms_churn -t "$secs" > $cout 2>&1 &
cpid=$!
# ms_churn ends a few seconds after SECS. One stress boot of 2026-11-27
# hung here: a churn thread held the CPU hotplug lock, runnable, for
# minutes. If it has not ended 90 s late, show where every churn thread
# and every runqueue is, so that a hang is seen, not only timed out.
waited=0
while kill -0 $cpid 2>/dev/null && [ $waited -lt $((secs + 90)) ]; do
	sleep 1
	waited=$((waited + 1))
done
if kill -0 $cpid 2>/dev/null; then
	echo "# churn: ms_churn has not ended $((waited - secs)) s after its time; its threads:"
	for t in /proc/$cpid/task/*; do
		echo "# churn: thread ${t##*/}: $(sed -n 's/^State:[[:space:]]*//p' $t/status)," \
			"policy $(awk '/^policy/ { print $3 }' $t/sched)," \
			"prio $(awk '/^prio/ { print $3 }' $t/sched), cpu $(awk '{ print $39 }' $t/stat)"
		sed 's/^/# churn:   /' $t/stack 2>/dev/null
	done
	sed 's/^/# churn: sched_debug: /' /proc/sched_debug
	kill -9 $cpid
fi
wait $cpid
crc=$?
dmesg > $klog
sed 's/^/# /' $cout

ncpu=$(nproc --all 2>/dev/null || nproc)
field() { sed -n "s/^churn: $1//p" $cout | head -1; }
errnos_ok() {
	[ "$(field 'unexpected errnos: ')" = 0 ] || return 1
	calls=$(field 'system calls ' | awk '{ print $1 }')
	[ "${calls:-0}" -gt 0 ] || return 1
	# every secondary CPU went offline at least once, whole campaign long
	[ "$ncpu" -eq 1 ] && return 0
	off=$(field 'hotplug: ' | awk '{ print $1 }')
	[ "${off:-0}" -ge $((ncpu - 1)) ]
}
check "churn: ${secs} s on $ncpu CPUs of random sched_setattr/getattr/setaffinity and legacy calls, PI futexes, fork and thread storms and hotplug of every secondary CPU: every errno one documented for its call" \
	errnos_ok
check "churn: ms_churn ended within 90 s of its time (else the threads and runqueues are shown above)" \
	[ $waited -lt $((secs + 90)) ]
check "churn: every target ran again at each watchdog check, and no fuzzer or hotplug write was stuck for 60 s" \
	grep -q '^churn: watchdog: [1-9][0-9]* checks, .*: yes$' $cout
check "churn: the admitted bandwidth (DL total_bw, sched_ms_bandwidth) is back to its start once every target has exited" \
	grep -q '^churn: bandwidth back to its start: yes$' $cout
# the console log is judged again by the host; this names the campaign
splat='WARNING:|BUG:|Oops|lockdep|possible recursive locking|possible circular locking|inconsistent lock state|suspicious RCU usage|rcu: INFO|detected stall|blocked for more than|oom-killer|Out of memory|UBSAN:'
klog_clean() {
	if grep -Eq "$splat" $klog; then
		grep -E "$splat" $klog | head -5
		return 1
	fi
	echo "ms_churn exited $crc; kernel log clean"
}
check "churn: the kernel logged no warning, bug, lock-validator report, RCU stall, hung task or OOM during the campaign" \
	klog_clean
exit $((fails > 0))
