// SPDX-License-Identifier: GPL-2.0
/*
 * bvt_spread [-p bvt|vtrr|bebs] [-t SECS] [-e POINTS] [-c CPUS] [-H] W1 W2 ...
 *
 * Weighted load balancing of SCHED_BVT (or, with -p vtrr, SCHED_VTRR,
 * weights being shares; with -p bebs, SCHED_BEBS, weights being
 * importance) across CPUs: one CPU-bound child per weight, all pinned
 * to CPU 0 at first, or with -c to the CPUs of a comma-separated list,
 * one per child (children beyond the list on CPU 0). After a
 * second every child's affinity is widened to all CPUs; after 2 s more
 * for the balancer to spread them, each child's CPU time over SECS
 * seconds (default 4), as a share of one CPU's wall time, is compared
 * with the water-filling of the weights over the online CPUs: shares in
 * proportion to weight, a child's capped at 100% and the rest shared out
 * again (weights 3 1 1 1 on two CPUs: 100 33 33 33). Prints
 *
 *	online_cpus <n>
 *	hog <i> weight <w> share <pct> expected <pct>
 *
 * and exits 1 if any share differs by more than POINTS percentage points
 * (default 10), or if a child could not be set up.
 *
 * With -H (hotplug), it then takes CPU 1 offline, measures again (on one
 * CPU the shares are w / sum of weights), brings CPU 1 back, waits 2 s and
 * measures the spread once more. CPU 1 is always put back online on exit,
 * on failure and on SIGINT, SIGTERM and SIGHUP too.
 *
 * Every CPU is busy with BVT children, which run above SCHED_OTHER, so
 * this program measures as SCHED_FIFO; the children die with it
 * (PR_SET_PDEATHSIG).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

#define MAX_HOGS	64
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

static pid_t pid[MAX_HOGS];
static int nr_pids;
static volatile sig_atomic_t cpu1_offlined;

/* Write "0" or "1" to CPU 1's online file; async-signal-safe. */
static int set_cpu1_online(int on)
{
	int fd = open(CPU1_ONLINE, O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/* CPU 1's online file: 1, 0, or -1 if it cannot be read. */
static int cpu1_online(void)
{
	char c = 0;
	int fd = open(CPU1_ONLINE, O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c == '1' ? 1 : c == '0' ? 0 : -1;
}

/* Kill and reap the children and put CPU 1 back; async-signal-safe. */
static void cleanup(void)
{
	int i;

	for (i = 0; i < nr_pids; i++)
		kill(pid[i], SIGKILL);
	for (i = 0; i < nr_pids; i++)
		waitpid(pid[i], NULL, 0);
	nr_pids = 0;
	if (cpu1_offlined && !set_cpu1_online(1))
		cpu1_offlined = 0;
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Allow every child on every CPU the system may have. */
static int widen(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < ncpu && i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	for (i = 0; i < nr_pids; i++) {
		if (sched_setaffinity(pid[i], sizeof(set), &set)) {
			perror("bvt_spread: sched_setaffinity");
			return -1;
		}
	}
	return 0;
}

/*
 * The water-filling of @w over @ncpu CPUs, in percent of one CPU: shares
 * in proportion to weight, where one would exceed 100% it gets 100% and
 * the capacity left is shared out again among the others.
 */
static void water_fill(const unsigned int *w, int n, int ncpu, double *want)
{
	double left = 100.0 * ncpu, wsum;
	int capped[MAX_HOGS] = { 0 };
	int i, again = 1;

	while (again) {
		again = 0;
		wsum = 0;
		for (i = 0; i < n; i++)
			if (!capped[i])
				wsum += w[i];
		if (wsum <= 0)
			break;
		for (i = 0; i < n; i++)
			if (!capped[i])
				want[i] = left * w[i] / wsum;
		for (i = 0; i < n; i++) {
			if (!capped[i] && want[i] > 100.0) {
				want[i] = 100.0;
				capped[i] = 1;
				left -= 100.0;
				again = 1;
			}
		}
	}
}

/* Measure every child's share over @secs; returns 1 if any is off. */
static int measure(const unsigned int *w, int n, int secs, double tol)
{
	unsigned long long c0[MAX_HOGS], c1[MAX_HOGS];
	double want[MAX_HOGS];
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), i, bad = 0;
	long long t0, t1;

	t0 = now_ns();
	for (i = 0; i < n; i++)
		c0[i] = cpu_ns(pid[i]);
	sleep(secs);
	for (i = 0; i < n; i++)
		c1[i] = cpu_ns(pid[i]);
	t1 = now_ns();

	water_fill(w, n, ncpu, want);
	printf("online_cpus %d\n", ncpu);
	for (i = 0; i < n; i++) {
		double got = c1[i] > c0[i] && c0[i] ?
			     100.0 * (c1[i] - c0[i]) / (t1 - t0) : 0;
		int ok = got > want[i] - tol && got < want[i] + tol;

		printf("hog %d weight %u share %.1f expected %.1f%s\n", i, w[i],
		       got, want[i], ok ? "" : "  <-- out of tolerance");
		bad |= !ok;
	}
	fflush(stdout);
	return bad;
}

int main(int argc, char **argv)
{
	struct sched_param fifo = { .sched_priority = 10 };
	int secs = 4, hotplug = 0, n = 0, i, opt, fd[2], ready = 0, bad = 0;
	int policy = SCHED_BVT;
	unsigned int w[MAX_HOGS];
	int start[MAX_HOGS] = { 0 }, nstart = 0;
	double tol = 10.0;
	char c, *tok;

	while ((opt = getopt(argc, argv, "p:t:e:c:H")) != -1) {
		switch (opt) {
		case 't': secs = atoi(optarg); break;
		case 'e': tol = atof(optarg); break;
		case 'H': hotplug = 1; break;
		case 'c':
			for (tok = strtok(optarg, ","); tok && nstart < MAX_HOGS;
			     tok = strtok(NULL, ","))
				start[nstart++] = atoi(tok);
			break;
		case 'p':
			policy = !strcmp(optarg, "vtrr") ? SCHED_VTRR :
				 !strcmp(optarg, "bebs") ? SCHED_BEBS : SCHED_BVT;
			break;
		default: return 2;
		}
	}
	for (i = optind; i < argc && n < MAX_HOGS; i++)
		w[n++] = atoi(argv[i]);
	if (!n || secs < 1)
		return 2;
	if (hotplug && cpu1_online() != 1) {
		fprintf(stderr, "bvt_spread: -H needs CPU 1 online (%s)\n",
			CPU1_ONLINE);
		return 1;
	}

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	if (pipe(fd)) {
		perror("bvt_spread: pipe");
		return 1;
	}
	for (i = 0; i < n; i++) {
		pid[nr_pids] = fork();
		if (pid[nr_pids] < 0) {
			perror("bvt_spread: fork");
			break;
		}
		if (!pid[nr_pids]) {
			close(fd[0]);
			ms_hog(fd[1], start[i], policy, w[i], 0,
			       "bvt_spread");
		}
		nr_pids++;
	}
	close(fd[1]);
	while (ready < nr_pids && read(fd[0], &c, 1) == 1 && c == '1')
		ready++;
	close(fd[0]);
	if (ready != n) {
		fprintf(stderr, "bvt_spread: only %d of %d children set up\n",
			ready, n);
		cleanup();
		return 1;
	}
	if (sched_setscheduler(0, SCHED_FIFO, &fifo))
		perror("bvt_spread: SCHED_FIFO (measuring anyway)");

	sleep(1);
	if (widen()) {
		cleanup();
		return 1;
	}
	sleep(2);
	bad |= measure(w, n, secs, tol);

	if (hotplug) {
		cpu1_offlined = 1;
		if (set_cpu1_online(0)) {
			perror("bvt_spread: taking CPU 1 offline");
			cleanup();
			return 1;
		}
		sleep(1);
		bad |= measure(w, n, secs, tol);
		if (set_cpu1_online(1)) {
			perror("bvt_spread: bringing CPU 1 back online");
			cleanup();
			return 1;
		}
		cpu1_offlined = 0;
		/*
		 * The children's masks should still hold CPU 1; widening
		 * again only guards against a cpuset having narrowed them.
		 * It moves nobody: CPU 0 stays allowed.
		 */
		if (widen()) {
			cleanup();
			return 1;
		}
		sleep(2);
		bad |= measure(w, n, secs, tol);
	}

	cleanup();
	if (cpu1_offlined) {
		fprintf(stderr, "bvt_spread: could not bring CPU 1 back online\n");
		return 1;
	}
	return bad;
}
