// SPDX-License-Identifier: GPL-2.0
/*
 * vtrr_overhead [-c bvt|vtrr] [-t SECS] [-R ROUNDS] [-r RATIO] N1 N2 ...
 *
 * Figure 3 of the VTRR paper: the time the kernel takes to choose the
 * next task, against the number of runnable tasks, for SCHED_VTRR and for
 * SCHED_OTHER (EEVDF) in the same boot. A child process puts N spinning
 * threads on CPU 1, first in one class and then in the other, and grows
 * them from one N to the next; the function_graph tracer, limited to CPU 1
 * and to the classes' pick_task functions (pick_task_vtrr, pick_task_fair),
 * records the duration of every call for SECS seconds (default 2) in each
 * class. Only those two functions are patched for tracing, once, before
 * any thread starts: patching code that another CPU is running has
 * crashed the guest under QEMU's TCG (an int3 left in pick_task_rt while
 * all functions were patched). The VTRR quantum is set to its minimum,
 * 1 ms, for the run, so that VTRR decides once a tick, as often as EEVDF
 * does with its default slice.
 *
 * The duration of each call includes the tracer's own overhead, the same
 * for both functions. Under an emulator calls are stretched by the host
 * taking the virtual CPU away, now and then for seconds, so the median
 * is what is compared, and at each N both classes are measured ROUNDS
 * times (default 5), interleaved, keeping for each N and class the round
 * with the lowest median; the mean is printed beside it. The threads of
 * one N serve all its rounds and both classes: creating 10000 threads
 * takes TCG most of a minute, and did so four times a boot when each
 * round and class had threads of its own.
 *
 * The threads are created by a SCHED_FIFO thread on CPU 0. Each new
 * thread moves to CPU 1 at once, still SCHED_FIFO, and reports its tid;
 * the creator then moves it into the class with sched_setattr(), and
 * moves all of them when the class changes. A VTRR thread does not
 * preempt on wakeup, so a thread that switched class by itself would
 * wait for the round robin to reach it before it could say so, and
 * creating N threads would take O(N^2) quanta.
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
#define MAX_THREADS	20000

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

/*
 * The child: on each command from @cmd, "<policy> <n>", adds spinners up
 * to n and puts all of them in @policy; answers '1' on @fd when done.
 */
static void __attribute__((noreturn)) crowd(int cmd, int fd)
{
	struct sched_param fifo = { .sched_priority = 20 };
	struct sched_attr a = { .size = sizeof(a) };
	static pid_t tids[MAX_THREADS];
	int p[2], i, n, nr = 0, policy, ok;
	pthread_attr_t attr;
	char line[32], c;
	pthread_t t;
	cpu_set_t set;
	ssize_t len;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &fifo) || pipe(p))
		_exit(1);
	tid_fd = p[1];
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	while ((len = read(cmd, line, sizeof(line) - 1)) > 0) {
		line[len] = '\0';
		if (sscanf(line, "%d %d", &policy, &n) != 2 || n > MAX_THREADS)
			_exit(1);
		a.sched_policy = policy;
		ok = 1;
		for (i = 0; i < nr; i++)
			ok &= !syscall(SYS_sched_setattr, tids[i], &a, 0);
		/*
		 * Each new one leaves SCHED_FIFO at once: a spinner of the
		 * creator's priority on CPU 1 would keep the next one, which
		 * must run there to report, off it.
		 */
		for (; nr < n; nr++) {
			if (pthread_create(&t, &attr, spinner, NULL)) {
				fprintf(stderr, "vtrr_overhead: thread %d: %s\n",
					nr, strerror(errno));
				_exit(1);
			}
			if (read(p[0], &tids[nr], sizeof(tids[nr])) !=
			    sizeof(tids[nr]) || tids[nr] <= 0)
				_exit(1);
			ok &= !syscall(SYS_sched_setattr, tids[nr], &a, 0);
		}
		c = ok ? '1' : '0';
		if (write(fd, &c, 1) != 1)
			_exit(1);
	}
	_exit(0);
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

/* function_graph on @fns alone, on CPU 1, one line per call; not yet on */
static int trace_setup(const char *fns)
{
	return write_file(TRACING "/tracing_on", "0") ||
	       write_file(TRACING "/current_tracer", "nop") ||
	       write_file(TRACING "/buffer_size_kb", "8192") ||
	       write_file(TRACING "/tracing_cpumask", "2") ||
	       write_file(TRACING "/max_graph_depth", "1") ||
	       write_file(TRACING "/set_ftrace_filter", fns) ||
	       write_file(TRACING "/current_tracer", "function_graph");
}

/*
 * Has the crowd (commands on @cmd, answers on @ans) hold @n spinners in
 * @policy, lets them settle for a second, and times @fn for @secs.
 */
static int measure(int cmd, int ans, int n, int policy, int secs,
		   const char *fn, struct result *r)
{
	char line[32], c = '0';
	int len;

	len = snprintf(line, sizeof(line), "%d %d", policy, n);
	if (write(cmd, line, len) != len || read(ans, &c, 1) != 1 || c != '1')
		return -1;
	sleep(1);
	write_file(TRACING "/trace", "");
	write_file(TRACING "/tracing_on", "1");
	sleep(secs);
	write_file(TRACING "/tracing_on", "0");
	return graph_durations(fn, r);
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
	int policy = SCHED_VTRR, cmd[2], ans[2];
	char quantum[32] = "", fns[64];
	pid_t pid;
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
	for (i = optind; i < argc && nr < MAX_N; i++) {
		n[nr] = atoi(argv[i]);
		/* the crowd only grows: N in increasing order */
		if (n[nr] < 1 || n[nr] > MAX_THREADS || (nr && n[nr] <= n[nr - 1]))
			return 2;
		nr++;
	}
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

	/* patch both call sites in while CPU 1 is quiet, once */
	snprintf(fns, sizeof(fns), "%s pick_task_fair", fn);
	if (trace_setup(fns) || pipe(cmd) || pipe(ans)) {
		perror("vtrr_overhead: tracing");
		write_file(TRACING "/current_tracer", "nop");
		write_file(QUANTUM, quantum);
		return 2;
	}
	pid = fork();
	if (!pid) {
		close(cmd[1]);
		close(ans[0]);
		crowd(cmd[0], ans[1]);
	}
	close(cmd[0]);
	close(ans[1]);
	printf("overhead: %d rounds at each N; per class the median and mean ns per pick_task call on CPU 1 and the calls in %d s\n",
	       rounds, secs);
	for (i = 0; i < nr && !bad && pid > 0; i++) {
		for (r = 0; r < rounds; r++) {
			/*
			 * With one task EEVDF need not decide at all: only
			 * from two on must both classes have been asked.
			 */
			if (measure(cmd[1], ans[0], n[i], policy, secs, fn, &rv) ||
			    measure(cmd[1], ans[0], n[i], SCHED_OTHER, secs,
				    "pick_task_fair", &rf) ||
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
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	} else {
		bad = 1;
	}
	write_file(TRACING "/current_tracer", "nop");
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
