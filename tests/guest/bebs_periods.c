// SPDX-License-Identifier: GPL-2.0
/*
 * bebs_periods [-t SECS] [-c CPU]
 *
 * Figure 4 of the BEBS paper: best-effort tasks beside real-time ones on
 * one CPU (default 0), for SECS (default 6) seconds, under whatever
 * kernel.sched_bebs_fixed_period_ns says (bebs_figs.sh runs it with a
 * short and a long fixed period and with adaptive periods, 0):
 *
 *  - two periodic BEBS tasks (MS_FLAG_BEBS_PERIODIC): jobs of 2 ms every
 *    20 ms and of 6 ms every 60 ms, with budgets of 3 and 7 ms (room for
 *    what a wakeup costs under TCG);
 *  - two soft periodic best-effort tasks, as the paper's 25 and 12.5
 *    frames a second: a frame of 2.4 ms of CPU every 40 ms and one of
 *    4.8 ms every 80 ms, each due when the next begins, 6% of the CPU
 *    each. That is within their share u of U_BE (about 12%: U_BE is
 *    about 60% beside the periodic tasks and the class servers, shared
 *    by five) by the paper's margin: a server's period is b / u =
 *    1.5 e_avg / u, within the frame period only while the task uses
 *    under u / 1.5, and a job a host stall pushed past b waits up to p
 *    for its rest. Frames of 10% (until 2026-11-29) gave periods past
 *    the frames', and every stall that ran a budget out made a late
 *    frame under adaptive periods;
 *  - three compute-bound best-effort tasks.
 *
 * The first second is not measured. Prints
 *   frames F late L tardiness_us T ctxsw_per_s C period_ns P
 * F and L: the soft tasks' frames and late ones; T: the mean tardiness
 * of all frames (0 for one on time, as the paper measures it); C: the
 * CPU's context switches a second (/proc/stat); P: the fixed period in
 * force (0: adaptive). Exits 0, or 2 when a task could not enter its
 * class (the error on stderr).
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
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ms_test.h"

#define MS		1000000LL
#define NTASKS		7

struct shared {
	volatile int phase;		/* 0 settle, 1 measure, 2 stop */
	volatile int failed;
	struct ms_frames f;		/* the two soft tasks' */
};

static struct shared *sh;
static int cpu;

static void enter(struct sched_attr *a)
{
	if (ms_enter_cpu(cpu, a, "bebs_periods")) {
		sh->failed = 1;
		_exit(2);
	}
}

/* Jobs of @run ns of CPU every @period ns; @count: note the frames. */
static void __attribute__((noreturn))
periodic(struct sched_attr *a, long long period, long long run, int count)
{
	enter(a);
	ms_frames_loop(period, run, count ? &sh->f : NULL, &sh->phase);
}

static pid_t start(int what)
{
	struct sched_attr a = { .sched_policy = SCHED_BEBS };
	pid_t pid = fork();

	if (pid)
		return pid;
	switch (what) {
	case 0:
	case 1:		/* real-time: 2 ms every 20 ms, 6 ms every 60 ms */
		a.sched_ms_flags = MS_FLAG_BEBS_PERIODIC;
		a.sched_runtime = (what ? 7 : 3) * MS;
		a.sched_period = (what ? 60 : 20) * MS;
		periodic(&a, a.sched_period, (what ? 6 : 2) * MS, 0);
	case 2:		/* soft: 25 frames a second */
		periodic(&a, 40 * MS, 2400000, 1);
	case 3:		/* soft: 12.5 frames a second */
		periodic(&a, 80 * MS, 4800000, 1);
	default:	/* compute-bound */
		enter(&a);
		for (;;)
			;
	}
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 99 };
	long long t0, t1, x0, x1, period;
	int secs = 6, opt, i, status, ret = 0;
	pid_t pid[NTASKS];

	while ((opt = getopt(argc, argv, "t:c:")) != -1) {
		switch (opt) {
		case 't': secs = atoi(optarg); break;
		case 'c': cpu = atoi(optarg); break;
		default: return 2;
		}
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || secs < 1)
		return 2;
	period = file_ll("/proc/sys/kernel/sched_bebs_fixed_period_ns");
	for (i = 0; i < NTASKS; i++)
		pid[i] = start(i);
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("bebs_periods: SCHED_FIFO 99");
		return 2;
	}
	usleep(1000000);
	x0 = ms_ctxt();
	t0 = now_ns();
	sh->phase = 1;
	usleep(secs * 1000000);
	sh->phase = 2;
	t1 = now_ns();
	x1 = ms_ctxt();
	for (i = 0; i < NTASKS; i++)
		kill(pid[i], SIGKILL);
	for (i = 0; i < NTASKS; i++)
		if (waitpid(pid[i], &status, 0) == pid[i] && WIFEXITED(status))
			ret = 2;
	if (sh->failed || ret) {
		fprintf(stderr, "bebs_periods: a task could not enter its class\n");
		return 2;
	}
	printf("frames %lld late %lld tardiness_us %lld ctxsw_per_s %lld period_ns %lld\n",
	       sh->f.frames, sh->f.late,
	       sh->f.frames ? sh->f.tardy_ns / sh->f.frames / 1000 : -1,
	       (x1 - x0) * 1000000000LL / (t1 - t0), period);
	return 0;
}
