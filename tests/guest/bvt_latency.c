// SPDX-License-Identifier: GPL-2.0
/*
 * bvt_latency [-c CPU] [-t SECS] [-n HOGS] [-P PERIOD_US] [-r RUN_US]
 *             [-m bvt|fifo|other] [-w WARP_US] [-L LIMIT_US] [-U UNWARP_US]
 *             [-l] [-S] [-R] [-i RUN_US]
 *
 * Low-latency dispatch (figure 3 and table 4 of the BVT paper): a periodic
 * thread wakes every PERIOD_US (default 10000), runs RUN_US (default 1000)
 * and sleeps again, pinned to CPU (default 1) beside HOGS CPU-bound
 * SCHED_BVT threads of the same weight (default 2). Its wakeup latency
 * (actual wakeup minus the absolute time it asked for) is printed as
 * "p50 p99 max" in microseconds, and its p95 on a line of its own. A
 * thread that finds itself behind its grid (a host stall) drops the
 * periods that have begun and counts the stall once; the competitor of
 * -i drops them too. The periodic thread runs in SCHED_BVT with warp WARP_US (0:
 * unwarped), or in SCHED_FIFO or SCHED_OTHER with -m.
 *
 * With -S (signal mode), the periodic thread does not sleep in
 * clock_nanosleep: it arms a periodic POSIX timer (CLOCK_MONOTONIC,
 * SIGEV_THREAD_ID to itself, SIGRTMIN) and waits in sigsuspend. The
 * latency is taken in the signal handler, as its entry time minus the
 * expiry that raised the signal (first expiry + k * PERIOD_US, k counting
 * the overruns timer_getoverrun reports as missed expiries), and the
 * handler then runs RUN_US. In SCHED_BVT with a warp, the thread also sets
 * MS_FLAG_WARP_SIGNAL: it is warped only while the signal is pending or
 * its handler runs.
 *
 * With -R, each wakeup is PERIOD_US after the end of the previous run
 * (in signal mode the timer is armed just before sigsuspend) rather than
 * on a fixed grid, so that a thread that asks for more than its share waits
 * longer at each wakeup instead of falling further behind a grid.
 *
 * With -i, an interactive competitor shares the CPU as the paper's text
 * has it ("delayed at frame time by other interactive ... threads with the
 * same AVT"): an unwarped SCHED_BVT thread of the same weight that wakes
 * on the same grid, COMPETITOR_LEAD_US earlier, and runs RUN_US. Both use
 * less than their share, so both wake with the same credit; the measured
 * thread then waits for the competitor's run unless it is warped (or
 * SCHED_FIFO). Not with -R, which has no grid.
 *
 * With -l (failure containment, table 5), the periodic thread falls into an
 * infinite loop after the first half of the run; the hogs' share of the CPU
 * over the second half (from a second after the loop begins) is printed as
 * "hogs_share PERCENT" and the number of
 * times the warp time limit L unwarped it as "L_hits N". With -S, the loop
 * is in the signal handler, where a MS_FLAG_WARP_SIGNAL thread is warped.
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
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/sched/types.h>
#include <linux/sched/multisched.h>

#include "ms_test.h"

#define MAX_SAMPLES 100000

/* glibc 2.36 lacks the name; the field is the kernel's. */
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

static long long lat_ns[MAX_SAMPLES];
static int nsamples, relative;

/* Signal mode: the timer, its grid and the run, set up before arming. */
static timer_t sig_timer;
/* -l: written when the loop begins, read by the watcher */
static int loop_pipe[2] = { -1, -1 };
static long long sig_first, sig_period, sig_end, sig_run, sig_k;
static int sig_loop;
static volatile sig_atomic_t sig_done;

#define COMPETITOR_LEAD_US	200

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

/*
 * Sleep mode: sample from start + @period until start + @len, each
 * wakeup's latency against the absolute time asked of clock_nanosleep.
 */
static void run_sleep_mode(long long start, long long len, long long period,
			   long long run)
{
	long long next = start, t, last = 0;

	while (next - start < len) {
		struct timespec ts;

		/* -R: the next wakeup is a period after this run ended */
		next = relative && nsamples ? now_ns() + period : next + period;
		/*
		 * Behind the grid (a run or a wait outlasted a period, as a
		 * host stall makes it): drop the periods that have begun and
		 * count how late it is, unless that is no more than the last
		 * wakeup's latency, which already counted the stall. Catching
		 * up instead would run off the backlog without sleeping and
		 * count the stall again in every late period, at a rate that
		 * is each class's own: a SCHED_FIFO thread at once, a warped
		 * one until L unwarps it.
		 */
		t = now_ns();
		if (next < t) {
			if (t - next > last && nsamples < MAX_SAMPLES)
				lat_ns[nsamples++] = t - next;
			next += (t - next + period - 1) / period * period;
		}
		ts.tv_sec = next / 1000000000LL;
		ts.tv_nsec = next % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		t = now_ns();
		last = t - next;
		if (nsamples < MAX_SAMPLES)
			lat_ns[nsamples++] = last;
		spin_ns(run);
	}
}

/*
 * -i: the interactive competitor, on the grid of the measured thread
 * (start + k * @period) but COMPETITOR_LEAD_US ahead of it.
 */
static void __attribute__((noreturn))
competitor(int cpu, long long start, long long period, long long run)
{
	struct sched_attr c = { .sched_policy = SCHED_BVT };
	long long next = start - COMPETITOR_LEAD_US * 1000LL, t;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pin(cpu);
	set_attr(&c);
	for (;;) {
		struct timespec ts;

		next += period;
		/* behind the grid: drop the periods missed, as the thread does */
		t = now_ns();
		if (next < t)
			next += (t - next + period - 1) / period * period;
		ts.tv_sec = next / 1000000000LL;
		ts.tv_nsec = next % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		spin_ns(run);
	}
}

/*
 * -l: tell the watcher the loop begins (from a signal handler too: write
 * is async-signal-safe), and spin until it has measured and sent SIGUSR1.
 */
static void loop_until_watched(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t set;
	char c = 1;

	if (write(loop_pipe[1], &c, 1) != 1)
		_exit(1);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	for (;;) {
		spin_ns(1000000);
		if (sigtimedwait(&set, NULL, &zero) == SIGUSR1)
			break;
	}
}

/*
 * Signal mode: one timer expiry. The signal stands for expiry sig_k and
 * for the timer_getoverrun() later ones it missed; the latency is taken
 * from the first of them, when the signal was raised.
 */
static void on_timer(int sig, siginfo_t *si, void *uc)
{
	long long t = now_ns(), due;
	int over;

	(void)sig;
	(void)si;
	(void)uc;
	if (sig_done)
		return;
	over = timer_getoverrun(sig_timer);
	due = sig_first + sig_k * sig_period;
	sig_k += 1 + (over > 0 ? over : 0);
	if (nsamples < MAX_SAMPLES)
		lat_ns[nsamples++] = t - due;
	spin_ns(sig_run);
	if (due >= sig_end) {
		sig_done = 1;
		if (sig_loop)
			loop_until_watched();
	}
}

/*
 * Signal mode: sample from start + PERIOD until start + @len, as the
 * clock_nanosleep loop does, waiting for the timer in sigsuspend.
 */
static void run_signal_mode(long long start, long long len)
{
	struct sigevent ev = { 0 };
	struct itimerspec its = { 0 };
	struct sigaction sa = { 0 };
	sigset_t set, waitmask;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, &waitmask);
	sigdelset(&waitmask, SIGRTMIN);
	sa.sa_sigaction = on_timer;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGRTMIN, &sa, NULL)) {
		perror("sigaction");
		exit(1);
	}

	sig_first = start + sig_period;
	sig_end = start + len;
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGRTMIN;
	ev.sigev_notify_thread_id = syscall(SYS_gettid);
	its.it_value.tv_sec = sig_first / 1000000000LL;
	its.it_value.tv_nsec = sig_first % 1000000000LL;
	if (!relative) {
		its.it_interval.tv_sec = sig_period / 1000000000LL;
		its.it_interval.tv_nsec = sig_period % 1000000000LL;
	}
	if (timer_create(CLOCK_MONOTONIC, &ev, &sig_timer)) {
		perror("timer_create");
		exit(1);
	}
	if (timer_settime(sig_timer, TIMER_ABSTIME, &its, NULL)) {
		perror("timer_settime");
		exit(1);
	}
	while (!sig_done) {
		if (relative) {
			/* -R: arm for a period from now, just before waiting */
			long long next = now_ns() + sig_period;

			sig_first = next;
			sig_k = 0;
			its.it_value.tv_sec = next / 1000000000LL;
			its.it_value.tv_nsec = next % 1000000000LL;
			timer_settime(sig_timer, TIMER_ABSTIME, &its, NULL);
		}
		sigsuspend(&waitmask);
	}
	timer_delete(sig_timer);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

int main(int argc, char **argv)
{
	int cpu = 1, secs = 10, hogs = 2, opt, i, loop = 0, sigmode = 0;
	long long period = 10000, run = 1000, warp = 0, limit = 0, unwarp = 0;
	long long comp_run = 0, start;
	struct timespec ts;
	const char *mode = "bvt";
	struct sched_attr a = { 0 };
	unsigned long long h0 = 0, h1 = 0, me0, me1;
	long long len;
	pid_t pid[16], watcher = 0, comp = 0;

	while ((opt = getopt(argc, argv, "c:t:n:P:r:m:w:L:U:lSRi:")) != -1) {
		switch (opt) {
		case 'R': relative = 1; break;
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
		case 'S': sigmode = 1; break;
		case 'i': comp_run = atoll(optarg); break;
		default: return 2;
		}
	}
	if (hogs > 16)
		hogs = 16;
	if (comp_run && relative) {
		fprintf(stderr, "bvt_latency: -i needs a grid, not -R\n");
		return 2;
	}

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
		 * so that a looping SCHED_FIFO parent cannot starve it. It
		 * starts a second after the loop does, when this thread says
		 * so, not at a fixed time: as SCHED_OTHER beside the hogs,
		 * which are in a class above fair, this thread may wait up to
		 * a second (fair's server) before it changes class, and the
		 * hogs would then still be running their share in the first
		 * half when a fixed-time window opened.
		 */
		pid_t self = getpid();
		sigset_t set;
		char c;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
		if (pipe(loop_pipe))
			return 1;
		watcher = fork();
		if (!watcher) {
			pin(cpu ? 0 : 1);
			close(loop_pipe[1]);
			if (read(loop_pipe[0], &c, 1) != 1)
				_exit(1);
			sleep(1);
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
		if (sigmode && warp)
			a.sched_ms_flags = MS_FLAG_WARP_SIGNAL;
	}
	set_attr(&a);

	/*
	 * The grid starts in a second, when everyone has settled; taken only
	 * now, as this thread may have waited for the hogs while it was still
	 * SCHED_OTHER.
	 */
	start = now_ns() + 1000000000LL;
	if (comp_run) {
		comp = fork();
		if (!comp)
			competitor(cpu, start, period * 1000, comp_run * 1000);
	}
	ts.tv_sec = start / 1000000000LL;
	ts.tv_nsec = start % 1000000000LL;
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

	len = (long long)secs * 1000000000LL / (loop ? 2 : 1);
	if (sigmode) {
		sig_period = period * 1000;
		sig_run = run * 1000;
		sig_loop = loop;
		run_signal_mode(start, len);
	} else {
		run_sleep_mode(start, len, period * 1000, run * 1000);
	}
	if (comp) {
		kill(comp, SIGKILL);
		waitpid(comp, NULL, 0);
	}

	if (loop) {
		/* Spin until the watcher has measured the second half. */
		if (!sigmode)
			loop_until_watched();
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
	printf("p95_us %lld\n", lat_ns[nsamples * 95 / 100] / 1000);
	return 0;
}
