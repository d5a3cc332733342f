// SPDX-License-Identifier: GPL-2.0
/*
 * vtrr_overhead [-t SECS] [-r RATIO] N1 N2 ...
 *
 * Figure 3 of the VTRR paper: the time the kernel spends choosing the next
 * task, against the number of runnable tasks, for SCHED_VTRR and for
 * SCHED_OTHER (EEVDF) in the same boot. For each N, and for each class in
 * turn, a child process puts N spinning threads on CPU 1 in that class;
 * the ftrace function profiler then times every call of the class's
 * pick_task function (pick_task_vtrr, pick_task_fair) on CPU 1 for SECS
 * seconds (default 2). The averages include the profiler's own overhead,
 * the same for both functions.
 *
 * The threads are created by a SCHED_FIFO thread on CPU 0 and move to
 * CPU 1 before they take their class, so that creating thousands of them
 * does not wait behind those already spinning.
 *
 * Prints one line per N:
 *
 *	overhead <N> vtrr <avg ns> <calls> fair <avg ns> <calls>
 *
 * and exits 1 if VTRR's cost at the largest N is more than RATIO (default
 * 1.3) times its cost at the second N given (the paper's flat curve), or
 * if a measurement failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ms_test.h"

#define TRACING		"/sys/kernel/tracing"
#define MAX_N		16

static int policy;
static int ready_fd;

static int write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fputs(s, f) < 0 ? -1 : 0;
	if (fclose(f))
		ret = -1;
	return ret;
}

/* A thread: move to CPU 1, take the class, say so, spin. */
static void *spinner(void *arg)
{
	struct sched_attr a = { .size = sizeof(a), .sched_policy = policy };
	cpu_set_t set;
	char c = '1';

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    syscall(SYS_sched_setattr, 0, &a, 0))
		c = '0';
	if (write(ready_fd, &c, 1) != 1)
		return NULL;
	for (;;)
		;
	return arg;
}

/* The child: N spinners; reports '1' on @fd once all are in place. */
static void __attribute__((noreturn)) spawn(int n, int fd)
{
	struct sched_param fifo = { .sched_priority = 20 };
	int p[2], i, ok = 0;
	pthread_attr_t attr;
	pthread_t t;
	cpu_set_t set;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &fifo) || pipe(p))
		_exit(1);
	ready_fd = p[1];
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		if (pthread_create(&t, &attr, spinner, NULL)) {
			fprintf(stderr, "vtrr_overhead: thread %d: %s\n", i,
				strerror(errno));
			_exit(1);
		}
		/* one at a time: each runs as SCHED_FIFO until it has moved */
		if (read(p[0], &c, 1) != 1)
			_exit(1);
		ok += c == '1';
	}
	c = ok == n ? '1' : '0';
	if (write(fd, &c, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

/* Average ns and calls of @fn on CPU 1 from the function profiler. */
static int profile(const char *fn, double *avg_ns, unsigned long *calls)
{
	char line[256], name[128], unit[8];
	double total, avg;
	unsigned long hit;
	FILE *f = fopen(TRACING "/trace_stat/function1", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %127s %lu %lf %7s %lf", name, &hit, &total,
			   unit, &avg) != 5 || strcmp(name, fn))
			continue;
		fclose(f);
		*avg_ns = avg * 1000.0;	/* the profiler prints us */
		*calls = hit;
		return 0;
	}
	fclose(f);
	*avg_ns = 0;
	*calls = 0;
	return 0;
}

static int measure(int n, int pol, int secs, const char *fn, double *avg,
		   unsigned long *calls)
{
	int fd[2], ret = -1;
	pid_t pid;
	char c = '0';

	policy = pol;
	if (pipe(fd))
		return -1;
	pid = fork();
	if (!pid)
		spawn(n, fd[1]);
	close(fd[1]);
	if (pid > 0 && read(fd[0], &c, 1) == 1 && c == '1') {
		sleep(1);
		write_file(TRACING "/function_profile_enabled", "0");
		if (!write_file(TRACING "/set_ftrace_filter", fn) &&
		    !write_file(TRACING "/function_profile_enabled", "1")) {
			sleep(secs);
			write_file(TRACING "/function_profile_enabled", "0");
			ret = profile(fn, avg, calls);
		}
	}
	close(fd[0]);
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	return ret;
}

int main(int argc, char **argv)
{
	struct sched_param fifo = { .sched_priority = 30 };
	double vtrr[MAX_N], fair[MAX_N];
	unsigned long vcalls, fcalls;
	int n[MAX_N], nr = 0, secs = 2, opt, i, bad = 0;
	double ratio = 1.3;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "t:r:")) != -1) {
		switch (opt) {
		case 't': secs = atoi(optarg); break;
		case 'r': ratio = atof(optarg); break;
		default: return 2;
		}
	}
	for (i = optind; i < argc && nr < MAX_N; i++)
		n[nr++] = atoi(argv[i]);
	if (nr < 2)
		return 2;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &fifo)) {
		perror("vtrr_overhead: setup");
		return 2;
	}

	printf("overhead: N, then per class the average ns per pick_task call on CPU 1 and the calls in %d s\n",
	       secs);
	for (i = 0; i < nr; i++) {
		if (measure(n[i], SCHED_VTRR, secs, "pick_task_vtrr", &vtrr[i],
			    &vcalls) ||
		    measure(n[i], SCHED_OTHER, secs, "pick_task_fair", &fair[i],
			    &fcalls)) {
			fprintf(stderr, "vtrr_overhead: N=%d: measurement failed\n",
				n[i]);
			return 1;
		}
		printf("overhead %d vtrr %.0f %lu fair %.0f %lu\n", n[i],
		       vtrr[i], vcalls, fair[i], fcalls);
		fflush(stdout);
		if (!vcalls || !fcalls)
			bad = 1;
	}
	printf("overhead: VTRR at N=%d costs %.2fx its cost at N=%d (limit %.2fx); EEVDF %.2fx\n",
	       n[nr - 1], vtrr[nr - 1] / vtrr[1], n[1], ratio,
	       fair[nr - 1] / fair[1]);
	if (vtrr[nr - 1] > ratio * vtrr[1])
		bad = 1;
	return bad;
}
