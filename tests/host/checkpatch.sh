#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The exported patch and every patch of the series are clean under the
# kernel's own checkpatch.pl --strict: no errors, warnings or checks.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

cp="$MS_PRISTINE/scripts/checkpatch.pl"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$MS_TOP/scripts/export-patch" "$out/multisched.patch" >/dev/null
for p in "$out/multisched.patch" "$MS_TOP"/patches/*.patch; do
	name=$(basename "$p")
	res=$("$cp" --strict --no-tree --show-types "$p" 2>&1)
	total=$(echo "$res" | grep '^total:')
	if echo "$total" | grep -q '^total: 0 errors, 0 warnings, 0 checks'; then
		echo "ok - checkpatch --strict: $name"
	else
		echo "not ok - checkpatch --strict: $name ($total)"
		echo "$res" | grep -E -A3 '^(ERROR|WARNING|CHECK):' | head -n 20 | sed 's/^/# /'
	fi
done
