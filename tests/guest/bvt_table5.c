// SPDX-License-Identifier: GPL-2.0
/*
 * bvt_table5 [-t SECS] [-L LIMIT_US] [-1]
 *
 * Tables 4 and 5 of the BVT paper: a hard real-time thread rt, an
 * interactive thread int and a batch thread cont share CPU 1, all in
 * SCHED_BVT. rt has a weight (RT_WEIGHT 768 of 2816, 27%), a large
 * warp (W 1 s) and runs 500 us of CPU time every 10 ms; int (weight 1024,
 * unwarped) runs 3 ms of CPU time every 10 ms, about the 30% the paper's
 * int used; cont (weight 1024) never sleeps. For the first SECS (default 4) all behave (table 4); then
 * rt falls into an infinite loop for another SECS (table 5). With -1 the
 * run ends after table 4.
 *
 * rt and int wake on a 10 ms grid; a thread that finds itself behind it
 * drops the periods that have begun and counts a stall once (periodic()
 * says how and why).
 *
 * Printed per phase: each thread's CPU share, and int's (and in the first
 * phase rt's) wakeup latency p50/p99/max in microseconds, with the number
 * of samples; after the first phase, the periods each missed and rt's L
 * hits. The process exits 0 after printing; the checks are the caller's
 * (bvt_latency.sh), which knows what each bound comes from.
 *
 * rt's weight must cover what it uses, as the paper's rt had "a CPU share
 * according to its CPU consumption": 500 us of work is 5%, but each
 * wakeup costs 150 to 370 us of CPU on a slow TCG host, so rt uses 6.5
 * to 9%. A weight of 5% would let its A run ahead of SVT by that excess
 * every period until W is used up (about 8 s) and rt's latency grows
 * without bound. A slower host's rt used 17% (November 2026): with the
 * 11% it had then, its A ran near W and the -L 0 run's warped stretch
 * was 28 ms. 27% leaves it room.
 *
 * With the warp time limit L (default 10 ms, the granularity at which the
 * paper's kernel checked it), the looping rt is unwarped after L and is
 * then an ordinary thread of weight 768: int keeps its
 * share and its latency, cont gets the rest by weight. With -L 0 (no
 * limit), rt stays warped and, at the start of the loop, runs until its A
 * has climbed W past the others' E: W * 768 / 1024, about 750 ms, with
 * int waiting throughout.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ms_test.h"

#define CPU		1
#define MS		1000000LL
#define PERIOD		(10 * MS)
#define MAX_SAMPLES	4096
#define RT_WEIGHT	768

struct shared {
	volatile int phase;		/* 0 settle, 1 table 4, 2 table 5, 3 end */
	volatile int loop;		/* rt: fall into the loop */
	int n[2][2];			/* samples of [int, rt][phase 1, 2] */
	int dropped[2];			/* periods [int, rt] missed in phase 1 */
	long long lat[2][2][MAX_SAMPLES];
};

static struct shared *sh;

static void enter(unsigned int weight, long long warp, long long limit)
{
	struct sched_attr a = {
		.size = sizeof(a),
		.sched_policy = SCHED_BVT,
		.sched_weight = weight,
		.sched_warp = warp,
		.sched_warp_limit = limit,
	};
	cpu_set_t set;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CPU_ZERO(&set);
	CPU_SET(CPU, &set);
	if (syscall(SYS_sched_setattr, 0, &a, 0) ||
	    sched_setaffinity(0, sizeof(set), &set)) {
		perror("bvt_table5: sched_setattr/affinity");
		_exit(2);
	}
}

static void sample(int who, long long lat)
{
	int ph = sh->phase;

	if (ph == 1 || ph == 2) {
		int *n = &sh->n[who][ph - 1];

		if (*n < MAX_SAMPLES)
			sh->lat[who][ph - 1][(*n)++] = lat;
	}
}

/*
 * A periodic thread: @who 0 int, 1 rt; rt loops once sh->loop is set.
 *
 * Each wakeup gives a sample, its latency. A thread that finds, after
 * its run, that its next period has begun (a run or a wait outlasted
 * the period) drops that period and any others that have begun, as a
 * thread that plays frames drops them, and counts how late it was as a
 * sample of its own, unless that is no more than its last wakeup's
 * latency, which already counted the stall. Behind its grid after a
 * host stall, a thread that caught up instead would run off its backlog
 * without sleeping, at about its weight's rate, which is not far above
 * its demand, and every period of that counted the stall again; rt, in
 * one warped stretch, also reached L (then 2 ms) after four periods'
 * work and caught up unwarped. Counted that way, rt's table 4 p99 was 56
 * to 90 ms and int's 21 to 59 ms in November 2026: the stalls', not
 * their dispatch's. A wait of its own still counts once: int's 750 ms
 * behind a looping rt without L often falls in one of its runs.
 */
static void __attribute__((noreturn)) periodic(int who, long long run)
{
	long long next = now_ns(), t, last = 0;
	struct timespec ts;

	for (;;) {
		next += PERIOD;
		t = now_ns();
		if (next < t) {
			if (t - next > last)
				sample(who, t - next);
			if (sh->phase == 1)
				sh->dropped[who] += (t - next + PERIOD - 1) / PERIOD;
			next += (t - next + PERIOD - 1) / PERIOD * PERIOD;
		}
		ts.tv_sec = next / (1000 * MS);
		ts.tv_nsec = next % (1000 * MS);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		last = now_ns() - next;
		sample(who, last);
		if (who == 1 && sh->loop)
			for (;;)
				;
		spin_cpu_ns(run);	/* CPU time: int's share is what it asks */
	}
}

static void print_lat(const char *name, long long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_ll);
	if (!n) {
		printf("  %s latency_us none\n", name);
		return;
	}
	printf("  %s latency_us %lld %lld %lld samples %d\n", name,
	       v[n / 2] / 1000, v[n * 99 / 100] / 1000, v[n - 1] / 1000, n);
}

int main(int argc, char **argv)
{
	long long limit = 10000, secs = 4;
	unsigned long long c[2][3];
	pid_t pid[3];
	int opt, ph, i, phases = 2;

	while ((opt = getopt(argc, argv, "t:L:1")) != -1) {
		switch (opt) {
		case 't': secs = atoll(optarg); break;
		case 'L': limit = atoll(optarg); break;
		case '1': phases = 1; break;
		default: return 2;
		}
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;

	pid[0] = fork();		/* cont */
	if (!pid[0]) {
		enter(1024, 0, 0);
		for (;;)
			;
	}
	pid[1] = fork();		/* int */
	if (!pid[1]) {
		enter(1024, 0, 0);
		periodic(0, 3 * MS);
	}
	pid[2] = fork();		/* rt */
	if (!pid[2]) {
		enter(RT_WEIGHT, 1000 * MS, limit * 1000);
		periodic(1, MS / 2);
	}
	/* this process watches from CPU 0 */
	{
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(0, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	sleep(1);
	for (ph = 1; ph <= phases; ph++) {
		for (i = 0; i < 3; i++)
			c[0][i] = cpu_ns(pid[i]);
		sh->phase = ph;
		usleep(secs * 1000000);
		for (i = 0; i < 3; i++)
			c[1][i] = cpu_ns(pid[i]) - c[0][i];
		{
			double tot = c[1][0] + c[1][1] + c[1][2];

			printf("%s: share rt %.1f%% int %.1f%% cont %.1f%%\n",
			       ph == 1 ? "table 4 (rt behaves)" : "table 5 (rt loops)",
			       100.0 * c[1][2] / tot, 100.0 * c[1][1] / tot,
			       100.0 * c[1][0] / tot);
		}
		print_lat("int", sh->lat[0][ph - 1], sh->n[0][ph - 1]);
		if (ph == 1) {
			print_lat("rt", sh->lat[1][0], sh->n[1][0]);
			printf("  missed periods int %d rt %d, rt's L hits %lld\n",
			       sh->dropped[0], sh->dropped[1],
			       pid_sched_ll(pid[2], "ms.bvt.L_hits"));
			if (phases == 1)
				break;
			sh->loop = 1;
			/* the loop starts at rt's next wakeup, within a period */
			usleep(20000);
		}
	}
	sh->phase = 3;
	for (i = 0; i < 3; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}
	return 0;
}
