#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scripts/export-patch output applies with patch -p1 to a fresh unpack of
# the 6.12 source and builds there: kernel/sched/ and the uapi headers, with
# W=1 and sparse (C=1), and no warning in the files multisched adds or
# edits.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

tree=$MS_BUILD/export-test
rm -rf "$tree"
mkdir -p "$tree"
"$MS_TOP/scripts/export-patch" "$MS_BUILD/multisched.patch" >/dev/null

tar -xf "$MS_TARBALL" -C "$tree" --strip-components=1
if out=$(cd "$tree" && patch -p1 --no-backup-if-mismatch < "$MS_BUILD/multisched.patch" 2>&1) &&
   ! echo "$out" | grep -qiE 'fuzz|offset|reject'; then
	echo "ok - export-patch: applies cleanly with patch -p1 to a pristine 6.12 tree"
else
	echo "not ok - export-patch: applies cleanly with patch -p1 to a pristine 6.12 tree"
	echo "$out" | grep -iE 'fuzz|offset|reject|fail' | head | sed 's/^/# /'
	exit 0
fi

cp "$MS_KSRC/.config" "$tree/.config"
log=$MS_BUILD/export-test.log
if make -C "$tree" -s olddefconfig >"$log" 2>&1 &&
   make -C "$tree" -j"$MS_JOBS" W=1 C=1 kernel/sched/ >>"$log" 2>&1 &&
   make -C "$tree" -s headers_install INSTALL_HDR_PATH="$tree/usr-hdr" >>"$log" 2>&1; then
	echo "ok - export-patch: kernel/sched/ and the uapi headers build in the pristine tree"
else
	echo "not ok - export-patch: kernel/sched/ and the uapi headers build in the pristine tree"
	grep -E 'error' "$log" | head | sed 's/^/# /'
fi

# Warnings (W=1 or sparse) in any file multisched owns.
ours=$( (ms_new_files; ms_patched_files) | grep -E '\.[ch]$' | sed 's|.*/||' | sort -u |
	paste -sd'|')
warn=$(grep -E "($ours):[0-9]+(:[0-9]+)?: (warning|error)" "$log" |
	grep -v "^$tree/tools" | sort -u)
if [ -z "$warn" ]; then
	echo "ok - W=1 and sparse: no warnings in the files multisched adds or edits"
else
	echo "not ok - W=1 and sparse: no warnings in the files multisched adds or edits"
	echo "$warn" | head | sed 's/^/# /'
fi
rm -rf "$tree"
