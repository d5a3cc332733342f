// SPDX-License-Identifier: GPL-2.0
/*
 * ms_pairs share|lock bebs|bvt|vtrr|other [-t SECS]
 *
 * No general class starves another (in the style of sched_ext's rt_stall
 * selftest): on CPU 1, a victim task of the named class runs beside a
 * CPU hog of every class above it (SCHED_FIFO always; SCHED_BEBS above
 * BVT, VTRR and fair; SCHED_BVT above VTRR and fair; SCHED_VTRR above
 * fair).
 *
 *  share  the victim spins for SECS (default 6) seconds; its server
 *         (debugfs sched/<class>_server/cpu1, fair_server for fair) runs
 *         it at least its runtime in every period once it starved, so it
 *         gets at least (SECS / period - 1) * runtime: a period is lost
 *         to the phase of the window's ends.
 *  lock   the victim takes a plain (not priority-inheriting) mutex and
 *         holds it for 10 ms of its own CPU time while the hogs spin; a
 *         SCHED_FIFO waiter on CPU 0 must get the mutex within two
 *         server periods: the first may pass before the victim starves
 *         long enough, the second runs it.
 *
 * Prints what it measured; exits 0 if the bound holds, 1 if not, 2 on a
 * setup error.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
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

#define CPU	1
#define MS	1000000LL
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct shared {
	pthread_mutex_t	lock;
	volatile int	locked;
	volatile long long got_at;
};

static struct shared *sh;

static int enter(int policy, int cpu)
{
	struct sched_attr a = { .size = sizeof(a), .sched_policy = policy };
	cpu_set_t set;

	if (policy == SCHED_FIFO)
		a.sched_priority = 10;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return syscall(SYS_sched_setattr, 0, &a, 0) ||
	       sched_setaffinity(0, sizeof(set), &set);
}

static pid_t spawn_hog(int policy)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (enter(policy, CPU))
		_exit(2);
	for (;;)
		;
}

static long long server_param(const char *class, const char *what)
{
	char path[128];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/sched/%s_server/cpu%d/%s",
		 strcmp(class, "other") ? class : "fair", CPU, what);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Spin until this task has run @ns of CPU time. */
static void run_for(long long ns)
{
	unsigned long long end = cpu_ns(getpid()) + ns;

	while (cpu_ns(getpid()) < end)
		;
}

int main(int argc, char **argv)
{
	static const struct { const char *name; int policy; } classes[] = {
		{ "bebs", SCHED_BEBS }, { "bvt", SCHED_BVT },
		{ "vtrr", SCHED_VTRR }, { "other", SCHED_OTHER },
	};
	int secs = 6, victim = -1, i, n = 0, lock, opt, ret;
	long long runtime, period, t0;
	pid_t hogs[ARRAY_SIZE(classes)], v;
	pthread_mutexattr_t ma;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't')
			return 2;
		secs = atoi(optarg);
	}
	if (argc - optind != 2)
		goto usage;
	lock = !strcmp(argv[optind], "lock");
	if (!lock && strcmp(argv[optind], "share"))
		goto usage;
	for (i = 0; i < (int)ARRAY_SIZE(classes); i++)
		if (!strcmp(argv[optind + 1], classes[i].name))
			victim = i;
	if (victim < 0)
		goto usage;
	runtime = server_param(classes[victim].name, "runtime");
	period = server_param(classes[victim].name, "period");
	if (runtime <= 0 || period <= 0) {
		printf("no server for %s on CPU %d\n", classes[victim].name, CPU);
		return 1;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_NONE);
	pthread_mutex_init(&sh->lock, &ma);

	/* this process waits (or watches) from CPU 0, above every hog */
	if (enter(SCHED_FIFO, 0))
		return 2;

	v = fork();
	if (!v) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (enter(classes[victim].policy, CPU))
			_exit(2);
		if (lock) {
			pthread_mutex_lock(&sh->lock);
			sh->locked = 1;
			while (sh->locked == 1)	/* until the hogs spin */
				;
			run_for(10 * MS);
			pthread_mutex_unlock(&sh->lock);
		}
		for (;;)
			;
	}
	if (lock)
		while (!sh->locked)
			usleep(1000);
	hogs[n++] = spawn_hog(SCHED_FIFO);
	for (i = 0; i < victim; i++)
		hogs[n++] = spawn_hog(classes[i].policy);
	usleep(100000);

	printf("victim %s on CPU %d beside hogs of fifo", classes[victim].name, CPU);
	for (i = 0; i < victim; i++)
		printf(", %s", classes[i].name);
	printf("; its server %lld ms every %lld ms\n", runtime / MS, period / MS);
	if (lock) {
		sh->locked = 2;
		t0 = now_ns();
		pthread_mutex_lock(&sh->lock);
		t0 = now_ns() - t0;
		pthread_mutex_unlock(&sh->lock);
		printf("a SCHED_FIFO waiter got the mutex after %lld ms (bound: two periods, %lld ms)\n",
		       t0 / MS, 2 * period / MS);
		ret = t0 > 2 * period;
	} else {
		unsigned long long c0 = cpu_ns(v), c;
		long long want = (secs * 1000 * MS / period - 1) * runtime;

		sleep(secs);
		c = cpu_ns(v) - c0;
		printf("the victim ran %llu ms in %d s (%.1f%%); at least %lld ms\n",
		       c / MS, secs, 100.0 * c / (secs * 1000 * MS), want / MS);
		ret = (long long)c < want;
	}
	for (i = 0; i < n; i++)
		kill(hogs[i], SIGKILL);
	kill(v, SIGKILL);
	while (wait(NULL) > 0)
		;
	return ret;
usage:
	fprintf(stderr, "usage: ms_pairs share|lock bebs|bvt|vtrr|other [-t SECS]\n");
	return 2;
}
