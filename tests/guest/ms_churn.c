// SPDX-License-Identifier: GPL-2.0
/*
 * ms_churn [-t SECS] [-q SECS] [-s SEED] [-v]
 *
 * The churn campaign of the class servers' issue: a fuzzer of the
 * scheduling system calls with CPU hotplug, run against tasks of every
 * class, that a kernel must survive. For SECS seconds (default 60):
 *
 *  - targets: 12 threads of a process of their own (struct shm says why),
 *    four that spin, three that sleep 0.5-3.5 ms at a
 *    time, three that take PI futexes (pthread PRIO_INHERIT mutexes, one or
 *    two in a fixed order, so that chains form between tasks of different
 *    classes) and two that fork short-lived children and create short-lived
 *    threads (fork/exit storms); each counts its progress;
 *  - two fuzzers at SCHED_FIFO 99 call sched_setattr() with sizes 0..4097,
 *    every field at its boundaries, unknown flags and policies past the
 *    last, sched_getattr() with random sizes and flags, sched_setaffinity()
 *    with random masks and lengths, and the legacy calls, on the targets,
 *    their children and threads, and pids that do not exist; no target is
 *    ever put at or above SCHED_FIFO 99;
 *  - a hotplug thread (SCHED_FIFO 99) takes a random secondary CPU offline
 *    or online every 750 ms, so every secondary CPU comes and goes;
 *  - a watchdog (SCHED_FIFO 99) notes each target's longest stall and every
 *    -q SECS (default 10) pauses the fuzzers and hotplug, moves every
 *    target (and child) back to SCHED_OTHER on every CPU and checks that
 *    each target runs again within 10 s.
 *
 * At the end every CPU is brought online, every target exits, and the
 * admitted bandwidth (SCHED_DEADLINE's total_bw in debugfs sched/debug, and
 * /proc/sys/kernel/sched_ms_bandwidth where the kernel has it) must come
 * back to what it was at the start.
 *
 * Prints "churn: ..." lines: the calls per second, an errno histogram per
 * system call, hotplug counts, the watchdog's findings, the bandwidth, and
 * a verdict. Exits 1 when a call failed with an errno outside the set
 * documented for it (Documentation/scheduler/sched-multisched.rst), a
 * target did not run at a watchdog check, the fuzzers or hotplug stopped
 * for 60 s, or bandwidth leaked. The kernel log is judged by the caller.
 * -v prints each target's progress and the calls made every second.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "ms_test.h"

#define NR_TARGETS	12
#define NR_FUZZERS	2
#define NR_LOCKS	4
#define NR_SLOTS	16	/* children and threads of the forkers */
#define MAX_CPUS	64
#define MAX_ERRNO	134
#define STALL_NS	60000000000LL	/* fuzzers or hotplug stuck: 60 s */

enum kind { SPINNER, SLEEPER, LOCKER, FORKER };
static const char *const kind_name[] = { "spinner", "sleeper", "locker", "forker" };

enum op { OP_SETATTR, OP_GETATTR, OP_SETAFFINITY, OP_SETSCHEDULER,
	  OP_SETPARAM, OP_FORK, OP_HOTPLUG, NR_OPS };
static const char *const op_name[] = {
	"sched_setattr", "sched_getattr", "sched_setaffinity",
	"sched_setscheduler", "sched_setparam", "fork", "cpu online/offline",
};

/*
 * The errnos each operation may return, and why (the caller is root):
 * EINVAL bad sizes, fields, flags, policies or pids; E2BIG a size below
 * VER0, above a page, or a non-zero tail; ESRCH a pid that does not exist
 * (or a child that just exited); EBUSY SCHED_DEADLINE or periodic BEBS
 * admission, a DL task's affinity narrower than its root domain or a
 * periodic BEBS task's without its CPU, or a CPU that cannot go offline
 * with the DL bandwidth left or that holds a BEBS reservation; EFAULT a
 * NULL attribute pointer;
 * EOPNOTSUPP utilisation clamps where UCLAMP_TASK is off; EPERM
 * SCHED_DEADLINE for a task whose affinity does not span its root domain
 * (sched_setattr(2)); EAGAIN a SCHED_DEADLINE task forking without
 * SCHED_FLAG_RESET_ON_FORK. sched_setscheduler(2) and sched_setparam(2)
 * fail with EBUSY too, for a task that SCHED_DEADLINE waiters PI-boost
 * into the deadline class: __sched_setscheduler() asks
 * sched_dl_overflow(), which has no case for a task that is not
 * SCHED_DEADLINE itself and refuses it (mainline 6.12).
 */
static const int allowed[NR_OPS][8] = {
	[OP_SETATTR]	  = { EINVAL, E2BIG, ESRCH, EBUSY, EFAULT, EOPNOTSUPP, EPERM },
	[OP_GETATTR]	  = { EINVAL, ESRCH, EFAULT },
	[OP_SETAFFINITY]  = { EINVAL, ESRCH, EBUSY, EFAULT },
	[OP_SETSCHEDULER] = { EINVAL, ESRCH, EBUSY },
	[OP_SETPARAM]	  = { EINVAL, ESRCH, EBUSY },
	[OP_FORK]	  = { EAGAIN },
	[OP_HOTPLUG]	  = { EBUSY },
};

struct target {
	pthread_t thread;
	atomic_int tid;
	enum kind kind;
	atomic_long progress;
	long long last_ns;	/* watchdog: when progress last moved */
	long seen;		/* watchdog: progress at last_ns */
	long long stall_ns;	/* watchdog: longest stall under churn */
};

/* A forker's child or thread, published for the fuzzers while it lives. */
struct slot {
	atomic_int pid;
	atomic_int users;
};

/*
 * What the controller (the fuzzers, hotplug and the watchdog) shares with
 * the target process: a MAP_SHARED mapping, which fork does not copy on
 * write. The controller is a process of its own so that a target starved
 * while it holds its process's mmap_lock (in fork, say) cannot block the
 * fuzzers' page faults, which would stop the churn that ends the
 * starvation.
 */
struct shm {
	struct target targets[NR_TARGETS];
	struct slot slots[NR_SLOTS];
	atomic_int stop;
	atomic_long counts[NR_OPS][MAX_ERRNO + 1];
	atomic_long pi_ops, thread_spawns, unexpected;
};

static struct shm *sh;
static pthread_mutex_t locks[NR_LOCKS];	/* the target process's */
static atomic_int pause_req, paused, fuzzers_paused;
static atomic_long quiesces;
static atomic_long hotplug_off, hotplug_on, hotplug_max_ns;
static atomic_llong busy_since[NR_FUZZERS + 1];	/* 0 = not in a call */
static int ncpus;
static pid_t pid, tpid;	/* the controller, the target process */
static uint64_t seed0;
static int failed, verbose;

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint64_t below(uint64_t *s, uint64_t n)
{
	return n ? rnd(s) % n : 0;
}

static uint64_t pick(uint64_t *s, const uint64_t *v, size_t n)
{
	return v[below(s, n)];
}

#define PICK(s, a)	pick(s, a, sizeof(a) / sizeof((a)[0]))

static void sleep_ns(long long ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };

	nanosleep(&ts, NULL);
}

static void record(int op, long ret)
{
	int e = ret < 0 ? errno : 0;
	int i;

	if (e > MAX_ERRNO)
		e = MAX_ERRNO;
	atomic_fetch_add(&sh->counts[op][e], 1);
	if (!e)
		return;
	for (i = 0; i < 8 && allowed[op][i]; i++)
		if (allowed[op][i] == e)
			return;
	if (atomic_fetch_add(&sh->unexpected, 1) < 20)
		printf("churn: unexpected: %s -> %s\n", op_name[op], strerror(e));
}

static int set_fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(0, SCHED_FIFO, &sp);
}

/* --- targets ---------------------------------------------------------- */

static struct slot *slot_publish(pid_t p);
static void slot_withdraw(struct slot *sl);

/*
 * A short-lived thread. It publishes its tid like a child, so that the
 * fuzzers and the watchdog's checks reach it too: a task the churn does
 * not touch keeps the policy it inherited, and one left at a low RT
 * priority under spinning targets above it would starve for good (RT
 * semantics, not a kernel fault), and with it any RCU reader it
 * preempted.
 */
static void *short_thread(void *arg)
{
	struct slot *sl = slot_publish(syscall(SYS_gettid));

	spin_ns((long)arg);
	slot_withdraw(sl);
	return NULL;
}

/* Publish @p in a free slot; returns the slot or NULL when all are taken. */
static struct slot *slot_publish(pid_t p)
{
	int i, zero;

	for (i = 0; i < NR_SLOTS; i++) {
		zero = 0;
		if (atomic_compare_exchange_strong(&sh->slots[i].pid, &zero, p))
			return &sh->slots[i];
	}
	return NULL;
}

/* Withdraw a slot and wait until no fuzzer is using its pid. */
static void slot_withdraw(struct slot *sl)
{
	if (!sl)
		return;
	atomic_store(&sl->pid, 0);
	while (atomic_load(&sl->users))
		sched_yield();
}

static void fork_one(uint64_t *seed)
{
	struct slot *sl;
	pid_t c;
	long ret;

	c = fork();
	record(OP_FORK, c < 0 ? -1 : 0);
	if (c < 0)
		return;
	if (c == 0) {
		/* the child: maybe a class of its own, a short spin, gone */
		struct sched_attr a = { .size = sizeof(a) };
		/*
		 * Not SCHED_IDLE: the fuzzers may make it one, but a child
		 * that did so itself after a watchdog check moved it back
		 * would hold up its parent for seconds beside spinning
		 * SCHED_OTHER targets, as fair means it to.
		 */
		static const uint64_t pol[] = { SCHED_OTHER, SCHED_BATCH,
			SCHED_BVT, SCHED_VTRR, SCHED_FIFO };

		a.sched_policy = PICK(seed, pol);
		a.sched_priority = a.sched_policy == SCHED_FIFO ? 1 + below(seed, 98) : 0;
		if (below(seed, 2))
			syscall(SYS_sched_setattr, 0, &a, 0);
		spin_ns(below(seed, 300000));
		_exit(0);
	}
	sl = slot_publish(c);
	/* the child stays a zombie, so its pid is not reused, until reaped */
	do {
		ret = waitpid(c, NULL, 0);
	} while (ret < 0 && errno == EINTR);
	slot_withdraw(sl);
}

static void spawn_thread(uint64_t *seed)
{
	pthread_t t;

	if (pthread_create(&t, NULL, short_thread, (void *)(long)below(seed, 200000)))
		return;
	atomic_fetch_add(&sh->thread_spawns, 1);
	pthread_join(t, NULL);
}

static void *target_main(void *arg)
{
	struct target *t = arg;
	uint64_t seed = 0x9e3779b97f4a7c15ULL ^ seed0 ^ ((uint64_t)(t - sh->targets) * 7919 + 1);
	int a, b, i, n;

	atomic_store(&t->tid, syscall(SYS_gettid));
	while (!atomic_load(&sh->stop)) {
		switch (t->kind) {
		case SPINNER:
			spin_ns(below(&seed, 2000000));
			break;
		case SLEEPER:
			sleep_ns(500000 + below(&seed, 3000000));
			break;
		case LOCKER:
			a = below(&seed, NR_LOCKS);
			b = below(&seed, NR_LOCKS);
			if (b < a) {
				n = a;
				a = b;
				b = n;
			}
			pthread_mutex_lock(&locks[a]);
			if (b != a)
				pthread_mutex_lock(&locks[b]);
			if (below(&seed, 2))
				spin_ns(below(&seed, 200000));
			else
				sleep_ns(below(&seed, 500000));
			if (b != a)
				pthread_mutex_unlock(&locks[b]);
			pthread_mutex_unlock(&locks[a]);
			atomic_fetch_add(&sh->pi_ops, 1);
			break;
		case FORKER:
			/* now and then a storm of eight in a row */
			n = below(&seed, 20) ? 1 : 8;
			for (i = 0; i < n && !atomic_load(&sh->stop); i++) {
				if (below(&seed, 3))
					fork_one(&seed);
				else
					spawn_thread(&seed);
			}
			break;
		}
		atomic_fetch_add(&t->progress, 1);
	}
	return NULL;
}

/* --- the fuzzers -------------------------------------------------------- */

static const uint64_t u64_edges[] = {
	0, 1, 1023, 1024, 10000, 99999, 100000, 1000000, 10000000, 100000000,
	1000000000, 4000000000ULL, 4000000001ULL, 10000000000ULL,
	10000000001ULL, 1ULL << 62, 1ULL << 63, UINT64_MAX - 1, UINT64_MAX,
};
static const uint64_t u32_edges[] = {
	0, 1, 2, 98, 99, 100, 1023, 1024, 1025, 88761, 100000, 100001,
	INT32_MAX, 0x80000000U, UINT32_MAX - 1, UINT32_MAX,
};
static const uint64_t nice_edges[] = {
	(uint32_t)INT32_MIN, (uint32_t)-21, (uint32_t)-20, (uint32_t)-1, 0, 1,
	19, 20, INT32_MAX,
};
static const uint64_t warp_edges[] = {
	(uint64_t)INT64_MIN, (uint64_t)-1, 0, 1, 1000000, 10000000000LL,
	10000000001LL, INT64_MAX,
};

static uint64_t field64(uint64_t *s)
{
	return below(s, 4) ? PICK(s, u64_edges) : rnd(s) >> below(s, 64);
}

static uint32_t field32(uint64_t *s)
{
	return below(s, 4) ? PICK(s, u32_edges) : (uint32_t)rnd(s) >> below(s, 32);
}

/*
 * A pid to call on: mostly a target, then a forker's child or thread
 * (marked in use in *@sl until put_pid()), then pids that do not exist
 * or are invalid. Never the fuzzers, the watchdog or anything outside
 * this process's targets and their children.
 */
static pid_t get_pid(uint64_t *s, struct slot **sl)
{
	struct slot *x;
	pid_t p;

	*sl = NULL;
	switch (below(s, 16)) {
	case 0:
		return -1;
	case 1:
		return 0x3fffffff;	/* above pid_max: ESRCH */
	case 2: case 3: case 4:
		x = &sh->slots[below(s, NR_SLOTS)];
		atomic_fetch_add(&x->users, 1);
		p = atomic_load(&x->pid);
		if (p) {
			*sl = x;
			return p;
		}
		atomic_fetch_sub(&x->users, 1);
		/* fall through */
	default:
		return atomic_load(&sh->targets[below(s, NR_TARGETS)].tid);
	}
}

static void put_pid(struct slot *sl)
{
	if (sl)
		atomic_fetch_sub(&sl->users, 1);
}

static void fuzz_setattr(uint64_t *s, pid_t p)
{
	static const uint64_t sizes[] = { 0, 1, 47, 48, 55, 56, 64, 80,
		sizeof(struct sched_attr), sizeof(struct sched_attr) + 8,
		4096, 4097 };
	static __thread unsigned char mine[4104] __attribute__((aligned(8)));
	struct sched_attr *a = (struct sched_attr *)mine;
	unsigned int size, flags = 0;
	long ret;

	size = below(s, 3) ? sizeof(*a) : below(s, 2) ? PICK(s, sizes) : below(s, 4098);
	memset(mine, 0, sizeof(mine));
	a->size = size;
	a->sched_policy = below(s, 8) ? below(s, 13) : field32(s);
	a->sched_flags = below(s, 2) ? 0 : below(s, 8) ? below(s, 0x80) :
			 1ULL << below(s, 64);
	a->sched_nice = below(s, 2) ? (int)below(s, 40) - 20 : (int)PICK(s, nice_edges);
	a->sched_priority = below(s, 2) ? 1 + below(s, 98) : field32(s);
	a->sched_runtime = field64(s);
	a->sched_deadline = below(s, 2) ? a->sched_runtime * (1 + below(s, 20)) : field64(s);
	a->sched_period = below(s, 2) ? a->sched_deadline * (1 + below(s, 3)) : field64(s);
	a->sched_util_min = below(s, 2) ? below(s, 1025) : field32(s);
	a->sched_util_max = below(s, 2) ? below(s, 1025) : field32(s);
	a->sched_weight = below(s, 2) ? below(s, 4096) : field32(s);
	a->sched_ms_flags = below(s, 2) ? below(s, 0x80) : field32(s);
	a->sched_warp = below(s, 2) ? (int64_t)below(s, 100000000) : (int64_t)PICK(s, warp_edges);
	a->sched_warp_limit = field64(s);
	a->sched_unwarp = field64(s);
	/* a non-zero byte past the structure, which must be refused */
	if (size > sizeof(*a) && size <= sizeof(mine) && !below(s, 4))
		mine[size - 1] = 1;
	/*
	 * Never a target at the fuzzers' SCHED_FIFO 99, whatever the policy
	 * field says: with SCHED_FLAG_KEEP_POLICY the kernel keeps a target's
	 * RT policy and takes the priority from here. A target left spinning
	 * at 99 on the last online CPU starves the controller, whose threads
	 * it ties with, for good (RT semantics: equal priorities do not
	 * preempt).
	 */
	if (a->sched_priority == 99)
		a->sched_priority = 98;
	if (!below(s, 64))
		flags = 1 + below(s, 3);
	if (!below(s, 256)) {
		ret = syscall(SYS_sched_setattr, p, NULL, flags);
	} else {
		ret = syscall(SYS_sched_setattr, p, a, flags);
	}
	record(OP_SETATTR, ret);
}

static void fuzz_getattr(uint64_t *s, pid_t p)
{
	static const uint64_t sizes[] = { 0, 47, 48, 56, 64,
		sizeof(struct sched_attr), 4096, 4097 };
	static __thread unsigned char buf[4104] __attribute__((aligned(8)));
	unsigned int size, flags;
	long ret;

	size = below(s, 2) ? sizeof(struct sched_attr) : below(s, 2) ?
	       PICK(s, sizes) : below(s, 4098);
	flags = below(s, 16) ? 0 : 1 + below(s, 7);
	if (!below(s, 256))
		ret = syscall(SYS_sched_getattr, p, NULL, size, flags);
	else
		ret = syscall(SYS_sched_getattr, p, buf,
			      size < sizeof(buf) ? size : sizeof(buf), flags);
	record(OP_GETATTR, ret);
}

static void fuzz_setaffinity(uint64_t *s, pid_t p)
{
	static __thread unsigned long mask[8];
	size_t len = below(s, 4) ? sizeof(unsigned long) :
		     below(s, 2) ? 0 : 1 + below(s, sizeof(mask));
	long ret;

	memset(mask, 0, sizeof(mask));
	mask[0] = below(s, 8) ? below(s, 1UL << (ncpus + 1)) : rnd(s);
	if (!below(s, 256))
		ret = syscall(SYS_sched_setaffinity, p, len, NULL);
	else
		ret = syscall(SYS_sched_setaffinity, p, len, mask);
	record(OP_SETAFFINITY, ret);
}

static void fuzz_legacy(uint64_t *s, pid_t p)
{
	struct sched_param sp = { .sched_priority = below(s, 2) ?
				  1 + below(s, 98) : field32(s) };
	long ret;
	int pol;

	if (sp.sched_priority == 99)
		sp.sched_priority = 98;
	if (below(s, 2)) {
		pol = below(s, 8) ? (int)below(s, 13) : (int)field32(s);
		if (!below(s, 8))
			pol |= SCHED_RESET_ON_FORK;
		ret = syscall(SYS_sched_setscheduler, p, pol, &sp);
		record(OP_SETSCHEDULER, ret);
	} else {
		ret = syscall(SYS_sched_setparam, p, &sp);
		record(OP_SETPARAM, ret);
	}
}

static void *fuzzer(void *arg)
{
	long id = (long)arg;
	uint64_t seed = 0xdeadbeefcafef00dULL + id * 104729;
	struct slot *sl;
	int i;
	pid_t p;

	set_fifo(99);
	seed ^= seed0 << 20;
	while (!atomic_load(&sh->stop)) {
		if (atomic_load(&pause_req)) {
			atomic_fetch_add(&paused, 1);
			atomic_fetch_add(&fuzzers_paused, 1);
			while (atomic_load(&pause_req) && !atomic_load(&sh->stop))
				sleep_ns(1000000);
			atomic_fetch_sub(&fuzzers_paused, 1);
			atomic_fetch_sub(&paused, 1);
			continue;
		}
		atomic_store(&busy_since[id], now_ns());
		for (i = 0; i < 20; i++) {
			p = get_pid(&seed, &sl);
			switch (below(&seed, 10)) {
			case 0: case 1: case 2: case 3:
				fuzz_setattr(&seed, p);
				break;
			case 4: case 5:
				fuzz_getattr(&seed, p);
				break;
			case 6: case 7:
				fuzz_setaffinity(&seed, p);
				break;
			default:
				fuzz_legacy(&seed, p);
				break;
			}
			put_pid(sl);
		}
		atomic_store(&busy_since[id], 0);
		/* leave the targets some room: the fuzzers are SCHED_FIFO 99 */
		sleep_ns(1000000);
	}
	return NULL;
}

/* --- CPU hotplug ---------------------------------------------------------- */

static int cpu_online(int cpu)
{
	char path[64], c = '1';
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 1;
	if (read(fd, &c, 1) != 1)
		c = '1';
	close(fd);
	return c == '1';
}

/* Write @on to @cpu's online file; 0 or -1 with errno. */
static int cpu_set_online(int cpu, int on)
{
	char path[64];
	int fd, ret;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = write(fd, on ? "1" : "0", 1) == 1 ? 0 : -1;
	if (close(fd) && !ret)
		ret = -1;
	return ret;
}

static void hotplug_one(int cpu, int on)
{
	long long t0 = now_ns(), d;
	long max;
	int ret;

	atomic_store(&busy_since[NR_FUZZERS], t0);
	ret = cpu_set_online(cpu, on);
	atomic_store(&busy_since[NR_FUZZERS], 0);
	d = now_ns() - t0;
	record(OP_HOTPLUG, ret);
	if (!ret)
		atomic_fetch_add(on ? &hotplug_on : &hotplug_off, 1);
	max = atomic_load(&hotplug_max_ns);
	while (d > max && !atomic_compare_exchange_weak(&hotplug_max_ns, &max, d))
		;
}

static void *hotplug(void *arg)
{
	uint64_t seed = 0x1234567ULL ^ seed0;
	int cpu;

	(void)arg;
	set_fifo(99);
	while (!atomic_load(&sh->stop) && ncpus > 1) {
		if (atomic_load(&pause_req)) {
			atomic_fetch_add(&paused, 1);
			while (atomic_load(&pause_req) && !atomic_load(&sh->stop))
				sleep_ns(1000000);
			atomic_fetch_sub(&paused, 1);
			continue;
		}
		cpu = 1 + below(&seed, ncpus - 1);
		hotplug_one(cpu, !cpu_online(cpu));
		sleep_ns(750000000);
	}
	return NULL;
}

/* --- the watchdog ---------------------------------------------------------- */

static void show_task(pid_t tid)
{
	char path[64], buf[4096];
	const char *const files[] = { "stat", "wchan", "stack", "sched" };
	ssize_t n;
	size_t i;
	int fd;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		/* a thread of the target process, or a child's main thread */
		snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", tpid, tid, files[i]);
		if (access(path, R_OK))
			snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", tid, tid, files[i]);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = 0;
			printf("churn:   %s: %s%s", files[i], buf,
			       buf[n - 1] == '\n' ? "" : "\n");
		}
	}
}

/* Apply @a to every thread of process @p. */
static void set_threads(pid_t p, const struct sched_attr *a)
{
	char path[64];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", p);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
			syscall(SYS_sched_setattr, atoi(e->d_name), a, 0);
	closedir(d);
}

/*
 * Apply @a to every thread of the target process and of each of its
 * children, found in /proc by their parent pid. A child or thread that
 * exits meanwhile fails with ESRCH, which is fine.
 */
static void sweep_children(const struct sched_attr *a)
{
	char path[64], buf[512], *r;
	struct dirent *e;
	int fd, ppid;
	ssize_t n;
	DIR *d;

	set_threads(tpid, a);
	d = opendir("/proc");
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", atoi(e->d_name));
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = 0;
		/* "pid (comm) state ppid ...": comm may hold spaces */
		r = strrchr(buf, ')');
		if (r && sscanf(r + 1, " %*c %d", &ppid) == 1 && ppid == tpid)
			set_threads(atoi(e->d_name), a);
	}
	closedir(d);
}

/*
 * Pause the fuzzers and hotplug, move every target back to SCHED_OTHER
 * on every CPU, and see each of them run. Returns 0, or -1 with the
 * reason printed.
 */
static int quiesce(void)
{
	struct sched_attr a = { .size = SCHED_ATTR_SIZE_VER0, .sched_policy = SCHED_OTHER };
	long before[NR_TARGETS];
	long long t0 = now_ns();
	unsigned long all = ~0UL;
	int i, n, left, ret = 0;

	/*
	 * Pause the fuzzers, then move every target and child to SCHED_OTHER
	 * before waiting for hotplug: a CPU going down waits for an RCU grace
	 * period, which may wait for a reader that targets at higher RT
	 * priorities starve; with the fuzzers paused nothing else would end
	 * that starvation.
	 */
	atomic_store(&pause_req, 1);
	while (atomic_load(&fuzzers_paused) < NR_FUZZERS) {
		if (now_ns() - t0 > STALL_NS) {
			printf("churn: the fuzzers did not pause within 60 s\n");
			return -1;
		}
		sleep_ns(1000000);
	}
	for (i = 0; i < NR_TARGETS; i++) {
		pid_t tid = atomic_load(&sh->targets[i].tid);

		if (syscall(SYS_sched_setattr, tid, &a, 0) ||
		    syscall(SYS_sched_setaffinity, tid, sizeof(all), &all)) {
			printf("churn: target %d (%s): back to SCHED_OTHER: %m\n",
			       i, kind_name[sh->targets[i].kind]);
			ret = -1;
		}
	}
	/* and the forkers' children and threads, which they wait for */
	for (i = 0; i < NR_SLOTS; i++) {
		struct slot *x = &sh->slots[i];
		pid_t c;

		atomic_fetch_add(&x->users, 1);
		c = atomic_load(&x->pid);
		if (c)
			syscall(SYS_sched_setattr, c, &a, 0);
		atomic_fetch_sub(&x->users, 1);
	}
	/*
	 * and those no slot names yet: a child forked while its forker was
	 * SCHED_IDLE inherits that policy, and until the forker publishes it
	 * nothing above reaches it. The forkers are SCHED_OTHER by now, so
	 * any child forked after this sweep inherits that.
	 */
	sweep_children(&a);
	while (atomic_load(&paused) < NR_FUZZERS + (ncpus > 1)) {
		if (now_ns() - t0 > STALL_NS) {
			printf("churn: CPU hotplug did not pause within 60 s\n");
			return -1;
		}
		sleep_ns(1000000);
	}
	for (i = 0; i < NR_TARGETS; i++)
		before[i] = atomic_load(&sh->targets[i].progress);
	/*
	 * Each must run within 10 s: all are SCHED_OTHER and nothing spins
	 * above them. A forker waits for its children, which may have made
	 * themselves SCHED_BATCH; under KASAN and TCG a fork and exit take
	 * tens of ms. A child whose fork was under way during the sweep
	 * above (it copied a SCHED_IDLE forker's policy, and was not in
	 * /proc yet) escapes it: the sweep is made again every 500 ms.
	 * (A main boot of make check, 2026-11-26, saw a forker wait 10 s
	 * for such a child, SCHED_IDLE among SCHED_OTHER hogs.)
	 */
	t0 = now_ns();
	n = 0;
	do {
		sleep_ns(100000000);
		if (++n % 5 == 0)
			sweep_children(&a);
		left = 0;
		for (i = 0; i < NR_TARGETS; i++)
			left += atomic_load(&sh->targets[i].progress) == before[i];
	} while (left && now_ns() - t0 < 10000000000LL);
	for (i = 0; i < NR_TARGETS && left; i++) {
		if (atomic_load(&sh->targets[i].progress) != before[i])
			continue;
		printf("churn: target %d (%s, tid %d) did not run for 10 s as SCHED_OTHER\n",
		       i, kind_name[sh->targets[i].kind], atomic_load(&sh->targets[i].tid));
		show_task(atomic_load(&sh->targets[i].tid));
		ret = -1;
	}
	if (ret)
		for (i = 0; i < NR_SLOTS; i++)
			if (atomic_load(&sh->slots[i].pid)) {
				printf("churn: child or thread %d:\n",
				       atomic_load(&sh->slots[i].pid));
				show_task(atomic_load(&sh->slots[i].pid));
			}
	atomic_fetch_add(&quiesces, 1);
	atomic_store(&pause_req, 0);
	return ret;
}

/* Longest stall per target, and fuzzers or hotplug stuck in a call. */
static int watch(void)
{
	long long now = now_ns(), b;
	int i;

	for (i = 0; i < NR_TARGETS; i++) {
		struct target *t = &sh->targets[i];
		long p = atomic_load(&t->progress);

		if (p != t->seen) {
			t->seen = p;
			t->last_ns = now;
		} else if (now - t->last_ns > t->stall_ns) {
			t->stall_ns = now - t->last_ns;
		}
	}
	if (verbose) {
		static long long last;
		long n = 0;
		int e, op;

		if (now - last >= 1000000000LL) {
			last = now;
			for (op = 0; op < NR_OPS; op++)
				for (e = 0; e <= MAX_ERRNO; e++)
					n += atomic_load(&sh->counts[op][e]);
			printf("churn: -v: calls %ld, paused %d, hotplug busy %lld ms, progress",
			       n, atomic_load(&paused),
			       atomic_load(&busy_since[NR_FUZZERS]) ?
			       (now - atomic_load(&busy_since[NR_FUZZERS])) / 1000000 : 0);
			for (i = 0; i < NR_TARGETS; i++)
				printf(" %ld", atomic_load(&sh->targets[i].progress));
			printf("\n");
		}
	}
	for (i = 0; i <= NR_FUZZERS; i++) {
		b = atomic_load(&busy_since[i]);
		if (b && now - b > STALL_NS) {
			printf("churn: %s stuck in a call for 60 s\n",
			       i < NR_FUZZERS ? "a fuzzer" : "hotplug");
			return -1;
		}
	}
	return 0;
}

/* --- bandwidth ----------------------------------------------------------- */

/* SCHED_DEADLINE's total_bw summed over the CPUs' lines of sched/debug. */
static long long dl_total_bw(void)
{
	FILE *f = fopen("/sys/kernel/debug/sched/debug", "r");
	char line[256];
	long long sum = 0, v;

	if (!f)
		return -1;
	/* one line per CPU's dl_rq; CPUs of a root domain show the same value */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " .dl_bw->total_bw : %lld", &v) == 1)
			sum += v;
	fclose(f);
	return sum;
}

static long long ms_bandwidth(void)
{
	FILE *f = fopen("/proc/sys/kernel/sched_ms_bandwidth", "r");
	long long sum = 0, used, total;
	char cpu[32];

	if (!f)
		return -1;
	while (fscanf(f, "%31s %lld %lld", cpu, &used, &total) == 3)
		sum += used;
	fclose(f);
	return sum;
}

static void all_online(void)
{
	int cpu;

	for (cpu = 1; cpu < ncpus; cpu++)
		if (!cpu_online(cpu))
			hotplug_one(cpu, 1);
}

/* The target process: the targets, until the controller says stop. */
static int target_process(void)
{
	pthread_mutexattr_t ma;
	int i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	for (i = 0; i < NR_LOCKS; i++)
		pthread_mutex_init(&locks[i], &ma);
	for (i = 0; i < NR_TARGETS; i++) {
		if (pthread_create(&sh->targets[i].thread, NULL, target_main,
				   &sh->targets[i])) {
			perror("churn: pthread_create");
			atomic_store(&sh->stop, 1);
			return 1;
		}
	}
	for (i = 0; i < NR_TARGETS; i++)
		pthread_join(sh->targets[i].thread, NULL);
	return 0;
}

/* --- main ------------------------------------------------------------------ */

static void report(double secs)
{
	long total = 0, n;
	int op, e;
	char line[1024];
	size_t off;

	for (op = 0; op < OP_FORK; op++)
		for (e = 0; e <= MAX_ERRNO; e++)
			total += atomic_load(&sh->counts[op][e]);
	printf("churn: system calls %ld in %.0f s, %.0f/s\n", total, secs, total / secs);
	for (op = 0; op < NR_OPS; op++) {
		off = snprintf(line, sizeof(line), "churn: %s:", op_name[op]);
		for (e = 0; e <= MAX_ERRNO; e++) {
			n = atomic_load(&sh->counts[op][e]);
			if (n && off < sizeof(line))
				off += snprintf(line + off, sizeof(line) - off, " %s %ld",
						e ? strerrorname_np(e) ?: "?" : "ok", n);
		}
		printf("%s\n", line);
	}
	printf("churn: hotplug: %ld offline, %ld online, longest %ld ms\n",
	       atomic_load(&hotplug_off), atomic_load(&hotplug_on),
	       atomic_load(&hotplug_max_ns) / 1000000);
	printf("churn: threads created and joined %ld, PI lock rounds %ld\n",
	       atomic_load(&sh->thread_spawns), atomic_load(&sh->pi_ops));
}

int main(int argc, char **argv)
{
	pthread_t fz[NR_FUZZERS], hp;
	long long secs = 60, qsecs = 10, t0, next_q, bw0, bw1, dl0, dl1;
	struct utsname u;
	int opt, i;
	long stall_max = 0;
	int stall_i = 0;

	while ((opt = getopt(argc, argv, "t:q:s:v")) != -1) {
		switch (opt) {
		case 't':
			secs = atoll(optarg);
			break;
		case 'q':
			qsecs = atoll(optarg);
			break;
		case 's':
			seed0 = strtoull(optarg, NULL, 0);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			fprintf(stderr, "usage: ms_churn [-t SECS] [-q SECS] [-s SEED] [-v]\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	pid = getpid();
	/* a new sequence each run; -s SEED repeats one's calls, not its timing */
	if (!seed0)
		seed0 = (uint64_t)now_ns() ^ ((uint64_t)pid << 32) ^ time(NULL);
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	/*
	 * SCHED_FLAG_DL_OVERRUN and MS_FLAG_BEBS_OVERRUN send a target
	 * SIGXCPU: not fatal here
	 */
	signal(SIGXCPU, SIG_IGN);
	uname(&u);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("churn: mmap");
		return 2;
	}
	all_online();
	hotplug_on = hotplug_off = hotplug_max_ns = 0;
	dl0 = dl_total_bw();
	bw0 = ms_bandwidth();
	printf("churn: kernel %s, %d CPUs, %lld s, %d targets, %d fuzzers at SCHED_FIFO 99, watchdog check every %lld s, seed %llu\n",
	       u.release, ncpus, secs, NR_TARGETS, NR_FUZZERS, qsecs,
	       (unsigned long long)seed0);
	if (dl0 < 0) {
		perror("churn: /sys/kernel/debug/sched/debug");
		return 2;
	}

	/* the targets run in a process of their own: struct shm */
	for (i = 0; i < NR_TARGETS; i++)
		sh->targets[i].kind = i < 4 ? SPINNER : i < 7 ? SLEEPER :
				      i < 10 ? LOCKER : FORKER;
	tpid = fork();
	if (tpid < 0) {
		perror("churn: fork");
		return 2;
	}
	if (!tpid)
		_exit(target_process());
	while (1) {
		for (i = 0; i < NR_TARGETS && atomic_load(&sh->targets[i].tid); i++)
			;
		if (i == NR_TARGETS)
			break;
		if (waitpid(tpid, NULL, WNOHANG)) {
			printf("churn: the target process died\n");
			return 2;
		}
		sleep_ns(1000000);
	}
	if (set_fifo(99)) {
		perror("churn: SCHED_FIFO 99");
		atomic_store(&sh->stop, 1);
		return 2;
	}
	t0 = now_ns();
	for (i = 0; i < NR_TARGETS; i++)
		sh->targets[i].last_ns = t0;
	for (i = 0; i < NR_FUZZERS; i++)
		pthread_create(&fz[i], NULL, fuzzer, (void *)(long)i);
	pthread_create(&hp, NULL, hotplug, NULL);

	/* the main thread is the watchdog */
	next_q = t0 + qsecs * 1000000000LL;
	while (now_ns() - t0 < secs * 1000000000LL) {
		sleep_ns(100000000);
		if (watch()) {
			failed = 1;
			break;
		}
		if (now_ns() >= next_q) {
			if (quiesce())
				failed = 1;
			for (i = 0; i < NR_TARGETS; i++)
				sh->targets[i].last_ns = now_ns();
			next_q = now_ns() + qsecs * 1000000000LL;
			if (failed)
				break;
		}
	}
	if (!failed && quiesce())
		failed = 1;
	atomic_store(&sh->stop, 1);
	for (i = 0; i < NR_FUZZERS; i++)
		pthread_join(fz[i], NULL);
	pthread_join(hp, NULL);
	all_online();
	if (waitpid(tpid, &i, 0) != tpid || !WIFEXITED(i) || WEXITSTATUS(i)) {
		printf("churn: the target process ended with status %#x\n", i);
		failed = 1;
	}
	report((now_ns() - t0) / 1e9);

	for (i = 0; i < NR_TARGETS; i++) {
		if (sh->targets[i].stall_ns > stall_max) {
			stall_max = sh->targets[i].stall_ns;
			stall_i = i;
		}
	}
	printf("churn: watchdog: %ld checks, every target ran again as SCHED_OTHER in each: %s\n",
	       atomic_load(&quiesces), failed ? "no" : "yes");
	printf("churn: longest stall of a target under churn: %ld ms (target %d, %s)\n",
	       stall_max / 1000000, stall_i, kind_name[sh->targets[stall_i].kind]);

	/* a dead DL task's bandwidth goes when it last switches out: 2 s */
	for (i = 0; i < 20; i++) {
		dl1 = dl_total_bw();
		bw1 = ms_bandwidth();
		if (dl1 == dl0 && bw1 == bw0)
			break;
		sleep_ns(100000000);
	}
	printf("churn: bandwidth: DL total_bw %lld -> %lld, sched_ms_bandwidth used ppm %s",
	       dl0, dl1, bw0 < 0 ? "absent\n" : "");
	if (bw0 >= 0)
		printf("%lld -> %lld\n", bw0, bw1);
	printf("churn: bandwidth back to its start: %s\n",
	       dl1 == dl0 && bw1 == bw0 ? "yes" : "no");
	if (dl1 != dl0 || bw1 != bw0)
		failed = 1;
	printf("churn: unexpected errnos: %ld\n", atomic_load(&sh->unexpected));
	if (atomic_load(&sh->unexpected))
		failed = 1;
	printf("churn: verdict: %s\n", failed ? "FAIL" : "pass");
	return failed ? 1 : 0;
}
