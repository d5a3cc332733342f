// SPDX-License-Identifier: GPL-2.0
/*
 * vtrr_overhead [-c bvt|vtrr] [-t SECS] [-R ROUNDS] [-r RATIO] N1 N2 ...
 *
 * Figure 3 of the VTRR paper: the time the kernel takes to choose the
 * next task, against the number of runnable tasks, for SCHED_VTRR and for
 * SCHED_OTHER (EEVDF) in the same boot. For each N, and for each class in
 * turn, a child process puts N spinning threads on CPU 1 in that class;
 * the function_graph tracer, limited to CPU 1 and to the class's
 * pick_task function (pick_task_vtrr, pick_task_fair), then records the
 * duration of every call for SECS seconds (default 2). Only that one
 * function is patched for tracing, before the threads start: patching
 * code that another CPU is running has crashed the guest under QEMU's
 * TCG (an int3 left in pick_task_rt while all functions were patched). The VTRR quantum
 * is set to its minimum, 1 ms, for the run, so that VTRR decides once a
 * tick, as often as EEVDF does with its default slice.
 *
 * The duration of each call includes the tracer's own overhead, the same
 * for both functions. Under an emulator calls are stretched by the host
 * taking the virtual CPU away, now and then for seconds, so the median
 * is what is compared, and the whole series of N is run ROUNDS times
 * (default 5), keeping for each N and class the round with the lowest
 * median; the mean is printed beside it.
 *
 * The threads are created by a SCHED_FIFO thread on CPU 0. Each new
 * thread moves to CPU 1 at once, still SCHED_FIFO, and reports its tid;
 * the creator then moves it into the class with sched_setattr(). A VTRR
 * thread does not preempt on wakeup, so a thread that switched class by
 * itself would wait for the round robin to reach it before it could say
 * so, and creating N threads would take O(N^2) quanta.
 *
 * Prints a line per round and N, then one per N with the kept rounds:
 *
 *	overhead <N> vtrr <median ns> <mean ns> <calls> fair <median ns> <mean ns> <calls>
 *
 * and exits 1 if VTRR's median at the last N is more than RATIO (default
 * 2) times its median at the second N given, which must be 2 or more
 * (the paper's flat curve), or if a measurement failed. The limit is
 * what the host allows: one kernel measured 4.5 us at N = 10000 in one
 * boot and 7.0 us in another an hour earlier (its N = 10 median 4.4 and
 * 4.8 us), so the ratio moves by up to 1.6 with no change in the code,
 * 10000 tasks' memory costing more or less of TCG's time. A pick that
 * walked the queue would pass 10000 clients at a few ns each, over 20 us
 * beside a 5 us decision, and still fail; an O(log N) pick does not
 * show above the noise here (EEVDF's does not). With one task
 * EEVDF may not be asked to decide at all in a round: its row then reads
 * 0 calls.
 *
 * -c bvt measures SCHED_BVT's pick (pick_task_bvt) in VTRR's place, for
 * make bench-pick; the lines then say "bvt" where they say "vtrr", and
 * the exit status applies the same limit to BVT's O(log N) pick. BVT
 * keeps its C (2 ms by default): among equal spinners it switches, and
 * picks, about every C.
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
#define QUANTUM		"/proc/sys/kernel/sched_vtrr_quantum_ns"
#define MAX_N		16
#define MAX_CALLS	200000

struct result {
	double median, mean;
	unsigned long calls;
};

static int tid_fd;
static double durations[MAX_CALLS];

/* A thread: move to CPU 1, report the tid, spin. */
static void *spinner(void *arg)
{
	pid_t tid = gettid();
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		tid = 0;
	if (write(tid_fd, &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	for (;;)
		;
	return arg;
}

/* The child: N spinners in @policy; reports '1' on @fd once all are. */
static void __attribute__((noreturn)) spawn(int n, int policy, int fd)
{
	struct sched_attr a = { .size = sizeof(a), .sched_policy = policy };
	struct sched_param fifo = { .sched_priority = 20 };
	int p[2], i, ok = 0;
	pthread_attr_t attr;
	pthread_t t;
	cpu_set_t set;
	pid_t tid;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &fifo) || pipe(p))
		_exit(1);
	tid_fd = p[1];
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		if (pthread_create(&t, &attr, spinner, NULL)) {
			fprintf(stderr, "vtrr_overhead: thread %d: %s\n", i,
				strerror(errno));
			_exit(1);
		}
		if (read(p[0], &tid, sizeof(tid)) != sizeof(tid))
			_exit(1);
		ok += tid > 0 && !syscall(SYS_sched_setattr, tid, &a, 0);
	}
	c = ok == n ? '1' : '0';
	if (write(fd, &c, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The durations of @fn in the function_graph trace. With max_graph_depth
 * 1 each call is one line, "<cpu>) [+!#]  1.234 us    |  fn();".
 */
static int graph_durations(const char *fn, struct result *r)
{
	char line[256], *bar, *us;
	double sum = 0, d;
	unsigned long n = 0;
	FILE *f = fopen(TRACING "/trace", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && n < MAX_CALLS) {
		bar = strchr(line, '|');
		if (!bar || !strstr(bar, fn))
			continue;
		*bar = '\0';
		us = strstr(line, " us");
		if (!us)
			continue;
		*us = '\0';
		while (us > line && us[-1] != ' ')
			us--;
		if (sscanf(us, "%lf", &d) != 1)
			continue;
		durations[n++] = d * 1000.0;
		sum += d * 1000.0;
	}
	fclose(f);
	r->calls = n;
	r->mean = n ? sum / n : 0;
	qsort(durations, n, sizeof(durations[0]), cmp_double);
	r->median = n ? durations[n / 2] : 0;
	return 0;
}

static int trace_setup(const char *fn)
{
	return write_file(TRACING "/tracing_on", "0") ||
	       write_file(TRACING "/current_tracer", "nop") ||
	       write_file(TRACING "/buffer_size_kb", "8192") ||
	       write_file(TRACING "/tracing_cpumask", "2") ||
	       write_file(TRACING "/max_graph_depth", "1") ||
	       write_file(TRACING "/set_ftrace_filter", fn) ||
	       write_file(TRACING "/current_tracer", "function_graph");
}

static int measure(int n, int policy, int secs, const char *fn,
		   struct result *r)
{
	int fd[2], ret = -1;
	pid_t pid;
	char c = '0';

	/* patch the one call site in while CPU 1 is quiet */
	if (trace_setup(fn) || pipe(fd)) {
		write_file(TRACING "/current_tracer", "nop");
		return -1;
	}
	pid = fork();
	if (!pid)
		spawn(n, policy, fd[1]);
	close(fd[1]);
	if (pid > 0 && read(fd[0], &c, 1) == 1 && c == '1') {
		sleep(1);
		write_file(TRACING "/trace", "");
		write_file(TRACING "/tracing_on", "1");
		sleep(secs);
		write_file(TRACING "/tracing_on", "0");
		ret = graph_durations(fn, r);
	}
	close(fd[0]);
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	write_file(TRACING "/current_tracer", "nop");
	return ret;
}

/* Keep the round with the lower median, among those with calls. */
static void keep_best(struct result *best, const struct result *r, int first)
{
	if (first || !best->calls ||
	    (r->calls && r->median < best->median))
		*best = *r;
}

int main(int argc, char **argv)
{
	struct sched_param fifo = { .sched_priority = 30 };
	struct result vtrr[MAX_N], fair[MAX_N], rv, rf;
	int n[MAX_N], nr = 0, secs = 2, rounds = 5, opt, i, r, bad = 0;
	const char *cls = "vtrr", *fn = "pick_task_vtrr";
	int policy = SCHED_VTRR;
	char quantum[32] = "";
	double ratio = 2.0;
	cpu_set_t set;
	FILE *f;

	while ((opt = getopt(argc, argv, "c:t:r:R:")) != -1) {
		switch (opt) {
		case 'c':
			if (!strcmp(optarg, "bvt")) {
				cls = "bvt";
				fn = "pick_task_bvt";
				policy = SCHED_BVT;
			} else if (strcmp(optarg, "vtrr")) {
				return 2;
			}
			break;
		case 't': secs = atoi(optarg); break;
		case 'r': ratio = atof(optarg); break;
		case 'R': rounds = atoi(optarg); break;
		default: return 2;
		}
	}
	for (i = optind; i < argc && nr < MAX_N; i++)
		n[nr++] = atoi(argv[i]);
	if (nr < 2 || n[1] < 2 || secs < 1 || rounds < 1)
		return 2;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	f = fopen(QUANTUM, "r");
	if (!f || !fgets(quantum, sizeof(quantum), f) ||
	    sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &fifo) ||
	    write_file(QUANTUM, "1000000")) {
		perror("vtrr_overhead: setup");
		return 2;
	}
	fclose(f);

	printf("overhead: %d rounds over N; per class the median and mean ns per pick_task call on CPU 1 and the calls in %d s\n",
	       rounds, secs);
	for (r = 0; r < rounds && !bad; r++) {
		for (i = 0; i < nr; i++) {
			/*
			 * With one task EEVDF need not decide at all: only
			 * from two on must both classes have been asked.
			 */
			if (measure(n[i], policy, secs, fn, &rv) ||
			    measure(n[i], SCHED_OTHER, secs, "pick_task_fair", &rf) ||
			    (n[i] > 1 && (!rv.calls || !rf.calls))) {
				fprintf(stderr, "vtrr_overhead: N=%d: measurement failed\n",
					n[i]);
				bad = 1;
				break;
			}
			printf("round %d: %d %s %.0f %.0f %lu fair %.0f %.0f %lu\n",
			       r + 1, n[i], cls, rv.median, rv.mean, rv.calls,
			       rf.median, rf.mean, rf.calls);
			fflush(stdout);
			keep_best(&vtrr[i], &rv, !r);
			keep_best(&fair[i], &rf, !r);
		}
	}
	write_file(QUANTUM, quantum);
	if (bad)
		return 1;
	printf("overhead: the round with the lowest median of each N and class\n");
	for (i = 0; i < nr; i++)
		printf("overhead %d %s %.0f %.0f %lu fair %.0f %.0f %lu\n",
		       n[i], cls, vtrr[i].median, vtrr[i].mean, vtrr[i].calls,
		       fair[i].median, fair[i].mean, fair[i].calls);
	printf("overhead: %s's median at N=%d is %.2fx its median at N=%d (limit %.2fx); EEVDF's %.2fx\n",
	       cls, n[nr - 1], vtrr[nr - 1].median / vtrr[1].median, n[1], ratio,
	       fair[nr - 1].median / fair[1].median);
	return vtrr[nr - 1].median > ratio * vtrr[1].median;
}
