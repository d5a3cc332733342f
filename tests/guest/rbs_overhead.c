// SPDX-License-Identifier: GPL-2.0
/*
 * rbs_overhead [-c CPU] [-r ROUNDS] [-t] [-w SECS] [N ...]: Quest's
 * figure 7, the cost of scheduling against the number of reservations,
 * SCHED_RBS against SCHED_DEADLINE in the same boot.
 * rbs_overhead [-c CPU] [-r ROUNDS] [-w SECS] io|disk: Quest's figures 4
 * and 5, an I/O server as PIBS and as a sporadic server (see io_bench()),
 * over a unix socket (io) or as the interrupt thread of a virtio-blk disk
 * under threadirqs (disk; qemu-run --disk 64M --append threadirqs).
 * Benchmarks: they report, and assert nothing (make bench-rbs;
 * sched-rbs.rst has the tables).
 *
 * For each N (default 1 4 8 16 24 64) and each unit u of budget (1 ms,
 * then 100 us), N threads that count in a loop, each in a reservation of
 * u every 2.5 N u on CPU (default 0), so that the N hold 40% of it:
 * under SCHED_RBS (budget u, period 2.5 N u) and under SCHED_DEADLINE
 * (runtime u, deadline and period 2.5 N u), without and with the
 * HRTICK_DL feature (see DL_HRTICK). Each enters its class itself as
 * it runs, one after the other; with -t they start together instead:
 * each waits asleep in SCHED_OTHER while the caller puts it in its
 * class, and all are woken at once, by one timer interrupt (go_fd).
 * Beside them a SCHED_OTHER
 * thread counts in the same loop and takes the other 60%, so the CPU
 * never idles. The cost is the work that does not get done: over a
 * window of SECS (default 5, the paper's), the count of all N + 1
 * threads against that of the SCHED_OTHER thread alone on CPU in the
 * same round, as a per cent of it. What the count leaves out is the
 * scheduler's time (picks, switches, enforcement and replenishment
 * timers) and what they cost the loop in caches and, under TCG, in
 * translated code. The CPU's local timer interrupts a second
 * (/proc/interrupts, LOC: the tick and every hrtimer, the classes'
 * budget and replenishment timers among them) and its context switches
 * a second (/proc/stat, ctxt) are printed beside it.
 *
 * Each round measures, for each unit, the baseline, then every N with
 * RBS and DEADLINE one after the other, which goes first alternating
 * from round to round; the table gives, per row, the median of the
 * rounds (default 3) for each class, the median of the rounds'
 * differences RBS less DEADLINE (two windows side by side: the host's
 * speed under TCG drifts by more than the classes differ between a
 * round's baseline and its last windows), and whether that is at most
 * 0, RBS costing at most what DEADLINE did, the goal.
 *
 * Run it in a one-CPU boot (make bench-rbs does): a SCHED_DEADLINE task's
 * affinity must span its root domain, so the DEADLINE threads cannot be
 * pinned beside other CPUs. The caller runs there at SCHED_FIFO 99,
 * below both classes, and sleeps through each window; the counts are in
 * memory it shares with the threads.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>

#include "ms_test.h"

#define MS		1000000LL
#define US		1000LL
#define MAX_N		64
#define MAX_ROUNDS	15
#define MAX_SIZES	8

/*
 * SCHED_DEADLINE enforces a budget at the tick unless the HRTICK_DL
 * feature is on (it is off by default, as in mainline): DL_HRTICK is
 * SCHED_DEADLINE with it, which ends budgets on time as RBS's budget
 * timer does.
 */
enum { RBS, DL, DL_HRTICK, NR_KINDS };
static const char *const kind_name[NR_KINDS] = {
	"RBS", "DEADLINE", "DEADLINE+HRTICK_DL"
};
#define FEATURES	"/sys/kernel/debug/sched/features"
static const long long units[] = { 1 * MS, 100 * US };
#define NR_UNITS	2

static int cpu, secs = 5, together;
static long long io_base_ppm;
/*
 * The release of -t: a timerfd each counter polls before it counts
 * (window()), so that all wake in one timer interrupt. A thread that
 * wakes the counters one by one (a pipe's last close, or FUTEX_WAKE) is
 * preempted by each, which runs till its budget ends before the next is
 * woken: they start a few microseconds apart and keep those phases.
 */
static int go_fd = -1;
static volatile unsigned long long *count;	/* MAX_N + 1, shared */

/* Sum of the admitted ppm over every CPU (sched_ms_bandwidth). */
static long long used_ppm(void)
{
	FILE *f = fopen("/proc/sys/kernel/sched_ms_bandwidth", "r");
	long long used = 0, u, t;
	int c;

	if (!f)
		return -1;
	while (fscanf(f, " cpu%d %lld %lld", &c, &u, &t) == 3)
		used += u;
	fclose(f);
	return used;
}

/* CPU's local timer interrupts so far (/proc/interrupts, LOC), or -1. */
static long long timer_irqs(void)
{
	char line[1024], *p, *end;
	long long n = -1, v;
	FILE *f = fopen("/proc/interrupts", "r");
	int i;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "LOC:");
		if (!p)
			continue;
		p += 4;
		for (i = 0; i <= cpu; i++, p = end) {
			v = strtoll(p, &end, 10);
			if (end == p)
				break;
			if (i == cpu)
				n = v;
		}
		break;
	}
	fclose(f);
	return n;
}

/*
 * In a child: dies with its parent, runs on CPU with @a, and says '1' on
 * @fd once there; says '0' and exits if refused.
 */
static void enter(int fd, struct sched_attr *a)
{
	cpu_set_t set;
	char ok = '1';

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    syscall(SYS_sched_setattr, 0, a, 0))
		ok = '0';
	if (write(fd, &ok, 1) != 1 || ok != '1')
		_exit(1);
	close(fd);
}

/* A counting thread's class: @kind with @C every @T, SCHED_OTHER if @C is 0. */
static void counter_attr(struct sched_attr *a, int kind, long long C,
			 long long T)
{
	*a = (struct sched_attr){ .size = sizeof(*a) };
	if (C && kind == RBS) {
		a->sched_policy = SCHED_RBS;
		a->sched_runtime = C;
		a->sched_period = T;
	} else if (C) {
		a->sched_policy = SCHED_DEADLINE;
		a->sched_runtime = C;
		a->sched_deadline = T;
		a->sched_period = T;
	} else {
		a->sched_policy = SCHED_OTHER;
	}
}

/*
 * A counting thread @i on CPU, in its class. With -t it enters
 * SCHED_OTHER and waits there for the others: the caller puts it in its
 * class while it sleeps and releases all at once (window()). Its counter
 * is written first, so that no page fault comes after the release (a
 * fault on the shared page can block, which splits a sporadic server's
 * budget).
 */
static void __attribute__((noreturn))
counter(int fd, int i, int kind, long long C, long long T)
{
	struct pollfd pf = { .fd = go_fd, .events = POLLIN };
	struct sched_attr a;

	counter_attr(&a, together ? RBS : kind, together ? 0 : C, T);
	count[i] = 0;
	enter(fd, &a);
	while (go_fd >= 0 && poll(&pf, 1, -1) < 0 && errno == EINTR)
		;
	for (;;)
		count[i]++;
}

static void __attribute__((noreturn))
io_peer(int fd, int ready, int server, int pibs);

/* A thread on CPU in its class, asleep till it is killed. */
static void __attribute__((noreturn))
sleeper(int fd, int kind, long long C, long long T)
{
	struct sched_attr a;

	counter_attr(&a, kind, C, T);
	enter(fd, &a);
	for (;;)
		pause();
}

/*
 * A child: a counter (@sock -1), a sleeper (-3), or an I/O peer on @sock
 * (-2: the disk's client, which has none).
 */
struct child {
	int i, kind;
	long long C, T;
	int sock, server, pibs;
};

/* Fork @c; its pid once it is in its class, or -1 (it is reaped). */
static pid_t start_child(const struct child *c)
{
	char ok = '0';
	int fd[2];
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (!pid) {
		close(fd[0]);
		if (c->sock == -1)
			counter(fd[1], c->i, c->kind, c->C, c->T);
		if (c->sock == -3)
			sleeper(fd[1], c->kind, c->C, c->T);
		io_peer(c->sock, fd[1], c->server, c->pibs);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], &ok, 1) != 1 || ok != '1') {
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		pid = -1;
	}
	close(fd[0]);
	return pid;
}

static pid_t start_counter(int i, int kind, long long C, long long T)
{
	struct child c = { .i = i, .kind = kind, .C = C, .T = T, .sock = -1 };

	return start_child(&c);
}

/*
 * Wait, up to a second, until @pid sleeps (state S in /proc/PID/stat): a
 * counter put in its class before it reached its poll would run a few
 * microseconds of its budget and block, which splits a sporadic
 * server's budget for good. True once it sleeps.
 */
static int wait_asleep(pid_t pid)
{
	char path[64], buf[256], *p;
	int i, asleep = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (i = 0; i < 10000 && !asleep; i++) {
		f = fopen(path, "r");
		if (!f)
			return 0;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		asleep = p && p[1] == ' ' && p[2] == 'S';
		fclose(f);
		if (!asleep)
			usleep(100);
	}
	return asleep;
}

static unsigned long long total(int n)
{
	unsigned long long s = 0;
	int i;

	for (i = 0; i <= n; i++)
		s += count[i];
	return s;
}

/*
 * One window: @n threads of @kind with @C every @T (none if @n is 0) and
 * the SCHED_OTHER one. Returns the count per second, or -1; the CPU's
 * timer interrupts a second in @irq, and the context switches a second
 * (the boot has one CPU) in @sw.
 */
static double window(int n, int kind, long long C, long long T, double *irq,
		     double *sw)
{
	static const struct itimerspec release = {
		.it_value.tv_nsec = 1000000,
	};
	static pid_t pid[MAX_N + 1];
	long long base = used_ppm(), t0, t1, i0, i1, s0, s1;
	unsigned long long c0, c1;
	double rate = -1;
	int i, started = 0;

	memset((void *)count, 0, (MAX_N + 1) * sizeof(*count));
	if (n && write_file(FEATURES, kind == DL_HRTICK ? "HRTICK_DL" :
						       "NO_HRTICK_DL")) {
		fprintf(stderr, "rbs_overhead: cannot write %s\n", FEATURES);
		return -1;
	}
	if (n && together) {
		go_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
		if (go_fd < 0)
			return -1;
	}
	for (i = 0; i < n; i++) {
		pid[i] = start_counter(i, kind, C, T);
		if (pid[i] > 0 && together) {
			struct sched_attr a;

			counter_attr(&a, kind, C, T);
			if (!wait_asleep(pid[i]) ||
			    syscall(SYS_sched_setattr, pid[i], &a, 0)) {
				kill(pid[i], SIGKILL);
				waitpid(pid[i], NULL, 0);
				pid[i] = -1;
			}
		}
		if (pid[i] < 0) {
			fprintf(stderr, "rbs_overhead: %d %s threads of %lld us every %lld us: the %dth was refused\n",
				n, kind_name[kind], C / US, T / US, i + 1);
			goto out;
		}
		started++;
	}
	/* all at once, 1 ms from now */
	if (go_fd >= 0 && timerfd_settime(go_fd, 0, &release, NULL))
		goto out;
	pid[n] = start_counter(n, kind, 0, 0);
	if (pid[n] < 0)
		goto out;
	started++;
	usleep(300000);
	c0 = total(n);
	i0 = timer_irqs();
	s0 = ms_ctxt();
	t0 = now_ns();
	usleep(secs * 1000000);
	c1 = total(n);
	i1 = timer_irqs();
	s1 = ms_ctxt();
	t1 = now_ns();
	rate = (c1 - c0) * 1e9 / (t1 - t0);
	*irq = (i1 - i0) * 1e9 / (t1 - t0);
	*sw = (s1 - s0) * 1e9 / (t1 - t0);
out:
	if (go_fd >= 0)
		close(go_fd);
	go_fd = -1;
	for (i = 0; i < started; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}
	/* a thread killed while throttled holds its bandwidth till it runs */
	for (i = 0; i < 2000 && used_ppm() > base + 2 * MAX_N; i++)
		usleep(1000);
	return rate;
}

/*
 * io: Quest's figures 4 and 5, with a unix socket for the network. A
 * client in a reservation of 2 ms every 10 ms sends requests of 64
 * bytes, one after the other, over a SOCK_SEQPACKET pair to a server
 * thread that runs IO_BENCH_WORK of work for each and answers. The
 * server is a PIBS I/O server of 10% (MS_FLAG_RBS_IO, its own period
 * 1 s, so it runs at the client's 10 ms), then a sporadic server of the
 * same utilisation, 1 ms every 10 ms, in interleaved rounds; a
 * SCHED_OTHER thread counts beside them, as in the other benchmark.
 * Over each window: the requests served a second; the server's and the
 * client's CPU; the server's class events a second (chunks that ran
 * out, splits and merges, replenishments merged into a full queue, for
 * the sporadic server; requests taken and budgets that ran out, for
 * PIBS); and the cost: the counting thread's lost work, against its
 * rate alone, less what the server and the client ran. Then a window of
 * each kind again, for the time in the class's code alone (see
 * prof_start()): the profiler would add its own cost to the others.
 *
 * disk: the same with a disk for the device, as Quest's USB and CD-ROM
 * readers. The client, in the same reservation, reads 4 KiB blocks of
 * /dev/vda at random places with O_DIRECT, one at a time; the server is
 * the interrupt thread of the disk's requests (threadirqs), whose every
 * wakeup comes from the hard interrupt, so that as PIBS it runs at its
 * own period, 1 s (rbs_io_waking()): a PIBS server of 1% (10 ms every
 * second), then a sporadic server of 100 us every 10 ms. Between windows
 * the thread goes back to SCHED_FIFO 50, where threadirqs put it.
 */
#define IO_BENCH_WORK	(20 * US)

static const char *const sock_kind[] = { "PIBS 10%", "sporadic 1ms/10ms" };
static const char *const disk_kind[] = { "PIBS 1%", "sporadic 100us/10ms" };
static const char *const *io_kind = sock_kind;

/*
 * The disk mode: the interrupt thread of the virtio-blk disk's requests
 * (threadirqs) is the server, @irq_tid, and its client reads 4 KiB
 * blocks of /dev/vda (@disk_fd, @disk_size bytes) with O_DIRECT.
 */
static pid_t irq_tid = -1;
static int disk_fd = -1;
static long long disk_size;

/* The server's class in the window of kind @pibs. */
static void io_server_attr(struct sched_attr *a, int pibs)
{
	*a = (struct sched_attr){ .size = sizeof(*a), .sched_policy = SCHED_RBS };
	if (pibs) {
		a->sched_runtime = (irq_tid > 0 ? 10 : 100) * MS;
		a->sched_period = 1000 * MS;
		a->sched_ms_flags = MS_FLAG_RBS_IO;
	} else {
		a->sched_runtime = irq_tid > 0 ? 100 * US : 1 * MS;
		a->sched_period = 10 * MS;
	}
}

static long long sched_ll(pid_t pid, const char *key)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	return sched_file_ll(path, key);
}

/* The server's class events so far. */
static long long io_events(pid_t pid, int pibs)
{
	if (pibs)
		return sched_ll(pid, "ms.rbs.nr_request") +
		       sched_ll(pid, "ms.rbs.nr_exhausted");
	return sched_ll(pid, "ms.rbs.nr_exhausted") +
	       sched_ll(pid, "ms.rbs.nr_split") +
	       sched_ll(pid, "ms.rbs.nr_merge") +
	       sched_ll(pid, "ms.rbs.nr_full");
}

static void __attribute__((noreturn))
io_peer(int fd, int ready, int server, int pibs)
{
	static char blk[4096] __attribute__((aligned(4096)));
	struct sched_attr a = {
		.size = sizeof(a),
		.sched_policy = SCHED_RBS,
		.sched_runtime = 2 * MS,
		.sched_period = 10 * MS,
	};
	char buf[64] = { 0 };

	if (server)
		io_server_attr(&a, pibs);
	enter(ready, &a);
	for (;;) {
		if (server) {
			if (recv(fd, buf, sizeof(buf), 0) <= 0)
				_exit(0);
			spin_cpu_ns(IO_BENCH_WORK);
			if (send(fd, buf, sizeof(buf), 0) <= 0)
				_exit(0);
			continue;
		}
		if (irq_tid > 0) {
			if (pread(disk_fd, blk, sizeof(blk),
				  (random() % (disk_size / 4096)) * 4096) != sizeof(blk))
				_exit(1);
		} else if (send(fd, buf, sizeof(buf), 0) <= 0 ||
			   recv(fd, buf, sizeof(buf), 0) <= 0) {
			_exit(0);
		}
		count[1]++;	/* requests answered */
	}
}

/*
 * The time spent in the class's code, with the function profiler
 * (CONFIG_FUNCTION_PROFILER; the benchmark kernel has it): the
 * callbacks through which the kernel enters the class, each timed with
 * what it calls (graph-time), none of them calling another, and its
 * timers and wakeup hooks. update_curr_rbs() is left out: the callbacks
 * call it. The profiler's own cost per call, which its times include,
 * is taken as what get_rr_interval_rbs(), a callback of two loads and a
 * conversion, costs a call (prof_calibrate()), and taken off.
 */
#define PROF		MS_TRACE "function_profile_enabled"
#define PROF_CALIB	"get_rr_interval_rbs"
static const char *const prof_fns[] = {
	"enqueue_task_rbs", "dequeue_task_rbs", "yield_task_rbs",
	"wakeup_preempt_rbs", "pick_task_rbs", "put_prev_task_rbs",
	"set_next_task_rbs", "balance_rbs", "select_task_rq_rbs",
	"migrate_task_rq_rbs", "task_dead_rbs", "task_tick_rbs",
	"switching_to_rbs", "prio_changed_rbs", "rbs_budget_timer",
	"rbs_repl_timer", "rbs_io_waking", "ms_wakeup_below", PROF_CALIB,
};
static double prof_call_ns = -1;	/* the profiler's cost a call */

/* Profile the class's functions on CPU from now on; 0 or -1. */
static int prof_start(void)
{
	static int filtered;
	unsigned int i;
	FILE *f;

	write_file(PROF, "0");
	if (!filtered) {
		if (write_file(MS_TRACE "set_ftrace_filter", "") ||
		    write_file(MS_TRACE "options/graph-time", "1"))
			return -1;
		for (i = 0; i < sizeof(prof_fns) / sizeof(prof_fns[0]); i++) {
			f = fopen(MS_TRACE "set_ftrace_filter", "a");
			if (!f)
				return -1;
			fputs(prof_fns[i], f);
			if (fclose(f)) {
				fprintf(stderr, "rbs_overhead: %s cannot be profiled\n",
					prof_fns[i]);
				return -1;
			}
		}
		filtered = 1;
	}
	/* enabling it again starts every count from 0 */
	return write_file(PROF, "1");
}

/*
 * Stop the profiler; the class's time on CPU in ns, less the profiler's
 * cost, and its calls in @calls (@calib: get_rr_interval_rbs() alone).
 */
static double prof_stop(long long *calls, int calib)
{
	char path[80], line[256], fn[128];
	unsigned long long hits;
	double us, t = 0;
	FILE *f;

	write_file(PROF, "0");
	*calls = 0;
	snprintf(path, sizeof(path), MS_TRACE "trace_stat/function%d", cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %127s %llu %lf", fn, &hits, &us) != 3)
			continue;
		if (!strcmp(fn, PROF_CALIB) != !!calib)
			continue;
		*calls += hits;
		t += us * 1000;
	}
	fclose(f);
	if (calib || prof_call_ns < 0)
		return t;
	return t - *calls * prof_call_ns;
}

/*
 * What a profiled call costs: get_rr_interval_rbs() called 20000 times
 * for a sleeping SCHED_RBS child, through sched_rr_get_interval(2).
 */
static int prof_calibrate(void)
{
	struct child c = { .i = MAX_N, .kind = RBS, .C = MS, .T = 10 * MS,
			   .sock = -3 };
	struct timespec ts;
	long long calls;
	pid_t pid;
	double t;
	int i;

	pid = start_child(&c);
	if (pid < 0 || prof_start()) {
		fprintf(stderr, "rbs_overhead: no function profiler (CONFIG_FUNCTION_PROFILER)\n");
		return -1;
	}
	for (i = 0; i < 20000; i++)
		syscall(SYS_sched_rr_get_interval, pid, &ts);
	t = prof_stop(&calls, 1);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	if (calls < 20000 || t <= 0) {
		fprintf(stderr, "rbs_overhead: the profiler counted %lld calls of " PROF_CALIB "\n",
			calls);
		return -1;
	}
	prof_call_ns = t / calls;
	return 0;
}

static pid_t io_peer_start(int sock, int server, int pibs)
{
	struct child c = { .sock = sock, .server = server, .pibs = pibs };

	return start_child(&c);
}

struct io_result {
	double reqs, server, client, events, cost, code, calls;
};

/* The interrupt thread back in SCHED_FIFO 50, where threadirqs puts it. */
static void irq_restore(void)
{
	struct sched_attr a = {
		.size = sizeof(a),
		.sched_policy = SCHED_FIFO,
		.sched_priority = 50,
	};

	syscall(SYS_sched_setattr, irq_tid, &a, 0);
}

/*
 * One window of the I/O server of kind @pibs; 0, or -1. With @prof, the
 * window measures only the time in the class's code (in @r's code and
 * calls), which the profiler would add to the others.
 */
static int io_window(int pibs, double base, struct io_result *r, int prof)
{
	long long calls;
	double code;
	pid_t pid[3] = { -1, -1, -1 };
	long long t0, t1, e0, e1, s0, s1, c0, c1;
	unsigned long long n0, n1, w0, w1;
	int sv[2] = { -1, -1 }, i, ret = -1;
	struct sched_attr a;

	if (irq_tid <= 0 && socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		return -1;
	memset((void *)count, 0, (MAX_N + 1) * sizeof(*count));
	pid[0] = start_counter(0, RBS, 0, 0);
	if (irq_tid > 0) {
		io_server_attr(&a, pibs);
		if (!syscall(SYS_sched_setattr, irq_tid, &a, 0))
			pid[1] = irq_tid;
	} else {
		pid[1] = io_peer_start(sv[1], 1, pibs);
	}
	pid[2] = io_peer_start(irq_tid > 0 ? -2 : sv[0], 0, pibs);
	if (sv[0] >= 0) {
		close(sv[0]);
		close(sv[1]);
	}
	if (pid[0] < 0 || pid[1] < 0 || pid[2] < 0) {
		fprintf(stderr, "rbs_overhead: io: %s: a thread was refused its class\n",
			io_kind[!pibs]);
		goto out;
	}
	usleep(300000);
	if (prof) {
		t0 = now_ns();
		if (prof_start())
			goto out;
		usleep(secs * 1000000);
		code = prof_stop(&calls, 0);
		t1 = now_ns();
		if (code < 0)
			goto out;
		r->code = code / (t1 - t0) * 1e6;
		r->calls = calls * 1e9 / (t1 - t0);
		ret = 0;
		goto out;
	}
	w0 = count[0];
	n0 = count[1];
	s0 = cpu_ns(pid[1]);
	c0 = cpu_ns(pid[2]);
	e0 = io_events(pid[1], pibs);
	t0 = now_ns();
	usleep(secs * 1000000);
	w1 = count[0];
	n1 = count[1];
	s1 = cpu_ns(pid[1]);
	c1 = cpu_ns(pid[2]);
	e1 = io_events(pid[1], pibs);
	t1 = now_ns();
	r->reqs = (n1 - n0) * 1e9 / (t1 - t0);
	r->server = 100.0 * (s1 - s0) / (t1 - t0);
	r->client = 100.0 * (c1 - c0) / (t1 - t0);
	r->events = (e1 - e0) * 1e9 / (t1 - t0);
	r->cost = 100.0 * (1 - (w1 - w0) * 1e9 / (t1 - t0) / base) -
		  r->server - r->client;
	ret = 0;
out:
	for (i = 0; i < 3; i++) {
		if (pid[i] <= 0)
			continue;
		if (pid[i] == irq_tid) {
			irq_restore();
			continue;
		}
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}
	for (i = 0; i < 2000 && used_ppm() > io_base_ppm + 2; i++)
		usleep(1000);
	return ret;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return v[n / 2];
}

static double med_of(struct io_result *r, int n, size_t off)
{
	double v[MAX_ROUNDS];
	int i;

	for (i = 0; i < n; i++)
		v[i] = *(double *)((char *)&r[i] + off);
	return median(v, n);
}

#define IO_MED(r, n, f)	med_of(r, n, offsetof(struct io_result, f))

static int io_bench(int rounds)
{
	static struct io_result res[2][MAX_ROUNDS];
	double base, dummy;
	int r, k;

	io_base_ppm = used_ppm();
	if (prof_calibrate())
		return 1;
	if (irq_tid > 0)
		printf("# rbs_overhead disk: cpu%d, %d rounds, %d s windows; a client of 2 ms every 10 ms reads 4 KiB blocks of /dev/vda (O_DIRECT), served by the interrupt thread %d\n",
		       cpu, rounds, secs, irq_tid);
	else
		printf("# rbs_overhead io: cpu%d, %d rounds, %d s windows; a client of 2 ms every 10 ms, requests of %lld us of work over a unix socket\n",
		       cpu, rounds, secs, IO_BENCH_WORK / US);
	for (r = 0; r < rounds; r++) {
		base = window(0, RBS, 0, 0, &dummy, &dummy);
		if (base <= 0)
			return 1;
		for (k = 0; k < 2; k++) {
			if (io_window(!k, base, &res[k][r], 0))
				return 1;
			printf("# round %d: %s: %.0f requests/s, server %.1f%%, client %.1f%%, %.0f class events/s, cost %.2f%%\n",
			       r + 1, io_kind[k], res[k][r].reqs,
			       res[k][r].server, res[k][r].client,
			       res[k][r].events, res[k][r].cost);
			fflush(stdout);
		}
		for (k = 0; k < 2; k++) {
			if (io_window(!k, base, &res[k][r], 1))
				return 1;
			printf("# round %d: %s, profiled: %.0f us a second in the class's code, %.0f calls a second\n",
			       r + 1, io_kind[k], res[k][r].code,
			       res[k][r].calls);
			fflush(stdout);
		}
	}
	printf("# the profiler's cost a call, taken off: %.0f ns\n", prof_call_ns);
	printf("%-20s %11s %9s %9s %9s %8s %9s %8s\n", "server (medians)",
	       "requests/s", "server %", "client %", "events/s", "cost %",
	       "code us/s", "calls/s");
	for (k = 0; k < 2; k++)
		printf("%-20s %11.0f %9.1f %9.1f %9.0f %8.2f %9.0f %8.0f\n",
		       io_kind[k],
		       IO_MED(res[k], rounds, reqs),
		       IO_MED(res[k], rounds, server),
		       IO_MED(res[k], rounds, client),
		       IO_MED(res[k], rounds, events),
		       IO_MED(res[k], rounds, cost),
		       IO_MED(res[k], rounds, code),
		       IO_MED(res[k], rounds, calls));
	return 0;
}

int main(int argc, char **argv)
{
	static double loss[NR_UNITS][MAX_SIZES][NR_KINDS][MAX_ROUNDS];
	static double irq[NR_UNITS][MAX_SIZES][NR_KINDS][MAX_ROUNDS];
	static double sw[NR_UNITS][MAX_SIZES][NR_KINDS][MAX_ROUNDS];
	int sizes[MAX_SIZES] = { 1, 4, 8, 16, 24, 64 }, nsizes = 6;
	struct sched_param sp = { .sched_priority = 99 };
	int rounds = 3, opt, r, s, u, k, i, io = 0;
	double base, rate, dummy, m[NR_KINDS], diff[MAX_ROUNDS], d[NR_KINDS];
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "c:r:tw:")) != -1) {
		if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 't')
			together = 1;
		else if (opt == 'r')
			rounds = atoi(optarg);
		else if (opt == 'w')
			secs = atoi(optarg);
		else
			goto usage;
	}
	if (optind < argc && !strcmp(argv[optind], "io")) {
		io = 1;
	} else if (optind < argc && !strcmp(argv[optind], "disk")) {
		char name[64] = "";

		io = 1;
		io_kind = disk_kind;
		irq_tid = ms_virtio_irq_thread(name, sizeof(name));
		disk_fd = open("/dev/vda", O_RDONLY | O_DIRECT);
		disk_size = disk_fd >= 0 ? lseek(disk_fd, 0, SEEK_END) : 0;
		if (irq_tid <= 0 || disk_size < 4096) {
			fprintf(stderr, "rbs_overhead: disk: no virtio-blk disk with an interrupt thread (qemu-run --disk SIZE --append threadirqs)\n");
			return 1;
		}
		printf("# rbs_overhead disk: the interrupt thread %s\n", name);
	} else if (optind < argc) {
		for (nsizes = 0; optind < argc && nsizes < MAX_SIZES; optind++)
			sizes[nsizes++] = atoi(argv[optind]);
	}
	if (optind < argc && !io)
		goto usage;
	for (s = 0; s < nsizes; s++)
		if (sizes[s] < 1 || sizes[s] > MAX_N)
			goto usage;
	if (rounds < 1 || rounds > MAX_ROUNDS || secs < 1)
		goto usage;
	count = mmap(NULL, (MAX_N + 1) * sizeof(*count),
		     PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (count == MAP_FAILED)
		return 1;
	/* the caller: above SCHED_OTHER, below the classes measured */
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("rbs_overhead: cpu and SCHED_FIFO for the caller");
		return 1;
	}
	if (io)
		return io_bench(rounds);
	printf("# rbs_overhead: cpu%d, %d rounds, %d s windows; N threads of u every 2.5 N u (40%%) and a SCHED_OTHER one; %s\n",
	       cpu, rounds, secs, together ?
	       "put in their class asleep and woken together (-t)" :
	       "each enters its class as it runs, one after the other");
	for (r = 0; r < rounds; r++) {
		for (u = 0; u < NR_UNITS; u++) {
			base = window(0, RBS, 0, 0, &dummy, &dummy);
			if (base <= 0)
				return 1;
			printf("# round %d: SCHED_OTHER alone counts %.0f a second\n",
			       r + 1, base);
			for (s = 0; s < nsizes; s++)
				for (i = 0; i < NR_KINDS; i++) {
					long long C = units[u];
					long long T = C * sizes[s] * 5 / 2;

					k = (i + r) % NR_KINDS;
					rate = window(sizes[s], k, C, T,
						      &irq[u][s][k][r],
						      &sw[u][s][k][r]);
					if (rate < 0)
						return 1;
					loss[u][s][k][r] = 100.0 * (1 - rate / base);
					printf("# round %d: %s, %d of %lld us every %lld us: %.2f%% less work, %.0f timer interrupts/s, %.0f switches/s\n",
					       r + 1, kind_name[k], sizes[s],
					       C / US, T / US, loss[u][s][k][r],
					       irq[u][s][k][r], sw[u][s][k][r]);
					fflush(stdout);
				}
		}
	}
	write_file(FEATURES, "NO_HRTICK_DL");
	printf("loss: %% of the work lost; -: RBS less the other, median of the rounds' differences; irq: timer interrupts/s; sw: context switches/s\n");
	printf("%-6s %3s %8s %8s %8s %8s %8s %7s %7s %7s %7s %7s %s\n",
	       "unit", "N", "RBS", "DL", "DL+HRT", "RBS-DL", "-DL+HRT",
	       "RBS irq", "DL irq", "+HRT", "RBS sw", "+HRT sw",
	       "RBS <= DL, DL+HRTICK_DL");
	for (u = 0; u < NR_UNITS; u++)
		for (s = 0; s < nsizes; s++) {
			for (k = DL; k < NR_KINDS; k++) {
				for (r = 0; r < rounds; r++)
					diff[r] = loss[u][s][RBS][r] -
						  loss[u][s][k][r];
				d[k] = median(diff, rounds);
			}
			for (k = 0; k < NR_KINDS; k++)
				m[k] = median(loss[u][s][k], rounds);
			printf("%-6s %3d %8.2f %8.2f %8.2f %8.2f %8.2f %7.0f %7.0f %7.0f %7.0f %7.0f %s, %s\n",
			       u ? "100us" : "1ms", sizes[s], m[RBS], m[DL],
			       m[DL_HRTICK], d[DL], d[DL_HRTICK],
			       median(irq[u][s][RBS], rounds),
			       median(irq[u][s][DL], rounds),
			       median(irq[u][s][DL_HRTICK], rounds),
			       median(sw[u][s][RBS], rounds),
			       median(sw[u][s][DL_HRTICK], rounds),
			       d[DL] <= 0 ? "yes" : "no",
			       d[DL_HRTICK] <= 0 ? "yes" : "no");
		}
	return 0;
usage:
	fprintf(stderr, "usage: rbs_overhead [-c CPU] [-r ROUNDS (1-%d)] [-t] [-w SECS] [N (1-%d) ...]\n"
		"       rbs_overhead [-c CPU] [-r ROUNDS] [-w SECS] io|disk\n",
		MAX_ROUNDS, MAX_N);
	return 2;
}
