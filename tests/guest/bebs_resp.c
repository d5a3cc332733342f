// SPDX-License-Identifier: GPL-2.0
/*
 * bebs_resp -m bebs|fifo|dl|other -k int|poll [-n NRT] [-H HOGS]
 *           [-t SECS] [-c CPU]
 *
 * Figures 6 and 7 of the BEBS paper: how long a task takes to notice an
 * event, beside HOGS compute-bound tasks (default 1) and NRT periodic
 * real-time tasks (0 to 4; periods 15, 30, 45 and 60 ms, jobs of 10% of
 * the period, which take about 13% of the CPU under TCG, with 17%
 * reserved), all on CPU (default 0). The paper's tasks required 15%.
 *
 * The event is a time chosen at random 5 to 25 ms ahead (the paper used
 * a one-shot RTC interrupt). An interactive task (-k int) sleeps until it
 * with clock_nanosleep(); a compute task (-k poll) spins reading the clock
 * until it has passed. Either way the response is the time from the event
 * to the task seeing it.
 *
 * The classes, by -m:
 *   bebs   the test task and the hogs are best-effort SCHED_BEBS tasks,
 *          the real-time tasks periodic ones (MS_FLAG_BEBS_PERIODIC,
 *          budget 17% of the period), all in one EDF;
 *   fifo   mainline: SCHED_OTHER (EEVDF) test task and hogs, SCHED_FIFO
 *          real-time tasks with rate-monotonic priorities (the paper's
 *          "Linux");
 *   dl     SCHED_OTHER test task and hogs, SCHED_DEADLINE real-time tasks
 *          (runtime 17% of the period, deadline = period);
 *   other  as fifo (only meaningful with -n 0: figure 6's Linux).
 *
 * A real-time job is CPU time of 10% of its period, measured on the
 * thread's CPU clock; its budget is 17%. The rest is for what TCG charges
 * a job beyond its work: a wakeup costs up to 0.4 ms, and each preemption
 * by the test task more. With a budget of 15%, a 15 ms task's job took
 * 2.0 ms of its 2.25 ms (trace), and one that overran once ran its rest
 * at its next release, slept, woke and started the next job with what
 * was left: two more switches and a wakeup made that job overrun too, a
 * chain that did not drain (113 of 133 jobs late in one BEBS run, 63 of
 * 200 in one SCHED_DEADLINE run). A split job needs up to 0.5 ms more
 * than the 2.0 ms of a whole one, 2.5 ms or 16.7% of 15 ms: a budget of
 * 17% lets a chain drain, and four tasks of it (68%) fit beside the
 * class servers' 20% and U_BE,min's 5% under the 95% limit. Jobs of 8%
 * instead would have lowered mainline's response, which the checks
 * compare with BEBS's. A job is late when it ends after its period; a
 * job that ends after the next release drops the releases that have
 * begun, as a player drops frames, so that a stall is one late job
 * rather than the start of a chain (since 2026-11-29).
 *
 * The first half second is not measured (the servers' budgets settle).
 * The real-time tasks' reservations are released when they are dead, and
 * one killed while throttled gets to exit only at its next period: the
 * program returns once the CPU's admitted bandwidth is back where it was
 * (up to 2 s), so that the next run's tasks are admitted.
 * Prints one line:
 *   mode M kind K rt N hogs H mean_us X p95_us Y samples S rt_jobs J rt_late L
 *   rt_sched_late E
 * (E: with -m bebs and real-time tasks, the kernel's count of their jobs
 * that ended late with budget left, ms.bebs.nr_late, over the whole run
 * including the first half second; otherwise -1)
 * and exits 0, or 2 when a task could not enter its class (the error on
 * stderr). The checks are the caller's (bebs_figs.sh).
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
#define MAX_SAMPLES	20000
#define MAX_HOGS	32

enum mode { M_BEBS, M_FIFO, M_DL, M_OTHER };

struct shared {
	volatile int phase;		/* 0 settle, 1 measure, 2 stop */
	volatile int failed;
	int n;
	long long jobs, late;		/* updated by the rt tasks, atomically */
	long long lat[MAX_SAMPLES];
};

static struct shared *sh;
static enum mode mode;
static int cpu;

static void pin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("bebs_resp: sched_setaffinity");
		sh->failed = 1;
		_exit(2);
	}
}

static void enter(struct sched_attr *a)
{
	a->size = sizeof(*a);
	if (syscall(SYS_sched_setattr, 0, a, 0)) {
		fprintf(stderr, "bebs_resp: sched_setattr policy %u: %s\n",
			a->sched_policy, strerror(errno));
		sh->failed = 1;
		_exit(2);
	}
}

/* The class of a test task or hog under @mode. */
static void enter_best_effort(void)
{
	struct sched_attr a = { .sched_policy = SCHED_OTHER };

	if (mode == M_BEBS)
		a.sched_policy = SCHED_BEBS;
	enter(&a);
}

/* Real-time task @i: period 15 * (i + 1) ms, 10% of it as CPU time. */
static void __attribute__((noreturn)) rt_task(int i)
{
	long long period = 15 * MS * (i + 1), next, t;
	struct sched_attr a = { 0 };

	pin();
	switch (mode) {
	case M_BEBS:
		a.sched_policy = SCHED_BEBS;
		a.sched_ms_flags = MS_FLAG_BEBS_PERIODIC;
		a.sched_runtime = period * 17 / 100;
		a.sched_period = period;
		break;
	case M_DL:
		a.sched_policy = SCHED_DEADLINE;
		a.sched_runtime = period * 17 / 100;
		a.sched_deadline = period;
		a.sched_period = period;
		break;
	default:
		/* rate-monotonic: the shortest period has the highest priority */
		a.sched_policy = SCHED_FIFO;
		a.sched_priority = 50 - i;
		break;
	}
	enter(&a);
	next = now_ns();
	for (;;) {
		sleep_until_ns(next);
		next += period;
		spin_cpu_ns(period * 10 / 100);
		t = now_ns();
		if (sh->phase == 1) {
			__atomic_add_fetch(&sh->jobs, 1, __ATOMIC_RELAXED);
			if (t > next)
				__atomic_add_fetch(&sh->late, 1,
						   __ATOMIC_RELAXED);
		}
		/*
		 * A job that ended after the next release drops the releases
		 * that have begun, as a player drops frames: one late job a
		 * stall. Caught up, the next job began late with its budget
		 * partly spent, and one stall made a chain of late jobs.
		 */
		while (next < t)
			next += period;
	}
}

static void __attribute__((noreturn)) hog(void)
{
	pin();
	enter_best_effort();
	for (;;)
		;
}

/* The test task: interactive (sleeps to the event) or polling. */
static void __attribute__((noreturn)) tester(int poll)
{
	long long target, t;

	pin();
	enter_best_effort();
	srand(getpid());
	for (;;) {
		target = now_ns() + 5 * MS + rand() % (20 * MS);
		if (poll) {
			while ((t = now_ns()) < target)
				;
		} else {
			sleep_until_ns(target);
			t = now_ns();
		}
		if (sh->phase == 1 && sh->n < MAX_SAMPLES)
			sh->lat[sh->n++] = t - target;
	}
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 99 };
	const char *mname = "bebs", *kind = "int";
	int nrt = 0, hogs = 1, secs = 3, opt, i, n = 0, status, ret = 0;
	long long sum = 0, base, sched_late = -1, v;
	pid_t pid[MAX_HOGS + 8];

	while ((opt = getopt(argc, argv, "m:k:n:H:t:c:")) != -1) {
		switch (opt) {
		case 'm': mname = optarg; break;
		case 'k': kind = optarg; break;
		case 'n': nrt = atoi(optarg); break;
		case 'H': hogs = atoi(optarg); break;
		case 't': secs = atoi(optarg); break;
		case 'c': cpu = atoi(optarg); break;
		default: return 2;
		}
	}
	if (!strcmp(mname, "bebs"))
		mode = M_BEBS;
	else if (!strcmp(mname, "fifo"))
		mode = M_FIFO;
	else if (!strcmp(mname, "dl"))
		mode = M_DL;
	else if (!strcmp(mname, "other"))
		mode = M_OTHER;
	else
		return 2;
	if (nrt < 0 || nrt > 4 || hogs < 0 || hogs > MAX_HOGS || secs < 1 ||
	    (strcmp(kind, "int") && strcmp(kind, "poll")))
		return 2;
	base = ms_used_ppm(cpu);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;
	/* this process only sleeps and counts; it must wake on time */
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("bebs_resp: SCHED_FIFO 99");
		return 2;
	}
	for (i = 0; i < nrt + hogs + 1; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			perror("bebs_resp: fork");
			sh->failed = 1;
			break;
		}
		if (!pid[i]) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			/* children start as SCHED_OTHER, then enter their class */
			sp.sched_priority = 0;
			sched_setscheduler(0, SCHED_OTHER, &sp);
			if (i < nrt)
				rt_task(i);
			if (i < nrt + hogs)
				hog();
			tester(!strcmp(kind, "poll"));
		}
		n++;
	}
	usleep(500000);
	sh->phase = 1;
	usleep(secs * 1000000);
	sh->phase = 2;
	/*
	 * The kernel's count of the BEBS jobs that ended late with budget
	 * left, over the whole run: EDF's misses, not the budget's.
	 */
	for (i = 0; mode == M_BEBS && i < nrt && i < n; i++) {
		v = pid_sched_ll(pid[i], "ms.bebs.nr_late");
		if (v < 0) {
			sched_late = -1;
			break;
		}
		sched_late = (sched_late < 0 ? 0 : sched_late) + v;
	}
	for (i = 0; i < n; i++)
		kill(pid[i], SIGKILL);
	for (i = 0; i < n; i++)
		if (waitpid(pid[i], &status, 0) == pid[i] && WIFEXITED(status))
			ret = 2;	/* a child gave up: it could not set up */
	/* the next run's real-time tasks need the bandwidth back */
	if (base >= 0 && ms_wait_released(cpu, base, 2000)) {
		fprintf(stderr, "bebs_resp: cpu%d's reservations not released 2 s after their tasks were reaped\n",
			cpu);
		return 2;
	}
	if (sh->failed || ret || !sh->n) {
		fprintf(stderr, "bebs_resp: %s\n", sh->n ? "a task could not enter its class" :
			"no samples");
		return 2;
	}
	for (i = 0; i < sh->n; i++)
		sum += sh->lat[i];
	qsort(sh->lat, sh->n, sizeof(sh->lat[0]), cmp_ll);
	printf("mode %s kind %s rt %d hogs %d mean_us %lld p95_us %lld samples %d rt_jobs %lld rt_late %lld rt_sched_late %lld\n",
	       mname, kind, nrt, hogs, sum / sh->n / 1000,
	       sh->lat[sh->n * 95 / 100] / 1000, sh->n, sh->jobs, sh->late,
	       sched_late);
	return 0;
}
