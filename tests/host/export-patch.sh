#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scripts/export-patch output applies with patch -p1 to a fresh unpack of
# the 6.12 source and builds there: kernel/sched/, kernel/signal.o,
# kernel/sys.o (the prctl) and the uapi headers, with W=1 and sparse
# (C=1), and no warning in the files multisched adds or edits.
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
   make -C "$tree" -j"$MS_JOBS" W=1 C=1 kernel/sched/ kernel/signal.o kernel/sys.o >>"$log" 2>&1 &&
   make -C "$tree" -s headers_install INSTALL_HDR_PATH="$tree/usr-hdr" >>"$log" 2>&1; then
	echo "ok - export-patch: kernel/sched/ and the uapi headers build in the pristine tree"
else
	echo "not ok - export-patch: kernel/sched/ and the uapi headers build in the pristine tree"
	grep -E 'error' "$log" | head | sed 's/^/# /'
fi

# Warnings (W=1 or sparse) on lines the patch adds: the new files whole,
# and the added lines of the kernel files it edits (those files have
# warnings of their own that are not ours). One kind is not ours although
# it names our functions: sparse reports the body of task_rq_unlock() in
# sched.h as a "context imbalance ... wrong count at exit" in callers that
# pair task_rq_lock() with task_rq_unlock(), as it does for task_rq_lock()
# itself and for core.c's own callers; it points at sched.h, not at us.
warn=$(python3 - "$MS_BUILD/multisched.patch" "$log" <<'PY'
import re, sys
added = {}
path = None
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"^\+\+\+ b/(\S+)", line)
    if m:
        path = m.group(1)
        added[path] = set()
        continue
    m = re.match(r"^@@ -\S+ \+(\d+)", line)
    if m:
        n = int(m.group(1))
        continue
    if path is None or line.startswith("---"):
        continue
    if line.startswith("+"):
        added[path].add(n)
        n += 1
    elif line.startswith(" "):
        n += 1
seen = set()
for line in open(sys.argv[2], errors="replace"):
    m = re.match(r"^(\S+?):(\d+):(?:\d+:)? (warning|error)", line)
    if not m:
        continue
    f = m.group(1).split("/linux-source-6.12/")[-1]
    f = re.sub(r"^.*?/export-test/", "", f)
    if f in added and int(m.group(2)) in added[f] and line not in seen:
        seen.add(line)
        print(line.rstrip())
PY
)
# sparse must really have looked at the new files.
for f in multisched.c bvt.c vtrr.c bebs.c rbs.c rbs_ctl.c; do
	grep -q "CHECK *kernel/sched/$f" "$log" ||
		warn="$warn${warn:+
}sparse did not check kernel/sched/$f"
done
if [ -z "$warn" ]; then
	echo "ok - W=1 and sparse: no warnings on the lines multisched adds"
else
	echo "not ok - W=1 and sparse: no warnings on the lines multisched adds"
	echo "$warn" | head | sed 's/^/# /'
fi
rm -rf "$tree"
