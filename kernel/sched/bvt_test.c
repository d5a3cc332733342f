// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of BVT's arithmetic: charging in whole mcu, virtual time by
 * a reciprocal, and the A a thread wakes with. Included from bvt.c, so that its static helpers are
 * reachable without widening the class's interface.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

/* Run time is charged in whole mcu, rounded up when the thread stops. */
static void bvt_test_mcu(struct kunit *test)
{
	u64 left = 250;

	KUNIT_EXPECT_EQ(test, bvt_mcu_round(&left, 0, false), 250ULL);
	KUNIT_EXPECT_EQ(test, left, 0ULL);

	left = 250;
	KUNIT_EXPECT_EQ(test, bvt_mcu_round(&left, 100, false), 200ULL);
	KUNIT_EXPECT_EQ(test, left, 50ULL);
	left += 30;
	KUNIT_EXPECT_EQ(test, bvt_mcu_round(&left, 100, false), 0ULL);
	KUNIT_EXPECT_EQ(test, left, 80ULL);
	KUNIT_EXPECT_EQ(test, bvt_mcu_round(&left, 100, true), 100ULL);
	KUNIT_EXPECT_EQ(test, left, 0ULL);

	left = 300;
	KUNIT_EXPECT_EQ(test, bvt_mcu_round(&left, 100, true), 300ULL);
	KUNIT_EXPECT_EQ(test, left, 0ULL);
}

/* Section 2.1 with C of credit: A = max(A, SVT - C) at every wakeup. */
static void bvt_test_wakeup(struct kunit *test)
{
	u64 svt = 1000000;

	KUNIT_EXPECT_EQ(test, bvt_wakeup_avt(10, svt, 0, false), svt);
	KUNIT_EXPECT_EQ(test, bvt_wakeup_avt(svt + 5, svt, 0, false), svt + 5);
	/* keeps its A, down to SVT - credit */
	KUNIT_EXPECT_EQ(test, bvt_wakeup_avt(svt - 300, svt, 500, false), svt - 300);
	KUNIT_EXPECT_EQ(test, bvt_wakeup_avt(10, svt, 500, false), svt - 500);
	KUNIT_EXPECT_EQ(test, bvt_wakeup_avt(svt + 7, svt, 500, false), svt + 7);
	/* wrap-safe: A just below a wrapped SVT is behind it */
	KUNIT_EXPECT_EQ(test, bvt_wakeup_avt(U64_MAX - 5, 10, 0, false), 10ULL);
	KUNIT_EXPECT_EQ(test, bvt_wakeup_avt(5, U64_MAX - 10, 0, false), 5ULL);
	KUNIT_EXPECT_EQ(test, bvt_wakeup_avt(U64_MAX - 5, 10, 100, false), U64_MAX - 5);
	/*
	 * SVT moved 2^63 + 1000 past a sleeper's A: compared by sign, the old
	 * A reads as ahead, and would starve the thread; a sleep that long
	 * is stale, and it starts at the floor.
	 */
	KUNIT_EXPECT_EQ(test, bvt_wakeup_avt(svt, svt + BIT_ULL(63) + 1000, 500, false), svt);
	KUNIT_EXPECT_EQ(test, bvt_wakeup_avt(svt, svt + BIT_ULL(63) + 1000, 500, true),
			svt + BIT_ULL(63) + 500);
	KUNIT_EXPECT_EQ(test, bvt_wakeup_avt(svt + 7, svt, 500, true), svt - 500);
}

/*
 * bvt_run_left() is the least run time after which A has moved @vleft:
 * what bvt_mcu_round() then charges, through bvt_vtime(), reaches
 * @vleft, and a nanosecond less does not.
 */
static void bvt_test_run_left(struct kunit *test)
{
	static const u32 weights[] = { 1, 512, 1024, 3000, 100000 };
	static const u32 mcus[] = { 0, 1000, 100000, 1000000 };
	static const u64 vlefts[] = { 1, 999, 1000, 250000, 1500000, 7777777 };
	int i, w, m, v;

	for (i = 0; i < ARRAY_SIZE(weights) * ARRAY_SIZE(mcus) *
			ARRAY_SIZE(vlefts) * 4; i++) {
		u32 weight = weights[i % ARRAY_SIZE(weights)];
		u32 mcu = mcus[(i / ARRAY_SIZE(weights)) % ARRAY_SIZE(mcus)];
		u64 vleft, uncharged, t, rest, charged;

		w = i / (ARRAY_SIZE(weights) * ARRAY_SIZE(mcus));
		v = w % ARRAY_SIZE(vlefts);
		m = w / ARRAY_SIZE(vlefts);	/* 0..3: a quarter of an mcu each */
		vleft = vlefts[v];
		uncharged = mcu ? (u64)mcu * m / 4 : 0;
		if (mcu && m == 3)
			uncharged = mcu - 1;
		t = bvt_run_left(vleft, weight, ms_recip(weight), uncharged, mcu);

		rest = uncharged + t;
		charged = bvt_mcu_round(&rest, mcu, false);
		KUNIT_EXPECT_GE(test, __bvt_vtime(charged, weight, ms_recip(weight)),
				vleft);
		if (!t)
			continue;
		rest = uncharged + t - 1;
		charged = bvt_mcu_round(&rest, mcu, false);
		KUNIT_EXPECT_LT(test, __bvt_vtime(charged, weight, ms_recip(weight)),
				vleft);
	}
	/* the double count of the first version: 1.3 ms, not 2.3 ms */
	KUNIT_EXPECT_EQ(test, bvt_run_left(1500000, 1024, ms_recip(1024),
					   700000, 1000000), 1300000ULL);
	/* an mcu made smaller than what is uncharged: at once */
	KUNIT_EXPECT_EQ(test, bvt_run_left(1000, 1024, ms_recip(1024), 5000, 1000), 0ULL);
}

/*
 * ms_div() divides by multiplying with a reciprocal, and must give the
 * quotient div64_u64() gives, for any dividend and divisor; BVT's virtual
 * time through it must be what mul_u64_u32_div() gave before.
 */
static void bvt_test_recip(struct kunit *test)
{
	static const u64 ds[] = { 1, 2, 3, 7, 1000, 1023, 1024, 1025, 3121,
				  88761, 100000, U32_MAX, 1ULL << 32, 12345678901ULL,
				  U64_MAX / 3, U64_MAX - 1, U64_MAX };
	static const u64 xs[] = { 0, 1, 2, 999, 1000000, 4000000ULL << 20,
				  123456789ULL << 20, 1ULL << 60, U64_MAX / 7,
				  U64_MAX - 1, U64_MAX };
	struct rnd_state rnd;
	int i, j;

	for (i = 0; i < ARRAY_SIZE(ds); i++)
		for (j = 0; j < ARRAY_SIZE(xs); j++)
			KUNIT_EXPECT_EQ(test, ms_div(xs[j], ds[i], ms_recip(ds[i])),
					div64_u64(xs[j], ds[i]));
	prandom_seed_state(&rnd, 42);
	for (i = 0; i < 10000; i++) {
		u64 x = prandom_u32_state(&rnd) |
			(u64)prandom_u32_state(&rnd) << 32;
		u64 d = prandom_u32_state(&rnd) >> (i % 32);

		if (i & 1)
			d |= (u64)prandom_u32_state(&rnd) << (i % 32);
		d = d ?: 1;
		KUNIT_EXPECT_EQ(test, ms_div(x, d, ms_recip(d)), div64_u64(x, d));
		x >>= i % 64;
		KUNIT_EXPECT_EQ(test, ms_div(x, d, ms_recip(d)), div64_u64(x, d));
	}
	for (i = 0; i < 5; i++) {
		static const u32 ws[] = { 1, 3, 1024, 3121, 100000 };

		for (j = 0; j < ARRAY_SIZE(xs); j++) {
			u64 delta = min(xs[j], BVT_DELTA_MAX);

			KUNIT_EXPECT_EQ(test, __bvt_vtime(delta, ws[i], ms_recip(ws[i])),
					mul_u64_u32_div(delta, BVT_WEIGHT_UNIT, ws[i]));
		}
	}
}

/* BVT's per-CPU state, kept in bvt.c rather than in struct rq. */
static void bvt_test_sizes(struct kunit *test)
{
	kunit_info(test, "sizeof: bvt_rq %zu per CPU, sched_bvt_entity %zu per task\n",
		   sizeof(struct bvt_rq), sizeof(struct sched_bvt_entity));
	KUNIT_EXPECT_PTR_EQ(test, bvt_rq_of(cpu_rq(0))->rq, cpu_rq(0));
}

static struct kunit_case bvt_test_cases[] = {
	KUNIT_CASE(bvt_test_sizes),
	KUNIT_CASE(bvt_test_mcu),
	KUNIT_CASE(bvt_test_wakeup),
	KUNIT_CASE(bvt_test_run_left),
	KUNIT_CASE(bvt_test_recip),
	{}
};

static struct kunit_suite bvt_test_suite = {
	.name		= "bvt",
	.test_cases	= bvt_test_cases,
};

kunit_test_suite(bvt_test_suite);
