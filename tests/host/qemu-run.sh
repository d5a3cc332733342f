#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scripts/qemu-run as a user runs it: a static program of their own, passed
# with --add, runs in the guest under /mnt/<dir>, its output streams back
# and its exit status becomes qemu-run's.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/myprog"
cat > "$dir/hello.c" <<'C'
#include <stdio.h>
#include <sched.h>

int main(int argc, char **argv)
{
	printf("hello from the guest: %s, policy %d\n",
	       argc > 1 ? argv[1] : "-", sched_getscheduler(0));
	return 3;
}
C
gcc -static -O2 -o "$dir/myprog/hello" "$dir/hello.c"

out=$(MS_NO_BUILD=1 "$MS_TOP/scripts/qemu-run" --log "$dir/console.log" --timeout 300 --add "$dir/myprog" \
	-- /mnt/myprog/hello 'two words' 2>&1)
rc=$?
if echo "$out" | grep -q "hello from the guest: two words, policy 0" && [ $rc -eq 3 ]; then
	echo "ok - qemu-run: --add runs a user's static program and returns its exit status"
else
	echo "not ok - qemu-run: --add runs a user's static program and returns its exit status (exit $rc)"
	echo "$out" | grep -v '^\[' | tail -5 | sed 's/^/# /'
fi

# A guest that does not finish is stopped and reported as a time-out; it
# must have booted and started the command (a guest that never boots would
# time out too). 30 s: the guest reaches its command in about 5 s (make
# check's time; it was 60 s until 2026-11-27).
start=$(date +%s)
out=$(MS_NO_BUILD=1 "$MS_TOP/scripts/qemu-run" --log "$dir/console.log" --timeout 30 -- \
	sh -c 'echo "hung guest: the command started"; exec sleep 1000' 2>&1)
rc=$?
took=$(( $(date +%s) - start ))
if [ $rc -eq 124 ] && [ $took -lt 60 ] &&
   echo "$out" | grep -q "^hung guest: the command started"; then
	echo "ok - qemu-run: a guest that booted and hung is stopped after --timeout and exits 124"
else
	echo "not ok - qemu-run: a guest that booted and hung is stopped after --timeout and exits 124 (exit $rc after ${took}s)"
	echo "$out" | grep -v '^\[' | tail -5 | sed 's/^/# /'
fi
