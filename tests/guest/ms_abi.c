// SPDX-License-Identifier: GPL-2.0
/*
 * The sched_setattr(2)/sched_getattr(2) ABI of multisched: the 48, 56, 88
 * and 96 byte layouts, the E2BIG rule for a longer structure, and the error
 * codes for unknown policies, flags and class parameters. Prints one TAP
 * line per check ("ok - ..." or "not ok - ...") and exits 1 if any failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/sched.h>
#include <linux/sched/types.h>
#include <linux/sched/multisched.h>

static int failed;

#define CHECK(cond, fmt, ...) do {					\
	int __ok = !!(cond);						\
	printf("%s - abi: " fmt "\n", __ok ? "ok" : "not ok", ##__VA_ARGS__); \
	if (!__ok)							\
		failed = 1;						\
} while (0)

/* A buffer larger than any layout, so that a tail can follow it. */
union attr_buf {
	struct sched_attr attr;
	unsigned char bytes[128];
};

static int setattr(pid_t pid, void *attr)
{
	return syscall(SYS_sched_setattr, pid, attr, 0) ? errno : 0;
}

static int getattr(pid_t pid, void *attr, unsigned int size)
{
	return syscall(SYS_sched_getattr, pid, attr, size, 0) ? errno : 0;
}

static void init_attr(union attr_buf *b, unsigned int size, int policy)
{
	memset(b, 0, sizeof(*b));
	b->attr.size = size;
	b->attr.sched_policy = policy;
}

static const char *err(int e)
{
	return e ? strerrorname_np(e) : "0";
}

static void test_sizes(void)
{
	static const unsigned int sizes[] = {
		SCHED_ATTR_SIZE_VER0, SCHED_ATTR_SIZE_VER1, SCHED_ATTR_SIZE_VER2,
		SCHED_ATTR_SIZE_VER3
	};
	union attr_buf b;
	unsigned int i;
	int e;

	CHECK(sizeof(struct sched_attr) == SCHED_ATTR_SIZE_VER3,
	      "sizeof(struct sched_attr) is %zu, SCHED_ATTR_SIZE_VER3 is %d",
	      sizeof(struct sched_attr), SCHED_ATTR_SIZE_VER3);

	for (i = 0; i < 4; i++) {
		init_attr(&b, sizes[i], SCHED_BATCH);
		b.attr.sched_nice = 3 + i;
		e = setattr(0, &b);
		CHECK(e == 0, "set SCHED_BATCH nice %u with size %u: %s",
		      3 + i, sizes[i], err(e));

		memset(&b, 0xa5, sizeof(b));
		e = getattr(0, &b, sizes[i]);
		CHECK(e == 0 && b.attr.size == sizes[i] &&
		      b.attr.sched_policy == SCHED_BATCH &&
		      b.attr.sched_nice == (int)(3 + i) &&
		      b.bytes[sizes[i]] == 0xa5,
		      "get with size %u: %s, size %u policy %u nice %d, no write past it",
		      sizes[i], err(e), b.attr.size, b.attr.sched_policy,
		      b.attr.sched_nice);
	}

	/* The tail reads back as zero for a mainline policy. */
	memset(&b, 0xa5, sizeof(b));
	e = getattr(0, &b, SCHED_ATTR_SIZE_VER2);
	CHECK(e == 0 && !b.attr.sched_weight && !b.attr.sched_ms_flags &&
	      !b.attr.sched_warp && !b.attr.sched_warp_limit &&
	      !b.attr.sched_unwarp,
	      "size 88 get of SCHED_BATCH returns a zero class tail");

	/* A caller with a larger structure gets the kernel's size. */
	memset(&b, 0, sizeof(b));
	e = getattr(0, &b, 120);
	CHECK(e == 0 && b.attr.size == SCHED_ATTR_SIZE_VER3,
	      "get with size 120 reports size %u", b.attr.size);

	init_attr(&b, 120, SCHED_OTHER);
	e = setattr(0, &b);
	CHECK(e == 0, "set with size 120 and a zero tail: %s", err(e));

	init_attr(&b, 120, SCHED_OTHER);
	b.bytes[100] = 1;
	e = setattr(0, &b);
	CHECK(e == E2BIG && b.attr.size == SCHED_ATTR_SIZE_VER3,
	      "set with a non-zero byte at offset 100: %s, size written back %u",
	      err(e), b.attr.size);

	init_attr(&b, 40, SCHED_OTHER);
	e = setattr(0, &b);
	CHECK(e == E2BIG, "set with size 40: %s", err(e));
}

/* The classes that accept tasks, as the kernel lists them. */
static const char *ms_classes(void)
{
	static char line[256];
	FILE *f = fopen("/proc/sys/kernel/sched_ms_classes", "r");

	line[0] = 0;
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
		fclose(f);
	}
	return line;
}

static void test_policies(void)
{
	union attr_buf b;
	int policy, e;
	const char *avail;
	char line[256] = "";
	FILE *f;

	f = fopen("/proc/sys/kernel/sched_ms_classes", "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
		fclose(f);
	}
	avail = line;
	CHECK(f != NULL, "/proc/sys/kernel/sched_ms_classes lists '%.*s'",
	      (int)strcspn(avail, "\n"), avail);

	/* A class that is not built or not ready refuses its policy. */
	for (policy = SCHED_BVT; policy <= SCHED_RBS; policy++) {
		static const char * const names[] = { "bvt", "vtrr", "bebs", "rbs" };
		const char *name = names[policy - SCHED_BVT];

		if (strstr(avail, name))
			continue;
		init_attr(&b, SCHED_ATTR_SIZE_VER0, policy);
		e = setattr(0, &b);
		CHECK(e == EINVAL, "%s (policy %d) not available: set gives %s",
		      name, policy, err(e));
		e = sched_get_priority_max(policy);
		CHECK(e == 0, "sched_get_priority_max(%d) is %d", policy, e);
	}

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_RBS + 1);
	e = setattr(0, &b);
	CHECK(e == EINVAL, "unknown policy %d: %s", SCHED_RBS + 1, err(e));

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_OTHER);
	b.attr.sched_flags = 1ULL << 40;
	e = setattr(0, &b);
	CHECK(e == EINVAL, "unknown sched_flags bit: %s", err(e));

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_OTHER);
	b.attr.sched_ms_flags = 1U << 30;
	e = setattr(0, &b);
	CHECK(e == EINVAL, "unknown sched_ms_flags bit: %s", err(e));

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_OTHER);
	b.attr.sched_weight = 2048;
	e = setattr(0, &b);
	CHECK(e == EINVAL, "sched_weight with SCHED_OTHER: %s", err(e));

	init_attr(&b, SCHED_ATTR_SIZE_VER3, SCHED_OTHER);
	b.attr.sched_join_tid = getpid();
	e = setattr(0, &b);
	CHECK(e == EINVAL, "sched_join_tid with SCHED_OTHER: %s", err(e));

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_FIFO);
	b.attr.sched_priority = 10;
	b.attr.sched_warp = 1000000;
	e = setattr(0, &b);
	CHECK(e == EINVAL, "sched_warp with SCHED_FIFO: %s", err(e));

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_OTHER);
	e = setattr(0, &b);
	CHECK(e == 0, "back to SCHED_OTHER: %s", err(e));
}

/* The fork path picks the child's class through __setscheduler_class(). */
static void test_fork(void)
{
	union attr_buf b;
	int status, e;
	pid_t child;

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_FIFO);
	b.attr.sched_priority = 10;
	b.attr.sched_flags = SCHED_FLAG_RESET_ON_FORK;
	e = setattr(0, &b);
	CHECK(e == 0, "SCHED_FIFO with reset-on-fork: %s", err(e));

	child = fork();
	if (!child)
		_exit(sched_getscheduler(0));
	waitpid(child, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == SCHED_OTHER,
	      "child of a reset-on-fork SCHED_FIFO task runs policy %d",
	      WEXITSTATUS(status));

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_BATCH);
	b.attr.sched_nice = 4;
	setattr(0, &b);
	child = fork();
	if (!child) {
		memset(&b, 0, sizeof(b));
		getattr(0, &b, SCHED_ATTR_SIZE_VER2);
		_exit(b.attr.sched_policy * 10 + b.attr.sched_nice);
	}
	waitpid(child, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == SCHED_BATCH * 10 + 4,
	      "child of a SCHED_BATCH nice 4 task inherits both (%d)",
	      WEXITSTATUS(status));

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_OTHER);
	setattr(0, &b);
}

/*
 * Priority inheritance still boosts through __setscheduler_class(): a
 * SCHED_OTHER holder of a PI mutex runs at the priority of the SCHED_FIFO
 * waiter (prio 99 - 20 = 79) and drops back after unlocking.
 */
static pthread_mutex_t pi_lock;
static volatile int pi_locked;

static int proc_prio(void)
{
	char line[256];
	int prio = -1;
	FILE *f = fopen("/proc/thread-self/sched", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "prio ", 5))
			sscanf(strchr(line, ':') + 1, "%d", &prio);
	fclose(f);
	return prio;
}

static void *pi_holder(void *arg)
{
	int *prio = arg;

	pthread_mutex_lock(&pi_lock);
	pi_locked = 1;
	usleep(300000);		/* the FIFO waiter blocks meanwhile */
	prio[0] = proc_prio();
	pthread_mutex_unlock(&pi_lock);
	prio[1] = proc_prio();
	return NULL;
}

/*
 * Run @holder(@arg) in a thread that takes the PI mutex pi_lock and sets
 * pi_locked, then block on pi_lock as SCHED_FIFO 20 until the holder
 * lets go, and wait for it to finish.
 */
static void pi_boost(void *(*holder)(void *), void *arg)
{
	pthread_mutexattr_t ma;
	union attr_buf b;
	pthread_t t;

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&pi_lock, &ma);
	pi_locked = 0;
	pthread_create(&t, NULL, holder, arg);
	while (!pi_locked)
		usleep(1000);

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_FIFO);
	b.attr.sched_priority = 20;
	setattr(0, &b);
	pthread_mutex_lock(&pi_lock);
	pthread_mutex_unlock(&pi_lock);
	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_OTHER);
	setattr(0, &b);
	pthread_join(t, NULL);
}

static void test_pi(void)
{
	int prio[2] = { -1, -1 };

	pi_boost(pi_holder, prio);
	CHECK(prio[0] == 79 && prio[1] == 120,
	      "PI: SCHED_OTHER holder boosted to prio %d by a FIFO 20 waiter, %d after unlock",
	      prio[0], prio[1]);
}

/* The "ms.class" line of /proc/thread-self/sched into @buf[64], or "" */
static void proc_class(char *buf)
{
	char line[256];
	FILE *f = fopen("/proc/thread-self/sched", "r");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "ms.class ", 9))
			sscanf(strchr(line, ':') + 1, " %63[^\n]", buf);
	fclose(f);
}

/*
 * The same with a holder in SCHED_BVT (weight 300, W 5 ms, L 3 ms, U 7 ms,
 * MS_FLAG_WARP_SIGNAL) or SCHED_VTRR (share 7): boosted into the rt class
 * at prio 79 while the FIFO 20 waiter blocks, then back in its own class
 * with every parameter as it set them.
 */
struct pi_class_arg {
	int policy, prio[2];
	char class[2][64];
	union attr_buf after;
	int getattr_err;
};

static void *pi_class_holder(void *arg)
{
	struct pi_class_arg *a = arg;
	union attr_buf b;

	init_attr(&b, SCHED_ATTR_SIZE_VER2, a->policy);
	if (a->policy == SCHED_BVT) {
		b.attr.sched_weight = 300;
		b.attr.sched_warp = 5000000;
		b.attr.sched_warp_limit = 3000000;
		b.attr.sched_unwarp = 7000000;
		b.attr.sched_ms_flags = MS_FLAG_WARP_SIGNAL;
	} else {
		b.attr.sched_weight = 7;
	}
	if (setattr(0, &b))
		return NULL;
	pthread_mutex_lock(&pi_lock);
	pi_locked = 1;
	usleep(300000);		/* the FIFO waiter blocks meanwhile */
	a->prio[0] = proc_prio();
	proc_class(a->class[0]);
	pthread_mutex_unlock(&pi_lock);
	a->prio[1] = proc_prio();
	proc_class(a->class[1]);
	memset(&a->after, 0, sizeof(a->after));
	a->getattr_err = getattr(0, &a->after, SCHED_ATTR_SIZE_VER2);
	return NULL;
}

static void test_pi_class(int policy, const char *name)
{
	struct pi_class_arg a = { .policy = policy, .prio = { -1, -1 } };
	int kept;

	pi_boost(pi_class_holder, &a);
	if (policy == SCHED_BVT)
		kept = a.after.attr.sched_weight == 300 &&
		       a.after.attr.sched_warp == 5000000 &&
		       a.after.attr.sched_warp_limit == 3000000 &&
		       a.after.attr.sched_unwarp == 7000000 &&
		       a.after.attr.sched_ms_flags == MS_FLAG_WARP_SIGNAL;
	else
		kept = a.after.attr.sched_weight == 7;
	CHECK(a.prio[0] == 79 && !strcmp(a.class[0], "rt (boosted)") &&
	      !strcmp(a.class[1], name) && !a.getattr_err &&
	      a.after.attr.sched_policy == (unsigned int)policy && kept,
	      "PI: a %s holder boosted to prio %d (class '%s') by a FIFO 20 waiter, after unlock prio %d class '%s', policy %u weight %u warp %lld L %llu U %llu flags 0x%x (getattr %d)",
	      name, a.prio[0], a.class[0], a.prio[1], a.class[1],
	      a.after.attr.sched_policy, a.after.attr.sched_weight,
	      (long long)a.after.attr.sched_warp,
	      (unsigned long long)a.after.attr.sched_warp_limit,
	      (unsigned long long)a.after.attr.sched_unwarp,
	      a.after.attr.sched_ms_flags, a.getattr_err);
}

/* Read the class tail back; 0 or an errno. */
static int tail_of(union attr_buf *b)
{
	memset(b, 0, sizeof(*b));
	return getattr(0, b, SCHED_ATTR_SIZE_VER2);
}

static int tail_kept(const union attr_buf *b)
{
	return b->attr.sched_policy == SCHED_BVT &&
	       b->attr.sched_weight == 2048 && b->attr.sched_warp == 1000000 &&
	       b->attr.sched_warp_limit == 500000 &&
	       b->attr.sched_unwarp == 2000000 &&
	       b->attr.sched_ms_flags == MS_FLAG_WARP_SIGNAL;
}

/*
 * Calls that send no class parameters keep the ones a BVT task has:
 * sched_setparam(2), sched_setscheduler(2), the 48 and 56-byte structures
 * and SCHED_FLAG_KEEP_POLICY with a zero tail. A full structure naming the
 * policy replaces them, and entering another class starts from defaults.
 */
static void test_legacy(void)
{
	static const unsigned int sizes[] = {
		SCHED_ATTR_SIZE_VER0, SCHED_ATTR_SIZE_VER1
	};
	struct sched_param sp = { 0 };
	union attr_buf b;
	unsigned int i;
	int e;

	if (!strstr(ms_classes(), "bvt") || !strstr(ms_classes(), "vtrr")) {
		CHECK(0, "legacy calls: BVT and VTRR are available");
		return;
	}
	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_BVT);
	b.attr.sched_weight = 2048;
	b.attr.sched_warp = 1000000;
	b.attr.sched_warp_limit = 500000;
	b.attr.sched_unwarp = 2000000;
	b.attr.sched_ms_flags = MS_FLAG_WARP_SIGNAL;
	e = setattr(0, &b);
	CHECK(e == 0, "legacy: SCHED_BVT weight 2048, W 1ms, L 500us, U 2ms, WARP_SIGNAL: %s",
	      err(e));

	e = sched_setparam(0, &sp) ? errno : 0;
	CHECK(e == 0 && !tail_of(&b) && tail_kept(&b),
	      "legacy: sched_setparam keeps weight %u W %lld L %llu U %llu flags %#x",
	      b.attr.sched_weight, (long long)b.attr.sched_warp,
	      (unsigned long long)b.attr.sched_warp_limit,
	      (unsigned long long)b.attr.sched_unwarp, b.attr.sched_ms_flags);

	e = sched_setscheduler(0, SCHED_BVT, &sp) ? errno : 0;
	CHECK(e == 0 && !tail_of(&b) && tail_kept(&b),
	      "legacy: sched_setscheduler(SCHED_BVT) keeps them (weight %u)",
	      b.attr.sched_weight);

	for (i = 0; i < 2; i++) {
		init_attr(&b, sizes[i], SCHED_BVT);
		b.attr.sched_nice = 2 + i;
		e = setattr(0, &b);
		CHECK(e == 0 && !tail_of(&b) && tail_kept(&b) &&
		      b.attr.sched_nice == (int)(2 + i),
		      "legacy: a %u-byte sched_setattr sets nice %d and keeps them (weight %u)",
		      sizes[i], b.attr.sched_nice, b.attr.sched_weight);
	}

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_OTHER);
	b.attr.sched_flags = SCHED_FLAG_KEEP_POLICY;
	b.attr.sched_nice = 1;
	e = setattr(0, &b);
	CHECK(e == 0 && !tail_of(&b) && tail_kept(&b) && b.attr.sched_nice == 1,
	      "legacy: SCHED_FLAG_KEEP_POLICY with a zero tail sets nice 1 and keeps them (weight %u)",
	      b.attr.sched_weight);

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_BVT);
	e = setattr(0, &b);
	CHECK(e == 0 && !tail_of(&b) && b.attr.sched_weight == 0 &&
	      b.attr.sched_warp == 0 && b.attr.sched_ms_flags == 0,
	      "legacy: a full structure naming SCHED_BVT with a zero tail resets them (weight %u W %lld)",
	      b.attr.sched_weight, (long long)b.attr.sched_warp);

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_BVT);
	b.attr.sched_weight = 2048;
	setattr(0, &b);
	init_attr(&b, SCHED_ATTR_SIZE_VER0, SCHED_VTRR);
	e = setattr(0, &b);
	CHECK(e == 0 && !tail_of(&b) && b.attr.sched_policy == SCHED_VTRR &&
	      b.attr.sched_weight == 0,
	      "legacy: a 48-byte move from BVT to VTRR starts from defaults (weight %u)",
	      b.attr.sched_weight);

	/*
	 * A custom fair slice (sched_runtime with SCHED_OTHER) is not a
	 * budget: sched_setscheduler(2) does not carry it into BVT, and
	 * sched_setparam(2) keeps working there.
	 */
	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_OTHER);
	b.attr.sched_runtime = 3000000;
	e = setattr(0, &b);
	CHECK(e == 0, "legacy: SCHED_OTHER with a 3 ms custom slice: %s", err(e));
	e = sched_setscheduler(0, SCHED_BVT, &sp) ? errno : 0;
	CHECK(e == 0, "legacy: sched_setscheduler(SCHED_BVT) from a task with a custom slice: %s",
	      err(e));
	e = sched_setparam(0, &sp) ? errno : 0;
	CHECK(e == 0, "legacy: then sched_setparam in SCHED_BVT: %s", err(e));

	init_attr(&b, SCHED_ATTR_SIZE_VER2, SCHED_OTHER);
	setattr(0, &b);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_sizes();
	test_policies();
	test_fork();
	test_pi();
	test_pi_class(SCHED_BVT, "bvt");
	test_pi_class(SCHED_VTRR, "vtrr");
	test_legacy();
	return failed;
}
