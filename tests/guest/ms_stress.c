// SPDX-License-Identifier: GPL-2.0
/*
 * ms_stress [-t SECS] [-w WORKERS]
 *
 * Drives the windows where a class callback meets a task that is current
 * but dequeued, that never ran, whose parameters changed while it slept,
 * or that races with migration and priority inheritance, for SECS seconds
 * (default 60) with WORKERS worker threads (default 8):
 *
 *  - workers block and wake at a high rate: short spins, short sleeps, a
 *    pipe ping-pong with a partner, and PI mutexes they hold briefly;
 *  - two changers move random workers, by tid, between SCHED_BVT (random
 *    weight, warp, L, U and flags), SCHED_VTRR (random share), SCHED_BEBS
 *    (best-effort at a random weight, or periodic with a random budget
 *    of 0.1-3 ms every 2-30 ms, admitted or refused with EBUSY), SCHED_RBS
 *    (a reservation of the same kind, half of them in background mode,
 *    changed live when the worker holds one already; half of them
 *    joining another worker's instead, EINVAL if it shares none, and
 *    half of the others shared) and the
 *    mainline policies (OTHER at random nice, BATCH, IDLE, FIFO and RR),
 *    with full, 48-byte and legacy calls, and change their affinity
 *    (EBUSY for one that would take a periodic task off its CPU);
 *  - a SCHED_FIFO booster takes the PI mutexes the workers hold, so that
 *    rt_mutex_setprio() boosts and deboosts them in and out of BVT, VTRR,
 *    BEBS and RBS;
 *  - the normal class flips between fair, bvt, vtrr and bebs every
 *    500 ms.
 *
 * The controller runs SCHED_FIFO 90 on every CPU's behalf. Prints what
 * was done and exits 1 if any worker made no progress or a call failed
 * with an error other than the expected ones; the kernel log (lockdep,
 * RCU, WARNING, BUG) is checked by the caller.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "ms_test.h"

#define MAX_WORKERS	32
#define NR_LOCKS	4

static pthread_mutex_t locks[NR_LOCKS];
static atomic_int stop;
static atomic_long progress[MAX_WORKERS];
static atomic_int tids[MAX_WORKERS];
static atomic_long calls, calls_ok, calls_unexpected, boosts, flips, joins;
/* the last worker given a shared RBS reservation: what joins aim at */
static atomic_int shared_tid;
static int nworkers = 8, ncpus;
static int pipes[MAX_WORKERS][2];

static unsigned int rnd(unsigned int *seed, unsigned int n)
{
	return n ? rand_r(seed) % n : 0;
}

static void spin_us(long us)
{
	long long end = now_ns() + us * 1000;

	while (now_ns() < end)
		;
}

static void *worker(void *arg)
{
	int id = (long)arg, partner = id ^ 1;
	unsigned int seed = id * 7919 + 1;
	char c = 0;

	tids[id] = syscall(SYS_gettid);
	while (!stop) {
		switch (rnd(&seed, 6)) {
		case 0:
			spin_us(rnd(&seed, 300));
			break;
		case 1:
			usleep(rnd(&seed, 200));
			break;
		case 2:	/* wake the partner, which may be asleep in read */
			if (partner < nworkers &&
			    write(pipes[partner][1], &c, 1) < 0)
				break;
			break;
		case 3: {
			struct timespec ts = { 0, 100000 };
			fd_set set;
			struct timeval tv = { 0, 100 };

			FD_ZERO(&set);
			FD_SET(pipes[id][0], &set);
			if (select(pipes[id][0] + 1, &set, NULL, NULL, &tv) > 0 &&
			    read(pipes[id][0], &c, 1) < 0)
				nanosleep(&ts, NULL);
			break;
		}
		case 4: {
			pthread_mutex_t *m = &locks[rnd(&seed, NR_LOCKS)];

			pthread_mutex_lock(m);
			spin_us(rnd(&seed, 100));
			pthread_mutex_unlock(m);
			break;
		}
		default:
			sched_yield();
		}
		progress[id]++;
	}
	return NULL;
}

/* A random, valid or slightly invalid, request for @tid. */
static void change_policy(unsigned int *seed, pid_t tid)
{
	struct sched_attr a = { .size = sizeof(a) };
	struct sched_param sp = { 0 };
	int ret;

	switch (rnd(seed, 11)) {
	case 0:
	case 1:
		a.sched_policy = SCHED_BVT;
		a.sched_weight = rnd(seed, 4) ? 1 + rnd(seed, 100000) : 0;
		if (rnd(seed, 2)) {
			a.sched_warp = 1000 + rnd(seed, 50000000);
			a.sched_warp_limit = rnd(seed, 2) ? 10000 + rnd(seed, 5000000) : 0;
			a.sched_unwarp = rnd(seed, 10000000);
		}
		a.sched_ms_flags = rnd(seed, MS_FLAGS_BVT + 1) & MS_FLAGS_BVT;
		a.sched_nice = (int)rnd(seed, 40) - 20;
		break;
	case 2:
	case 3:
		a.sched_policy = SCHED_VTRR;
		a.sched_weight = rnd(seed, 4) ? 1 + rnd(seed, 100000) : 0;
		a.sched_nice = (int)rnd(seed, 40) - 20;
		break;
	case 4:
		a.sched_policy = rnd(seed, 2) ? SCHED_OTHER : SCHED_BATCH;
		a.sched_nice = (int)rnd(seed, 40) - 20;
		break;
	case 5:
		a.sched_policy = rnd(seed, 4) ? SCHED_FIFO : SCHED_RR;
		a.sched_priority = 1 + rnd(seed, 10);
		break;
	case 6:
		a.sched_policy = SCHED_IDLE;
		break;
	case 9:
		a.sched_policy = SCHED_BEBS;
		a.sched_weight = rnd(seed, 4) ? 1 + rnd(seed, 100000) : 0;
		a.sched_nice = (int)rnd(seed, 40) - 20;
		break;
	case 10:
		/* a periodic BEBS task or an RBS reservation, or EBUSY */
		if (rnd(seed, 2)) {
			a.sched_policy = SCHED_BEBS;
			a.sched_ms_flags = MS_FLAG_BEBS_PERIODIC;
		} else {
			a.sched_policy = SCHED_RBS;
			if (rnd(seed, 2))
				a.sched_ms_flags = MS_FLAG_RBS_BACKGROUND;
			/* a shared one, or joining another worker's */
			if (rnd(seed, 2))
				a.sched_ms_flags |= MS_FLAG_RBS_SHARED;
			/*
			 * A random worker shares a reservation only now and
			 * then (a few joins in 50000 calls): half the joins
			 * aim at the last worker given a shared one, which
			 * may have left it since (EINVAL).
			 */
			if (rnd(seed, 2)) {
				a.sched_ms_flags = MS_FLAG_RBS_JOIN;
				a.sched_join_tid = rnd(seed, 2) && shared_tid ?
						   shared_tid :
						   tids[rnd(seed, nworkers)];
				break;
			}
		}
		a.sched_runtime = 100000 + rnd(seed, 2900000);
		a.sched_period = 2000000 + rnd(seed, 28000000);
		if (a.sched_runtime > a.sched_period)
			a.sched_runtime = a.sched_period;
		break;
	case 7:	/* the legacy calls keep a task's class parameters */
		calls++;
		ret = sched_setparam(tid, &sp);
		if (!ret || errno == EINVAL || errno == ESRCH)
			calls_ok += !ret;
		else
			calls_unexpected++;
		return;
	default:	/* 48 bytes, no class tail */
		a.size = SCHED_ATTR_SIZE_VER0;
		a.sched_policy = SCHED_BVT + rnd(seed, 2);
		a.sched_nice = (int)rnd(seed, 40) - 20;
		break;
	}
	calls++;
	ret = syscall(SYS_sched_setattr, tid, &a, 0);
	if (!ret)
		calls_ok++;
	if (!ret && (a.sched_ms_flags & MS_FLAG_RBS_SHARED))
		shared_tid = tid;
	if (!ret && (a.sched_ms_flags & MS_FLAG_RBS_JOIN))
		joins++;
	else if (ret && errno != EINVAL && errno != ESRCH && errno != EBUSY &&
		 errno != EAGAIN)
		calls_unexpected++;
}

static void change_affinity(unsigned int *seed, pid_t tid)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < ncpus; cpu++)
		if (rnd(seed, 2))
			CPU_SET(cpu, &set);
	if (!CPU_COUNT(&set))
		CPU_SET(rnd(seed, ncpus), &set);
	calls++;
	if (!sched_setaffinity(tid, sizeof(set), &set))
		calls_ok++;
	else if (errno != EINVAL && errno != ESRCH && errno != EBUSY)
		calls_unexpected++;
}

static void *changer(void *arg)
{
	unsigned int seed = (long)arg * 104729 + 3;
	struct timespec ts = { 0, 50000 };

	while (!stop) {
		pid_t tid = tids[rnd(&seed, nworkers)];

		if (tid) {
			if (rnd(&seed, 3))
				change_policy(&seed, tid);
			else
				change_affinity(&seed, tid);
		}
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* Waits on the mutexes the workers hold: each wait boosts the holder. */
static void *booster(void *arg)
{
	struct sched_param fifo = { .sched_priority = 20 };
	unsigned int seed = 17;
	struct timespec ts = { 0, 200000 };

	(void)arg;
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &fifo);
	while (!stop) {
		pthread_mutex_t *m = &locks[rnd(&seed, NR_LOCKS)];

		pthread_mutex_lock(m);
		pthread_mutex_unlock(m);
		boosts++;
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void *normal_flipper(void *arg)
{
	static const char * const classes[] = { "bvt", "vtrr", "bebs", "fair" };
	int i = 0;

	(void)arg;
	while (!stop) {
		usleep(500000);
		if (!write_file("/proc/sys/kernel/sched_normal_class",
				classes[i++ % 4]))
			flips++;
	}
	write_file("/proc/sys/kernel/sched_normal_class", "fair");
	return NULL;
}

int main(int argc, char **argv)
{
	struct sched_param fifo = { .sched_priority = 90 };
	pthread_t w[MAX_WORKERS], ch[2], bo, nf;
	pthread_mutexattr_t ma;
	int secs = 60, opt, i, bad = 0;

	while ((opt = getopt(argc, argv, "t:w:")) != -1) {
		switch (opt) {
		case 't': secs = atoi(optarg); break;
		case 'w': nworkers = atoi(optarg); break;
		default: return 2;
		}
	}
	if (nworkers < 2 || nworkers > MAX_WORKERS || secs < 1)
		return 2;
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	setvbuf(stdout, NULL, _IOLBF, 0);

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	for (i = 0; i < NR_LOCKS; i++)
		pthread_mutex_init(&locks[i], &ma);
	for (i = 0; i < nworkers; i++)
		if (pipe(pipes[i]))
			return 1;

	/* workers start as SCHED_OTHER; the controller stays above them */
	for (i = 0; i < nworkers; i++)
		pthread_create(&w[i], NULL, worker, (void *)(long)i);
	if (sched_setscheduler(0, SCHED_FIFO, &fifo)) {
		perror("ms_stress: SCHED_FIFO");
		return 1;
	}
	for (i = 0; i < 2; i++)
		pthread_create(&ch[i], NULL, changer, (void *)(long)i);
	pthread_create(&bo, NULL, booster, NULL);
	pthread_create(&nf, NULL, normal_flipper, NULL);

	for (i = 0; i < secs; i++) {
		long before = 0, after = 0;
		int k;

		for (k = 0; k < nworkers; k++)
			before += progress[k];
		sleep(1);
		for (k = 0; k < nworkers; k++)
			after += progress[k];
		if (i % 10 == 9)
			printf("ms_stress: %d s: %ld worker steps in the last second, %ld calls\n",
			       i + 1, after - before, (long)calls);
	}
	stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(ch[i], NULL);
	pthread_join(bo, NULL);
	pthread_join(nf, NULL);
	/* send every worker home to SCHED_OTHER so that they finish */
	for (i = 0; i < nworkers; i++) {
		struct sched_attr a = { .size = sizeof(a) };

		syscall(SYS_sched_setattr, tids[i], &a, 0);
		if (write(pipes[i][1], "", 1) < 0)
			perror("ms_stress: wake");
	}
	for (i = 0; i < nworkers; i++) {
		pthread_join(w[i], NULL);
		if (!progress[i]) {
			printf("ms_stress: worker %d made no progress\n", i);
			bad = 1;
		}
	}
	printf("ms_stress: %d CPUs, %d workers, %d s: %ld calls (%ld accepted, %ld of them joins of a shared RBS reservation, %ld unexpected errors), %ld PI boosts, %ld normal-class switches\n",
	       ncpus, nworkers, secs, (long)calls, (long)calls_ok, (long)joins,
	       (long)calls_unexpected, (long)boosts, (long)flips);
	return bad || calls_unexpected || !boosts || !flips || !joins;
}
