#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo of `make demo`, and the same comparison on a machine booted into
# the patched kernel: list the classes, say what machine the numbers come
# from, then compare the scheduling classes on throughput (hackbench with
# processes and with threads, perf bench sched messaging) and on cyclictest
# wakeup latency while a hackbench loop loads the machine.
#
# Every measurement is repeated ROUNDS times and interleaved: the hackbench
# runs A B C D, B C D A, ... and the latency rows likewise, one SECONDS-long
# cyclictest run per row and round. The tables give medians with their
# spread over the rounds, and ratios against SCHED_OTHER (EEVDF) and
# SCHED_FIFO measured in the same boot. With the project's classes the
# demo also reports its goals (hackbench within 5% of EEVDF for BVT and
# VTRR, within 3% for BEBS, a warped thread's p99 within 1.5x of
# SCHED_FIFO's); they are goals this project set itself, not figures from
# the papers, and they are not asserted. Every run is also printed as CSV between "== csv begin" and
# "== csv end" (class,row,round,metric,value).
#
#   demo.sh [--platform WHAT] [--host-cpu MODEL] [ROUNDS] [SECONDS]
#
# ROUNDS defaults to 5, SECONDS (per latency run) to 5. --platform says
# where the kernel runs: "qemu" (scripts/demo passes it; TCG or KVM is told
# from the guest's CPU), "qemu tcg", "qemu kvm", "vm" or "hardware";
# without it the demo looks at /proc/cpuinfo and DMI. --host-cpu names the
# host's CPU for a guest, whose own CPU model is QEMU's under TCG.
#
# Needs root, schedctl (in PATH, or in ../../../bin as make install-tests
# puts it), and rt-tests' cyclictest and hackbench in PATH; perf (for its
# messaging benchmark) is used when it is there. MS_TESTS
# (default: this script's directory) is where it looks from. Uses a
# temporary directory and restores kernel.sched_normal_class when it ends
# or is interrupted.

usage() {
	sed -n '20,26s/^# \{0,1\}//p' "$0" >&2
	exit "${1:-2}"
}

platform= host_cpu=
while [ $# -gt 0 ]; do
	case $1 in
	--platform)	[ $# -ge 2 ] || usage; platform=$2; shift 2 ;;
	--host-cpu)	[ $# -ge 2 ] || usage; host_cpu=$2; shift 2 ;;
	-h|--help)	usage 0 ;;
	--)		shift; break ;;
	-*)		usage ;;
	*)		break ;;
	esac
done
rounds=${1:-5}
secs=${2:-5}
case $rounds$secs in *[!0-9]*|'') usage ;; esac
[ "$rounds" -ge 1 ] && [ "$secs" -ge 1 ] || usage

MS_TESTS=${MS_TESTS:-$(cd "$(dirname "$0")" && pwd)}
. "$MS_TESTS/rounds.sh"
# Installed by make install-tests (or unpacked from make tests-tarball),
# schedctl is in ../../../bin from here.
[ -x "$MS_TESTS/../../../bin/schedctl" ] &&
	PATH="$(cd "$MS_TESTS/../../../bin" && pwd):$PATH"

# --- what the demo needs ----------------------------------------------------
missing=
for p in cyclictest hackbench schedctl taskset awk sort mktemp; do
	command -v $p >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "demo.sh: not found in PATH:$missing" >&2
	case $missing in *cyclictest*|*hackbench*)
		echo "  cyclictest and hackbench are in rt-tests (Debian, Ubuntu: apt install rt-tests;" >&2
		echo "  Fedora: dnf install realtime-tests)" >&2 ;;
	esac
	case $missing in *schedctl*)
		echo "  schedctl: make install-tests in the multisched repository (README, \"On real hardware\")" >&2 ;;
	esac
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "demo.sh: run it as root (real-time classes, SCHED_DEADLINE, warps and kernel.sched_normal_class need it)" >&2
	exit 1
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/ms-demo.XXXXXX") || exit 1
NC=/proc/sys/kernel/sched_normal_class
nc0=$(cat $NC 2>/dev/null)
load=
cleanup() {
	if [ -n "$load" ]; then
		touch "$W/load.stop"
		wait "$load" 2>/dev/null
	fi
	[ -n "$nc0" ] && [ "$(cat $NC)" != "$nc0" ] && echo "$nc0" > $NC
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$$/status)
ncpu=$(grep -c '^processor' /proc/cpuinfo)
[ "$ncpu" -gt 0 ] || ncpu=$(nproc)
# Two hackbench groups (40 tasks) per CPU: -g 4 on the 2 vCPUs of make demo.
groups=$((2 * ncpu))
HB="hackbench -g $groups -l 100"
HBT="hackbench -T -g $groups -l 100"
MSG="perf bench sched messaging -g $groups -l 100"
HIST=100000	# cyclictest's histogram, in us; longer latencies are counted as overflows
CT="cyclictest -q -m -t 1 -i 1000 -D $secs -h $HIST"

# The goals this project set itself, as ratios (reported, not asserted).
HB_GOAL=1.05		# hackbench in BVT or VTRR over EEVDF: within 5%
BEBS_GOAL=1.03		# each throughput benchmark in BEBS over EEVDF: within 3%
P99_GOAL=1.50		# warped cyclictest p99 over SCHED_FIFO's

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
# The "SCHED_BVT unwarped" row is its control: the same weight, no warp.
BVT_WEIGHT="-w 100000"
BVT_WARP="$BVT_WEIGHT --warp 50ms --warp-limit 5ms --unwarp 0"
# SCHED_VTRR's cyclictest gets the same share.
VTRR_SHARE="-w 100000"
# A BEBS best-effort thread needs nothing: its server's budget follows the
# short bursts it runs, so its deadline at a wakeup is near. The hard row
# makes cyclictest's measuring thread a periodic BEBS task with the budget
# and period of the SCHED_DEADLINE row, admitted on the CPU cyclictest
# pins it to.
BEBS_HARD="--periodic --budget 500us -P 1ms"
# SCHED_DEADLINE's measuring thread: 500 us of runtime every 1 ms period,
# beyond the 100-200 us a cycle takes under TCG. cyclictest pins its
# measuring thread to one CPU; SCHED_DEADLINE refuses a thread whose
# affinity does not span its root domain, so that thread gets this shell's
# CPUs back first (taskset) and may run on any of them.
DL_PARAMS="--budget 500us -P 1ms"

# --- where the numbers come from ----------------------------------------------
cpu_model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)
[ -n "$cpu_model" ] || cpu_model="$(uname -m) (no model name in /proc/cpuinfo)"
dmi_vendor=$(cat /sys/class/dmi/id/sys_vendor 2>/dev/null)
if [ -z "$platform" ]; then
	case "$cpu_model $dmi_vendor" in
	*QEMU*)	platform=qemu ;;
	*)	if grep -qw hypervisor /proc/cpuinfo; then platform=vm; else platform=hardware; fi ;;
	esac
fi
# Under TCG the guest sees QEMU's CPU model ("QEMU TCG CPU version ..." for
# -cpu max); under KVM (-cpu host) it sees the host's.
if [ "$platform" = qemu ]; then
	case $cpu_model in
	*QEMU*)	platform="qemu tcg" ;;
	*)	platform="qemu kvm" ;;
	esac
fi
[ -n "$host_cpu" ] || case $platform in qemu\ kvm) host_cpu=$cpu_model ;; esac
case $platform in
"qemu tcg")
	machine="QEMU, accelerator TCG (emulation), $ncpu vCPUs; host CPU: ${host_cpu:-not given}"
	claim="emulated: compare the rows as ratios within this boot; the absolute
         times and latencies are TCG's, many times hardware's, and say nothing
         about hardware" ;;
"qemu kvm")
	machine="QEMU, accelerator KVM, $ncpu vCPUs; host CPU: ${host_cpu:-not given}"
	claim="virtual: the vCPUs are host threads and timers pass through the host;
         compare the rows as ratios within this boot, not as absolute latencies" ;;
vm)
	machine="virtual machine (${dmi_vendor:-hypervisor flag set}), $ncpu vCPUs; CPU: $cpu_model${host_cpu:+; host CPU: $host_cpu}"
	claim="virtual: the vCPUs are host threads and timers pass through the host;
         compare the rows as ratios within this boot, not as absolute latencies" ;;
hardware)
	machine="hardware, $ncpu CPUs; CPU: $cpu_model"
	claim="hardware: this machine's times, under this kernel's configuration and
         whatever else runs; the rows are comparable within this run" ;;
*)
	machine="$platform, $ncpu CPUs; CPU: $cpu_model${host_cpu:+; host CPU: $host_cpu}"
	claim="compare rows as ratios within this run" ;;
esac
debug=
# (not the word itself: scripts/qemu-run takes it in the console for a splat)
[ -e /proc/lockdep ] && debug="; debug kernel (lock dependency checking on)"

# --- helpers ----------------------------------------------------------------
# progress lines start with "... " (scripts/demo leaves them out of its table)
progress() { echo "... $*"; }

# csv CLASS ROW ROUND METRIC VALUE: one line of the raw data
csv() { printf '%s,%s,%s,%s,%s\n' "$@" >> "$W/csv"; }
# csv_meta NAME VALUE: a fact about the run, quoted
csv_meta() { printf 'meta,-,0,%s,"%s"\n' "$1" "$(printf '%s' "$2" | sed 's/"/""/g')" >> "$W/csv"; }

# The numbers on stdin, one a line; ">N" (beyond the histogram) sorts above
# every number, "-" (not measured) is dropped.
sorted() {
	awk '$1 != "-" { k = $1; if (k ~ /^>/) k = substr(k, 2) + 0.5; print k, $1 }' |
		sort -n | awk '{ print $2 }'
}
median() { sorted | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "-" }'; }
lowest() { sorted | awk 'NR == 1 { v = $1 } END { print NR ? v : "-" }'; }
highest() { sorted | awk '{ v = $1 } END { print NR ? v : "-" }'; }

# ratio A B: A / B to two decimals; ">R" when A is beyond the histogram; "-"
# when either is not measured, B is beyond the histogram or B is 0
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		gt = ""
		if (a ~ /^>/) { gt = ">"; a = substr(a, 2) }
		if (a !~ /^[0-9]+(\.[0-9]*)?$/ || b !~ /^[0-9]+(\.[0-9]*)?$/ || b + 0 == 0)
			print "-"
		else
			printf "%s%.2f\n", gt, a / b
	}'
}

# us V: a latency for the table, ">Nms" when beyond the histogram
us() {
	case $1 in
	">"*)	echo ">$((${1#?} / 1000))ms" ;;
	*)	echo "$1" ;;
	esac
}

# range LOW HIGH: "LOW..HIGH", or "-" when not measured
range() { if [ "$1" = - ]; then echo -; else echo "$1..$2"; fi; }


has() { grep -qw "$1" /proc/sys/kernel/sched_ms_classes 2>/dev/null; }

# --- the header -------------------------------------------------------------
echo "== multisched demo"
echo "machine: $machine"
echo "kernel:  $(uname -r)$debug"
echo "rounds:  $rounds, interleaved: in each, each throughput benchmark once per class,"
echo "         then cyclictest -i 1000us for ${secs}s once per latency row"
echo "times:   $claim"
echo "tests:   $MS_TESTS"
echo
echo "== classes in this kernel"
schedctl --list
echo

: > "$W/csv"
csv_meta platform "$platform"
csv_meta cpus "$ncpu"
csv_meta cpu_model "$cpu_model"
csv_meta host_cpu "$host_cpu"
csv_meta kernel "$(uname -r)$debug"
csv_meta rounds "$rounds"
csv_meta latency_run_s "$secs"
csv_meta hackbench "$HB"
csv_meta hackbench_threads "$HBT"
csv_meta messaging "$MSG"
csv_meta cyclictest "$CT"

# --- throughput: each benchmark under each class, interleaved -----------------
classes="other fifo"
has bvt && classes="$classes bvt"
has vtrr && classes="$classes vtrr"
has bebs && classes="$classes bebs"
prefix_other="schedctl -c other --"
prefix_fifo="schedctl -c fifo --prio 10 --"
prefix_bvt="schedctl -c bvt --"
prefix_vtrr="schedctl -c vtrr --"
prefix_bebs="schedctl -c bebs --"
hb_row_other="SCHED_OTHER (EEVDF)"
hb_row_fifo=SCHED_FIFO
hb_row_bvt=SCHED_BVT
hb_row_vtrr=SCHED_VTRR
hb_row_bebs="SCHED_BEBS"

# The benchmarks: hackbench with processes (hb) and threads (hbt), and
# perf's messaging benchmark (msg), the same program perf carries, when
# perf is there.
benches="hb hbt"
command -v perf >/dev/null 2>&1 && $MSG >/dev/null 2>&1 && benches="$benches msg"
bench_cmd_hb=$HB;	bench_title_hb="$HB";	bench_metric_hb=hackbench_s
bench_cmd_hbt=$HBT;	bench_title_hbt="$HBT";	bench_metric_hbt=hackbench_threads_s
bench_cmd_msg=$MSG;	bench_title_msg="$MSG";	bench_metric_msg=messaging_s

# bench_time CMD-PREFIX BENCH: seconds one run of BENCH takes under the
# prefix (hackbench prints "Time: S", perf "Total time: S [sec]")
bench_time() {
	eval cmd=\$bench_cmd_$2
	$1 $cmd 2>/dev/null |
		awk '/^Time:/ { t = $2 } /Total time:/ { t = $3 } END { print t == "" ? "-" : t }'
}

for b in $benches; do for c in $classes; do : > "$W/$b.$c"; done; done
r=1
while [ $r -le "$rounds" ]; do
	progress "throughput round $r/$rounds"
	for b in $benches; do
		eval metric=\$bench_metric_$b
		for c in $(rotate $((r - 1)) $classes); do
			eval p=\$prefix_$c row=\$hb_row_$c
			t=$(bench_time "$p" $b)
			echo "$t" >> "$W/$b.$c"
			csv "$c" "$row" $r "$metric" "$t"
		done
	done
	r=$((r + 1))
done

# --- latency: one measuring thread, period 1 ms, while hackbench loops -------
# load_start [CMD-PREFIX]: start the loop, each hackbench run under the
# prefix (none: in the class of this shell). The loop stops at the end of
# its current run once $W/load.stop exists.
load_start() {
	load_prefix=$1
	rm -f "$W/load.stop"
	( while [ -d "$W" ] && [ ! -e "$W/load.stop" ]; do $load_prefix $HB; done ) >/dev/null 2>&1 &
	load=$!
}
load_stop() {
	touch "$W/load.stop"
	wait $load
	load=
}

# cyclictest's histogram (-h) to "p50 p99 max samples overflows", the
# latencies in us. Samples beyond the histogram are counted as overflows,
# and a percentile that lies among them is ">$HIST".
hist_pct() {
	# cyclictest prints every bucket: drop the empty ones first (faster).
	# busybox awk reads a leading 0 as octal: strip cyclictest's padding
	grep -v '^[0-9]* 000000$' | awk -v hist=$HIST 'function dec(s) { sub(/^0+/, "", s); return s + 0 }
	     /^[0-9]+ +[0-9]+/ { v = dec($2); if (v) { n[dec($1)] = v; top = dec($1) } tot += v }
	     /^# Max Latencies/ { max = dec($4) }
	     /^# Histogram Overflows/ { ovf = dec($4) }
	     END {
		all = tot + ovf
		if (!all) { print "- - - 0 0"; exit }
		p50 = ">" hist; p99 = p50; got50 = 0
		for (us = 0; us <= top; us++) {
			c += n[us]
			if (!got50 && c >= all * 0.50) {
				p50 = us; got50 = 1
			}
			if (c >= all * 0.99) {
				p99 = us
				break
			}
		}
		printf "%s %s %d %d %d\n", p50, p99, max, all, ovf
	     }'
}

# ct_looping PID: print the id of cyclictest's measuring thread once it has
# slept 10 times, that is, it is in its loop and past the
# sched_setscheduler() it makes when it starts. Fails if none is within
# 10 s or PID is gone.
ct_looping() {
	n=0
	while [ $n -lt 100 ] && [ -d /proc/$1 ]; do
		for t in /proc/$1/task/*; do
			[ "${t##*/}" = "$1" ] && continue
			s=$(awk '/^voluntary_ctxt_switches:/ { print $2 }' $t/status 2>/dev/null)
			[ "${s:-0}" -ge 10 ] && { echo "${t##*/}"; return 0; }
		done
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# lat_plain LOAD-PREFIX CYCLICTEST-ARGS...: cyclictest started under the load
lat_plain() {
	load_start "$1"; shift
	$CT "$@" > "$W/ct.out" 2>/dev/null
	load_stop
	hist_pct < "$W/ct.out"
}

# lat_moved SHELL-CLASS LOAD-PREFIX SCHEDCTL-ARGS [taskset]: cyclictest started in
# SCHED_OTHER before the load, then moved with "schedctl SCHEDCTL-ARGS",
# in which $ct is cyclictest's pid and $tid its measuring thread. The
# classes it is moved to sit above SCHED_OTHER, which gets only what the
# fair dl_server gives it while the load runs, so:
#  - cyclictest resets its measuring thread to the --policy it is given when
#    that thread starts; it is therefore started before the load, and moved
#    once the measuring thread is in its loop. The histogram includes the
#    few unloaded cycles before the load starts.
#  - with a SHELL-CLASS, this shell moves into that class for the run, so
#    that it, and the load loop it forks, are not starved; it goes back
#    after.
#  - the histogram is read only after the load has stopped.
# With "taskset", the measuring thread first gets this shell's CPUs.
lat_moved() {
	[ -n "$1" ] && schedctl -c $1 -p $$ >/dev/null
	$CT --policy=other > "$W/ct.out" 2>/dev/null &
	ct=$!
	if tid=$(ct_looping $ct) &&
	   { [ -z "$4" ] || taskset -p -c "$cpus" $tid >/dev/null 2>"$W/ct.err"; } &&
	   eval "schedctl $3" >/dev/null 2>"$W/ct.err"; then
		load_start "$2"
		wait $ct
		load_stop
		hist_pct < "$W/ct.out"
	else
		wait $ct
		echo "- - - 0 0"
		{ echo "($row_label: could not move cyclictest (schedctl $3); no latency)"
		  sed 's/^/ /' "$W/ct.err" 2>/dev/null; } >> "$W/notes"
	fi
	[ -n "$1" ] && schedctl -c other -p $$ >/dev/null
}

# whole_system CLASS: cyclictest in SCHED_OTHER and the load, with every
# SCHED_NORMAL task in CLASS (kernel.sched_normal_class)
whole_system() {
	echo "$1" > $NC
	lat_plain "" --policy=other
	echo "${nc0:-fair}" > $NC
}

# lat_run ROW: one latency run of ROW
lat_run() {
	case $1 in
	other)		lat_plain "" --policy=other ;;
	fifo)		lat_plain "" -p 80 --policy=fifo ;;
	deadline)	lat_moved "" "" "-c deadline $DL_PARAMS -p \$tid" taskset ;;
	bvtwarp)	lat_moved bvt "$prefix_bvt" "-a -c bvt $BVT_WARP -p \$ct" ;;
	bvtunwarp)	lat_moved bvt "$prefix_bvt" "-a -c bvt $BVT_WEIGHT -p \$ct" ;;
	bvtall)		whole_system bvt ;;
	vtrr)		lat_moved vtrr "$prefix_vtrr" "-a -c vtrr $VTRR_SHARE -p \$ct" ;;
	vtrrall)	whole_system vtrr ;;
	bebs)		lat_moved bebs "$prefix_bebs" "-a -c bebs -p \$ct" ;;
	bebshard)	lat_moved "" "" "-c bebs $BEBS_HARD -p \$tid" ;;
	bebsall)	whole_system bebs ;;
	esac
}
lat_label_other="SCHED_OTHER (EEVDF)";	lat_class_other=other
lat_label_fifo=SCHED_FIFO;		lat_class_fifo=fifo
lat_label_deadline=SCHED_DEADLINE;	lat_class_deadline=deadline
lat_label_bvtwarp="SCHED_BVT warped";	lat_class_bvtwarp=bvt
lat_label_bvtunwarp="SCHED_BVT unwarped"; lat_class_bvtunwarp=bvt
lat_label_bvtall="BVT whole system";	lat_class_bvtall=bvt
lat_label_vtrr=SCHED_VTRR;		lat_class_vtrr=vtrr
lat_label_vtrrall="VTRR whole system";	lat_class_vtrrall=vtrr
lat_label_bebs="SCHED_BEBS";		lat_class_bebs=bebs
lat_label_bebshard="SCHED_BEBS periodic"; lat_class_bebshard=bebs
lat_label_bebsall="BEBS whole system";	lat_class_bebsall=bebs

rows="other fifo deadline"
has bvt && rows="$rows bvtwarp bvtunwarp bvtall"
has vtrr && rows="$rows vtrr vtrrall"
has bebs && rows="$rows bebs bebshard bebsall"
: > "$W/notes"
for l in $rows; do : > "$W/lat.$l"; done
r=1
while [ $r -le "$rounds" ]; do
	progress "latency round $r/$rounds"
	for l in $(rotate $((r - 1)) $rows); do
		eval row_label=\$lat_label_$l cls=\$lat_class_$l
		# not in $(...): the load loop must be this shell's child, so
		# that cleanup stops it when the demo is interrupted
		lat_run $l > "$W/res"
		cat "$W/res" >> "$W/lat.$l"
		set -- $(cat "$W/res")
		csv "$cls" "$row_label" $r p50_us "$1"
		csv "$cls" "$row_label" $r p99_us "$2"
		csv "$cls" "$row_label" $r max_us "$3"
		csv "$cls" "$row_label" $r samples "$4"
		csv "$cls" "$row_label" $r overflows "$5"
	done
	r=$((r + 1))
done
progress done
echo

# --- the tables -------------------------------------------------------------
col() { awk -v c="$1" '{ print $c }' "$2"; }

for b in $benches; do
	eval title=\$bench_title_$b
	base=$(median < "$W/$b.other")
	echo "== $title: median and range of $rounds interleaved runs per class"
	echo
	printf '%-20s %9s %17s %9s\n' class "median s" "range s" "vs OTHER"
	for c in $classes; do
		eval row=\$hb_row_$c
		m=$(median < "$W/$b.$c")
		printf '%-20s %9s %17s %9s\n' "$row" "$m" \
			"$(range "$(lowest < "$W/$b.$c")" "$(highest < "$W/$b.$c")")" "$(ratio "$m" "$base")"
	done
	echo
done
case " $benches " in *" msg "*) ;; *)
	echo "($MSG did not run here (is perf in PATH?): no messaging table)"; echo ;;
esac
# bench_ratio BENCH CLASS: the median of CLASS over SCHED_OTHER's
bench_ratio() { ratio "$(median < "$W/$1.$2")" "$(median < "$W/$1.other")"; }

fifo_p99=$(col 2 "$W/lat.fifo" | median)
echo "== cyclictest -i 1000us, ${secs}s per run under a hackbench loop: medians of"
echo "== $rounds interleaved runs per row, p99 range, and the largest latency of any run"
echo
printf '%-20s %8s %8s %17s %9s %9s\n' row "p50 us" "p99 us" "p99 range" "max us" "p99/FIFO"
for l in $rows; do
	eval row_label=\$lat_label_$l
	p50=$(col 1 "$W/lat.$l" | median)
	p99=$(col 2 "$W/lat.$l" | median)
	lo=$(col 2 "$W/lat.$l" | lowest)
	hi=$(col 2 "$W/lat.$l" | highest)
	mx=$(col 3 "$W/lat.$l" | highest)
	printf '%-20s %8s %8s %17s %9s %9s\n' "$row_label" "$(us "$p50")" "$(us "$p99")" \
		"$(range "$(us "$lo")" "$(us "$hi")")" "$(us "$mx")" "$(ratio "$p99" "$fifo_p99")"
	eval p99_$l=\$p99
done
echo

# SCHED_RBS: a reservation's service in each period beside SCHED_DEADLINE
# with the same budget, and an I/O server's requests, measured and
# printed by rbs_resv (one run each; nothing in them is a speed claim)
if has rbs; then
	progress "SCHED_RBS rows"
	"$MS_TESTS/rbs_resv" -c $((ncpu - 1)) demo
	progress "rbs_ctl row"
	"$MS_TESTS/rbs_ctl" demo
fi

# goal WHAT VALUE LIMIT WHY: one line saying whether VALUE <= LIMIT
goal() {
	case $2 in
	-)	verdict="not measured" ;;
	">"*)	if awk -v v="${2#?}" -v l="$3" 'BEGIN { exit !(v > l) }'; then
			verdict="not met"
		else
			verdict="unknown (beyond the histogram)"
		fi ;;
	*)	if awk -v v="$2" -v l="$3" 'BEGIN { exit !(v <= l) }'; then
			verdict=met
		else
			verdict="not met"
		fi ;;
	esac
	printf '  %-46s %6s  goal <= %s (%s): %s\n' "$1" "$2" "$3" "$4" "$verdict"
}
if has bvt || has vtrr || has bebs; then
	echo "The project's goals (its own, not the papers'; reported, not asserted):"
	if has bvt; then
		goal "hackbench SCHED_BVT / SCHED_OTHER (EEVDF)" \
			"$(bench_ratio hb bvt)" $HB_GOAL "within 5%"
		goal "cyclictest p99 SCHED_BVT warped / SCHED_FIFO" \
			"$(ratio "$p99_bvtwarp" "$fifo_p99")" $P99_GOAL "within 1.5x"
	fi
	has vtrr && goal "hackbench SCHED_VTRR / SCHED_OTHER (EEVDF)" \
		"$(bench_ratio hb vtrr)" $HB_GOAL "within 5%"
	if has bebs; then
		goal "hackbench SCHED_BEBS / SCHED_OTHER (EEVDF)" \
			"$(bench_ratio hb bebs)" $BEBS_GOAL "within 3%"
		goal "hackbench -T SCHED_BEBS / SCHED_OTHER (EEVDF)" \
			"$(bench_ratio hbt bebs)" $BEBS_GOAL "within 3%"
		case " $benches " in *" msg "*)
		goal "messaging SCHED_BEBS / SCHED_OTHER (EEVDF)" \
			"$(bench_ratio msg bebs)" $BEBS_GOAL "within 3%" ;;
		esac
	fi
	echo
fi
cat "$W/notes"
echo "(Throughput: vs OTHER is the median time over SCHED_OTHER's, lower is faster;"
echo " each class runs every task of the benchmark."
echo " Latency: p50 and p99 are medians over the rounds of each run's percentile,"
echo " p99 range their lowest and highest, max us the largest latency of any run;"
echo " \">$((HIST / 1000))ms\" lies beyond cyclictest's ${HIST} us histogram (counted as"
echo " overflows). p99/FIFO: median p99 over SCHED_FIFO's, lower is better."
echo " The load loop runs in SCHED_OTHER for the SCHED_OTHER, SCHED_FIFO (cyclictest"
echo " at priority 80) and SCHED_DEADLINE rows; SCHED_DEADLINE is cyclictest's"
echo " measuring thread with runtime 500 us per 1 ms period, free to run on any"
echo " CPU; in the other rows cyclictest keeps it on one CPU."
if has bvt; then
	echo " SCHED_BVT: hackbench with all its tasks in SCHED_BVT, unwarped."
	echo " SCHED_BVT warped: cyclictest's threads in SCHED_BVT with weight 100000,"
	echo " W 50ms, L 5ms, U 0 while the load loop runs with all its tasks in SCHED_BVT,"
	echo " unwarped; SCHED_BVT unwarped, the control: the same with weight 100000 and"
	echo " no warp. BVT whole system: kernel.sched_normal_class=bvt, so every"
	echo " SCHED_NORMAL task, kernel threads, the load and cyclictest included, runs"
	echo " in BVT, unwarped."
else
	echo " This kernel has no SCHED_BVT: no BVT rows."
fi
if has vtrr; then
	echo " SCHED_VTRR: hackbench with all its tasks in SCHED_VTRR, share 1024; in the"
	echo " latency row cyclictest's threads have share 100000 and the load share 1024."
	echo " VTRR whole system: kernel.sched_normal_class=vtrr; cyclictest's thread and"
	echo " the load run in VTRR with shares from nice."
else
	echo " This kernel has no SCHED_VTRR: no VTRR rows."
fi
if has rbs; then
	echo " SCHED_RBS: a thread spinning in a reservation of 1.5 ms every 30 ms"
	echo " (Steere et al. 3.1) measures its own CPU time in each period; the"
	echo " DEADLINE row is the same thread with runtime 1.5 ms, deadline and period"
	echo " 30 ms. The I/O rows: a server of U = 10% (100 ms every second) answers"
	echo " 100 us requests over a pipe from a reservation of 1.5 ms every 10 ms on"
	echo " the same CPU as a CPU-bound reservation of 6 ms every 40 ms; p50, p90"
	echo " and max are the times from a request to the server's run, period ms the"
	echo " period it ran at, 40 ms % the CPU-bound reservation's share after."
	echo " rbs_ctl: a SCHED_FIFO producer of a 4 KiB block every 10 ms and a"
	echo " consumer the feedback controller sets, joined by an AF_UNIX stream of"
	echo " 1 MiB; the producer's rate doubles (x), and the consumer's allocation follows;"
	echo " settled: the time until the stream's fill level is back within 10% of"
	echo " half for good. The controller's cost is its own CPU time with 40"
	echo " controlled threads, on this kernel (make bench-rbs-ctl measures it on"
	echo " the benchmark kernel under --icount)."
fi
if has bebs; then
	echo " SCHED_BEBS: every task of the benchmark a best-effort BEBS task (nice 0);"
	echo " in the latency row cyclictest's threads and the load too. SCHED_BEBS"
	echo " periodic: cyclictest's measuring thread a periodic BEBS task, 500 us every"
	echo " 1 ms on its CPU, the load in SCHED_OTHER. BEBS whole system:"
	echo " kernel.sched_normal_class=bebs.)"
else
	echo " This kernel has no SCHED_BEBS: no BEBS rows.)"
fi
echo
echo "== csv begin"
echo "class,row,round,metric,value"
cat "$W/csv"
echo "== csv end"
