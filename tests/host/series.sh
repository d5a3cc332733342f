#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The review series (scripts/export-patch --series): every mail applies
# with git am to a git repository of the whole pristine 6.12 tree, the
# tree after the last one is exactly the pristine tree with the single
# exported patch applied, and every mail, like every patch of patches/,
# is from the project's identity and signed off by it. (checkpatch.sh
# checks each mail with checkpatch --strict; `make series-check` builds
# each step.)
#
# The repository of the pristine tree is made once per unpack and kept in
# $MS_BUILD/pristine.git; each run checks out, sparsely, only the files
# the series touches, in a worktree of its own.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

repo=$MS_BUILD/pristine.git
wt=$MS_BUILD/series-test
mails=$MS_BUILD/series-mails
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! "$MS_TOP/scripts/export-patch" --series "$mails" > "$tmp/export" 2>&1; then
	echo "not ok - series: export-patch --series writes the series"
	sed 's/^/# /' "$tmp/export" | tail -n 20
	exit 0
fi
echo "ok - series: export-patch --series writes the series ($(tail -n 1 "$tmp/export"))"

# A git repository of the whole pristine tree, ignored files included.
stamp=$(cat "$MS_BUILD/.unpacked" 2>/dev/null || echo none)
if [ "$(cat "$repo/multisched-stamp" 2>/dev/null)" != "$stamp" ] ||
   ! git --git-dir="$repo" rev-parse -q --verify refs/tags/base >/dev/null; then
	rm -rf "$repo"
	start=$(date +%s)
	if git init -q --bare "$repo" &&
	   git --git-dir="$repo" --work-tree="$MS_PRISTINE" \
		-c core.looseCompression=1 add -A -f &&
	   git --git-dir="$repo" --work-tree="$MS_PRISTINE" \
		-c user.name=pristine -c user.email=pristine@localhost \
		commit -q -m "Linux 6.12 (pristine)" &&
	   git --git-dir="$repo" tag base; then
		echo "$stamp" > "$repo/multisched-stamp"
		echo "# made a git repository of the pristine tree in $(($(date +%s) - start)) s"
	else
		echo "not ok - series: a git repository of the pristine tree"
		exit 0
	fi
fi

# A worktree of it holding only the files the series touches: the
# managed files (build/managed.list, which export-patch refreshed).
git --git-dir="$repo" worktree remove --force "$wt" >/dev/null 2>&1
rm -rf "$wt"
git --git-dir="$repo" worktree prune
sed 's|^|/|' "$MS_BUILD/managed.list" > "$tmp/sparse"
if ! { git --git-dir="$repo" worktree add -q --no-checkout --detach "$wt" base &&
       git -C "$wt" sparse-checkout set --no-cone --stdin < "$tmp/sparse" &&
       git -C "$wt" read-tree -mu HEAD; } > "$tmp/wt" 2>&1; then
	echo "not ok - series: a worktree of the pristine tree"
	sed 's/^/# /' "$tmp/wt" | tail -n 10
	exit 0
fi

# (a) every mail applies with git am
applied=0 failed=
for m in "$mails"/*.patch; do
	if ! git -C "$wt" -c user.name=series -c user.email=series@localhost \
			am -q "$m" > "$tmp/am" 2>&1; then
		failed=$(basename "$m")
		break
	fi
	applied=$((applied + 1))
done
total=$(find "$mails" -name '*.patch' | wc -l)
if [ -z "$failed" ] && [ "$total" -gt 0 ]; then
	echo "ok - series: each of the $total mails applies with git am to the pristine tree"
else
	echo "not ok - series: each of the $total mails applies with git am to the pristine tree"
	echo "# $failed does not apply after $applied mails:"
	sed 's/^/# /' "$tmp/am" | head -n 15
	git -C "$wt" am --abort >/dev/null 2>&1
fi

# (b) the tree after the last mail is the pristine tree with the single
# exported patch applied: the files the series changed are the ones the
# single patch changes, and each is the same as a pristine copy (or none)
# patched with it.
"$MS_TOP/scripts/export-patch" "$tmp/single.patch" > /dev/null 2>&1
sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$tmp/single.patch" | LC_ALL=C sort > "$tmp/files"
mkdir "$tmp/single"
while read -r f; do
	if [ -f "$MS_PRISTINE/$f" ]; then
		mkdir -p "$tmp/single/$(dirname "$f")"
		cp "$MS_PRISTINE/$f" "$tmp/single/$f"
	fi
done < "$tmp/files"
patch -p1 -s -d "$tmp/single" --no-backup-if-mismatch < "$tmp/single.patch" > "$tmp/bad" 2>&1
git -C "$wt" diff --name-only base HEAD | LC_ALL=C sort > "$tmp/changed"
LC_ALL=C comm -23 "$tmp/changed" "$tmp/files" |
	sed 's/^/changed, but not by the single patch: /' >> "$tmp/bad"
LC_ALL=C comm -13 "$tmp/changed" "$tmp/files" | sed 's/^/not changed: /' >> "$tmp/bad"
while read -r f; do
	cmp -s "$wt/$f" "$tmp/single/$f" ||
		echo "differs from the single patch's: $f" >> "$tmp/bad"
done < "$tmp/files"
bad=$(cat "$tmp/bad")
if [ -z "$failed" ] && [ -z "$bad" ]; then
	echo "ok - series: the tree after the last mail is the pristine tree with the single exported patch"
else
	echo "not ok - series: the tree after the last mail is the pristine tree with the single exported patch"
	[ -z "$failed" ] || echo "# not all mails applied"
	printf '%s\n' "$bad" | sed '/^$/d; s/^/# /' | head -n 15
fi

# (c) each mail, and each patch of patches/, is from the project's
# identity and signed off by it, by nobody else, and names no placeholder.
bad=
for m in "$mails"/*.patch "$MS_TOP"/patches/*.patch; do
	name=${m#"$MS_TOP"/}
	name=${name#"$MS_BUILD"/}
	git mailinfo "$tmp/msg" "$tmp/patch" < "$m" > "$tmp/info"
	from="$(sed -n 's/^Author: //p' "$tmp/info") <$(sed -n 's/^Email: //p' "$tmp/info")>"
	[ "$from" = "$MS_AUTHOR" ] || bad+="$name: From: $from"$'\n'
	sobs=$(grep -i '^signed-off-by:' "$tmp/msg")
	[ "$sobs" = "Signed-off-by: $MS_AUTHOR" ] ||
		bad+="$name: sign-offs: ${sobs:-none}"$'\n'
	if grep -qE 'Seed [0-9a-f]{8} maintainers' "$tmp/msg" "$tmp/info"; then
		bad+="$name: names the Seed placeholder"$'\n'
	fi
done
if [ -z "$bad" ]; then
	echo "ok - series: every mail and hook patch is from $MS_AUTHOR_NAME and signed off by it alone"
else
	echo "not ok - series: every mail and hook patch is from $MS_AUTHOR_NAME and signed off by it alone"
	printf '%s' "$bad" | head -n 15 | sed 's/^/# /'
fi

git --git-dir="$repo" worktree remove --force "$wt" >/dev/null 2>&1
rm -rf "$wt"
