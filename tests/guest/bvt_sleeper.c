// SPDX-License-Identifier: GPL-2.0
/*
 * bvt_sleeper [-c CPU] [-n HOGS] [-P PERIOD_US] [-r RUN_US] [-k LOOPS]
 *             [-m bvt|other|fifo] [-B BOUND_US] [-s STALL_US] [-d]
 *
 * An unwarped periodic sleeper among equal-weight hogs: the BVT paper's
 * claim for a thread that does not warp is its fair share with a dispatch
 * latency bounded by the context switch allowance C.
 *
 * HOGS CPU-bound threads (default 2) and one periodic thread are pinned to
 * CPU (default 0). The periodic thread loops LOOPS times (default 1000):
 * clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to an absolute deadline
 * PERIOD_US (default 2000) after the previous one, reads the clock (its
 * lateness is now minus the deadline) and spins RUN_US (default 0).
 *
 * -m bvt (default): every thread in SCHED_BVT at weight 1024, unwarped;
 * -m other: every thread in SCHED_OTHER (EEVDF), for comparison;
 * -m fifo: the hogs in SCHED_BVT, the sleeper in SCHED_FIFO 50;
 * -m bebs: every thread in SCHED_BEBS (best-effort servers, weight from
 * nice 0); the program also prints the sleeper's server at the end,
 * "bebs_server budget_ns B period_ns P", from /proc/self/sched.
 *
 * With -s, a SCHED_FIFO 99 thread on CPU spins STALL_US once, a quarter of
 * the way through, as a long interrupt or a stalled virtual CPU would: the
 * sleeper falls behind its deadlines (its sleeps then return at once) and
 * must catch up with what its share gives it. The program then also
 * prints "recovered_periods N": the periods from the stall to the first
 * wakeup less than one period late (LOOPS minus the stall's loop if none).
 *
 * With -d, a wakeup that finds the next deadline already past drops the
 * deadlines that have passed, as a player drops frames: a host stall is
 * one late sample, not one for each period of a backlog run off at the
 * thread's share.
 *
 * Prints "lateness_us P50 P99 MAX loops N", then "demand_us D got_pct G":
 * the CPU time the periodic thread used per loop (its demand: the work
 * and what its wakeups cost) and the share of the CPU it had over the
 * loop, from its schedstat. With -B, exits 1 when the p99 lateness
 * exceeds BOUND_US.
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
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ms_test.h"

#define MAX_LOOPS	100000
#define MAX_HOGS	16

static long long lat_ns[MAX_LOOPS];

int main(int argc, char **argv)
{
	int cpu = 0, hogs = 2, loops = 1000, opt, i, hog_policy = SCHED_BVT;
	long long period = 2000, run = 0, bound = -1, stall = 0, next, t0, t1;
	unsigned long long c0, c1;
	int stall_at = -1, recovered = -1, go[2] = { -1, -1 }, drop = 0;
	const char *mode = "bvt";
	struct sched_attr a = { .size = sizeof(a) };
	pid_t pid[MAX_HOGS], staller = 0;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "c:n:P:r:k:m:B:s:d")) != -1) {
		switch (opt) {
		case 'c': cpu = atoi(optarg); break;
		case 'n': hogs = atoi(optarg); break;
		case 'P': period = atoll(optarg); break;
		case 'r': run = atoll(optarg); break;
		case 'k': loops = atoi(optarg); break;
		case 'm': mode = optarg; break;
		case 'B': bound = atoll(optarg); break;
		case 's': stall = atoll(optarg); break;
		case 'd': drop = 1; break;
		default: return 2;
		}
	}
	if (hogs < 0 || hogs > MAX_HOGS || loops < 1 || loops > MAX_LOOPS ||
	    period <= 0 || run < 0 || stall < 0) {
		fprintf(stderr, "bvt_sleeper: bad arguments\n");
		return 2;
	}

	if (!strcmp(mode, "bvt")) {
		a.sched_policy = SCHED_BVT;
		a.sched_weight = 1024;
	} else if (!strcmp(mode, "other")) {
		a.sched_policy = SCHED_OTHER;
		hog_policy = SCHED_OTHER;
	} else if (!strcmp(mode, "fifo")) {
		a.sched_policy = SCHED_FIFO;
		a.sched_priority = 50;
	} else if (!strcmp(mode, "bebs")) {
		a.sched_policy = SCHED_BEBS;
		hog_policy = SCHED_BEBS;
	} else {
		fprintf(stderr, "bvt_sleeper: unknown mode %s\n", mode);
		return 2;
	}

	for (i = 0; i < hogs; i++) {
		int fd[2];
		char c = '0';

		if (pipe(fd))
			return 1;
		pid[i] = fork();
		if (!pid[i]) {
			close(fd[0]);
			ms_hog(fd[1], cpu, hog_policy,
			       hog_policy == SCHED_BVT ? 1024 : 0, 0,
			       "bvt_sleeper");
		}
		close(fd[1]);
		if (read(fd[0], &c, 1) != 1 || c != '1') {
			fprintf(stderr, "bvt_sleeper: hog %d failed\n", i);
			return 1;
		}
		close(fd[0]);
	}

	/* As the hogs do: enter the class first, then join them on @cpu. */
	if (syscall(SYS_sched_setattr, 0, &a, 0)) {
		perror("bvt_sleeper: sched_setattr");
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("bvt_sleeper: sched_setaffinity");
		return 1;
	}

	if (stall) {
		struct sched_param fifo = { .sched_priority = 99 };
		char c;

		if (pipe(go))
			return 1;
		staller = fork();
		if (!staller) {
			if (sched_setscheduler(0, SCHED_FIFO, &fifo) ||
			    read(go[0], &c, 1) != 1)
				_exit(1);
			spin_ns(stall * 1000);
			_exit(0);
		}
		stall_at = loops / 4;
	}

	next = now_ns();
	t0 = next;
	c0 = cpu_ns(getpid());
	for (i = 0; i < loops; i++) {
		struct timespec ts;

		if (i == stall_at && write(go[1], "s", 1) != 1) {
			perror("bvt_sleeper: stall");
			return 1;
		}

		next += period * 1000;
		ts.tv_sec = next / 1000000000LL;
		ts.tv_nsec = next % 1000000000LL;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR)
			;
		lat_ns[i] = now_ns() - next;
		if (drop)
			while (next + period * 1000 < now_ns())
				next += period * 1000;
		if (stall_at >= 0 && i > stall_at && recovered < 0 &&
		    lat_ns[i] < period * 1000)
			recovered = i - stall_at;
		spin_ns(run * 1000);
	}
	c1 = cpu_ns(getpid());
	t1 = now_ns();
	if (staller)
		waitpid(staller, NULL, 0);
	if (a.sched_policy == SCHED_BEBS)
		printf("bebs_server budget_ns %lld period_ns %lld\n",
		       proc_sched_ll("ms.bebs.budget_ns"),
		       proc_sched_ll("ms.bebs.period_ns"));

	for (i = 0; i < hogs; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}

	qsort(lat_ns, loops, sizeof(lat_ns[0]), cmp_ll);
	printf("lateness_us %lld %lld %lld loops %d\n",
	       lat_ns[loops / 2] / 1000, lat_ns[loops * 99 / 100] / 1000,
	       lat_ns[loops - 1] / 1000, loops);
	printf("demand_us %llu got_pct %.1f\n", (c1 - c0) / loops / 1000,
	       100.0 * (c1 - c0) / (t1 - t0));
	if (stall_at >= 0)
		printf("recovered_periods %d\n",
		       recovered < 0 ? loops - stall_at : recovered);
	if (bound >= 0 && lat_ns[loops * 99 / 100] / 1000 > bound)
		return 1;
	return 0;
}
