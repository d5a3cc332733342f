#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The exported patch, every patch of the series in patches/ and every mail
# of the review series (scripts/export-patch --series) are clean under the
# kernel's own checkpatch.pl --strict: no errors, warnings or checks.
set -uo pipefail
shopt -s nullglob
. "$(dirname "$0")/../../scripts/lib.sh"

cp="$MS_PRISTINE/scripts/checkpatch.pl"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$MS_TOP/scripts/export-patch" "$out/multisched.patch" >/dev/null
if ! "$MS_TOP/scripts/export-patch" --series "$out/series" >/dev/null 2>"$out/series.err"; then
	echo "not ok - checkpatch --strict: export-patch --series writes the series"
	sed 's/^/# /' "$out/series.err" | tail -n 10
fi
for p in "$out/multisched.patch" "$MS_TOP"/patches/*.patch "$out"/series/*.patch; do
	name=${p#"$out"/}
	name=${name#"$MS_TOP"/patches/}
	res=$("$cp" --strict --no-tree --show-types "$p" 2>&1)
	total=$(echo "$res" | grep '^total:')
	if echo "$total" | grep -q '^total: 0 errors, 0 warnings, 0 checks'; then
		echo "ok - checkpatch --strict: $name"
	else
		echo "not ok - checkpatch --strict: $name ($total)"
		echo "$res" | grep -E -A3 '^(ERROR|WARNING|CHECK):' | head -n 20 | sed 's/^/# /'
	fi
done
