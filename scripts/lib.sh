# SPDX-License-Identifier: GPL-2.0
# Shared settings for the multisched scripts. Sourced, not run.

MS_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MS_BUILD=${MS_BUILD:-$MS_TOP/build}
MS_TARBALL=${MS_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
MS_PRISTINE=$MS_BUILD/pristine	# untouched unpack of the tarball
MS_KSRC=$MS_BUILD/linux		# the tree we build in
MS_STAGE=$MS_BUILD/stage	# patched copies of the files we own
MS_JOBS=${MS_JOBS:-$(nproc)}

ms_log() { printf '==> %s\n' "$*" >&2; }
ms_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The files this repository adds to the kernel tree, relative to its root.
ms_new_files() {
	(cd "$MS_TOP" && find kernel include Documentation tools/schedctl \
		-type f ! -name '*.o' ! -name schedctl ! -name '.*' | LC_ALL=C sort)
}

# The kernel files the patch series edits.
ms_patched_files() {
	cat "$MS_TOP"/patches/*.patch 2>/dev/null |
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' | LC_ALL=C sort -u
}

# Who the patches and mails are from, and who signs them off.
MS_AUTHOR_NAME="multisched developers"
MS_AUTHOR_EMAIL="maintainers@users.noreply.a-seed-9ded4895.example"
MS_AUTHOR="$MS_AUTHOR_NAME <$MS_AUTHOR_EMAIL>"

# The subject of a git format-patch mail, unfolded, without "[PATCH n/m]".
ms_patch_subject() {
	awk '/^Subject: / { s = $0
			while ((getline l) > 0 && l ~ /^[ \t]/)
				s = s l
			sub(/^Subject: (\[[^]]*\] )?/, "", s)
			print s
			exit }' "$1"
}

# What a guest kernel log must not have: qemu-run fails a boot on it
# (exit 126) and scripts/check shows the lines.
MS_SPLAT='WARNING:|BUG:|Oops|Kernel panic|possible recursive locking|possible circular locking|inconsistent lock state|suspicious RCU usage|rcu_sched self-detected stall|rcu: INFO|detected stall|hung_task|blocked for more than|invoked oom-killer|Out of memory|UBSAN:|lockdep'
