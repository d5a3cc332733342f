/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the guest test programs. */
#ifndef MS_TEST_H
#define MS_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <linux/sched/types.h>
#include <linux/sched/multisched.h>

/* Write @s to the file @path (a tracefs or procfs knob); 0 or -1. */
static inline int write_file(const char *path, const char *s)
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

/* What clock @clk reads, in ns. */
static inline long long clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Run on the CPU until clock @clk has advanced @ns. */
static inline void spin_clock_ns(clockid_t clk, long long ns)
{
	long long end = clock_ns(clk) + ns;

	while (clock_ns(clk) < end)
		;
}

static inline long long now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* This thread's CPU time, in ns. */
static inline long long thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* Run on the CPU for @ns nanoseconds of wall time. */
static inline void spin_ns(long long ns)
{
	spin_clock_ns(CLOCK_MONOTONIC, ns);
}

/*
 * Run for @ns of this thread's CPU time: a preempted job still does all
 * its work.
 */
static inline void spin_cpu_ns(long long ns)
{
	spin_clock_ns(CLOCK_THREAD_CPUTIME_ID, ns);
}

/* Sleep until CLOCK_MONOTONIC reads @t ns. */
static inline void sleep_until_ns(long long t)
{
	struct timespec ts = { .tv_sec = t / 1000000000LL,
			       .tv_nsec = t % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* The number the file @path holds (a sysctl), or -1. */
static inline long long file_ll(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * A forked child of a figure's program: die with the parent, keep to
 * @cpu and enter the class @a names (its size filled in). 0, or -1 with
 * the error printed as @who's.
 */
static inline int ms_enter_cpu(int cpu, struct sched_attr *a, const char *who)
{
	cpu_set_t set;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	a->size = sizeof(*a);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    syscall(SYS_sched_setattr, 0, a, 0)) {
		fprintf(stderr, "%s: policy %u flags 0x%llx: %s\n", who,
			a->sched_policy, (unsigned long long)a->sched_ms_flags,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* The system's context switches so far (/proc/stat's ctxt), or -1. */
static inline long long ms_ctxt(void)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "ctxt %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/*
 * cpuN's admitted bandwidth in ppm, from /proc/sys/kernel/sched_ms_bandwidth
 * ("cpuN used_ppm total_ppm": the multisched reservations and
 * SCHED_DEADLINE's share, servers included), or -1.
 */
static inline long long ms_used_ppm(int n)
{
	FILE *f = fopen("/proc/sys/kernel/sched_ms_bandwidth", "r");
	long long used = -1, u, t;
	int c;

	if (!f)
		return -1;
	while (fscanf(f, " cpu%d %lld %lld", &c, &u, &t) == 3)
		if (c == n)
			used = u;
	fclose(f);
	return used;
}

/*
 * Wait up to @ms for cpuN's admitted bandwidth to come down to @base
 * (within the 2 ppm of rounding): a killed task holds its reservation
 * until it is dead, and one killed while throttled runs, to exit, only
 * at its next period. Returns 0, or -1 if it did not.
 */
static inline int ms_wait_released(int n, long long base, int ms)
{
	long long used;

	for (;;) {
		used = ms_used_ppm(n);
		if (used >= 0 && used <= base + 2)
			return 0;
		if (ms-- <= 0)
			return -1;
		usleep(1000);
	}
}

/* What a soft periodic task's frames did, in memory its parent shares. */
struct ms_frames {
	long long frames, late, tardy_ns, stretched;
};

/*
 * A soft periodic task: a frame of @run ns of CPU every @period ns, due
 * when the next begins. While *@measure is 1, each frame is counted in
 * @f (if not NULL): late when it ends after its deadline, by how much.
 * A frame that ends after the next has begun drops the frames that have
 * begun, as a player does: a host stall is one late frame, where
 * catching up on the grid made it a chain. A frame whose job took over
 * 1.5 @run from its wakeup to its end is counted as stretched: for a
 * task that runs without waiting (SCHED_FIFO), that is the host's
 * doing, by more than the margin BEBS gives a budget over e_avg.
 */
static inline void __attribute__((noreturn))
ms_frames_loop(long long period, long long run, struct ms_frames *f,
	       volatile int *measure)
{
	long long next = clock_ns(CLOCK_MONOTONIC), end, woke;

	for (;;) {
		sleep_until_ns(next);
		woke = clock_ns(CLOCK_MONOTONIC);
		next += period;
		spin_cpu_ns(run);
		end = clock_ns(CLOCK_MONOTONIC);
		if (f && *measure == 1) {
			__atomic_add_fetch(&f->frames, 1, __ATOMIC_RELAXED);
			if (end - woke > run + run / 2)
				__atomic_add_fetch(&f->stretched, 1,
						   __ATOMIC_RELAXED);
			if (end > next) {
				__atomic_add_fetch(&f->late, 1,
						   __ATOMIC_RELAXED);
				__atomic_add_fetch(&f->tardy_ns, end - next,
						   __ATOMIC_RELAXED);
			}
		}
		while (next < end)
			next += period;
	}
}

/* qsort() order of long longs, ascending. */
/*
 * @size bytes shared with the children a fork() makes, beginning with a
 * process-shared priority-inheritance mutex (PTHREAD_PRIO_INHERIT, a PI
 * futex), initialised. Returns the memory, or NULL.
 */
static inline void *ms_shared_pi_mutex(size_t size)
{
	pthread_mutexattr_t ma;
	void *sh;

	sh = mmap(NULL, size, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return NULL;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	if (pthread_mutex_init(sh, &ma)) {
		munmap(sh, size);
		sh = NULL;
	}
	pthread_mutexattr_destroy(&ma);
	return sh;
}

static inline int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* CPU time a task has received, in ns, from /proc/PID/schedstat. */
static inline unsigned long long cpu_ns(pid_t pid)
{
	unsigned long long ns = 0;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

/* A number from @path's "@key : N" line (a /proc sched file), or -1. */
static inline long long sched_file_ll(const char *path, const char *key)
{
	char line[256], name[128];
	long long v = -1, x;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s : %lld", name, &x) == 2 &&
		    !strcmp(name, key))
			v = x;
	fclose(f);
	return v;
}

/* A number from this thread's /proc/thread-self/sched, or -1. */
static inline long long proc_sched_ll(const char *key)
{
	return sched_file_ll("/proc/thread-self/sched", key);
}

/* A number from /proc/@pid/sched, or -1. */
static inline long long pid_sched_ll(pid_t pid, const char *key)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	return sched_file_ll(path, key);
}

/*
 * A CPU hog in a forked child: enter @policy with @weight and @flags
 * first and only then move to @cpu, so that it never waits as SCHED_OTHER
 * behind the hogs already there. Reports '1' (ready) or '0' (failed)
 * on @fd, then spins until killed; it dies with its parent.
 */
static inline void __attribute__((noreturn))
ms_hog(int fd, int cpu, int policy, unsigned int weight, unsigned int flags,
       const char *who)
{
	struct sched_attr a = {
		.size = sizeof(a),
		.sched_policy = policy,
		.sched_weight = weight,
		.sched_ms_flags = flags,
	};
	cpu_set_t set;
	char c = '0';

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(1);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (syscall(SYS_sched_setattr, 0, &a, 0))
		fprintf(stderr, "%s: hog: sched_setattr: %m\n", who);
	else if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "%s: hog: sched_setaffinity: %m\n", who);
	else
		c = '1';
	if (write(fd, &c, 1) != 1 || c != '1')
		_exit(1);
	close(fd);
	for (;;)
		;
}

/*
 * Start ms_hog() of @policy and @weight (0: from nice; no flags) on @cpu
 * in a child and wait until it is there; its pid, or -1 (the child
 * reaped).
 */
static inline pid_t ms_start_hog_weight(int cpu, int policy,
					unsigned int weight, const char *who)
{
	char c = '0';
	int fd[2];
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (!pid) {
		close(fd[0]);
		ms_hog(fd[1], cpu, policy, weight, 0, who);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], &c, 1) != 1 || c != '1') {
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		pid = -1;
	}
	close(fd[0]);
	return pid;
}

/* ms_start_hog_weight() with the weight of the hog's nice value. */
static inline pid_t ms_start_hog(int cpu, int policy, const char *who)
{
	return ms_start_hog_weight(cpu, policy, 0, who);
}

/* The policy a test's argument names (bvt, vtrr, bebs, rbs, fifo, other), or -1. */
static inline int ms_policy_of(const char *name)
{
	static const struct { const char *name; int policy; } p[] = {
		{ "bvt", SCHED_BVT }, { "vtrr", SCHED_VTRR },
		{ "bebs", SCHED_BEBS }, { "rbs", SCHED_RBS },
		{ "fifo", SCHED_FIFO }, { "other", SCHED_OTHER },
	};
	unsigned int i;

	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		if (!strcmp(name, p[i].name))
			return p[i].policy;
	return -1;
}

static inline void __attribute__((noreturn))
ms_bvt_hog(int fd, int cpu, unsigned int weight, unsigned int flags,
	   const char *who)
{
	ms_hog(fd, cpu, SCHED_BVT, weight, flags, who);
}

/*
 * tracefs for a test: ms_trace_start() clears the buffer and enables the
 * space-separated @events ("sched/sched_switch ..."); ms_trace_stop()
 * stops tracing, disables every event and puts back tracing_on and the
 * buffer size as they were before the first ms_trace_start(). The
 * caller reads MS_TRACE "trace" in between, or after the stop.
 */
/* The CPU @pid last ran on (field 39 of /proc/PID/stat), or -1. */
static inline int ms_task_cpu(pid_t pid)
{
	char path[64], buf[1024], *p;
	int field, c = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	/* after the command, in parentheses, field 3 on */
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	for (field = 2; p && field < 39; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%d", &c) != 1)
		c = -1;
	fclose(f);
	return c;
}

/*
 * The thread of the virtio-blk disk's request interrupt under threadirqs
 * ("irq/N-virtio0-req.0", or "irq/N-virtio0" without MSI-X), or -1.
 */
static inline pid_t ms_virtio_irq_thread(char *name, int len)
{
	char path[64], comm[64];
	pid_t found = -1, pid;
	struct dirent *d;
	DIR *dir;
	FILE *f;

	dir = opendir("/proc");
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		pid = atoi(d->d_name);
		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "irq/", 4) &&
		    strstr(comm, "virtio") && !strstr(comm, "config") &&
		    (found < 0 || strstr(comm, "req"))) {
			comm[strcspn(comm, "\n")] = 0;
			snprintf(name, len, "%s", comm);
			found = pid;
		}
		fclose(f);
	}
	closedir(dir);
	return found;
}

#define MS_TRACE	"/sys/kernel/tracing/"

static char ms_trace_saved_on[16], ms_trace_saved_kb[32];

static inline void ms_read_str(const char *path, char *buf, int len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, len, f))
			buf[0] = '\0';
		fclose(f);
	}
}

/* 0, or -1 when an event could not be enabled (named on stderr) */
static inline int ms_trace_start(const char *events)
{
	char path[128], buf[256], *e, *save;
	int ret = 0;

	if (!ms_trace_saved_on[0]) {
		ms_read_str(MS_TRACE "tracing_on", ms_trace_saved_on,
			    sizeof(ms_trace_saved_on));
		ms_read_str(MS_TRACE "buffer_size_kb", ms_trace_saved_kb,
			    sizeof(ms_trace_saved_kb));
	}
	write_file(MS_TRACE "tracing_on", "0");
	write_file(MS_TRACE "events/enable", "0");
	write_file(MS_TRACE "trace", "");
	write_file(MS_TRACE "buffer_size_kb", "8192");
	snprintf(buf, sizeof(buf), "%s", events);
	for (e = strtok_r(buf, " ", &save); e; e = strtok_r(NULL, " ", &save)) {
		snprintf(path, sizeof(path), MS_TRACE "events/%s/enable", e);
		if (write_file(path, "1")) {
			fprintf(stderr, "cannot enable the trace event %s\n", e);
			ret = -1;
		}
	}
	write_file(MS_TRACE "tracing_on", "1");
	return ret;
}

static inline void ms_trace_stop(void)
{
	write_file(MS_TRACE "tracing_on", "0");
	write_file(MS_TRACE "events/enable", "0");
}

/* Empty the buffer and put tracefs back as it was. */
static inline void ms_trace_restore(void)
{
	write_file(MS_TRACE "trace", "");
	if (ms_trace_saved_kb[0])
		write_file(MS_TRACE "buffer_size_kb", ms_trace_saved_kb);
	if (ms_trace_saved_on[0])
		write_file(MS_TRACE "tracing_on", ms_trace_saved_on);
}

/* The trace clock in use ("[local] global ..." names it), into @buf. */
static inline void ms_trace_clock(char *buf, int len)
{
	char all[256], *l, *r;

	ms_read_str(MS_TRACE "trace_clock", all, sizeof(all));
	l = strchr(all, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!r) {
		snprintf(buf, len, "local");
		return;
	}
	*r = '\0';
	snprintf(buf, len, "%s", l + 1);
}

/*
 * A trace line's timestamp, in ns, and (in @name) the event's name: the
 * last field before ": name: " ("... 123.456789: sched_switch: ...").
 * Returns the text after the name, or NULL for a line of no event.
 */
static inline char *ms_trace_event(char *line, long long *ts, char *name,
				   int len)
{
	char *colon, *sp, *ev;
	double t;

	if (line[0] == '#')
		return NULL;
	/* "<ts>: <event>: <fields>": the first ": " after the flags */
	for (colon = strstr(line, ": "); colon; colon = strstr(colon + 1, ": ")) {
		*colon = '\0';
		sp = strrchr(line, ' ');
		if (sp && sscanf(sp + 1, "%lf", &t) == 1 && strchr(sp + 1, '.')) {
			ev = colon + 2;
			sp = strstr(ev, ": ");
			if (!sp)
				return NULL;
			*sp = '\0';
			snprintf(name, len, "%s", ev);
			*ts = (long long)(t * 1e9 + 0.5);
			return sp + 2;
		}
		*colon = ':';
	}
	return NULL;
}

#endif /* MS_TEST_H */
