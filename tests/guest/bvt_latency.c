// SPDX-License-Identifier: GPL-2.0
/*
 * bvt_latency [-c CPU] [-t SECS] [-n HOGS] [-P PERIOD_US] [-r RUN_US]
 *             [-m bvt|fifo|other] [-w WARP_US] [-L LIMIT_US] [-U UNWARP_US]
 *             [-l]
 *
 * Low-latency dispatch (figure 3 and table 4 of the BVT paper): a periodic
 * thread wakes every PERIOD_US (default 10000), runs RUN_US (default 1000)
 * and sleeps again, pinned to CPU (default 1) beside HOGS CPU-bound
 * SCHED_BVT threads of the same weight (default 2). Its wakeup latency
 * (actual wakeup minus the absolute time it asked for) is printed as
 * "p50 p99 max" in microseconds. The periodic thread runs in SCHED_BVT with
 * warp WARP_US (0: unwarped), or in SCHED_FIFO or SCHED_OTHER with -m.
 *
 * With -l (failure containment, table 5), the periodic thread falls into an
 * infinite loop after the first half of the run; the hogs' share of the CPU
 * over the second half is printed as "hogs_share PERCENT" and the number of
 * times the warp time limit L unwarped it as "L_hits N".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/sched/types.h>
#include <linux/sched/multisched.h>

#include "ms_test.h"

#define MAX_SAMPLES 100000

static long long lat_ns[MAX_SAMPLES];
static int nsamples;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void spin_ns(long long ns)
{
	long long end = now_ns() + ns;

	while (now_ns() < end)
		;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
}

static void set_attr(struct sched_attr *a)
{
	a->size = sizeof(*a);
	if (syscall(SYS_sched_setattr, 0, a, 0)) {
		perror("sched_setattr");
		exit(1);
	}
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static long long proc_field(const char *name)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen("/proc/self/sched", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, strlen(name)) && line[strlen(name)] == ' ')
			sscanf(strchr(line, ':') + 1, "%lld", &v);
	fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	int cpu = 1, secs = 10, hogs = 2, opt, i, loop = 0;
	long long period = 10000, run = 1000, warp = 0, limit = 0, unwarp = 0;
	const char *mode = "bvt";
	struct sched_attr a = { 0 };
	unsigned long long h0 = 0, h1 = 0, me0, me1;
	long long start, next, t;
	pid_t pid[16], watcher = 0;

	while ((opt = getopt(argc, argv, "c:t:n:P:r:m:w:L:U:l")) != -1) {
		switch (opt) {
		case 'c': cpu = atoi(optarg); break;
		case 't': secs = atoi(optarg); break;
		case 'n': hogs = atoi(optarg); break;
		case 'P': period = atoll(optarg); break;
		case 'r': run = atoll(optarg); break;
		case 'm': mode = optarg; break;
		case 'w': warp = atoll(optarg); break;
		case 'L': limit = atoll(optarg); break;
		case 'U': unwarp = atoll(optarg); break;
		case 'l': loop = 1; break;
		default: return 2;
		}
	}
	if (hogs > 16)
		hogs = 16;

	for (i = 0; i < hogs; i++) {
		pid[i] = fork();
		if (!pid[i]) {
			struct sched_attr h = { .sched_policy = SCHED_BVT };

			pin(cpu);
			set_attr(&h);
			for (;;)
				;
		}
	}

	if (loop) {
		/*
		 * The watcher measures the second half from another CPU as
		 * SCHED_OTHER: forked now, before this thread changes class,
		 * so that a looping SCHED_FIFO parent cannot starve it.
		 */
		pid_t self = getpid();
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
		watcher = fork();
		if (!watcher) {
			pin(cpu ? 0 : 1);
			sleep(1 + secs / 2 + 1);
			for (i = 0; i < hogs; i++)
				h0 += cpu_ns(pid[i]);
			me0 = cpu_ns(self);
			sleep(secs / 2);
			for (i = 0; i < hogs; i++)
				h1 += cpu_ns(pid[i]);
			me1 = cpu_ns(self);
			printf("hogs_share %.1f\n",
			       100.0 * (h1 - h0) / (h1 - h0 + me1 - me0));
			fflush(stdout);
			kill(self, SIGUSR1);
			_exit(0);
		}
	}

	pin(cpu);
	if (!strcmp(mode, "fifo")) {
		a.sched_policy = SCHED_FIFO;
		a.sched_priority = 50;
	} else if (!strcmp(mode, "other")) {
		a.sched_policy = SCHED_OTHER;
	} else {
		a.sched_policy = SCHED_BVT;
		a.sched_warp = warp * 1000;
		a.sched_warp_limit = limit * 1000;
		a.sched_unwarp = unwarp * 1000;
	}
	set_attr(&a);
	sleep(1);

	start = now_ns();
	next = start;
	while (next - start < (long long)secs * 1000000000LL / (loop ? 2 : 1)) {
		struct timespec ts;

		next += period * 1000;
		ts.tv_sec = next / 1000000000LL;
		ts.tv_nsec = next % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		t = now_ns();
		if (nsamples < MAX_SAMPLES)
			lat_ns[nsamples++] = t - next;
		spin_ns(run * 1000);
	}

	if (loop) {
		sigset_t set;

		/* Spin until the watcher has measured the second half. */
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		for (;;) {
			struct timespec zero = { 0, 0 };

			spin_ns(1000000);
			if (sigtimedwait(&set, NULL, &zero) == SIGUSR1)
				break;
		}
		printf("L_hits %lld\n", proc_field("ms.bvt.L_hits"));
		waitpid(watcher, NULL, 0);
	}

	for (i = 0; i < hogs; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}

	qsort(lat_ns, nsamples, sizeof(lat_ns[0]), cmp_ll);
	if (!nsamples)
		return 1;
	printf("latency_us %lld %lld %lld samples %d\n",
	       lat_ns[nsamples / 2] / 1000, lat_ns[nsamples * 99 / 100] / 1000,
	       lat_ns[nsamples - 1] / 1000, nsamples);
	return 0;
}
