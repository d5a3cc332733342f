// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of BVT's arithmetic: charging in whole mcu and the A a
 * thread wakes with. Included from bvt.c, so that its static helpers are
 * reachable without widening the class's interface.
 */
#include <kunit/test.h>

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
		u64 vleft, uncharged, t, rest;

		w = i / (ARRAY_SIZE(weights) * ARRAY_SIZE(mcus));
		v = w % ARRAY_SIZE(vlefts);
		m = w / ARRAY_SIZE(vlefts);	/* 0..3: a quarter of an mcu each */
		vleft = vlefts[v];
		uncharged = mcu ? (u64)mcu * m / 4 : 0;
		if (mcu && m == 3)
			uncharged = mcu - 1;
		t = bvt_run_left(vleft, weight, uncharged, mcu);

		rest = uncharged + t;
		KUNIT_EXPECT_GE(test, bvt_vtime(bvt_mcu_round(&rest, mcu, false), weight),
				vleft);
		if (!t)
			continue;
		rest = uncharged + t - 1;
		KUNIT_EXPECT_LT(test, bvt_vtime(bvt_mcu_round(&rest, mcu, false), weight),
				vleft);
	}
	/* the double count of the first version: 1.3 ms, not 2.3 ms */
	KUNIT_EXPECT_EQ(test, bvt_run_left(1500000, 1024, 700000, 1000000), 1300000ULL);
	/* an mcu made smaller than what is uncharged: at once */
	KUNIT_EXPECT_EQ(test, bvt_run_left(1000, 1024, 5000, 1000), 0ULL);
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
	{}
};

static struct kunit_suite bvt_test_suite = {
	.name		= "bvt",
	.test_cases	= bvt_test_cases,
};

kunit_test_suite(bvt_test_suite);
