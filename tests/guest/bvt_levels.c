// SPDX-License-Identifier: GPL-2.0
/*
 * bvt_levels [-c CPU] [-t SECS] [-w RE_WEIGHT] [-e POINTS] [-x] N...
 *
 * The reserved-effort level of SCHED_BVT (experiment 5 of the BVT paper):
 * for each N, one reserved-effort hog (SCHED_BVT, MS_FLAG_RESERVED, weight
 * RE_WEIGHT, default 1024) and N best-effort hogs (SCHED_BVT, weight 1024)
 * run pinned to CPU (default 1). After a second's warm-up the reserved
 * hog's CPU time over SECS seconds (default 3), as a share of the wall
 * time, is compared with RE_WEIGHT / (RE_WEIGHT + be_weight), be_weight
 * read from /proc/sys/kernel/sched_bvt_be_weight: the best-effort level
 * is one entity of the reserved level, so the share must not depend on N.
 * One line per N:
 *
 *	N <n> re_share <pct> expected <pct>
 *
 * Exits 1 if any share differs from its expectation by more than POINTS
 * percentage points (default 3), or if a hog could not be set up.
 *
 * With -x (the contrast), the hog is not reserved: it is one of N + 1
 * threads of a single level, and "expected" is the single-level share
 * RE_WEIGHT / (RE_WEIGHT + N * 1024). Nothing is asserted then except that
 * every hog was set up and the measurement worked.
 *
 * The hogs of one N are killed and reaped before the next N starts; each
 * also dies with this program (PR_SET_PDEATHSIG).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/sched/types.h>
#include <linux/sched/multisched.h>

#include "ms_test.h"

#define MAX_BE		200
#define BE_WEIGHT	1024

static pid_t pid[MAX_BE + 1];
static int nr_pids;

/* kernel.sched_bvt_be_weight, or 0 if it cannot be read. */
static unsigned int be_weight(void)
{
	unsigned int w = 0;
	FILE *f = fopen("/proc/sys/kernel/sched_bvt_be_weight", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%u", &w) != 1)
		w = 0;
	fclose(f);
	return w;
}

static void kill_hogs(void)
{
	int i;

	for (i = 0; i < nr_pids; i++)
		kill(pid[i], SIGKILL);
	for (i = 0; i < nr_pids; i++)
		waitpid(pid[i], NULL, 0);
	nr_pids = 0;
}

/*
 * Run the reserved hog beside @n best-effort ones and return its share
 * of the wall time in percent, or -1 if the hogs could not be set up.
 */
static double run(int n, int cpu, int secs, unsigned int w, unsigned int flags)
{
	unsigned long long c0, c1;
	long long t0, t1;
	int fd[2], i, ready = 0;
	char c;

	if (pipe(fd)) {
		perror("bvt_levels: pipe");
		return -1;
	}
	for (i = 0; i <= n; i++) {
		pid[nr_pids] = fork();
		if (pid[nr_pids] < 0) {
			perror("bvt_levels: fork");
			break;
		}
		if (!pid[nr_pids]) {
			close(fd[0]);
			if (i == 0)
				ms_bvt_hog(fd[1], cpu, w, flags, "bvt_levels");
			ms_bvt_hog(fd[1], cpu, BE_WEIGHT, 0, "bvt_levels");
		}
		nr_pids++;
	}
	close(fd[1]);
	while (ready < nr_pids && read(fd[0], &c, 1) == 1 && c == '1')
		ready++;
	close(fd[0]);
	if (ready != n + 1) {
		fprintf(stderr, "bvt_levels: N %d: only %d of %d hogs set up\n",
			n, ready, n + 1);
		kill_hogs();
		return -1;
	}

	sleep(1);	/* warm-up */
	t0 = now_ns();
	c0 = cpu_ns(pid[0]);
	sleep(secs);
	c1 = cpu_ns(pid[0]);
	t1 = now_ns();
	kill_hogs();
	if (!c0 || c1 <= c0 || t1 <= t0) {
		fprintf(stderr, "bvt_levels: N %d: no CPU time measured\n", n);
		return -1;
	}
	return 100.0 * (c1 - c0) / (t1 - t0);
}

int main(int argc, char **argv)
{
	int cpu = 1, secs = 3, contrast = 0, opt, i, n, bad = 0;
	unsigned int w = 1024, bew = 0;
	double tol = 3.0;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "c:t:w:e:x")) != -1) {
		switch (opt) {
		case 'c': cpu = atoi(optarg); break;
		case 't': secs = atoi(optarg); break;
		case 'w': w = atoi(optarg); break;
		case 'e': tol = atof(optarg); break;
		case 'x': contrast = 1; break;
		default: return 2;
		}
	}
	if (optind >= argc || cpu < 0 || cpu >= CPU_SETSIZE || secs < 1 || !w)
		return 2;
	for (i = optind; i < argc; i++) {
		n = atoi(argv[i]);
		if (n < 1 || n > MAX_BE) {
			fprintf(stderr, "bvt_levels: N must be 1..%d\n", MAX_BE);
			return 2;
		}
	}
	if (!contrast) {
		bew = be_weight();
		if (!bew) {
			fprintf(stderr, "bvt_levels: cannot read /proc/sys/kernel/sched_bvt_be_weight\n");
			return 1;
		}
	}

	/* Measure from the other CPUs, out of the hogs' way. */
	if (!sched_getaffinity(0, sizeof(set), &set)) {
		CPU_CLR(cpu, &set);
		if (CPU_COUNT(&set))
			sched_setaffinity(0, sizeof(set), &set);
	}

	for (i = optind; i < argc; i++) {
		double got, want;
		int ok;

		n = atoi(argv[i]);
		got = run(n, cpu, secs, w, contrast ? 0 : MS_FLAG_RESERVED);
		if (got < 0) {
			bad = 1;
			continue;
		}
		if (contrast) {
			want = 100.0 * w / (w + (double)n * BE_WEIGHT);
			printf("N %d re_share %.1f expected %.1f  (single level, not checked)\n",
			       n, got, want);
		} else {
			want = 100.0 * w / (w + (double)bew);
			ok = got > want - tol && got < want + tol;
			printf("N %d re_share %.1f expected %.1f%s\n", n, got,
			       want, ok ? "" : "  <-- out of tolerance");
			bad |= !ok;
		}
		fflush(stdout);
	}
	return bad;
}
