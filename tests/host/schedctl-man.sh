#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedctl's --help and its manual page schedctl(8) name the same options,
# every option schedctl.c accepts is in --help, the page is clean under
# groff -wall (mandoc -Tlint where it is installed), and the JSON that
# --list, --list-tasks and showing print on this host parses.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

src=$MS_TOP/tools/schedctl
man=$src/schedctl.8
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# options WORDS...: the -x and --long-option words of stdin, one a line
options() {
	grep -oE -- '(^|[^A-Za-z0-9_-])--?[A-Za-z][A-Za-z-]*' |
		sed -E 's/^[^-]*//' | LC_ALL=C sort -u
}

if ! make -s -C "$src" HDR="$MS_BUILD/hdr/include" O="$dir" >"$dir/make.log" 2>&1; then
	echo "not ok - schedctl-man: schedctl builds on the host"
	sed 's/^/# /' "$dir/make.log" | tail -n 10
	exit 0
fi
sc=$dir/schedctl

"$sc" --help | options > "$dir/help"
# the page's source, with \- as - and the font escapes dropped
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(bu//g' "$man" |
	options > "$dir/man"
# the long options of the option table, and the short ones of getopt_long
{ sed -n '/long_options\[\] = {/,/^};/s/^[[:space:]]*{ "\([a-z-]*\)",.*/--\1/p' \
	"$src/schedctl.c"
  sed -n 's/.*getopt_long(argc, argv, "+:\([^"]*\)".*/\1/p' "$src/schedctl.c" |
	tr -d ':' | fold -w1 | sed 's/^/-/'; } | LC_ALL=C sort -u > "$dir/code"

missing=$(LC_ALL=C comm -23 "$dir/help" "$dir/man")
if [ -z "$missing" ] && [ -s "$dir/help" ]; then
	echo "ok - schedctl-man: every option of schedctl --help is in schedctl.8"
else
	echo "not ok - schedctl-man: every option of schedctl --help is in schedctl.8"
	echo "$missing" | sed 's/^/# missing: /'
fi
missing=$(LC_ALL=C comm -13 "$dir/help" "$dir/man")
if [ -z "$missing" ]; then
	echo "ok - schedctl-man: every option of schedctl.8 is in schedctl --help"
else
	echo "not ok - schedctl-man: every option of schedctl.8 is in schedctl --help"
	echo "$missing" | sed 's/^/# missing: /'
fi
missing=$(LC_ALL=C comm -23 "$dir/code" "$dir/help")
if [ -z "$missing" ] && [ -s "$dir/code" ]; then
	echo "ok - schedctl-man: every option schedctl.c accepts is in schedctl --help"
else
	echo "not ok - schedctl-man: every option schedctl.c accepts is in schedctl --help"
	echo "$missing" | sed 's/^/# missing: /'
fi

if command -v mandoc >/dev/null; then
	lint="mandoc -Tlint"
	out=$(mandoc -Tlint "$man" 2>&1)
else
	lint="groff -z -wall -man"
	out=$(groff -z -wall -man "$man" 2>&1)
fi
if [ -z "$out" ]; then
	echo "ok - schedctl-man: schedctl.8 is clean under $lint"
else
	echo "not ok - schedctl-man: schedctl.8 is clean under $lint"
	echo "$out" | head -n 10 | sed 's/^/# /'
fi

# The JSON forms on this host's kernel (no multisched classes needed).
bad=
sleep 30 & sp=$!
for args in "--list --json" "--list-tasks --json" "--list-tasks other --json" \
	    "--list-tasks vtrr --json" "--json -p $$,$sp" "--json -a -p $$"; do
	# shellcheck disable=SC2086
	if ! "$sc" $args 2>/dev/null | python3 -m json.tool >/dev/null 2>"$dir/json.err"; then
		bad="$bad; $args: $(head -n 1 "$dir/json.err")"
	fi
done
kill $sp 2>/dev/null; wait $sp 2>/dev/null
if [ -z "$bad" ]; then
	echo "ok - schedctl-man: the --json output of --list, --list-tasks and showing parses (python3 -m json.tool)"
else
	echo "not ok - schedctl-man: the --json output of --list, --list-tasks and showing parses (python3 -m json.tool)"
	echo "# ${bad#; }"
fi
