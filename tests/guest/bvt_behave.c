// SPDX-License-Identifier: GPL-2.0
/*
 * bvt_behave unwarp|warpoff|csw|migrate|mcu|bemode
 *
 * Behavioural checks of the BVT parameters whose effect no share or
 * latency test shows, each on CPU 1 against the rule of the paper or of
 * kernel/sched/bvt.c's header comment. Each prints what it measured and
 * exits 0 when the behaviour holds, 1 when it does not, 2 on a setup
 * error. Traces come from tracefs (bvt_warp and sched_switch).
 *
 *  unwarp   U delays the next warp by U: a warped thread waking every
 *           2 ms beside a hog, U 20 ms, warps at most once per U (the
 *           gap between its warps is at least U); with U 0 it warps at
 *           nearly every wakeup.
 *  warpoff  MS_FLAG_WARP_OFF keeps W (sched_getattr reads it back) but
 *           the thread is never warped; without the flag it is.
 *  csw      C bounds the switch rate between two equal hogs: between two
 *           direct switches from one to the other the second ran at least
 *           2C, so direct switches <= hog CPU time / 2C + interruptions + 1;
 *           checked for C 2 ms and 8 ms.
 *  migrate  M delays a migrated thread: a spinner moved onto a CPU where
 *           a hog of equal A runs waits M + C, to the next tick, before it
 *           runs there; medians over 7 moves with M 0 and M 20 ms differ by
 *           at least M - two ticks.
 *  mcu      a thread that runs 200 us and sleeps is charged a whole mcu
 *           (5 ms) per run: its A grows by at least 0.9 mcu per run, and
 *           by at least half an mcu per run more than its CPU time (which
 *           a run's overhead raises above 200 us, under TCG to 600 us);
 *           with mcu 0 by at most twice its CPU time.
 *  bemode   threshold (0) and direct (1) modes of the best-effort level:
 *           with be_threshold 10 ms, a periodic best-effort thread with
 *           W 5 ms lifts the aggregate (bvt_warp pid=-1) in direct mode
 *           only, one with W 50 ms in both.
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
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ms_test.h"

#define SYSCTL		"/proc/sys/kernel/"
#define MS		1000000LL
#define CPU		1
#define TICK_NS		(1000000000LL / 1000)	/* CONFIG_HZ=1000 */
#define MAX_EV		200000

struct ev {
	long long ts;
	int pid, a, b;	/* bvt_warp: pid, warped, allowed; switch: -, prev, next */
};

static struct ev evs[MAX_EV];
static int nev;

static int setattr(pid_t pid, int policy, unsigned int weight, long long warp,
		   long long limit, long long unwarp, unsigned int flags)
{
	struct sched_attr a = {
		.size = sizeof(a),
		.sched_policy = policy,
		.sched_weight = weight,
		.sched_warp = warp,
		.sched_warp_limit = limit,
		.sched_unwarp = unwarp,
		.sched_ms_flags = flags,
	};

	if (policy == SCHED_FIFO)
		a.sched_priority = 50;
	return syscall(SYS_sched_setattr, pid, &a, 0);
}

static int pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

static int set_ll(const char *path, long long v)
{
	char s[32];

	snprintf(s, sizeof(s), "%lld", v);
	return write_file(path, s);
}

/* A hog of @policy on @cpu in a child that dies with us; its pid. */
static pid_t hog(int cpu, unsigned int weight)
{
	int fd[2];
	char c = '0';
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (!pid) {
		close(fd[0]);
		ms_bvt_hog(fd[1], cpu, weight, 0, "bvt_behave");
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], &c, 1) != 1 || c != '1') {
		close(fd[0]);
		return -1;
	}
	close(fd[0]);
	return pid;
}

static void spin_until(long long t)
{
	while (now_ns() < t)
		;
}

/*
 * A child that, once in SCHED_BVT with the given parameters and pinned,
 * wakes on a @period_ns grid for @secs and runs @run_ns each time.
 */
static pid_t periodic(long long period_ns, long long run_ns, int secs,
		      unsigned int weight, long long warp, long long limit,
		      long long unwarp, unsigned int flags)
{
	pid_t pid = fork();
	struct timespec ts;
	long long next, end;

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (setattr(0, SCHED_BVT, weight, warp, limit, unwarp, flags) ||
	    pin(0, CPU)) {
		perror("bvt_behave: periodic thread");
		_exit(2);
	}
	next = now_ns() + period_ns;
	end = next + secs * 1000 * MS;
	while (next < end) {
		ts.tv_sec = next / (1000 * MS);
		ts.tv_nsec = next % (1000 * MS);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		spin_until(now_ns() + run_ns);
		next += period_ns;
	}
	_exit(0);
}

/* Stop tracing and parse bvt_warp and sched_switch events into evs[]. */
static void trace_read(void)
{
	char line[512], name[32], *rest, *pp, *np;
	long long ts;
	FILE *f;

	ms_trace_stop();
	nev = 0;
	f = fopen(MS_TRACE "trace", "r");
	while (f && nev < MAX_EV && fgets(line, sizeof(line), f)) {
		struct ev *ev = &evs[nev];

		rest = ms_trace_event(line, &ts, name, sizeof(name));
		if (!rest)
			continue;
		ev->ts = ts;
		if (!strcmp(name, "bvt_warp")) {
			if (sscanf(rest, "pid=%d", &ev->pid) != 1)
				continue;
			ev->a = strstr(rest, " warp why=") != NULL;
			ev->b = strstr(rest, "why=allowed") != NULL;
		} else if (!strcmp(name, "sched_switch")) {
			pp = strstr(rest, "prev_pid=");
			np = strstr(rest, "next_pid=");
			if (!pp || !np)
				continue;
			ev->pid = 0;
			ev->a = atoi(pp + 9);
			ev->b = atoi(np + 9);
		} else {
			continue;
		}
		nev++;
	}
	if (f)
		fclose(f);
	ms_trace_restore();
}

/* Allowed warps of @pid: count, and the smallest gap between two. */
static int warps(int pid, long long *min_gap)
{
	long long last = -1;
	int i, n = 0;

	*min_gap = -1;
	for (i = 0; i < nev; i++) {
		if (evs[i].pid != pid || !evs[i].a || !evs[i].b)
			continue;
		if (last >= 0 && (*min_gap < 0 || evs[i].ts - last < *min_gap))
			*min_gap = evs[i].ts - last;
		last = evs[i].ts;
		n++;
	}
	return n;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* --- U ------------------------------------------------------------------ */

static int unwarp_run(long long u, int *n, long long *gap)
{
	pid_t h = hog(CPU, 1024), t;

	if (h < 0)
		return 2;
	ms_trace_start("multisched/bvt_warp");
	t = periodic(2 * MS, MS / 10, 2, 1024, 50 * MS, 5 * MS, u, 0);
	waitpid(t, NULL, 0);
	trace_read();
	reap(h);
	*n = warps(t, gap);
	return 0;
}

static int test_unwarp(void)
{
	long long gap20, gap0;
	int n20, n0;

	if (unwarp_run(20 * MS, &n20, &gap20) || unwarp_run(0, &n0, &gap0))
		return 2;
	printf("U 20 ms: %d warps in 2 s, smallest gap %lld us\n", n20, gap20 / 1000);
	printf("U 0:     %d warps of 1000 wakeups, smallest gap %lld us\n", n0, gap0 / 1000);
	/*
	 * U counts from the sleep that ends a warped stretch, 100 us after
	 * the warp; the first 2 ms grid point U after it is 11 periods
	 * (22 ms) after the warp. At least half the 90 that allows must come,
	 * none closer than U; with U 0, 90% of the wakeups warp.
	 */
	return !(n20 >= 45 && gap20 >= 20 * MS && n0 >= 900);
}

/* --- MS_FLAG_WARP_OFF --------------------------------------------------- */

static int test_warpoff(void)
{
	struct sched_attr a = { .size = sizeof(a) };
	long long gap;
	int n[2], off;
	pid_t h, t;

	for (off = 1; off >= 0; off--) {
		h = hog(CPU, 1024);
		if (h < 0)
			return 2;
		ms_trace_start("multisched/bvt_warp");
		t = periodic(10 * MS, MS / 10, 1, 1024, 50 * MS, 5 * MS, 0,
			     off ? MS_FLAG_WARP_OFF : 0);
		usleep(300000);
		if (off) {
			memset(&a, 0, sizeof(a));
			if (syscall(SYS_sched_getattr, t, &a, sizeof(a), 0))
				perror("bvt_behave: sched_getattr");
			printf("with MS_FLAG_WARP_OFF: sched_getattr reads warp %lld us, flags 0x%llx\n",
			       (long long)a.sched_warp / 1000,
			       (unsigned long long)a.sched_ms_flags);
		}
		waitpid(t, NULL, 0);
		trace_read();
		reap(h);
		n[off] = warps(t, &gap);
	}
	printf("warps in 100 wakeups: %d with MS_FLAG_WARP_OFF, %d without\n",
	       n[1], n[0]);
	return !(a.sched_warp == 50 * MS && (a.sched_ms_flags & MS_FLAG_WARP_OFF) &&
		 n[1] == 0 && n[0] >= 90);
}

/* --- C ------------------------------------------------------------------ */

static int csw_run(long long c, long long secs)
{
	long long c_old = file_ll(SYSCTL "sched_bvt_csw_allowance_ns");
	unsigned long long cpu0;
	int i, direct = 0, interrupted = 0, bound;
	pid_t h1, h2;

	if (set_ll(SYSCTL "sched_bvt_csw_allowance_ns", c))
		return 2;
	/*
	 * sched_switch is switched on before the hogs start and off once
	 * they are gone: switching it rewrites __schedule()'s code, which
	 * under QEMU's multi-threaded TCG a virtual CPU switching hogs may
	 * run stale (see ms_hrtick.c). The buffer is emptied after the
	 * hogs' start.
	 */
	ms_trace_start("sched/sched_switch");
	h1 = hog(CPU, 1024);
	h2 = hog(CPU, 1024);
	if (h1 < 0 || h2 < 0) {
		if (h1 > 0)
			reap(h1);
		if (h2 > 0)
			reap(h2);
		ms_trace_stop();
		return 2;
	}
	usleep(200000);
	write_file(MS_TRACE "trace", "");
	cpu0 = cpu_ns(h1) + cpu_ns(h2);
	usleep(secs * 1000000);
	/* the hogs' CPU time over the traced window, not while it is read */
	write_file(MS_TRACE "tracing_on", "0");
	cpu0 = cpu_ns(h1) + cpu_ns(h2) - cpu0;
	reap(h1);
	reap(h2);
	trace_read();
	set_ll(SYSCTL "sched_bvt_csw_allowance_ns", c_old);
	for (i = 0; i < nev; i++) {
		if (evs[i].pid)
			continue;
		if ((evs[i].a == h1 && evs[i].b == h2) ||
		    (evs[i].a == h2 && evs[i].b == h1))
			direct++;
		else if (evs[i].a == h1 || evs[i].a == h2)
			interrupted++;
	}
	bound = cpu0 / (2 * c) + interrupted + 1;
	printf("C %lld ms: %d direct switches between the hogs in %lld ms of their CPU time, %d interruptions, bound %d\n",
	       c / MS, direct, (long long)cpu0 / MS, interrupted, bound);
	/* and at least half the bound: the switches are there to count */
	return !(direct <= bound && direct >= (bound - interrupted) / 2);
}

static int test_csw(void)
{
	int r2 = csw_run(2 * MS, 3), r8 = csw_run(8 * MS, 3);

	return r2 == 2 || r8 == 2 ? 2 : r2 || r8;
}

/* --- M ------------------------------------------------------------------ */

static int median_ll(long long *v, int n)
{
	int i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j] < v[j - 1]; j--) {
			long long t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n / 2;
}

/* Delay from moving a spinner onto CPU 1 to its first run there, median. */
static long long migrate_run(long long m)
{
	long long m_old = file_ll(SYSCTL "sched_bvt_migration_penalty_ns");
	volatile long long *seen = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long long d[7], t0;
	pid_t h, x;
	int i;

	if (seen == MAP_FAILED || set_ll(SYSCTL "sched_bvt_migration_penalty_ns", m))
		return -1;
	h = hog(CPU, 1024);
	x = fork();
	if (!x) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (setattr(0, SCHED_BVT, 1024, 0, 0, 0, 0) || pin(0, 0))
			_exit(2);
		for (;;) {
			if (sched_getcpu() == CPU && !*seen)
				*seen = now_ns();
		}
	}
	if (h < 0 || x < 0)
		return -1;
	for (i = 0; i < 7; i++) {
		usleep(100000);
		*seen = 0;
		t0 = now_ns();
		if (pin(x, CPU))
			return -1;
		while (!*seen && now_ns() - t0 < 1000 * MS)
			usleep(100);
		d[i] = *seen ? *seen - t0 : 1000 * MS;
		pin(x, 0);
	}
	reap(x);
	reap(h);
	set_ll(SYSCTL "sched_bvt_migration_penalty_ns", m_old);
	return d[median_ll(d, 7)];
}

static int test_migrate(void)
{
	long long d0, d20;

	/* the mover must run at once on CPU 0, where the spinner is */
	if (setattr(0, SCHED_FIFO, 0, 0, 0, 0, 0) || pin(0, 0))
		return 2;
	d0 = migrate_run(0);
	d20 = migrate_run(20 * MS);
	if (d0 < 0 || d20 < 0)
		return 2;
	printf("delay before a moved spinner runs beside a hog (median of 7): M 0: %lld us, M 20 ms: %lld us\n",
	       d0 / 1000, d20 / 1000);
	/*
	 * Each delay is M + C, rounded up to the next tick, less what SVT
	 * lags the hog's A by (it is updated at ticks): two ticks between the
	 * two settings.
	 */
	return !(d20 - d0 >= 20 * MS - 2 * TICK_NS);
}

/* --- mcu ---------------------------------------------------------------- */

static long long own_avt(void)
{
	char line[256];
	long long a = -1;
	FILE *f = fopen("/proc/self/sched", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "ms.bvt.A", 8))
			sscanf(strchr(line, ':') + 1, "%lld", &a);
	fclose(f);
	return a;
}

/* Runs 200 us and sleeps 2 ms, 200 times, alone; prints "runs dA dcpu". */
static int mcu_run(long long mcu, long long *da, long long *dcpu)
{
	long long mcu_old = file_ll(SYSCTL "sched_bvt_mcu_ns");
	int fd[2], i;
	pid_t pid;

	if (set_ll(SYSCTL "sched_bvt_mcu_ns", mcu) || pipe(fd))
		return 2;
	pid = fork();
	if (!pid) {
		long long a0, c0, out[2];
		struct timespec ts = { 0, 2 * MS };

		if (setattr(0, SCHED_BVT, 1024, 0, 0, 0, 0) || pin(0, CPU))
			_exit(2);
		usleep(10000);
		a0 = own_avt();
		c0 = cpu_ns(getpid());
		for (i = 0; i < 200; i++) {
			spin_until(now_ns() + MS / 5);
			nanosleep(&ts, NULL);
		}
		out[0] = own_avt() - a0;
		out[1] = cpu_ns(getpid()) - c0;
		if (write(fd[1], out, sizeof(out)) != sizeof(out))
			_exit(2);
		_exit(a0 < 0 ? 2 : 0);
	}
	close(fd[1]);
	{
		long long out[2];

		if (read(fd[0], out, sizeof(out)) != sizeof(out))
			return 2;
		*da = out[0];
		*dcpu = out[1];
	}
	close(fd[0]);
	waitpid(pid, NULL, 0);
	set_ll(SYSCTL "sched_bvt_mcu_ns", mcu_old);
	return 0;
}

static int test_mcu(void)
{
	long long da5, dc5, da0, dc0;

	if (mcu_run(5 * MS, &da5, &dc5) || mcu_run(0, &da0, &dc0))
		return 2;
	printf("200 runs of 200 us: mcu 5 ms: A grew %lld us for %lld us of CPU; mcu 0: A grew %lld us for %lld us of CPU\n",
	       da5 / 1000, dc5 / 1000, da0 / 1000, dc0 / 1000);
	return !(da5 >= 200 * 5 * MS * 9 / 10 &&
		 da5 >= dc5 + 200 * 5 * MS / 2 &&
		 da0 > 0 && da0 <= 2 * dc0);
}

/* --- best-effort modes -------------------------------------------------- */

static int test_bemode(void)
{
	static const char * const knobs[] = {
		"sched_bvt_be_mode", "sched_bvt_be_threshold_ns", "sched_bvt_be_warp_ns",
	};
	long long old[3], gap, warp[2] = { 5 * MS, 50 * MS };
	int mode, w, n[2][2], i;
	pid_t h, t;

	for (i = 0; i < 3; i++) {
		char path[128];

		snprintf(path, sizeof(path), SYSCTL "%s", knobs[i]);
		old[i] = file_ll(path);
	}
	if (set_ll(SYSCTL "sched_bvt_be_threshold_ns", 10 * MS) ||
	    set_ll(SYSCTL "sched_bvt_be_warp_ns", 20 * MS))
		return 2;
	for (mode = 0; mode < 2; mode++) {
		set_ll(SYSCTL "sched_bvt_be_mode", mode);
		for (w = 0; w < 2; w++) {
			h = hog(CPU, 1024);
			if (h < 0)
				return 2;
			ms_trace_start("multisched/bvt_warp");
			t = periodic(10 * MS, MS / 10, 1, 1024, warp[w], 5 * MS, 0, 0);
			waitpid(t, NULL, 0);
			trace_read();
			reap(h);
			n[mode][w] = warps(-1, &gap);
			printf("%s mode, best-effort thread with W %lld ms: the aggregate warped %d times in 100 wakeups\n",
			       mode ? "direct" : "threshold", warp[w] / MS, n[mode][w]);
		}
	}
	for (i = 0; i < 3; i++) {
		char path[128];

		snprintf(path, sizeof(path), SYSCTL "%s", knobs[i]);
		set_ll(path, old[i]);
	}
	return !(n[0][0] == 0 && n[0][1] >= 90 && n[1][0] >= 90 && n[1][1] >= 90);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(void);
	} tests[] = {
		{ "unwarp", test_unwarp }, { "warpoff", test_warpoff },
		{ "csw", test_csw }, { "migrate", test_migrate },
		{ "mcu", test_mcu }, { "bemode", test_bemode },
	};
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc == 2 && i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!strcmp(argv[1], tests[i].name))
			return tests[i].fn();
	fprintf(stderr, "usage: bvt_behave unwarp|warpoff|csw|migrate|mcu|bemode\n");
	return 2;
}
