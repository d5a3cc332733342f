#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Helpers sourced by the scripts that run a benchmark in interleaved
# rounds (demo.sh, bench_classes.sh, bench_wakeup.sh).

# rotate K WORDS...: the words from the K-th (0-based, modulo their count) on
rotate() {
	k=$(($1 % ($# - 1))); shift
	i=0 head= tail=
	for w; do
		if [ $i -lt $k ]; then head="$head $w"; else tail="$tail $w"; fi
		i=$((i + 1))
	done
	echo $tail $head
}

# median: the median of the numbers on stdin, one a line, or "-"
median() { sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "-" }'; }
