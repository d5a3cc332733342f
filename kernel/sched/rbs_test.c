// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of RBS's arithmetic: the corrected sporadic server of a
 * Main reservation (Quest, algorithms 3-6 and 11-13) and the admission
 * bound of inequality 1. Included from rbs.c, so that its static helpers
 * are reachable.
 *
 * The server is driven by adversarial patterns (random bursts, blocking
 * just before its capacity runs out, waking just after a chunk comes
 * due, hogging), alone on its CPU, and every window of length T over the
 * run must hold at most C of its service: exactly, when it is stopped
 * the moment its capacity runs out, and C plus the largest overrun when
 * it runs past it.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#define US(x)	((u64)(x) * NSEC_PER_USEC)
#define MS(x)	((u64)(x) * NSEC_PER_MSEC)

static void rbs_test_check(struct kunit *test, const struct rbs_ss *ss)
{
	u64 sum = 0;
	unsigned int i;

	KUNIT_ASSERT_GE(test, ss->len, 1U);
	KUNIT_ASSERT_LE(test, ss->len, ss->max);
	for (i = 0; i < ss->len; i++) {
		KUNIT_ASSERT_GT(test, ss->q[i].b, 0ULL);
		if (i)
			KUNIT_ASSERT_LE(test, ss->q[i - 1].t, ss->q[i].t);
		sum += ss->q[i].b;
	}
	KUNIT_ASSERT_EQ(test, sum, ss->C);
	KUNIT_ASSERT_LT(test, ss->usage, ss->q[0].b);
}

/* The listings' steps on a small case, chunk by chunk. */
static void rbs_test_steps(struct kunit *test)
{
	struct rbs_repl q[4];
	struct rbs_ss ss;

	rbs_ss_init(&ss, MS(3), MS(10), q, ARRAY_SIZE(q), MS(100));
	KUNIT_EXPECT_EQ(test, rbs_ss_capacity(&ss, MS(100)), (s64)MS(3));

	/* runs 1 ms and blocks: the 1 ms comes back at 110 ms */
	rbs_ss_charge(&ss, MS(1), MS(101));
	KUNIT_EXPECT_FALSE(test, rbs_ss_split(&ss, MS(101)));
	KUNIT_EXPECT_EQ(test, ss.len, 2U);
	KUNIT_EXPECT_EQ(test, q[0].b, MS(2));
	KUNIT_EXPECT_EQ(test, q[1].t, MS(110));
	KUNIT_EXPECT_EQ(test, q[1].b, MS(1));

	/* wakes at 105 ms: the 2 ms are used from then on */
	KUNIT_EXPECT_TRUE(test, rbs_ss_unblock(&ss, MS(105)));
	KUNIT_EXPECT_EQ(test, q[0].t, MS(105));

	/* uses them up at 107 ms: they come back at 115 ms, none left now */
	rbs_ss_charge(&ss, MS(2), MS(107));
	KUNIT_EXPECT_EQ(test, rbs_ss_capacity(&ss, MS(107)), 0LL);
	KUNIT_EXPECT_EQ(test, ss.len, 2U);
	KUNIT_EXPECT_EQ(test, q[0].t, MS(110));
	KUNIT_EXPECT_EQ(test, q[1].t, MS(115));
	KUNIT_EXPECT_EQ(test, q[1].b, MS(2));

	/* waking at 109.5 ms with 1 ms due at 110 ms: not before then */
	KUNIT_EXPECT_FALSE(test, rbs_ss_unblock(&ss, US(109500)));

	/* at 114 ms: the chunk of 110 ms and the one due at 115 ms merge */
	KUNIT_EXPECT_TRUE(test, rbs_ss_unblock(&ss, MS(114)));
	KUNIT_EXPECT_EQ(test, ss.len, 1U);
	KUNIT_EXPECT_EQ(test, q[0].t, MS(114));
	KUNIT_EXPECT_EQ(test, q[0].b, MS(3));

	/* an overrun of 0.5 ms delays the next chunk by as much, once */
	rbs_ss_charge(&ss, US(3500), US(117500));
	KUNIT_EXPECT_EQ(test, q[0].t, US(124500));
	KUNIT_EXPECT_EQ(test, ss.usage, US(500));
	rbs_ss_charge(&ss, US(100), US(117600));
	KUNIT_EXPECT_EQ(test, q[0].t, US(124600));
	KUNIT_EXPECT_EQ(test, rbs_ss_capacity(&ss, US(124600)),
			(s64)(MS(3) - US(600)));
	rbs_test_check(test, &ss);
}

/* A full queue: what the server ran joins the last chunk, none is lost. */
static void rbs_test_full(struct kunit *test)
{
	struct rbs_repl q[2];
	struct rbs_ss ss;

	rbs_ss_init(&ss, MS(4), MS(10), q, ARRAY_SIZE(q), 0);
	rbs_ss_charge(&ss, MS(1), MS(1));
	KUNIT_EXPECT_FALSE(test, rbs_ss_split(&ss, MS(1)));
	KUNIT_EXPECT_TRUE(test, rbs_ss_unblock(&ss, MS(5)));
	rbs_ss_charge(&ss, MS(1), MS(6));
	/* q holds (5 ms, 3 ms) and (10 ms, 1 ms): full */
	KUNIT_EXPECT_TRUE(test, rbs_ss_split(&ss, MS(6)));
	KUNIT_EXPECT_EQ(test, ss.len, 2U);
	KUNIT_EXPECT_EQ(test, q[0].t, MS(5));
	KUNIT_EXPECT_EQ(test, q[0].b, MS(2));
	KUNIT_EXPECT_EQ(test, q[1].t, MS(15));
	KUNIT_EXPECT_EQ(test, q[1].b, MS(2));
	/* the 2 ms left stay usable now (Quest would hold them to 10 ms) */
	KUNIT_EXPECT_EQ(test, rbs_ss_capacity(&ss, MS(6)), (s64)MS(2));
	rbs_test_check(test, &ss);
}

struct rbs_run {
	u64	start;
	u64	end;
};

/* The first run that ends after @t. */
static unsigned int rbs_test_find(const struct rbs_run *run, unsigned int n,
				  u64 t)
{
	unsigned int lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (run[mid].end <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Service in [@a, @a + @len), from the prefix sums @sum of @run. */
static u64 rbs_test_service(const struct rbs_run *run, const u64 *sum,
			    unsigned int n, u64 a, u64 len)
{
	unsigned int i = rbs_test_find(run, n, a), j;
	u64 b = a + len, s;

	j = rbs_test_find(run, n, b);
	if (i == j)	/* no run ends in the window; run i may span it */
		return i < n && run[i].start < b ?
		       b - max(run[i].start, a) : 0;
	/* runs i .. j - 1 end in the window; run j may start in it */
	s = sum[j] - sum[i];
	if (run[i].start < a)
		s -= a - run[i].start;
	if (j < n && run[j].start < b)
		s += b - run[j].start;
	return s;
}

/*
 * The most service in any window of @len, over the windows that start at
 * a run's start or end at a run's end, where the most is found.
 */
static u64 rbs_test_max_window(struct kunit *test, const struct rbs_run *run,
			       unsigned int n, u64 len)
{
	u64 *sum, best = 0, s;
	unsigned int i;

	sum = kunit_kmalloc_array(test, n + 1, sizeof(*sum), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sum);
	sum[0] = 0;
	for (i = 0; i < n; i++)
		sum[i + 1] = sum[i] + run[i].end - run[i].start;
	for (i = 0; i < n; i++) {
		s = rbs_test_service(run, sum, n, run[i].start, len);
		best = max(best, s);
		if (run[i].end >= len) {
			s = rbs_test_service(run, sum, n, run[i].end - len, len);
			best = max(best, s);
		}
	}
	return best;
}

static u64 rbs_test_rand(struct rnd_state *rnd, u64 lo, u64 hi)
{
	return lo + prandom_u32_state(rnd) % (u32)(hi - lo + 1);
}

/* The next chunk's time after @now, or @now. */
static u64 rbs_test_next(const struct rbs_ss *ss, u64 now)
{
	unsigned int i;

	for (i = 0; i < ss->len; i++)
		if (ss->q[i].t > now)
			return ss->q[i].t;
	return now;
}

/*
 * @periods periods of C every T with a queue of @max chunks; each time
 * its capacity runs out it runs up to @late more. Alone on the CPU, or,
 * with @preempt, below a class that now and then runs first: before a
 * quarter of its runs it is preempted (the class splits off what it ran,
 * as at a block) and waits up to T / 4, and a chunk it waited for starts
 * up to 300 us late (a timer's latency). Either way the class marks the
 * start of each run (rbs_ss_start()). Returns the most service in any
 * window of T; *@full counts full-queue merges.
 */
static u64 rbs_test_run(struct kunit *test, u64 C, u64 T, unsigned int max,
			u64 late, bool preempt, unsigned int periods, u32 seed,
			unsigned int *full)
{
	unsigned int n = 0, cap_runs = periods * 64;
	struct rbs_repl *q;
	struct rbs_run *run;
	struct rnd_state rnd;
	u64 now = 0, want, d, end = (u64)periods * T;
	bool runnable = true;
	struct rbs_ss ss;
	s64 cap;

	q = kunit_kmalloc_array(test, max, sizeof(*q), GFP_KERNEL);
	run = kunit_kmalloc_array(test, cap_runs, sizeof(*run), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_ASSERT_NOT_NULL(test, run);
	prandom_seed_state(&rnd, seed);
	rbs_ss_init(&ss, C, T, q, max, now);
	want = C;
	while (now < end && n < cap_runs) {
		if (!runnable) {
			switch (prandom_u32_state(&rnd) % 4) {
			case 0:		/* just after a chunk comes due */
				now = rbs_test_next(&ss, now) +
				      rbs_test_rand(&rnd, 0, US(20));
				break;
			case 1:		/* a short sleep */
				now += rbs_test_rand(&rnd, 1, US(100));
				break;
			case 2:
				now += rbs_test_rand(&rnd, 1, T);
				break;
			default:
				now += rbs_test_rand(&rnd, T, 3 * T);
			}
			runnable = true;
			if (!rbs_ss_unblock(&ss, now)) {
				KUNIT_ASSERT_GT(test, ss.q[0].t, now);
				now = ss.q[0].t;
			}
			cap = rbs_ss_capacity(&ss, now);
			switch (prandom_u32_state(&rnd) % 4) {
			case 0:		/* blocks just before it runs out */
				want = cap > US(30) ?
				       cap - rbs_test_rand(&rnd, 1, US(20)) :
				       rbs_test_rand(&rnd, 1, US(50));
				break;
			case 1:
				want = rbs_test_rand(&rnd, US(10), C);
				break;
			case 2:		/* hogs */
				want = rbs_test_rand(&rnd, 2 * C, 5 * C);
				break;
			default:
				want = rbs_test_rand(&rnd, 1, US(50));
			}
			rbs_test_check(test, &ss);
			continue;
		}
		cap = rbs_ss_capacity(&ss, now);
		if (cap <= 0) {
			/* out of capacity: it waits for the head chunk */
			KUNIT_ASSERT_GT(test, ss.q[0].t, now);
			now = ss.q[0].t;
			if (preempt)
				now += rbs_test_rand(&rnd, 0, US(300));
			continue;
		}
		if (preempt && !(prandom_u32_state(&rnd) % 4)) {
			*full += rbs_ss_split(&ss, now);
			now += rbs_test_rand(&rnd, 1, T / 4);
			rbs_test_check(test, &ss);
		}
		rbs_ss_start(&ss, now);
		rbs_test_check(test, &ss);
		cap = rbs_ss_capacity(&ss, now);
		KUNIT_ASSERT_GT(test, cap, 0LL);
		d = min_t(u64, cap, want);
		if (d == cap && late)
			d += rbs_test_rand(&rnd, 0, late);
		run[n].start = now;
		now += d;
		run[n++].end = now;
		want -= min(d, want);
		rbs_ss_charge(&ss, d, now);
		rbs_test_check(test, &ss);
		if (!want) {
			runnable = false;
			*full += rbs_ss_split(&ss, now);
			rbs_test_check(test, &ss);
		}
	}
	KUNIT_EXPECT_GE(test, now, end);
	return rbs_test_max_window(test, run, n, T);
}

/* In every window of length T the server runs at most C. */
static void rbs_test_window(struct kunit *test)
{
	static const struct {
		u64		C, T;
		unsigned int	max;
	} cfg[] = {
		{ MS(3), MS(10), 32 },
		{ MS(3), MS(10), 4 },
		{ MS(3), MS(10), 2 },
		{ US(50), MS(1), 32 },
		{ MS(30), MS(40), 4 },
	};
	unsigned int i, full;
	u64 most;

	for (i = 0; i < ARRAY_SIZE(cfg); i++) {
		full = 0;
		most = rbs_test_run(test, cfg[i].C, cfg[i].T, cfg[i].max, 0,
				    false, 2000, 1000 + i, &full);
		kunit_info(test, "C %llu T %llu queue %u: most in a window %llu, %u full-queue merges\n",
			   cfg[i].C, cfg[i].T, cfg[i].max, most, full);
		KUNIT_EXPECT_LE(test, most, cfg[i].C);
		if (cfg[i].max <= 4)
			KUNIT_EXPECT_GT(test, full, 0U);
	}
}

/* Overruns of up to 50 us: at most C plus one overrun in a window. */
static void rbs_test_overrun(struct kunit *test)
{
	unsigned int full = 0;
	u64 most;

	most = rbs_test_run(test, MS(3), MS(10), 8, US(50), false, 2000, 7,
			    &full);
	kunit_info(test, "overruns up to 50 us: most in a window %llu\n", most);
	KUNIT_EXPECT_LE(test, most, MS(3) + US(50));
}

/*
 * Below a class that preempts it and starts it late: still at most C in
 * any window of T, as every chunk is used in one stretch from its time.
 * Without rbs_ss_start(), a chunk that came due while the one before it
 * ran, or was started late, would come back early.
 */
static void rbs_test_preempted(struct kunit *test)
{
	static const unsigned int max[] = { 32, 4 };
	unsigned int i, full;
	u64 most;

	for (i = 0; i < ARRAY_SIZE(max); i++) {
		full = 0;
		most = rbs_test_run(test, MS(3), MS(10), max[i], 0, true, 2000,
				    77 + i, &full);
		kunit_info(test, "preempted, queue %u: most in a window %llu, %u full-queue merges\n",
			   max[i], most, full);
		KUNIT_EXPECT_LE(test, most, MS(3));
	}
}

/*
 * A server that never blocks, run whenever it has capacity in slices of
 * 700 us (stopped when its capacity runs out) and blocked by nothing
 * else: over P periods it gets at least (P - 1) C, as a periodic server
 * would, and at most P C. A split of a fresh burst leaves its capacity
 * where it was.
 */
static void rbs_test_hog(struct kunit *test)
{
	const u64 C = MS(3), T = MS(10), P = 200;
	struct rbs_repl q[8];
	u64 now = 0, served = 0;
	struct rbs_ss ss;
	s64 cap;

	rbs_ss_init(&ss, C, T, q, ARRAY_SIZE(q), now);
	while (now < P * T) {
		cap = rbs_ss_capacity(&ss, now);
		if (cap <= 0) {
			now = q[0].t;
			continue;
		}
		cap = min_t(s64, cap, US(700));
		now += cap;
		served += cap;
		rbs_ss_charge(&ss, cap, now);
		rbs_test_check(test, &ss);
	}
	kunit_info(test, "hog: %llu of %llu periods' budget\n", served, P * C);
	KUNIT_EXPECT_GE(test, served, (P - 1) * C);
	KUNIT_EXPECT_LE(test, served, P * C);

	/* blocks after 1 ms of a fresh chunk and wakes at once */
	rbs_ss_init(&ss, C, T, q, ARRAY_SIZE(q), 0);
	rbs_ss_charge(&ss, MS(1), MS(1));
	cap = rbs_ss_capacity(&ss, MS(1));
	rbs_ss_split(&ss, MS(1));
	KUNIT_EXPECT_EQ(test, rbs_ss_capacity(&ss, MS(1)), cap);
	KUNIT_EXPECT_TRUE(test, rbs_ss_unblock(&ss, MS(1)));
	KUNIT_EXPECT_EQ(test, rbs_ss_capacity(&ss, MS(1)), cap);
	rbs_test_check(test, &ss);
}

/*
 * An I/O server of utilisation @U working for one Main reservation of
 * period @T, alone on the CPU, for @periods periods of bursts and sleeps
 * at random. Returns the most service in any window of T.
 */
static u64 rbs_test_pibs_run(struct kunit *test, u64 U, u64 T,
			     unsigned int periods, u32 seed)
{
	unsigned int n = 0, cap_runs = periods * 64;
	u64 now = 0, want = 0, d, end = (u64)periods * T;
	struct rnd_state rnd;
	struct rbs_pibs io;
	struct rbs_run *run;
	bool runnable = false;

	run = kunit_kmalloc_array(test, cap_runs, sizeof(*run), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, run);
	prandom_seed_state(&rnd, seed);
	rbs_pibs_init(&io, U, T, now);
	while (now < end && n < cap_runs) {
		if (!runnable) {
			switch (prandom_u32_state(&rnd) % 3) {
			case 0:		/* at its replenishment */
				if (io.r_valid && io.r_t > now)
					now = io.r_t;
				break;
			case 1:
				now += rbs_test_rand(&rnd, 1, US(100));
				break;
			default:
				now += rbs_test_rand(&rnd, 1, 2 * T);
			}
			rbs_pibs_request(&io, T, now, false, false);
			want = prandom_u32_state(&rnd) % 2 ?
			       rbs_test_rand(&rnd, 1, rbs_pibs_cmax(&io)) :
			       rbs_test_rand(&rnd, 1, 4 * rbs_pibs_cmax(&io));
			runnable = true;
			continue;
		}
		rbs_pibs_update(&io, now);
		KUNIT_ASSERT_LE(test, io.b, rbs_pibs_cmax(&io));
		if (!io.b) {
			/* out of budget: it waits for its replenishment */
			KUNIT_ASSERT_TRUE(test, io.r_valid);
			KUNIT_ASSERT_GT(test, io.r_t, now);
			now = io.r_t;
			continue;
		}
		d = min(io.b, want);
		run[n].start = now;
		now += d;
		run[n++].end = now;
		want -= d;
		rbs_pibs_charge(&io, d, !want);
		if (!want)
			runnable = false;
	}
	KUNIT_EXPECT_GE(test, now, end);
	return rbs_test_max_window(test, run, n, T);
}

/*
 * An I/O server serves at most (2 - U) U T in any window of its period
 * T (Quest, equation 3), the term inequality 1 counts it with; with U
 * itself over many periods.
 */
static void rbs_test_pibs(struct kunit *test)
{
	static const struct {
		u64	U;
		u64	T;
	} cfg[] = {
		{ BW_UNIT / 2, MS(4) },
		{ BW_UNIT / 10, MS(20) },
		{ BW_UNIT * 9 / 10, MS(10) },
		{ BW_UNIT / 100, MS(100) },
	};
	unsigned int i;
	u64 most, bound;

	for (i = 0; i < ARRAY_SIZE(cfg); i++) {
		most = rbs_test_pibs_run(test, cfg[i].U, cfg[i].T, 2000, 77 + i);
		bound = (rbs_io_load(cfg[i].U) * cfg[i].T) >> BW_SHIFT;
		kunit_info(test, "U %llu/%u T %llu: most in a window %llu, bound (2 - U) U T %llu\n",
			   cfg[i].U, BW_UNIT, cfg[i].T, most, bound);
		/* the bound's rounding: a few ns */
		KUNIT_EXPECT_LE(test, most, bound + 4);
	}
}

/*
 * Algorithm 10's period inheritance, step by step: a busy server takes a
 * shorter period, not a longer one, and its budget and pending
 * replenishment shrink to the new Cmax; an idle one takes any period.
 */
static void rbs_test_pibs_inherit(struct kunit *test)
{
	struct rbs_pibs io;

	rbs_pibs_init(&io, BW_UNIT / 2, MS(20), 0);
	rbs_pibs_request(&io, MS(20), 0, false, false);
	rbs_pibs_update(&io, 0);
	KUNIT_EXPECT_EQ(test, io.b, MS(10));

	/* busy with 10 ms of budget: a 40 ms requester changes nothing */
	rbs_pibs_request(&io, MS(40), 0, true, true);
	KUNIT_EXPECT_EQ(test, io.T, MS(20));
	KUNIT_EXPECT_EQ(test, io.b, MS(10));

	/* a 4 ms one after 1 ms: Cmax 2 ms, the budget shrinks to it */
	rbs_pibs_charge(&io, MS(1), false);
	rbs_pibs_request(&io, MS(4), MS(1), true, true);
	KUNIT_EXPECT_EQ(test, io.T, MS(4));
	KUNIT_EXPECT_EQ(test, io.b, MS(2));

	/*
	 * It blocks after 2 ms more: 3 ms over U, eligible at 6 ms, with a
	 * replenishment of Cmax then.
	 */
	rbs_pibs_charge(&io, MS(2), true);
	KUNIT_EXPECT_EQ(test, io.e, MS(6));
	KUNIT_EXPECT_EQ(test, io.b, 0ULL);
	KUNIT_EXPECT_TRUE(test, io.r_valid);
	KUNIT_EXPECT_EQ(test, io.r_t, MS(6));
	KUNIT_EXPECT_EQ(test, io.r_b, MS(2));

	/* a 2 ms requester before then: the replenishment shrinks too */
	rbs_pibs_request(&io, MS(2), MS(3), true, false);
	KUNIT_EXPECT_EQ(test, io.T, MS(2));
	KUNIT_EXPECT_EQ(test, io.r_b, MS(1));
	KUNIT_EXPECT_EQ(test, io.e, MS(6));

	/* idle at 10 ms, a 40 ms requester: its period and Cmax, from now */
	rbs_pibs_request(&io, MS(40), MS(10), false, false);
	KUNIT_EXPECT_EQ(test, io.T, MS(40));
	KUNIT_EXPECT_EQ(test, io.e, MS(10));
	rbs_pibs_update(&io, MS(10));
	KUNIT_EXPECT_EQ(test, io.b, MS(20));

	/*
	 * U = 1/1024 with its own 20 ms: a 1 ms requester would give a
	 * budget under 1 us; it inherits 10.24 ms, where Cmax is 10 us.
	 */
	rbs_pibs_init(&io, BW_UNIT / 1024, MS(20), 0);
	rbs_pibs_request(&io, MS(1), 0, false, false);
	KUNIT_EXPECT_EQ(test, io.T, US(10240));
	KUNIT_EXPECT_EQ(test, rbs_pibs_cmax(&io), US(10));
	/* and never one longer than its own, whatever U */
	rbs_pibs_init(&io, 2, MS(20), 0);
	rbs_pibs_request(&io, MS(1), 0, false, false);
	KUNIT_EXPECT_EQ(test, io.T, MS(20));
}

/* The Liu and Layland bound and the I/O servers' term of inequality 1. */
static void rbs_test_admission(struct kunit *test)
{
	unsigned int n;

	KUNIT_EXPECT_EQ(test, rbs_ll_bound(0), (u64)BW_UNIT);
	KUNIT_EXPECT_EQ(test, rbs_ll_bound(1), (u64)BW_UNIT);
	/* 2 (sqrt 2 - 1) = 0.8284 */
	KUNIT_EXPECT_EQ(test, rbs_ll_bound(2), 868668ULL);
	for (n = 2; n <= 40; n++) {
		KUNIT_EXPECT_LE(test, rbs_ll_bound(n), rbs_ll_bound(n - 1));
		KUNIT_EXPECT_GE(test, rbs_ll_bound(n), (u64)RBS_LL_LIMIT);
	}
	KUNIT_EXPECT_EQ(test, rbs_io_load(0), 0ULL);
	KUNIT_EXPECT_EQ(test, rbs_io_load(BW_UNIT / 2), (u64)BW_UNIT * 3 / 4);
	KUNIT_EXPECT_EQ(test, rbs_io_load(BW_UNIT), (u64)BW_UNIT);
	/* 1%: 1.99% */
	KUNIT_EXPECT_EQ(test, rbs_io_load(BW_UNIT / 100),
			((2ULL * BW_UNIT - BW_UNIT / 100) * (BW_UNIT / 100)) >>
			BW_SHIFT);
}

/*
 * A change of C and T goes on with the chunks (rbs_ss_change()). Steps:
 * shrinking a budget it has half run takes the rest from it this period;
 * growing it again adds only the difference.
 */
static void rbs_test_change_steps(struct kunit *test)
{
	struct rbs_repl q[4];
	struct rbs_ss ss;

	rbs_ss_init(&ss, MS(3), MS(10), q, ARRAY_SIZE(q), 0);
	rbs_ss_charge(&ss, MS(1), MS(1));
	/* 1 ms of 10 ms, having run 1 ms: nothing more until 10 ms */
	rbs_ss_change(&ss, MS(1), MS(10), MS(1));
	rbs_test_check(test, &ss);
	KUNIT_EXPECT_EQ(test, rbs_ss_capacity(&ss, MS(1)), 0LL);
	KUNIT_EXPECT_EQ(test, q[0].t, MS(10));
	/* 3 ms again: the 2 ms added are usable now, the 1 ms at 10 ms */
	rbs_ss_change(&ss, MS(3), MS(10), MS(2));
	rbs_test_check(test, &ss);
	KUNIT_EXPECT_EQ(test, rbs_ss_capacity(&ss, MS(2)), (s64)MS(2));
	KUNIT_EXPECT_EQ(test, ss.len, 2U);
	KUNIT_EXPECT_EQ(test, q[1].t, MS(10));
	/* a change to the same C gives nothing back */
	rbs_ss_charge(&ss, MS(2), MS(4));
	rbs_ss_change(&ss, MS(3), MS(20), MS(4));
	rbs_test_check(test, &ss);
	KUNIT_EXPECT_EQ(test, rbs_ss_capacity(&ss, MS(4)), 0LL);
	/* the chunk used from 2 ms came back at 12 ms: the old period */
	KUNIT_EXPECT_EQ(test, q[1].t, MS(12));

	/*
	 * Shrunk far below what it ran of its head, and grown back at
	 * once: what it ran is owed, so only the rest of the old budget is
	 * usable (1 us of 500 us run in a period of 1 ms, not another 499).
	 */
	rbs_ss_init(&ss, US(500), MS(1), q, ARRAY_SIZE(q), 0);
	rbs_ss_start(&ss, 0);
	rbs_ss_charge(&ss, US(499), US(499));
	rbs_ss_change(&ss, US(1), MS(1), US(499));
	rbs_test_check(test, &ss);
	rbs_ss_change(&ss, US(500), MS(1), US(499));
	rbs_test_check(test, &ss);
	KUNIT_EXPECT_EQ(test, rbs_ss_capacity(&ss, US(499)), (s64)US(1));

	/*
	 * Preempted, run on, shrunk and grown back: nothing goes ahead of
	 * a head it has run from, and it runs again once its chunks are
	 * due (a chunk put ahead of @usage left it without capacity for
	 * good).
	 */
	rbs_ss_init(&ss, US(300), MS(1), q, ARRAY_SIZE(q), 0);
	rbs_ss_start(&ss, 0);
	rbs_ss_charge(&ss, US(5), US(5));
	rbs_ss_split(&ss, US(5));
	rbs_ss_start(&ss, US(10));
	rbs_ss_charge(&ss, US(277), US(287));
	rbs_ss_change(&ss, US(100), MS(1), US(287));
	rbs_test_check(test, &ss);
	rbs_ss_change(&ss, US(300), MS(1), US(287));
	rbs_test_check(test, &ss);
	KUNIT_EXPECT_EQ(test, rbs_ss_capacity(&ss, US(287)), (s64)US(18));
	KUNIT_EXPECT_GT(test, rbs_ss_capacity(&ss, MS(2)), 0LL);
}

/*
 * Random bursts and sleeps, with C and T changed at random every 20
 * periods, as the controller would: after each change, once the old
 * period has passed, no window of the new T holds more than the new C.
 */
static void rbs_test_change(struct kunit *test)
{
	const unsigned int changes = 100, cap_runs = 64 * 1024;
	u64 now = 0, want = 0, C = MS(3), T = MS(10), oldT, since, d, next;
	unsigned int i, n, first, worst_i = 0;
	struct rnd_state rnd;
	struct rbs_run *run;
	struct rbs_repl q[8];
	struct rbs_ss ss;
	u64 most, worst = 0;
	s64 cap;

	run = kunit_kmalloc_array(test, cap_runs, sizeof(*run), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, run);
	prandom_seed_state(&rnd, 4242);
	rbs_ss_init(&ss, C, T, q, ARRAY_SIZE(q), now);
	for (i = 0; i < changes; i++) {
		oldT = T;
		if (i) {
			C = rbs_test_rand(&rnd, US(200), MS(4));
			T = max(C + US(100), rbs_test_rand(&rnd, MS(2), MS(20)));
			rbs_ss_change(&ss, C, T, now);
			rbs_test_check(test, &ss);
		}
		since = now + oldT;
		next = now + 20 * T;
		n = 0;
		while (now < next && n < cap_runs) {
			if (!want) {
				/* sleeps, then wants a burst */
				now += prandom_u32_state(&rnd) % 2 ?
				       rbs_test_rand(&rnd, 1, US(100)) :
				       rbs_test_rand(&rnd, 1, 2 * T);
				want = rbs_test_rand(&rnd, 1, 2 * C);
				rbs_ss_unblock(&ss, now);
				continue;
			}
			cap = rbs_ss_capacity(&ss, now);
			if (cap <= 0) {
				now = q[0].t;
				continue;
			}
			rbs_ss_start(&ss, now);
			d = min_t(u64, cap, want);
			run[n].start = now;
			now += d;
			run[n++].end = now;
			want -= d;
			rbs_ss_charge(&ss, d, now);
			if (!want)
				rbs_ss_split(&ss, now);
			rbs_test_check(test, &ss);
		}
		for (first = 0; first < n && run[first].start < since; first++)
			;
		most = rbs_test_max_window(test, run + first, n - first, T);
		KUNIT_EXPECT_LE(test, most, C);
		if (most * 1000 / C > worst) {
			worst = most * 1000 / C;
			worst_i = i;
		}
	}
	kunit_info(test, "%u changes: the fullest window held %llu per mille of C (change %u)\n",
		   changes, worst, worst_i);
}

/*
 * The controller's worst case: C changed every T / 20 to T / 5 between C
 * and C + D (D 10% of C, and 5 C), for 500 periods, while the server
 * runs bursts at random or hogs the CPU. No window of T holds more than the larger C (a change
 * that took budget it had run and gave it back at once would add it
 * again at every change), and the hog gets at least the smaller C in
 * every period but one.
 */
static void rbs_test_change_often(struct kunit *test)
{
	static const u64 Ds[] = { US(100), MS(5) };
	const u64 C = MS(1), T = MS(10), P = 500;
	const unsigned int cap_runs = 64 * 1024;
	u64 now, want, d, change, served, D;
	unsigned int n, pass;
	struct rnd_state rnd;
	struct rbs_run *run;
	struct rbs_repl q[32];
	struct rbs_ss ss;
	bool big;
	s64 cap;

	run = kunit_kmalloc_array(test, cap_runs, sizeof(*run), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, run);
	for (pass = 0; pass < 4; pass++) {
		D = Ds[pass / 2];
		prandom_seed_state(&rnd, 99 + pass);
		now = 0;
		want = pass % 2 ? U64_MAX : 0;
		served = 0;
		big = false;
		n = 0;
		change = rbs_test_rand(&rnd, T / 20, T / 5);
		rbs_ss_init(&ss, C, T, q, ARRAY_SIZE(q), now);
		while (now < P * T && n < cap_runs) {
			if (now >= change) {
				big = !big;
				rbs_ss_change(&ss, big ? C + D : C, T, now);
				rbs_test_check(test, &ss);
				change = now + rbs_test_rand(&rnd, T / 20, T / 5);
			}
			if (!want) {
				now += rbs_test_rand(&rnd, 1, T);
				want = rbs_test_rand(&rnd, 1, 2 * C);
				rbs_ss_unblock(&ss, now);
				continue;
			}
			cap = rbs_ss_capacity(&ss, now);
			if (cap <= 0) {
				now = min(q[0].t, change);
				continue;
			}
			rbs_ss_start(&ss, now);
			d = min3((u64)cap, want, change - now);
			run[n].start = now;
			now += d;
			run[n++].end = now;
			served += d;
			want -= d;
			rbs_ss_charge(&ss, d, now);
			if (!want)
				rbs_ss_split(&ss, now);
			rbs_test_check(test, &ss);
		}
		d = rbs_test_max_window(test, run, n, T);
		kunit_info(test, "%s, C %llu or %llu: %u runs, most in a window %llu, served %llu of %llu\n",
			   pass % 2 ? "hog" : "bursts", C, C + D, n, d, served,
			   P * C);
		KUNIT_EXPECT_LE(test, d, C + D);
		if (pass % 2)
			KUNIT_EXPECT_GE(test, served, (P - 1) * C);
	}
}

/*
 * A change of kind gives no budget back (rbs_kind_change_time()): a
 * sporadic server may run as the other kind once all of its budget is
 * back, at its last chunk's time, a period after the head's if it ran
 * some of it, or when its debt is paid; an I/O server once what it ran
 * has moved its eligibility on, and not before its replenishment.
 */
static void rbs_test_kind_change(struct kunit *test)
{
	struct sched_rbs_entity se = {};
	struct rbs_ss *ss = &se.ss;
	struct rbs_pibs *io = &se.io;

	/* a fresh server, 2 ms every 10 ms from 100 ms: at once */
	rbs_ss_init(ss, MS(2), MS(10), se.q, ARRAY_SIZE(se.q), MS(100));
	KUNIT_EXPECT_EQ(test, rbs_kind_change_time(&se, MS(101)), MS(101));

	/* it ran 0.5 ms of its head: all back a period after the head */
	rbs_ss_charge(ss, US(500), MS(101));
	KUNIT_EXPECT_EQ(test, rbs_kind_change_time(&se, MS(101)), MS(110));

	/* it blocked: the 0.5 ms comes back at 110 ms, the last chunk */
	KUNIT_EXPECT_FALSE(test, rbs_ss_split(ss, MS(101)));
	KUNIT_EXPECT_EQ(test, ss->usage, 0ULL);
	KUNIT_EXPECT_EQ(test, rbs_kind_change_time(&se, MS(102)), MS(110));
	KUNIT_EXPECT_EQ(test, rbs_kind_change_time(&se, MS(111)), MS(111));

	/* a debt past its chunks: not before it is paid */
	ss->debt = US(300);
	ss->debt_t = MS(125);
	KUNIT_EXPECT_EQ(test, rbs_kind_change_time(&se, MS(111)), MS(125));

	/*
	 * An I/O server of 12.5% (exact in BW_UNIT parts) that ran 1 ms
	 * since its eligibility time of 200 ms: eligible at 208 ms; at its
	 * replenishment, if that is later.
	 */
	se.io_server = 1;
	rbs_pibs_init(io, BW_UNIT / 8, MS(10), MS(200));
	io->usage = MS(1);
	KUNIT_EXPECT_EQ(test, rbs_kind_change_time(&se, MS(201)), MS(208));
	KUNIT_EXPECT_EQ(test, rbs_kind_change_time(&se, MS(215)), MS(215));
	io->r_valid = true;
	io->r_t = MS(220);
	KUNIT_EXPECT_EQ(test, rbs_kind_change_time(&se, MS(215)), MS(220));
}

static struct kunit_case rbs_test_cases[] = {
	KUNIT_CASE(rbs_test_steps),
	KUNIT_CASE(rbs_test_full),
	KUNIT_CASE(rbs_test_window),
	KUNIT_CASE(rbs_test_overrun),
	KUNIT_CASE(rbs_test_preempted),
	KUNIT_CASE(rbs_test_hog),
	KUNIT_CASE(rbs_test_change_steps),
	KUNIT_CASE(rbs_test_change),
	KUNIT_CASE(rbs_test_change_often),
	KUNIT_CASE(rbs_test_kind_change),
	KUNIT_CASE(rbs_test_pibs),
	KUNIT_CASE(rbs_test_pibs_inherit),
	KUNIT_CASE(rbs_test_admission),
	{}
};

static struct kunit_suite rbs_test_suite = {
	.name		= "rbs",
	.test_cases	= rbs_test_cases,
};

kunit_test_suite(rbs_test_suite);
