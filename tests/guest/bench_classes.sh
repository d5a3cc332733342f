#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The throughput of the general classes against EEVDF, in one boot:
# perf bench sched pipe and messaging, and hackbench with processes and
# with threads, with every task of the benchmark in SCHED_OTHER (EEVDF),
# SCHED_BVT or SCHED_VTRR. Each benchmark runs once per class in each
# round, the classes in a rotated order, for ROUNDS rounds (default 5);
# the table gives each class's median time, its range, and the ratio of
# its median to EEVDF's (below 1 is faster). A report, not a test: make
# bench-classes runs it (Documentation/scheduler/sched-bvt.rst).
#
#   bench_classes.sh [ROUNDS]
#
# Needs root, schedctl, rt-tests' hackbench and perf in PATH.

rounds=${1:-5}
case $rounds in *[!0-9]*|'') echo "usage: $0 [ROUNDS]" >&2; exit 2 ;; esac
[ "$rounds" -ge 1 ] || { echo "usage: $0 [ROUNDS]" >&2; exit 2; }
for p in schedctl hackbench perf awk sort; do
	command -v $p >/dev/null 2>&1 || { echo "$0: $p is not in PATH" >&2; exit 1; }
done

. "$(dirname "$0")/rounds.sh"

W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT

groups=$((2 * $(nproc)))
PIPE="perf bench sched pipe -l 20000"
PIPET="perf bench sched pipe -T -l 20000"
MSG="perf bench sched messaging -g $groups -l 100"
HB="hackbench -g $groups -l 100"
HBT="hackbench -T -g $groups -l 100"
benches="pipe pipet msg hb hbt"
classes="other bvt vtrr"
label_other="SCHED_OTHER (EEVDF)"
label_bvt=SCHED_BVT
label_vtrr=SCHED_VTRR

lowest() { sort -n | awk 'NR == 1 { print $1 }'; }
highest() { sort -n | awk '{ v = $1 } END { print v }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0 && a != "-") printf "%.3f\n", a / b; else print "-" }'; }


# run CLASS BENCH: the seconds one run takes ("Time: S" from hackbench,
# "Total time: S [sec]" from perf), "-" when it failed
run() {
	eval cmd=\$$(echo "$2" | tr a-z A-Z)
	schedctl -c "$1" -- $cmd 2>/dev/null |
		awk '/^Time:/ { t = $2 } /Total time:/ { t = $3 } END { print t == "" ? "-" : t }'
}

echo "== bench_classes: $(uname -r), $(nproc) CPUs, $rounds interleaved rounds"
for b in $benches; do for c in $classes; do : > "$W/$b.$c"; done; done
r=1
while [ "$r" -le "$rounds" ]; do
	echo "round $r/$rounds" >&2
	for b in $benches; do
		for c in $(rotate $((r - 1)) $classes); do
			t=$(run "$c" "$b")
			echo "csv,$b,$c,$r,$t"
			[ "$t" = - ] || echo "$t" >> "$W/$b.$c"
		done
	done
	r=$((r + 1))
done

fails=0
for b in $benches; do
	eval title=\$$(echo "$b" | tr a-z A-Z)
	base=$(median < "$W/$b.other")
	echo
	echo "== $title"
	printf '%-20s %5s %9s %17s %9s\n' class runs "median s" "range s" "vs EEVDF"
	for c in $classes; do
		eval label=\$label_$c
		n=$(wc -l < "$W/$b.$c")
		[ "$n" -eq "$rounds" ] || fails=1
		m=$(median < "$W/$b.$c")
		printf '%-20s %5s %9s %17s %9s\n' "$label" "$n" "$m" \
			"$(lowest < "$W/$b.$c")..$(highest < "$W/$b.$c")" "$(ratio "$m" "$base")"
	done
done
[ $fails -eq 0 ] || echo "some runs failed (fewer runs than rounds above)"
exit $fails
