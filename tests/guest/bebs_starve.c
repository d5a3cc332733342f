// SPDX-License-Identifier: GPL-2.0
/*
 * bebs_starve [-m bebs|dl|dlr] [-c CPU]
 *
 * Figure 1 of the BEBS paper: two tasks with equal shares on one CPU
 * (default 0). Task 2 is compute-bound from the start; task 1 runs 1 ms
 * of CPU every 10 ms for a second, so task 2 can use the slack, and then
 * turns compute-bound for two seconds. Under CBS, whose deadline moves
 * one period further each time a budget runs out, task 2 has used the
 * slack with deadlines far in the future and starves once task 1 wants
 * its share; BEBS does not postpone deadlines (section 4.1) and task 2
 * keeps its share from the first window on.
 *
 *  -m bebs: both are best-effort BEBS tasks at nice 0 (equal weights);
 *           run it with kernel.sched_bebs_e_max_ns small (bebs_figs.sh
 *           sets 10 ms), so that the servers' periods are short beside
 *           the 100 ms windows measured;
 *  -m dl:   both are SCHED_DEADLINE tasks of 7 ms every 20 ms, mainline's
 *           CBS, which throttles a task whose budget ran out until its
 *           next period (a hard reservation: task 2 cannot use slack);
 *  -m dlr:  the same with SCHED_FLAG_RECLAIM (GRUB), with which a
 *           SCHED_DEADLINE task can use the CPU the other leaves.
 *
 * Task 2 notes the time and its CPU time each time it has run 100 us
 * more; its share of a window is the CPU time it gained between the
 * notes at the window's ends (each end within a note, 100 us and the
 * cost of a note under TCG, of the truth), for every 100 ms window
 * (every 5 ms) from task 1's change on. Prints
 *   mode M slack_pct S t1_pct A t2_pct B t2_min_pct W bound_pct X
 * S: task 2's share while task 1 is light (its last 800 ms); A, B: the
 * two tasks' shares once task 1 is compute-bound; W: task 2's least share
 * of a 100 ms window then; X: what a server of task 2's budget b and
 * period p (read at the end) is owed in any 100 ms window in the worst
 * case, u (100 ms - 2 (p - b)) with u = b / p (the supply bound of a
 * periodic server), or -1 when the class shows no server. Exits 0, or 2
 * when a task could not enter its class (the error on stderr).
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

#ifndef SCHED_FLAG_RECLAIM
#define SCHED_FLAG_RECLAIM	0x02	/* linux/sched.h, beside glibc's sched.h */
#endif

#define MS		1000000LL
#define STEP		(100 * 1000LL)		/* task 2 notes each 100 us */
#define LIGHT		(1000 * MS)		/* task 1 light this long */
#define HEAVY		(2000 * MS)		/* then compute-bound */
#define WINDOW		(100 * MS)
#define NOTES		((LIGHT + HEAVY) / STEP + 1000)

struct shared {
	volatile int failed;
	volatile int go;			/* the tasks are in, start */
	long long start;			/* task 1's light phase begins */
	long long t1_cpu0, t1_cpu1;		/* task 1's CPU time in phase 2 */
	long long nr;
	struct {
		long long t, cpu;
	} note[NOTES];				/* task 2's notes */
};

static struct shared *sh;
static int cpu;
static const char *mode = "bebs";

static void enter(void)
{
	struct sched_attr a = { };

	if (!strcmp(mode, "bebs")) {
		a.sched_policy = SCHED_BEBS;
	} else {
		a.sched_policy = SCHED_DEADLINE;
		a.sched_runtime = 7 * MS;
		a.sched_deadline = a.sched_period = 20 * MS;
		if (!strcmp(mode, "dlr"))
			a.sched_flags = SCHED_FLAG_RECLAIM;
	}
	/* the affinity first: SCHED_DEADLINE refuses a change of it */
	if (ms_enter_cpu(cpu, &a, "bebs_starve")) {
		sh->failed = 1;
		_exit(2);
	}
	while (!sh->go)
		sched_yield();
}

static void __attribute__((noreturn)) task1(void)
{
	long long next;

	enter();
	next = sh->start;
	while (now_ns() < sh->start + LIGHT) {
		sleep_until_ns(next);
		next += 10 * MS;
		spin_cpu_ns(MS);
	}
	sh->t1_cpu0 = thread_cpu_ns();
	while (now_ns() < sh->start + LIGHT + HEAVY)
		;
	sh->t1_cpu1 = thread_cpu_ns();
	for (;;)
		pause();
}

static void __attribute__((noreturn)) task2(void)
{
	long long c;

	enter();
	while (sh->nr < NOTES && now_ns() < sh->start + LIGHT + HEAVY) {
		spin_cpu_ns(STEP);
		c = thread_cpu_ns();
		sh->note[sh->nr].t = now_ns();
		sh->note[sh->nr].cpu = c;
		sh->nr++;
	}
	for (;;)
		pause();
}

/* Task 2's CPU time at its last note before @t. */
static long long cpu_at(long long t)
{
	long long lo = 0, hi = sh->nr, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (sh->note[mid].t <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? sh->note[lo - 1].cpu : 0;
}

/* Task 2's share of [@from, @to), in percent. */
static double share(long long from, long long to)
{
	return 100.0 * (cpu_at(to) - cpu_at(from)) / (to - from);
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 99 };
	long long t, change, end, b, p;
	double w, least = 100.0, bound = -1;
	int opt, i, status, ret = 0;
	pid_t pid[2];

	while ((opt = getopt(argc, argv, "m:c:")) != -1) {
		switch (opt) {
		case 'm': mode = optarg; break;
		case 'c': cpu = atoi(optarg); break;
		default: return 2;
		}
	}
	if (strcmp(mode, "bebs") && strcmp(mode, "dl") && strcmp(mode, "dlr"))
		return 2;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (!pid[i]) {
			if (i)
				task2();
			task1();
		}
	}
	/* this process wakes only to start and to collect */
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("bebs_starve: SCHED_FIFO 99");
		return 2;
	}
	usleep(200000);
	sh->start = now_ns() + 10 * MS;
	sh->go = 1;
	change = sh->start + LIGHT;
	end = change + HEAVY;
	sleep_until_ns(end - 200 * MS);
	b = pid_sched_ll(pid[1], "ms.bebs.budget_ns");
	p = pid_sched_ll(pid[1], "ms.bebs.period_ns");
	if (!strcmp(mode, "bebs") && b > 0 && p > 0) {
		bound = 100.0 * b / p * (WINDOW - 2 * (p - b)) / WINDOW;
	} else if (strcmp(mode, "bebs")) {
		b = 7 * MS;
		p = 20 * MS;
		bound = 100.0 * b / p * (WINDOW - 2 * (p - b)) / WINDOW;
	}
	sleep_until_ns(end + 50 * MS);
	for (i = 0; i < 2; i++)
		kill(pid[i], SIGKILL);
	for (i = 0; i < 2; i++)
		if (waitpid(pid[i], &status, 0) == pid[i] && WIFEXITED(status))
			ret = 2;
	if (sh->failed || ret) {
		fprintf(stderr, "bebs_starve: a task could not enter its class\n");
		return 2;
	}
	for (t = change; t + WINDOW <= end; t += 5 * MS) {
		w = share(t, t + WINDOW);
		if (w < least)
			least = w;
	}
	printf("mode %s slack_pct %.1f t1_pct %.1f t2_pct %.1f t2_min_pct %.1f bound_pct %.1f\n",
	       mode, share(change - 800 * MS, change),
	       100.0 * (sh->t1_cpu1 - sh->t1_cpu0) / HEAVY,
	       share(change, end), least, bound);
	return 0;
}
