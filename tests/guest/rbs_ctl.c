// SPDX-License-Identifier: GPL-2.0
/*
 * rbs_ctl: the RBS feedback controller, in the guest.
 *
 *   rbs_ctl bad        bad input to prctl(PR_SCHED_RBS_CTL), the flag and
 *                      the sysctls; no registration left behind by a thread
 *                      that exits, closes its file or loses its peer
 *   rbs_ctl follow     figure 6: a producer at a fixed rate and a
 *                      consumer the controller sets, joined by an AF_UNIX
 *                      stream; the producer doubles its rate, the consumer's
 *                      allocation follows and the fill level returns to
 *                      within 10% of half
 *   rbs_ctl misc       section 3.3: two miscellaneous threads of importance
 *                      1 and 3 on one CPU settle at 1:3 of what is left
 *   rbs_ctl hogs       figure 7: the pair of figure 6 beside a CPU hog
 *   rbs_ctl pipeline   section 4.4: a three-stage pipeline whose middle
 *                      stage gets heavier
 *   rbs_ctl exception  a consumer that cannot be satisfied gets the signal
 *                      of a quality exception
 *   rbs_ctl overhead N...  figure 5: the controller's CPU time per second
 *                      with N controlled threads, from the kernel's count
 *
 * Prints TAP lines; exits 1 if a check failed.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdlib.h>

#include "ms_test.h"

#include <fcntl.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#ifndef PR_SCHED_RBS_CTL
#define PR_SCHED_RBS_CTL	0x52425343
#define PR_RBS_CTL_ADD		0
#define PR_RBS_CTL_CLEAR	1
#define PR_RBS_CTL_SIGNAL	2
#define PR_RBS_CTL_CONSUMER	0
#define PR_RBS_CTL_PRODUCER	1
#endif

#define US	1000LL
#define MS	1000000LL
#define STATS	"/sys/kernel/debug/sched/rbs_ctl"
#define BLOCK	4096

static int fails;

/*
 * Touch @buf before the thread enters its class: its first read() or
 * write() of a pipe would otherwise fault it in holding the pipe's
 * mutex. A consumer does that at the controller's least allocation (its
 * pipe is empty at first), 200 us every 40 ms in pieces, and in a traced
 * run of follow under TCG its producer, blocked on the mutex, made
 * nothing for 2 s (see sched-rbs-ctl.rst, Found on the way).
 */
static void prefault(char *buf)
{
	memset(buf, 1, BLOCK);
}

/* rbs_ctl demo: the runs' numbers, kept for its table; no TAP lines */
static bool demo_mode;
static struct {
	double settle, lo, hi, rate_x, alloc0, alloc1, cpu40;
} demo;

#define CHECK(cond, ...) do {					\
	if (!demo_mode) {					\
		printf("%s - rbs_ctl: ", (cond) ? "ok" : "not ok"); \
		printf(__VA_ARGS__);				\
		printf("\n");					\
		fflush(stdout);					\
	}							\
	if (!(cond))						\
		fails++;					\
} while (0)

static int rbs_enter(pid_t pid, long long C, long long T, unsigned int flags,
		     unsigned int weight)
{
	struct sched_attr a = {
		.size = sizeof(a),
		.sched_policy = SCHED_RBS,
		.sched_runtime = C,
		.sched_period = T,
		.sched_ms_flags = flags,
		.sched_weight = weight,
	};

	return syscall(SYS_sched_setattr, pid, &a, 0) ? errno : 0;
}

static int ctl(unsigned long op, unsigned long a3, unsigned long a4,
	       unsigned long a5)
{
	return prctl(PR_SCHED_RBS_CTL, op, a3, a4, a5) ? errno : 0;
}

/* A number from the controller's "key N" lines in debugfs, or -1 */
static long long stat_ll(const char *key)
{
	char line[128], name[64];
	long long v = -1, x;
	FILE *f = fopen(STATS, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lld", name, &x) == 2 &&
		    !strcmp(name, key))
			v = x;
	fclose(f);
	return v;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Wait up to @ms for the controller to hold @threads and @files; 0 if so */
static int wait_counts(long long threads, long long files, int ms)
{
	for (; ms > 0; ms -= 10) {
		if (stat_ll("threads") == threads && stat_ll("files") == files)
			return 0;
		usleep(10000);
	}
	return -1;
}

/* --- bad input and leaks -------------------------------------------- */

static int write_sysctl(const char *name, const char *v)
{
	char path[128];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, v, strlen(v)) < 0)
		ret = errno;
	close(fd);
	return ret;
}

static int bad(void)
{
	long long threads0 = stat_ll("threads"), files0 = stat_ll("files");
	int p[2], q[2], s[2], fd, e, i;
	pid_t c;
	int st;

	CHECK(threads0 == 0 && files0 == 0,
	      "%s shows no controlled thread and no file before (%lld, %lld)",
	      STATS, threads0, files0);

	/* not a controlled thread yet */
	if (pipe(p) || pipe(q) || socketpair(AF_UNIX, SOCK_STREAM, 0, s))
		return 1;
	e = ctl(PR_RBS_CTL_ADD, p[0], PR_RBS_CTL_CONSUMER, 0);
	CHECK(e == EINVAL, "registering from a thread the controller does not set is EINVAL (%s)",
	      strerror(e));

	/* the flag's bounds */
	e = rbs_enter(0, 0, 10 * MS, MS_FLAG_RBS_FEEDBACK, 0);
	CHECK(e == EINVAL, "feedback with a period and no budget is EINVAL (%s)",
	      strerror(e));
	e = rbs_enter(0, 31 * MS, 0, MS_FLAG_RBS_FEEDBACK, 0);
	CHECK(e == EINVAL, "feedback with a budget over the 30 ms default period is EINVAL (%s)",
	      strerror(e));
	e = rbs_enter(0, 0, 0, MS_FLAG_RBS_FEEDBACK | MS_FLAG_RBS_SHARED, 0);
	CHECK(e == EINVAL, "feedback on a shared reservation is EINVAL (%s)",
	      strerror(e));

	/* the sysctls' bounds */
	e = write_sysctl("sched_rbs_ctl_hz", "0");
	CHECK(e == EINVAL, "a controller rate of 0 Hz is EINVAL (%s)",
	      strerror(e));
	e = write_sysctl("sched_rbs_ctl_hz", "1001");
	CHECK(e == EINVAL, "a controller rate of 1001 Hz is EINVAL (%s)",
	      strerror(e));
	e = write_sysctl("sched_rbs_ctl_kp", "10001");
	CHECK(e == EINVAL, "a gain Kp of 10.001 is EINVAL (%s)", strerror(e));
	e = write_sysctl("sched_rbs_ctl_ki", "-1");
	CHECK(e == EINVAL, "a negative gain Ki is EINVAL (%s)", strerror(e));
	e = write_sysctl("sched_rbs_ctl_period_us", "999");
	CHECK(e == EINVAL, "a default period under 1 ms is EINVAL (%s)",
	      strerror(e));
	CHECK(file_ll("/proc/sys/kernel/sched_rbs_ctl_hz") == 100 &&
	      file_ll("/proc/sys/kernel/sched_rbs_ctl_kp") == 1000,
	      "the refused writes left the rate at 100 Hz and Kp at 1.000");

	/* a controlled child, to register from */
	c = fork();
	if (!c) {
		int bad_fd, f, n = 0, r;

		pin(1);
		if (rbs_enter(0, 0, 0, MS_FLAG_RBS_FEEDBACK, 0))
			_exit(10);
		f = open("/proc/version", O_RDONLY);
		r = ctl(PR_RBS_CTL_ADD, f, PR_RBS_CTL_CONSUMER, 0);
		n += r == EINVAL ? 0 : 1 << 0;
		bad_fd = dup(p[0]);
		close(bad_fd);
		r = ctl(PR_RBS_CTL_ADD, bad_fd, PR_RBS_CTL_CONSUMER, 0);
		n += r == EBADF ? 0 : 1 << 1;
		r = ctl(PR_RBS_CTL_ADD, 999, PR_RBS_CTL_CONSUMER, 0);
		n += r == EBADF ? 0 : 1 << 2;
		r = ctl(PR_RBS_CTL_ADD, p[0], 2, 0);
		n += r == EINVAL ? 0 : 1 << 3;
		r = ctl(PR_RBS_CTL_ADD, p[0], PR_RBS_CTL_CONSUMER, 1);
		n += r == EINVAL ? 0 : 1 << 4;
		r = ctl(PR_RBS_CTL_SIGNAL, 100, 0, 0);
		n += r == EINVAL ? 0 : 1 << 5;
		r = ctl(7, 0, 0, 0);
		n += r == EINVAL ? 0 : 1 << 6;
		r = ctl(PR_RBS_CTL_ADD, p[0], PR_RBS_CTL_CONSUMER, 0);
		n += r == 0 ? 0 : 1 << 7;
		r = ctl(PR_RBS_CTL_ADD, p[0], PR_RBS_CTL_PRODUCER, 0);
		n += r == EEXIST ? 0 : 1 << 8;
		r = ctl(PR_RBS_CTL_ADD, q[1], PR_RBS_CTL_PRODUCER, 0);
		n += r == 0 ? 0 : 1 << 9;
		r = ctl(PR_RBS_CTL_ADD, s[0], PR_RBS_CTL_CONSUMER, 0);
		n += r == 0 ? 0 : 1 << 10;
		r = ctl(PR_RBS_CTL_ADD, q[0], PR_RBS_CTL_CONSUMER, 0);
		n += r == 0 ? 0 : 1 << 11;
		r = ctl(PR_RBS_CTL_ADD, s[1], PR_RBS_CTL_CONSUMER, 0);
		n += r == ENOSPC ? 0 : 1 << 12;
		r = ctl(PR_RBS_CTL_SIGNAL, SIGUSR1, 0, 0);
		n += r == 0 ? 0 : 1 << 13;
		if (pid_sched_ll(getpid(), "ms.rbs_ctl.metrics") != 4)
			n += 1 << 14;
		/* a real-time kind: its budget is its own, no metric */
		r = rbs_enter(0, 1 * MS, 10 * MS, MS_FLAG_RBS_FEEDBACK, 0);
		n += r == 0 ? 0 : 1 << 15;
		r = ctl(PR_RBS_CTL_CLEAR, 0, 0, 0);
		n += r == 0 ? 0 : 1 << 16;
		r = ctl(PR_RBS_CTL_ADD, q[0], PR_RBS_CTL_CONSUMER, 0);
		n += r == EINVAL ? 0 : 1 << 17;
		/* report the first failure, then exit holding four files */
		_exit(n ? 1 + __builtin_ctz(n) : 0);
	}
	waitpid(c, &st, 0);
	e = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	CHECK(e == 0, "a regular file is EINVAL, a closed or unknown fd EBADF, a bad role, argument, signal or operation EINVAL, the same file twice EEXIST, a fifth metric ENOSPC, a metric for a thread with a budget of its own EINVAL (first failure: %d)",
	      e);
	CHECK(!wait_counts(0, 0, 1000),
	      "a controlled thread that exits holding four metrics leaves no thread and no file held (%lld, %lld)",
	      stat_ll("threads"), stat_ll("files"));

	/* closing the registered fd, and the other end of the pipe */
	c = fork();
	if (!c) {
		int n = 0, own[2];

		pin(1);
		if (pipe(own) || rbs_enter(0, 0, 0, MS_FLAG_RBS_FEEDBACK, 0))
			_exit(10);
		fd = dup(own[0]);
		if (ctl(PR_RBS_CTL_ADD, fd, PR_RBS_CTL_CONSUMER, 0) ||
		    ctl(PR_RBS_CTL_ADD, q[0], PR_RBS_CTL_CONSUMER, 0))
			_exit(11);
		close(q[1]);	/* the pipe's writer: our copy */
		usleep(100000);
		if (pid_sched_ll(getpid(), "ms.rbs_ctl.metrics") != 2)
			n |= 1;
		/* own[0]'s file is ours alone: closing both of its fds */
		close(fd);
		close(own[0]);
		usleep(100000);
		if (pid_sched_ll(getpid(), "ms.rbs_ctl.metrics") != 1)
			n |= 2;
		if (ctl(PR_RBS_CTL_CLEAR, 0, 0, 0) ||
		    pid_sched_ll(getpid(), "ms.rbs_ctl.metrics") != 0)
			n |= 4;
		/* leave the controller: the registration goes */
		if (ctl(PR_RBS_CTL_ADD, q[0], PR_RBS_CTL_CONSUMER, 0) ||
		    rbs_enter(0, 1 * MS, 10 * MS, 0, 0))
			n |= 8;
		usleep(100000);
		if (pid_sched_ll(getpid(), "ms.rbs_ctl.metrics") != -1)
			n |= 16;
		_exit(n);
	}
	close(q[1]);
	close(p[1]);
	waitpid(c, &st, 0);
	e = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	CHECK(e == 0, "a metric whose fd the thread closes is dropped, one whose writer closed stays, PR_RBS_CTL_CLEAR drops the rest, and leaving the controller drops the state (failed: 0x%x)",
	      e);
	CHECK(!wait_counts(0, 0, 1000),
	      "after them, no controlled thread and no file held (%lld, %lld)",
	      stat_ll("threads"), stat_ll("files"));

	/*
	 * A socket's fill: an AF_UNIX stream's bytes in flight are charged
	 * to its sending end, whose send buffer is filled here; as a
	 * consumer's metric it reads full, a pressure of +1/2.
	 */
	c = fork();
	if (!c) {
		int u[2], fl;
		long long F;
		char buf[4096] = { 0 };

		pin(1);
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, u) ||
		    rbs_enter(0, 0, 0, MS_FLAG_RBS_FEEDBACK, 0))
			_exit(10);
		fl = fcntl(u[0], F_GETFL);
		fcntl(u[0], F_SETFL, fl | O_NONBLOCK);
		while (write(u[0], buf, sizeof(buf)) > 0)
			;
		if (ctl(PR_RBS_CTL_ADD, u[0], PR_RBS_CTL_CONSUMER, 0))
			_exit(11);
		usleep(100000);
		F = pid_sched_ll(getpid(), "ms.rbs_ctl.pressure_ppm");
		printf("# rbs_ctl: a full AF_UNIX stream's sending end as a consumer's metric: pressure %lld ppm\n",
		       F);
		fflush(stdout);
		_exit(F > 400000 ? 0 : 12);
	}
	waitpid(c, &st, 0);
	e = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	CHECK(e == 0, "a full AF_UNIX stream's sending end reads as a full queue: a consumer's pressure near +1/2 (exit %d)",
	      e);
	for (i = 0; i < 2; i++) {
		close(s[i]);
		close(q[i]);
		close(p[i]);
	}
	return fails ? 1 : 0;
}

/* --- pipes and streams --------------------------------------------- */

/* A pipe of 1 MiB (256 slots of a block); its size, or -1 */
static long long big_pipe(int p[2])
{
	if (pipe(p))
		return -1;
	return fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
}

/*
 * A stream of 1 MiB: AF_UNIX stream sockets, @s[0] read and @s[1]
 * written; the size of its send buffer, or -1. Its fill level, as the
 * controller reads it, is what the writing end has queued (its send
 * buffer's use, SIOCOUTQ) over that size, so both stages take @s[1] as
 * their metric. A pipe's reader and writer share the pipe's mutex, which
 * is not a priority-inheritance lock: a stage throttled inside a read()
 * or a write() holds up the other end until its replenishment, a
 * stream's do not (a reader holds its own socket's mutex, a writer none).
 */
static long long big_stream(int s[2])
{
	int v = 512 << 10;
	socklen_t l = sizeof(v);

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, s) ||
	    setsockopt(s[1], SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof(v)) ||
	    getsockopt(s[1], SOL_SOCKET, SO_SNDBUF, &v, &l))
		return -1;
	return v;
}

/*
 * Send what a paced writer owes, without blocking, in pieces of @len
 * from @buf; the bytes sent. A stream's writer that blocks on a full
 * buffer is woken only once the buffer has drained to a quarter
 * (unix_writable()), while the controller keeps it at half: in a run of
 * follow whose consumer a host's stalls had held back, the producer
 * waited in sock_alloc_send_pskb() with the stream at 0.35 for 10 s.
 * What does not fit waits for the writer's next tick.
 */
static long long send_owed(int fd, const char *buf, long long len,
			   long long *owed)
{
	long long done = 0;
	ssize_t n;

	while (*owed > 0) {
		n = send(fd, buf, *owed < len ? *owed : len, MSG_DONTWAIT);
		if (n <= 0)
			break;
		*owed -= n;
		done += n;
	}
	return done;
}

/* The fill level of a pipe (its read end) or a stream (its writing end) */
static double fill_of(int fd, long long size)
{
	struct stat sb;
	int q = 0;

	if (!fstat(fd, &sb) && S_ISSOCK(sb.st_mode))
		ioctl(fd, SIOCOUTQ, &q);
	else
		ioctl(fd, FIONREAD, &q);
	return (double)q / size;
}

/* --- lockouts: budgets paid back for the host's stalls --------------- */

/*
 * A sporadic server charges what its thread ran past its budget, and
 * under TCG's wall clock a stall of the host while the thread runs counts
 * as run: an overrun of k whole budgets sends its chunks k periods back,
 * and the thread waits about stall / U (sched-rbs.rst; SCHED_DEADLINE
 * pays such an overrun back in full too). In a traced run of follow under
 * TCG's wall clock (2026-11-29) a consumer of 7%, caught running by a
 * host stall that made the sampler 31 ms late, waited 270 ms while its
 * producer went on, and the fill level left the band for 0.4 s. These
 * experiments run under --icount (rbs_ctl.sh), where the host's stalls do
 * not exist for the guest, and check that no controlled thread was locked
 * out so: that no multisched:rbs_throttle event has its head chunk due
 * more than the longest period and 5 ms later. A throttle waits at most a
 * period, plus what its thread overran its budget by, the budget timer's
 * latency: tens of microseconds under --icount. Run under TCG's wall
 * clock, the check fails when a stall caught a thread, and says so.
 */
#define RESPONSE_NS	(333 * MS)	/* the paper's: a third of a second */
/*
 * The longest period the controller gives a thread in these tests: the
 * default 30 ms, or 40 ms at the least allocation (200 us at 0.5%)
 */
#define CTL_T_MAX	(40 * MS)

static int nr_lockouts;
static long long lockout_max;	/* ns */
static char saved_clock[32];

/* Trace RBS throttles, timed as now_ns(); -1 if tracefs cannot */
static int lockouts_start(void)
{
	ms_trace_clock(saved_clock, sizeof(saved_clock));
	if (write_file(MS_TRACE "trace_clock", "mono") ||
	    ms_trace_start("multisched/rbs_throttle")) {
		ms_trace_stop();
		ms_trace_restore();
		write_file(MS_TRACE "trace_clock", saved_clock);
		return -1;
	}
	return 0;
}

/* Stop tracing and count the lockouts of the @np threads @pids */
static void lockouts_read(const pid_t *pids, int np)
{
	char line[512], name[64], *rest;
	long long ts, now, head;
	int pid, j;
	FILE *f;

	ms_trace_stop();
	f = fopen(MS_TRACE "trace", "r");
	while (f && fgets(line, sizeof(line), f)) {
		rest = ms_trace_event(line, &ts, name, sizeof(name));
		if (!rest || strcmp(name, "rbs_throttle") ||
		    sscanf(rest, "pid=%d now=%lld head_time=%lld", &pid, &now,
			   &head) != 3)
			continue;
		for (j = 0; j < np && pids[j] != pid; j++)
			;
		if (j == np || head - now <= CTL_T_MAX + 5 * MS)
			continue;
		nr_lockouts++;
		if (head - now > lockout_max)
			lockout_max = head - now;
	}
	if (f)
		fclose(f);
	ms_trace_restore();
	write_file(MS_TRACE "trace_clock", saved_clock);
}

/* A thread's state and where it sleeps, for a report: "S pipe_read" */
static void task_state(pid_t pid, char *buf, int len)
{
	char path[64], st[512], wchan[64], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	ms_read_str(path, st, sizeof(st));
	p = strrchr(st, ')');
	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	ms_read_str(path, wchan, sizeof(wchan));
	snprintf(buf, len, "%c %s", p && p[1] ? p[2] : '?',
		 wchan[0] ? wchan : "-");
}

/* --- figure 6: a producer and a consumer ----------------------------- */

struct shared {
	volatile long long work_p;	/* producer's CPU ns a write */
	volatile long long blocks_p;	/* blocks a write: 1, then 2 */
	volatile long long work_c;	/* consumer's CPU ns a block */
	volatile long long produced, consumed;
};

#define TICK_NS	(10 * MS)	/* the producer's: a write every 10 ms */

/*
 * The paper's producer runs at a predetermined rate, in a reservation of
 * its own, and doubles its rate of production in bytes. Here it writes
 * one block every 10 ms, on a grid (a late write, or one the stream had
 * no room for, is made up for at the next tick, so the rate is the
 * grid's), then two in one send(), into an AF_UNIX stream
 * (big_stream()), as a SCHED_FIFO thread: a reservation's
 * lockouts (below) would move its rate. Until 2026-11-29 it spun 800 us
 * a block in a reservation of 2 ms every 10 ms, as fast as that let it,
 * and halved that: on a slow host, where a write and its wakeup cost
 * more than the work, its rate hardly moved (1.02 times in a CI run),
 * and through a pipe each end, throttled inside a read() or a write(),
 * held up the other.
 */
static void __attribute__((noreturn)) producer(struct shared *sh, int fd)
{
	struct sched_param sp = { .sched_priority = 10 };
	static char buf[2 * BLOCK];
	long long next, owed = 0, sent = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pin(0);
	prefault(buf);
	prefault(buf + BLOCK);
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		_exit(10);
	for (next = now_ns();; next += TICK_NS) {
		sleep_until_ns(next);
		spin_cpu_ns(sh->work_p);
		owed += sh->blocks_p * BLOCK;
		sent += send_owed(fd, buf, sizeof(buf), &owed);
		sh->produced = sent / BLOCK;
	}
}

static void __attribute__((noreturn)) consumer(struct shared *sh, int fd,
					       int metric)
{
	static char buf[BLOCK];
	ssize_t n, got;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pin(0);
	prefault(buf);
	if (rbs_enter(0, 0, 0, MS_FLAG_RBS_FEEDBACK, 0) ||
	    ctl(PR_RBS_CTL_ADD, metric, PR_RBS_CTL_CONSUMER, 0))
		_exit(10);
	for (;;) {
		for (got = 0; got < BLOCK; got += n) {
			n = read(fd, buf + got, BLOCK - got);
			if (n <= 0)
				_exit(11);
		}
		spin_cpu_ns(sh->work_c);
		sh->consumed++;
	}
}

#define SAMPLE_NS	(5 * MS)
#define SETTLE_MAX	2000	/* samples before the doubling, at most: 10 s */
#define HOLD		200	/* the windows measured: 1 s */
#define SETTLE_HOLD	400	/* in band this long before the doubling: 2 s */
#define AFTER		600	/* samples after the doubling: 3 s */
#define MAX_SAMPLES	(SETTLE_MAX + AFTER)
#define NWIN		6	/* the fill's means over 30 ms, a consumer's period */

static int follow(void)
{
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	static double fill[MAX_SAMPLES], avg[MAX_SAMPLES];
	static long long np[MAX_SAMPLES], nc[MAX_SAMPLES], ts[MAX_SAMPLES];
	static long long tf[MAX_SAMPLES], alloc[MAX_SAMPLES / 10];
	long long t, size, settle_ns = -1;
	long long late, late_max = 0, exhausted = 0;
	struct sched_param sp = { .sched_priority = 50 };
	int p[2], n, i, j, at = -1, inband = 0, nlate = 0, late_at = 0;
	int traced, out = 0;
	double lo = 1, hi = 0, rate0, rate1, prod0, prod1;
	double a_before = 0, a_after = 0;
	char state_p[80], state_c[80];
	bool held;
	pid_t pp, pc;

	if (sh == MAP_FAILED || (size = big_stream(p)) < 0)
		return 1;
	/*
	 * 100 blocks a second, then 200. Under --icount the producer
	 * needs about 3% of cpu0 and the consumer 1.3%, then 2.5%; on a
	 * slow host under TCG's wall clock, where a send and its wakeup
	 * cost over a millisecond, the producer 15% and the consumer up to a
	 * tenth, then a fifth, which fits beside the deadline servers under
	 * the rate-monotonic bound of cpu0.
	 */
	sh->work_p = 200 * US;
	sh->blocks_p = 1;
	sh->work_c = 150 * US;
	pp = fork();
	if (!pp)
		producer(sh, p[1]);
	pc = fork();
	if (!pc)
		consumer(sh, p[0], p[1]);
	pin(1);
	sched_setscheduler(0, SCHED_FIFO, &sp);
	traced = !lockouts_start();

	/*
	 * The consumer starts on an empty stream at the least allocation and
	 * catches up in a second or two (more on a slow host). The doubling
	 * comes once the fill level's 30 ms means have held within 10% of
	 * half for 2 s, or after 10 s; 3 s later the run ends. (After 1 s in
	 * the band the fill level was still rising, the consumer behind its
	 * producer by a fifth and its allocation short by as much.)
	 */
	n = MAX_SAMPLES;
	t = now_ns();
	for (i = 0; i < n; i++) {
		if (i == at)
			sh->blocks_p = 2;
		np[i] = sh->produced;
		nc[i] = sh->consumed;
		ts[i] = now_ns();
		/* the allocation moves at every step: 20 readings a second */
		if (i % 10 == 0)
			alloc[i / 10] = pid_sched_ll(pc, "ms.rbs_ctl.alloc_ppm");
		sleep_until_ns(t += SAMPLE_NS);
		/* the host's stalls, as this thread alone on cpu1 sees them */
		late = now_ns() - t;
		if (late > 10 * MS)
			nlate++;
		if (late > late_max) {
			late_max = late;
			late_at = i;
		}
		tf[i] = now_ns();
		fill[i] = fill_of(p[1], size);
		avg[i] = 0;
		for (j = i >= NWIN - 1 ? i - NWIN + 1 : 0; j <= i; j++)
			avg[i] += fill[j] / (i >= NWIN - 1 ? NWIN : i + 1);
		if (at < 0) {
			inband = avg[i] >= 0.4 && avg[i] <= 0.6 && i >= NWIN - 1 ?
				 inband + 1 : 0;
			if (inband == SETTLE_HOLD || i == SETTLE_MAX - 1) {
				at = i + 1;
				n = at + AFTER;
			}
		}
	}
	held = inband >= SETTLE_HOLD;
	/* the producer's over the 3 s after the doubling */
	prod0 = (double)(np[at] - np[at - HOLD]) * 1e9 / (ts[at] - ts[at - HOLD]);
	rate0 = (double)(nc[at] - nc[at - HOLD]) * 1e9 / (ts[at] - ts[at - HOLD]);
	prod1 = (double)(np[n - 1] - np[at]) * 1e9 / (ts[n - 1] - ts[at]);
	rate1 = (double)(nc[n - 1] - nc[n - 1 - HOLD]) * 1e9 /
		(ts[n - 1] - ts[n - 1 - HOLD]);
	exhausted = pid_sched_ll(pc, "ms.rbs.nr_exhausted");
	task_state(pp, state_p, sizeof(state_p));
	task_state(pc, state_c, sizeof(state_c));
	if (traced)
		lockouts_read(&pc, 1);
	kill(pp, SIGKILL);
	kill(pc, SIGKILL);
	waitpid(pp, NULL, 0);
	waitpid(pc, NULL, 0);

	for (i = at - HOLD; i < at; i += 10)
		a_before += alloc[i / 10] / (HOLD / 10);
	for (i = n - HOLD; i < n; i += 10)
		a_after += alloc[i / 10] / (HOLD / 10);
	/* settled: from the first window after which all stay in 0.4..0.6 */
	for (i = n - 1; i >= at && avg[i] >= 0.4 && avg[i] <= 0.6; i--)
		;
	if (i + 1 < n)
		settle_ns = (long long)(i + 1 - at) * SAMPLE_NS;
	/* out of the band after the doubling's third of a second */
	for (i = at; i < n; i++)
		if ((avg[i] < 0.4 || avg[i] > 0.6) &&
		    tf[i] > tf[at] + RESPONSE_NS)
			out++;
	for (i = n - HOLD; i < n; i++) {
		lo = avg[i] < lo ? avg[i] : lo;
		hi = avg[i] > hi ? avg[i] : hi;
	}
	demo.settle = settle_ns / 1e9;
	demo.lo = lo;
	demo.hi = hi;
	demo.rate_x = prod1 / prod0;
	demo.alloc0 = a_before / 1e4;
	demo.alloc1 = a_after / 1e4;
	if (!demo_mode)
		printf("# rbs_ctl follow: a stream of %lld KiB; in band after %.2f s; producer %.0f then %.0f blocks/s; consumer %.0f blocks/s at %.1f%% (mean of 20) in the second before, %.0f at %.1f%% (mean of 20) in the last, out of budget %lld times; settled %.3f s after the change (%lld steps); fill over the last second %.2f..%.2f; the sampler woke over 10 ms late %d times, at most %.1f ms (t=%+.2f s); %d lockouts of the consumer (the longest %.0f ms); at the end the producer %s, the consumer %s\n",
	       size >> 10, (at - SETTLE_HOLD) * SAMPLE_NS / 1e9, prod0, prod1,
	       rate0, a_before / 1e4, rate1, a_after / 1e4,
	       exhausted, settle_ns / 1e9, settle_ns / (10 * MS), lo, hi,
	       nlate, late_max / 1e6, (late_at - at) * SAMPLE_NS / 1e9,
	       nr_lockouts, lockout_max / 1e6, state_p, state_c);
	for (i = at - (at >= 600 ? 600 : at / 20 * 20); i < n && !demo_mode;
	     i += 20)
		printf("# t=%+.1f s fill %.2f%s", (i - at) * SAMPLE_NS / 1e9,
		       avg[i], (i - at) % 200 == -20 || (i - at) % 200 == 180 ?
		       "\n" : " ");
	if (!demo_mode)
		printf("\n");
	CHECK(traced && !nr_lockouts,
	      "the consumer was never locked out for an overrun: no throttle of it waited over 45 ms (%d; traced: %s)",
	      nr_lockouts, traced ? "yes" : "no");
	CHECK(held, "the fill level settled within 10%% of half and held for 2 s before the doubling (at %.2f s, 10 s at most)",
	      at * SAMPLE_NS / 1e9);
	/*
	 * On its grid the producer doubles its rate unless it cannot keep
	 * up: two blocks and a write every 10 ms.
	 */
	CHECK(prod1 > 1.9 * prod0 && prod1 < 2.1 * prod0,
	      "the producer's rate doubles, within 5%% (%.2fx)",
	      prod1 / prod0);
	/*
	 * That the consumer keeps the producer's rate is what the fill
	 * level says: a block not consumed stays in the stream. Compared
	 * over a second, the counts differ by the fill's change, up to 51
	 * blocks within the band, which at 100 blocks a second is no test
	 * of 5%; the fill level's checks below are.
	 *
	 * Its work a block is the same: the allocation scales with the
	 * producer's rate. Not exactly: the controller cuts an allocation
	 * only once the thread uses less than 3/4 of it (too generous), so
	 * it may sit anywhere from the use to 4/3 of it, 3/4 to 4/3 between
	 * two readings; and a block costs less when more arrive a wakeup.
	 * Hence 0.6 to 1.4 times the rate's growth (2026-11-28: 0.68 seen
	 * with 11.3% before, at the top of that band).
	 */
	CHECK(a_before > 0 && a_after > 0.6 * a_before * prod1 / prod0 &&
	      a_after < 1.4 * a_before * prod1 / prod0,
	      "its allocation follows the producer's rate, 0.6 to 1.4 times its growth (%.1f%% to %.1f%% for %.2fx)",
	      a_before / 1e4, a_after / 1e4, prod1 / prod0);
	/* the paper's controller took about a third of a second */
	CHECK(out == 0,
	      "the fill level is back within 10%% of half in a third of a second at 100 Hz, and stays (%d samples out after it; in band for good %.3f s after the doubling)",
	      out, settle_ns / 1e9);
	CHECK(hi - lo <= 0.2,
	      "no sustained oscillation: over the last second the fill level moves by at most 20%% of the stream (%.2f)",
	      hi - lo);
	return fails ? 1 : 0;
}

/* --- miscellaneous threads: 1:3 ------------------------------------- */

static pid_t misc_hog_on(int cpu, unsigned int weight, int *ok)
{
	int p[2];
	pid_t c;
	char x = 0;

	if (pipe(p))
		return -1;
	c = fork();
	if (!c) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pin(cpu);
		x = rbs_enter(0, 0, 0, MS_FLAG_RBS_FEEDBACK, weight) ? '0' : '1';
		if (write(p[1], &x, 1) != 1 || x != '1')
			_exit(1);
		for (;;)
			;
	}
	close(p[1]);
	if (read(p[0], &x, 1) != 1 || x != '1')
		*ok = 0;
	close(p[0]);
	return c;
}

static pid_t misc_hog(unsigned int weight, int *ok)
{
	return misc_hog_on(1, weight, ok);
}

static int misc(void)
{
	unsigned long long c1, c3, d1, d3;
	long long a1, a3, r1, r3;
	pid_t h1, h3;
	int ok = 1, i;

	h1 = misc_hog(1024, &ok);
	h3 = misc_hog(3072, &ok);
	CHECK(ok, "two miscellaneous threads of importance 1024 and 3072 enter on cpu1");
	sleep(3);
	c1 = cpu_ns(h1);
	c3 = cpu_ns(h3);
	/* the allocations move a little at every step: 20 readings */
	a1 = a3 = 0;
	for (i = 0; i < 20; i++) {
		usleep(100000);
		a1 += pid_sched_ll(h1, "ms.rbs_ctl.alloc_ppm");
		a3 += pid_sched_ll(h3, "ms.rbs_ctl.alloc_ppm");
	}
	a1 /= 20;
	a3 /= 20;
	d1 = cpu_ns(h1) - c1;
	d3 = cpu_ns(h3) - c3;
	r1 = pid_sched_ll(h1, "ms.rbs_ctl.nr_refused");
	r3 = pid_sched_ll(h3, "ms.rbs_ctl.nr_refused");
	kill(h1, SIGKILL);
	kill(h3, SIGKILL);
	waitpid(h1, NULL, 0);
	waitpid(h3, NULL, 0);
	printf("# rbs_ctl misc: allocations %.1f%% and %.1f%% (mean of 20), CPU %.1f%% and %.1f%% over 2 s; changes refused %lld and %lld\n",
	       a1 / 1e4, a3 / 1e4, d1 / 2e7, d3 / 2e7, r1, r3);
	/* the squish's fixed point is P1 / 1 = P3 / 3 (sched-rbs-ctl.rst) */
	CHECK(a1 > 0 && a3 > 2.5 * a1 && a3 < 3.5 * a1,
	      "under overload their allocations settle at 1:3, 2.5 to 3.5 (%.2f)",
	      a1 > 0 ? (double)a3 / a1 : 0);
	CHECK(d1 > 0 && d3 > 2.5 * d1 && d3 < 3.5 * d1,
	      "and so does the CPU time they get (%.2f)",
	      d1 > 0 ? (double)d3 / d1 : 0);
	CHECK(a1 + a3 > 400000,
	      "together they hold what the rate-monotonic bound leaves, over 40%% of cpu1 (%.1f%%)",
	      (a1 + a3) / 1e4);
	return fails ? 1 : 0;
}

/* --- figure 7 and the pipeline: stages on cpu0 ---------------------- */

struct stage {
	volatile long long work;	/* CPU ns a block */
	volatile long long count;	/* blocks passed on */
	long long tick;			/* a first stage's: ns a block, or 0 */
};

/*
 * A stage of a pipeline on cpu0: reads a block from @in (if any), spins
 * its work, writes a block to @out (if any). With @C and @T its own
 * reservation; without, the controller's, with @in_m as its consumer
 * metric (@in for a pipe, the other end for a stream) and @out as its
 * producer metric. A first stage with a tick writes a block every tick,
 * on a grid, in SCHED_FIFO, like follow()'s producer; without, as fast
 * as its reservation lets it.
 */
static void __attribute__((noreturn))
stage_run(struct stage *st, int in, int in_m, int out, long long C,
	  long long T)
{
	static char buf[BLOCK];
	struct sched_param sp = { .sched_priority = 10 };
	long long next = now_ns(), owed = 0, sent = 0;
	ssize_t n, got;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pin(0);
	prefault(buf);
	if (st->tick && sched_setscheduler(0, SCHED_FIFO, &sp))
		_exit(10);
	if ((!st->tick && rbs_enter(0, C, T, C ? 0 : MS_FLAG_RBS_FEEDBACK, 0)) ||
	    (!C && in >= 0 && ctl(PR_RBS_CTL_ADD, in_m, PR_RBS_CTL_CONSUMER, 0)) ||
	    (!C && out >= 0 && ctl(PR_RBS_CTL_ADD, out, PR_RBS_CTL_PRODUCER, 0)))
		_exit(10);
	for (;;) {
		if (in < 0 && st->tick) {
			sleep_until_ns(next);
			next += st->tick;
			spin_cpu_ns(st->work);
			owed += BLOCK;
			sent += send_owed(out, buf, BLOCK, &owed);
			st->count = sent / BLOCK;
			continue;
		}
		for (got = 0; in >= 0 && got < BLOCK; got += n) {
			n = read(in, buf + got, BLOCK - got);
			if (n <= 0)
				_exit(11);
		}
		spin_cpu_ns(st->work);
		if (out >= 0 && write(out, buf, BLOCK) != BLOCK)
			_exit(12);
		st->count++;
	}
}

static pid_t stage_start(struct stage *st, int in, int in_m, int out,
			 long long C, long long T)
{
	pid_t c = fork();

	if (!c)
		stage_run(st, in, in_m, out, C, T);
	return c;
}

/*
 * Samples every 5 ms: the 30 ms means of the fill of up to 2 pipes or
 * streams, and the allocation of up to 2 threads every 50 ms (-1 at the
 * others), each with its time.
 */
#define MAX_RAW	400
struct raw {
	int n;
	long long t[MAX_RAW];
	double f[MAX_RAW][2], a[MAX_RAW][2];
};

static void sample_run(struct raw *raw, int ms, int np, const int *fd,
		       const long long *size, int na, const pid_t *pid)
{
	double win[2][6] = { { 0 } };
	long long t = now_ns();
	int i, j, k;

	raw->n = ms / 5 < MAX_RAW ? ms / 5 : MAX_RAW;
	for (i = 0; i < raw->n; i++) {
		sleep_until_ns(t += 5 * MS);
		raw->t[i] = now_ns();
		for (j = 0; j < np; j++) {
			win[j][i % 6] = fill_of(fd[j], size[j]);
			raw->f[i][j] = 0;
			for (k = 0; k < 6; k++)
				raw->f[i][j] += win[j][k] / 6;
		}
		for (j = 0; j < na; j++)
			raw->a[i][j] = i % 10 ? -1 :
				       pid_sched_ll(pid[j], "ms.rbs_ctl.alloc_ppm") / 1e4;
	}
}

/*
 * The range of the fills' 30 ms means into @lo and @hi, the mean
 * allocations into @alloc (%)
 */
static void sample_sum(const struct raw *raw, int np, double *lo, double *hi,
		       int na, double *alloc)
{
	int i, j, reads = 0;

	for (j = 0; j < np; j++) {
		lo[j] = 1;
		hi[j] = 0;
	}
	for (j = 0; j < na; j++)
		alloc[j] = 0;
	for (i = 0; i < raw->n; i++) {
		for (j = 0; j < np && i >= 6; j++) {
			lo[j] = raw->f[i][j] < lo[j] ? raw->f[i][j] : lo[j];
			hi[j] = raw->f[i][j] > hi[j] ? raw->f[i][j] : hi[j];
		}
		if (na && raw->a[i][0] >= 0) {
			for (j = 0; j < na; j++)
				alloc[j] += raw->a[i][j];
			reads++;
		}
	}
	for (j = 0; j < na; j++)
		alloc[j] /= reads ? reads : 1;
}

/*
 * Wait, sampling every 5 ms, until the 30 ms means of the fill of @np
 * pipes or streams have all held within 10% of half for @hold_ms, at
 * most @max_ms: the ms waited, or -1 if they did not settle.
 */
static int settle_band(int np, const int *fd, const long long *size,
		       int hold_ms, int max_ms)
{
	double win[2][6] = { { 0 } };
	long long t = now_ns();
	int i, j, k, inband = 0;

	for (i = 0; i < max_ms / 5; i++) {
		bool in = i >= 5;

		sleep_until_ns(t += 5 * MS);
		for (j = 0; j < np; j++) {
			double m = 0;

			win[j][i % 6] = fill_of(fd[j], size[j]);
			for (k = 0; k < 6; k++)
				m += win[j][k] / 6;
			in = in && m >= 0.4 && m <= 0.6;
		}
		inband = in ? inband + 1 : 0;
		if (inband * 5 >= hold_ms)
			return (i + 1) * 5;
	}
	return -1;
}

static void monitor(void)
{
	struct sched_param sp = { .sched_priority = 50 };

	pin(1);
	sched_setscheduler(0, SCHED_FIFO, &sp);
}

/*
 * Figure 7: the pair of figure 6 beside a miscellaneous CPU hog of the
 * same importance on cpu0. The hog's constant pressure takes what is
 * left, the consumer's pressure holds what it needs.
 */
static int hogs(void)
{
	struct stage *st = mmap(NULL, 2 * sizeof(*st), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	static struct raw raw;
	double lo, hi, alloc[2], rp, rc, cp, fstar;
	long long size, p0, c0, t0, u0;
	int p[2], ok = 1;
	pid_t pid[3];

	if (st == MAP_FAILED || (size = big_pipe(p)) < 0)
		return 1;
	st[0].work = 400 * US;
	st[1].work = 150 * US;
	pid[0] = stage_start(&st[0], -1, -1, p[1], 2 * MS, 10 * MS);
	pid[1] = stage_start(&st[1], p[0], p[0], -1, 0, 0);
	pid[2] = misc_hog_on(0, 0, &ok);
	monitor();
	sleep(3);
	p0 = st[0].count;
	c0 = st[1].count;
	u0 = cpu_ns(pid[0]);
	t0 = now_ns();
	sample_run(&raw, 2000, 1, &p[0], &size, 2, &pid[1]);
	sample_sum(&raw, 1, &lo, &hi, 2, alloc);
	rp = (st[0].count - p0) * 1e9 / (now_ns() - t0);
	rc = (st[1].count - c0) * 1e9 / (now_ns() - t0);
	cp = (cpu_ns(pid[0]) - u0) * 100.0 / (now_ns() - t0);
	printf("# rbs_ctl hogs: producer %.0f blocks/s on %.1f%% of cpu0, consumer %.0f; allocations: consumer %.1f%%, hog %.1f%% (means over 2 s); fill %.2f..%.2f; hog squished in %lld steps; producer ran out %lld times, holds %lld chunks, found its queue full %lld times\n",
	       rp, cp, rc, alloc[0], alloc[1], lo, hi,
	       pid_sched_ll(pid[2], "ms.rbs_ctl.nr_squished"),
	       pid_sched_ll(pid[0], "ms.rbs.nr_exhausted"),
	       pid_sched_ll(pid[0], "ms.rbs.nr_chunks"),
	       pid_sched_ll(pid[0], "ms.rbs.nr_full"));
	kill(pid[0], SIGKILL);
	kill(pid[1], SIGKILL);
	kill(pid[2], SIGKILL);
	while (wait(NULL) > 0)
		;
	/*
	 * The producer never finds its pipe full (fill under 0.95): it wants
	 * the CPU all the time, and its reservation gives it 20%, no more
	 * than the 2 points the other reservation tests allow. It does block
	 * on the pipe's mutex while the consumer reads, and a sporadic
	 * server gets no budget back for that (it runs out 500 to 700 times
	 * in the 2 s): 17.9 to 18.9% in four make check boots of November
	 * 2026. At least 4/5 of its 20%, then; a starved producer, in a log
	 * of this test from a bug fixed since, ran 0.6%.
	 */
	CHECK(ok && (hi > 0.95 || (cp >= 16 && cp <= 22)),
	      "the producer, a reservation of 2 ms every 10 ms that never finds its pipe full, runs 16 to 22%% of cpu0 (%.1f%%)",
	      cp);
	CHECK(ok && rc > 0.95 * rp && rc < 1.05 * rp,
	      "beside a CPU hog the consumer keeps its producer's rate within 5%% (%.2f)",
	      rp > 0 ? rc / rp : 0);
	/*
	 * Squished, the two hold the room in proportion to their P; the
	 * hog's grows by Ki/8 a step (its constant pressure), so the
	 * consumer's must grow in proportion to keep its share, which takes
	 * a pressure F = f - 1/2 = (1/8) a_c / a_h, the fixed point f* of
	 * the fill level (sched-rbs-ctl.rst; the paper's figure 7 shows the
	 * oscillation around it). Within 10% of f*.
	 */
	fstar = alloc[1] > 0 ? 0.5 + alloc[0] / (8 * alloc[1]) : 0.5;
	CHECK(lo >= fstar - 0.1 && hi <= fstar + 0.1,
	      "and the fill level within 10%% of the squish's fixed point, 1/2 + a_c / (8 a_h) = %.3f (%.2f..%.2f)",
	      fstar, lo, hi);
	CHECK(alloc[1] > 20 && pid_sched_ll(pid[2], "ms.rbs_ctl.nr_squished") != 0,
	      "the hog, squished, holds the rest, over 20%% of cpu0 (%.1f%%)",
	      alloc[1]);
	return fails ? 1 : 0;
}

/*
 * Section 4.4's pipeline: A (at a fixed rate, in SCHED_FIFO) feeds B, B feeds
 * C, through AF_UNIX streams, all on cpu0; B and C are controlled. Once
 * both streams have settled, B's work a block grows fourfold: the
 * controller finds B and gives it more, without stalling A or C.
 */
static int pipeline(void)
{
	struct stage *st = mmap(NULL, 3 * sizeof(*st), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	static struct raw before, after;
	double lo[2], hi[2], a0[2], a1[2], r[3], cb[2], g, rc;
	long long size[2], n0[3], t0, nb, ub;
	int p1[2], p2[2], fd[2], i, waited, traced;
	pid_t pid[3];

	if (st == MAP_FAILED || (size[0] = big_stream(p1)) < 0 ||
	    (size[1] = big_stream(p2)) < 0)
		return 1;
	/*
	 * A writes a block every 20 ms in SCHED_FIFO, as follow()'s
	 * producer. Until 2026-11-29 it wrote into a pipe as fast as a
	 * reservation of 2 ms every 10 ms let it, about 190 blocks a second
	 * on a quiet host and 96 on a slow one. There, in a CI run, B ran
	 * 16% of cpu0 with an allocation of 27% and fell behind. Not
	 * traced; A, throttled each period and spending more of its time in
	 * write() than in its 800 us of work, would often have been
	 * throttled holding the pipe's mutex, which B waits for. Streams
	 * share no mutex between their ends, and A is not throttled. At 50
	 * blocks a second, B and C need about 3% of cpu0 each, B 12% once
	 * its work grows: above the controller's least allocation of 0.5%,
	 * where the fill level of a stream whose consumer needs less than
	 * that sits below half (with 150 us a block, under --icount, C's
	 * stream settled at 0.45 and B's at 0.40).
	 */
	st[0].work = 200 * US;
	st[0].tick = 20 * MS;
	st[1].work = 600 * US;
	st[2].work = 600 * US;
	pid[0] = stage_start(&st[0], -1, -1, p1[1], 2 * MS, 10 * MS);
	pid[1] = stage_start(&st[1], p1[0], p1[1], p2[1], 0, 0);
	pid[2] = stage_start(&st[2], p2[0], p2[1], -1, 0, 0);
	fd[0] = p1[1];
	fd[1] = p2[1];
	monitor();
	/*
	 * B and C start on empty streams, down at the least allocation, and
	 * catch up: wait until both streams have held within 10% of half
	 * for 2 s, by which time their allocations have come down from the
	 * catching up (after a hold of 1 s, a quiet host's C once averaged
	 * 9.4% over the 2 s measured before, for the 3.6% it needed).
	 */
	waited = settle_band(2, fd, size, 2000, 15000);
	traced = !lockouts_start();
	nb = st[1].count;
	ub = cpu_ns(pid[1]);
	sample_run(&before, 2000, 2, fd, size, 2, &pid[1]);
	cb[0] = st[1].count > nb ? (double)(cpu_ns(pid[1]) - ub) / (st[1].count - nb) : 0;
	st[1].work = 2400 * US;
	sleep(1);
	for (i = 0; i < 3; i++)
		n0[i] = st[i].count;
	ub = cpu_ns(pid[1]);
	t0 = now_ns();
	sample_run(&after, 2000, 2, fd, size, 2, &pid[1]);
	for (i = 0; i < 3; i++)
		r[i] = (st[i].count - n0[i]) * 1e9 / (now_ns() - t0);
	cb[1] = st[1].count > n0[1] ? (double)(cpu_ns(pid[1]) - ub) / (st[1].count - n0[1]) : 0;
	if (traced)
		lockouts_read(&pid[1], 2);
	for (i = 0; i < 3; i++)
		kill(pid[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	sample_sum(&before, 2, lo, hi, 2, a0);
	printf("# rbs_ctl pipeline: before: settled in %.2f s; fills %.2f..%.2f and %.2f..%.2f; allocations B %.1f%%, C %.1f%%; B's CPU a block %.0f us\n",
	       waited / 1e3, lo[0], hi[0], lo[1], hi[1], a0[0], a0[1],
	       cb[0] / 1000);
	sample_sum(&after, 2, lo, hi, 2, a1);
	printf("# rbs_ctl pipeline: B's work grew fourfold: rates A %.0f, B %.0f, C %.0f blocks/s; fills %.2f..%.2f and %.2f..%.2f; allocations B %.1f%%, C %.1f%%; B's CPU a block %.0f us\n",
	       r[0], r[1], r[2], lo[0], hi[0], lo[1], hi[1], a1[0], a1[1], cb[1] / 1000);
	CHECK(traced && !nr_lockouts,
	      "B and C were never locked out for an overrun: no throttle of theirs waited over 45 ms (%d, the longest %.0f ms; traced: %s)",
	      nr_lockouts, lockout_max / 1e6, traced ? "yes" : "no");
	CHECK(waited >= 0,
	      "B and C caught up with A: both streams held within 10%% of half for 2 s, before B's work grew (after %.2f s, 15 s at most)",
	      waited / 1e3);
	/*
	 * The controller holds an allocation between its use and 4/3 of it
	 * (it cuts one only below 3/4 use, sched-rbs-ctl.rst), so at the
	 * same rate B's allocation grows by at least 3/4 of the growth g of
	 * its CPU a block, (2400 us + o) / (600 us + o) with o the block's
	 * fixed cost: measured, not assumed. Not found, B stays at its old
	 * allocation, so g must be over 4/3 for the check to tell the two
	 * apart. Under TCG's wall clock a slow host's o of 900 us once left
	 * g at 1.19 (150 us, then 450), and another run's g was 1.24 (150
	 * us, then 750, with the host's stalls charged to B); under
	 * --icount o is tens of microseconds.
	 */
	g = cb[0] > 0 ? cb[1] / cb[0] : 0;
	CHECK(a0[0] > 0 && g > 4.0 / 3 && a1[0] >= 0.75 * g * a0[0],
	      "the controller found B: its allocation grew at least 3/4 of its CPU a block (%.2fx): %.1f%% to %.1f%% (%.2fx)",
	      g, a0[0], a1[0], a0[0] > 0 ? a1[0] / a0[0] : 0);
	/* C's work and rate are the same: its allocation stays in its band */
	rc = a0[1] > 0 ? a1[1] / a0[1] : 0;
	CHECK(rc >= 0.75 && rc <= 4.0 / 3,
	      "and C's, whose work is the same, stays within the controller's band, 3/4 to 4/3 of what it was (%.1f%% to %.1f%%, %.2fx)",
	      a0[1], a1[1], rc);
	/*
	 * That B and C keep A's rate is what the streams say: a block not
	 * passed on stays in one. A B the controller did not find would
	 * pass on its old allocation over its new cost, at most 1/3 of A's
	 * 50 blocks a second (4/3 of 600 us a block over 2400 us), and fill
	 * its input stream by 100 blocks in the 3 s after the change, far
	 * out of the band (a fifth of the stream is at most 51 blocks: a
	 * stream counts at least the 4 KiB of each). (Until 2026-11-29 the
	 * counts over 2 s were compared, within 15%: the band lets them
	 * differ by 51 blocks, more than 15% of A's 96 over 2 s on a slow
	 * host.)
	 */
	CHECK(lo[0] >= 0.4 && hi[0] <= 0.6 && lo[1] >= 0.4 && hi[1] <= 0.6,
	      "after B's work grew fourfold, both streams stay within 10%% of half: B and C keep A's rate (A %.0f, B %.0f, C %.0f blocks/s; %.2f..%.2f and %.2f..%.2f)",
	      r[0], r[1], r[2], lo[0], hi[0], lo[1], hi[1]);
	return fails ? 1 : 0;
}

/*
 * A quality exception: a consumer that needs more than cpu0 has room
 * for, squished and behind, gets the signal it asked for.
 */
static volatile sig_atomic_t exceptions;

static void on_exception(int sig)
{
	(void)sig;
	exceptions++;
}

static void __attribute__((noreturn))
greedy_consumer(struct stage *st, int in, int report)
{
	static char buf[BLOCK];
	ssize_t n, got;
	long long end;
	char x;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pin(0);
	signal(SIGUSR1, on_exception);
	prefault(buf);
	if (rbs_enter(0, 0, 0, MS_FLAG_RBS_FEEDBACK, 0) ||
	    ctl(PR_RBS_CTL_ADD, in, PR_RBS_CTL_CONSUMER, 0) ||
	    ctl(PR_RBS_CTL_SIGNAL, SIGUSR1, 0, 0))
		_exit(10);
	end = now_ns() + 4000 * MS;
	while (now_ns() < end) {
		for (got = 0; got < BLOCK; got += n) {
			n = read(in, buf + got, BLOCK - got);
			if (n <= 0)
				_exit(11);
		}
		spin_cpu_ns(st->work);
		st->count++;
	}
	x = exceptions > 9 ? 9 : exceptions;
	if (write(report, &x, 1) != 1)
		_exit(12);
	_exit(0);
}

static int exception(void)
{
	struct stage *st = mmap(NULL, 2 * sizeof(*st), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long long size, nr = -1, t;
	int p[2], r[2];
	pid_t pid[2];
	char x = -1;

	if (st == MAP_FAILED || (size = big_pipe(p)) < 0 || pipe(r))
		return 1;
	/*
	 * The producer writes blocks as fast as its 20% lets it, and each
	 * costs the consumer 2 ms of work besides its read: the consumer
	 * needs 0.2 * (2 ms + r) / w of cpu0 for writes of w and reads of
	 * r, more than the 80% the producer leaves it while a write costs
	 * under 600 us (100 to 300 us under TCG). With 250 us of work
	 * against the producer's 50 us, a slow host's writes and reads cost
	 * enough to bring the two close and the consumer was not always
	 * behind: 0 exceptions in a main boot of November 2026.
	 */
	st[0].work = 0;
	st[1].work = 2000 * US;
	pid[0] = stage_start(&st[0], -1, -1, p[1], 2 * MS, 10 * MS);
	pid[1] = fork();
	if (!pid[1])
		greedy_consumer(&st[1], p[0], r[1]);
	close(r[1]);
	/*
	 * Its counter, read until it exits at 4 s: the last reading before
	 * that is the count (a slow host's sleeps run late, and a read after
	 * the exit finds no file).
	 */
	for (t = 0; t < 3800; t += 100) {
		long long v;

		usleep(100000);
		v = pid_sched_ll(pid[1], "ms.rbs_ctl.nr_exceptions");
		if (v >= 0)
			nr = v;
	}
	if (read(r[0], &x, 1) != 1)
		x = -1;
	kill(pid[0], SIGKILL);
	while (wait(NULL) > 0)
		;
	printf("# rbs_ctl exception: %lld quality exceptions counted, %d signals caught\n",
	       nr, x);
	CHECK(nr >= 1 && x >= 1,
	      "a consumer that cannot be satisfied gets quality exceptions as the signal it asked for (%lld counted, %d caught)",
	      nr, x);
	return fails ? 1 : 0;
}

/* --- figure 5: the controller's cost -------------------------------- */

static pid_t dummy(int *ok)
{
	int p[2], r[2];
	pid_t c;
	char x = 0;

	if (pipe(p) || pipe(r))
		return -1;
	c = fork();
	if (!c) {
		int e;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(r[1]);
		/* wait for room: the allocations before shrink to 0.1% */
		for (e = EBUSY; e == EBUSY; usleep(20000))
			e = rbs_enter(0, 0, 0, MS_FLAG_RBS_FEEDBACK, 0);
		x = !e && !ctl(PR_RBS_CTL_ADD, r[0], PR_RBS_CTL_CONSUMER, 0) ?
		    '1' : '0';
		if (write(p[1], &x, 1) != 1 || x != '1')
			_exit(1);
		/* blocked on an empty pipe: monitored, controlled, idle */
		if (read(r[0], &x, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	close(r[0]);
	if (read(p[0], &x, 1) != 1 || x != '1')
		*ok = 0;
	close(p[0]);
	return c;
}

static int overhead(int argc, char **argv)
{
	static pid_t kids[200];
	int a, i, n, ok;
	long long s0, n0, m0, t0, s1, n1, m1, t1, grid;
	double frac, per;

	for (a = 0; a < argc; a++) {
		n = atoi(argv[a]);
		if (n < 1 || n > 200)
			return 2;
		ok = 1;
		for (i = 0; i < n; i++)
			kids[i] = dummy(&ok);
		usleep(500000);
		t0 = now_ns();
		s0 = stat_ll("steps");
		n0 = stat_ll("step_ns");
		m0 = stat_ll("missed");
		sleep(2);
		t1 = now_ns();
		s1 = stat_ll("steps");
		n1 = stat_ll("step_ns");
		m1 = stat_ll("missed");
		for (i = 0; i < n; i++)
			kill(kids[i], SIGKILL);
		for (i = 0; i < n; i++)
			waitpid(kids[i], NULL, 0);
		frac = (n1 - n0) / ((t1 - t0) * 1.0);
		per = s1 > s0 ? (double)(n1 - n0) / (s1 - s0) : 0;
		grid = (t1 - t0 + 5 * MS) / (10 * MS);
		demo.cpu40 = frac * 100;
		if (!demo_mode)
			printf("# rbs_ctl overhead: %d threads: %lld steps and %lld missed in %.3f s, %.0f ns a step, %.4f%% of a CPU\n",
			       n, s1 - s0, m1 - m0, (t1 - t0) / 1e9, per,
			       frac * 100);
		/*
		 * On a 10 ms grid: the steps made and those a late timer
		 * skipped (a host stall of over 10 ms; 12 of 200 in a CI
		 * run of 2026-11-29) are the periods of the time between
		 * the readings, within a step at each end; and those it
		 * made are most of them, at least 9 in 10.
		 */
		CHECK(ok && s1 - s0 + m1 - m0 >= grid - 2 &&
		      s1 - s0 + m1 - m0 <= grid + 2 && 10 * (s1 - s0) >= 9 * grid,
		      "with %d controlled threads the controller steps at 100 Hz (%lld steps and %lld missed in %lld periods of 10 ms)",
		      n, s1 - s0, m1 - m0, grid);
		CHECK(!wait_counts(0, 0, 2000),
		      "once the %d threads are gone the controller holds none and no file",
		      n);
		s0 = stat_ll("steps");
		usleep(300000);
		s1 = stat_ll("steps");
		CHECK(s1 == s0,
		      "with no thread controlled the controller's timer is off (%lld steps in 0.3 s)",
		      s1 - s0);
	}
	return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && !strcmp(argv[1], "bad"))
		return bad();
	if (argc >= 2 && !strcmp(argv[1], "follow"))
		return follow();
	if (argc >= 2 && !strcmp(argv[1], "misc"))
		return misc();
	if (argc >= 2 && !strcmp(argv[1], "hogs"))
		return hogs();
	if (argc >= 2 && !strcmp(argv[1], "pipeline"))
		return pipeline();
	if (argc >= 2 && !strcmp(argv[1], "exception"))
		return exception();
	if (argc >= 2 && !strcmp(argv[1], "demo")) {
		char forty[] = "40", *args[] = { forty };

		/* make demo's rows: one run each, the checks' verdict beside */
		demo_mode = true;
		follow();
		overhead(1, args);
		printf("rbs_ctl (feedback)      settled   fill, last 1 s  producer  consumer allocation  controller, 40 threads\n");
		printf("figure 6, rate doubles  %5.3f s   %.2f..%.2f      x%.2f     %4.1f%% -> %4.1f%%       %.3f%% of a CPU\n",
		       demo.settle, demo.lo, demo.hi, demo.rate_x, demo.alloc0,
		       demo.alloc1, demo.cpu40);
		printf("(%s: %d of the runs' checks failed)\n",
		       fails ? "NOT as tested" : "as tested", fails);
		return fails ? 1 : 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "overhead"))
		return overhead(argc - 2, argv + 2);
	fprintf(stderr, "usage: rbs_ctl bad|follow|misc|hogs|pipeline|exception|overhead N...\n");
	return 2;
}
