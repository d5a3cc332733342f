#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# TAP helpers sourced by the guest test scripts (run-tests.sh,
# whole-system.sh, overhead.sh): each check prints "ok - name" or "not ok - name" and
# failures are counted in $fails.

T=${MS_TESTS:-$(cd "$(dirname "$0")" && pwd)}	# the test programs: beside the script
fails=0

# when each result came, on stderr: the console log, not the results
uptime_mark() { echo "[uptime $(cut -d' ' -f1 /proc/uptime) s]" >&2; }
ok()	{ echo "ok - $*"; uptime_mark; }
notok()	{ echo "not ok - $*"; uptime_mark; fails=$((fails + 1)); }
# check NAME CMD...: a check that passes when CMD succeeds
check() {
	name=$1; shift
	if out=$("$@" 2>&1); then
		ok "$name"
	else
		notok "$name"
		echo "$out" | sed 's/^/# /' | tail -n 15
	fi
}
# measure NAME CMD...: as check, and always print what CMD measured
measure() {
	name=$1; shift
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then ok "$name"; else notok "$name"; fi
	echo "$out" | sed 's/^/#   /' | tail -n 40
}
# expect_fail NAME STATUS PATTERN CMD...: CMD must exit with STATUS and
# print a line matching PATTERN
expect_fail() {
	name=$1 status=$2 pattern=$3; shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -eq "$status" ] && echo "$out" | grep -q -- "$pattern"; then
		ok "$name"
	else
		notok "$name (exit $rc, wanted $status and /$pattern/)"
		echo "$out" | sed 's/^/# /' | tail -n 5
	fi
	echo "$out" | sed 's/^/#   /' | head -n 3
}
