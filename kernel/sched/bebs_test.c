// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of BEBS's arithmetic: the adaptation of section 4.3, the
 * wakeup rule of section 4.1 and the deadline bound of section 4.2.
 * Included from bebs.c, so that its static helpers are reachable.
 */
#include <kunit/test.h>

#define MS(x)	((u64)(x) * NSEC_PER_MSEC)

/* e_avg = (3 e_avg + e) / 4; b = min(1.5 e_avg, e_max); p = b / u. */
static void bebs_test_adapt(struct kunit *test)
{
	u64 e_avg = MS(4), b;
	int i;

	KUNIT_EXPECT_EQ(test, bebs_e_avg(MS(4), MS(8)), MS(5));
	KUNIT_EXPECT_EQ(test, bebs_e_avg(MS(4), 0), MS(3));
	KUNIT_EXPECT_EQ(test, bebs_budget(MS(4), MS(200)), MS(6));
	KUNIT_EXPECT_EQ(test, bebs_budget(MS(300), MS(200)), MS(200));
	KUNIT_EXPECT_EQ(test, bebs_budget(0, MS(200)), BEBS_BUDGET_MIN);

	/* a compute-bound task, expiring each period, reaches e_max */
	for (i = 0; i < 40; i++)
		e_avg = bebs_e_avg(e_avg, bebs_budget(e_avg, MS(200)));
	KUNIT_EXPECT_EQ(test, bebs_budget(e_avg, MS(200)), MS(200));

	/* hysteresis: within an eighth, the budget stays */
	KUNIT_EXPECT_EQ(test, bebs_hysteresis(MS(8), MS(9)), MS(8));
	KUNIT_EXPECT_EQ(test, bebs_hysteresis(MS(8), MS(7)), MS(8));
	KUNIT_EXPECT_EQ(test, bebs_hysteresis(MS(8), MS(10)), MS(10));
	KUNIT_EXPECT_EQ(test, bebs_hysteresis(0, MS(3)), MS(3));

	/* u = q / L * U_BE: 1024 of 3072 with U_BE 0.75 is a quarter */
	KUNIT_EXPECT_EQ(test, bebs_util(1024, 3072, BW_UNIT * 3 / 4),
			(u64)BW_UNIT / 4);
	/* a task not yet counted in L counts alone */
	KUNIT_EXPECT_EQ(test, bebs_util(1024, 0, BW_UNIT), (u64)BW_UNIT);
	KUNIT_EXPECT_EQ(test, bebs_util(1, 1000000, 1), 1ULL);

	b = MS(200);
	KUNIT_EXPECT_EQ(test, bebs_period(b, BW_UNIT / 4), MS(800));
	KUNIT_EXPECT_EQ(test, bebs_period(b, BW_UNIT), b);
	KUNIT_EXPECT_EQ(test, bebs_period(b, 1), BEBS_PERIOD_MAX);

	/* a fixed period p: b = u p, within [BEBS_BUDGET_MIN, p] */
	KUNIT_EXPECT_EQ(test, bebs_fixed_budget(MS(40), BW_UNIT / 4), MS(10));
	KUNIT_EXPECT_EQ(test, bebs_fixed_budget(MS(40), BW_UNIT), MS(40));
	KUNIT_EXPECT_EQ(test, bebs_fixed_budget(MS(1), 1), BEBS_BUDGET_MIN);
	KUNIT_EXPECT_EQ(test, bebs_fixed_budget(MS(1000), BW_UNIT),
			MS(1000));
}

/*
 * Step 1 with the burst since the task woke: a 3.5 ms job cut by a 3 ms
 * budget raises e_avg (2 to 2.25 to 2.5625 ms), where two samples of 3
 * and 0.5 ms would lower it; a burst counts at most e_max.
 */
static void bebs_test_sample(struct kunit *test)
{
	struct sched_bebs_entity se = { .e_avg = MS(2), .burst = MS(3) };

	bebs_sample(&se, false);
	KUNIT_EXPECT_EQ(test, se.e_avg, 2250000ULL);
	KUNIT_EXPECT_EQ(test, se.burst, MS(3));
	se.burst += MS(1) / 2;
	bebs_sample(&se, true);
	KUNIT_EXPECT_EQ(test, se.e_avg, 2562500ULL);
	KUNIT_EXPECT_EQ(test, se.burst, 0ULL);

	se.e_avg = 0;
	se.burst = MS(1000);
	bebs_sample(&se, true);
	KUNIT_EXPECT_EQ(test, se.e_avg,
			(u64)READ_ONCE(sysctl_sched_bebs_e_max) / 4);
}

/* The CBS wakeup rule: (b - c) <= (t - r) b / p, or t >= r + p. */
static void bebs_test_wakeup(struct kunit *test)
{
	u64 r = 1000 * MS(1), b = MS(10), p = MS(40);

	/* used 5 ms of 10 by r + 10 ms, when the rate allows 2.5: keep */
	KUNIT_EXPECT_FALSE(test, bebs_wake_releases(r + MS(10), r, MS(5), b, p));
	/* by r + 20 ms the rate allows 5: released */
	KUNIT_EXPECT_TRUE(test, bebs_wake_releases(r + MS(20), r, MS(5), b, p));
	/* a period on, always released */
	KUNIT_EXPECT_TRUE(test, bebs_wake_releases(r + p, r, b, b, p));
	/* nothing used: released at once */
	KUNIT_EXPECT_TRUE(test, bebs_wake_releases(r, r, b, b, p));
	/* a release in the future (slack moved it) keeps the server */
	KUNIT_EXPECT_FALSE(test, bebs_wake_releases(r - MS(1), r, MS(5), b, p));
	/* no overflow at the extremes: b 1 s, p BEBS_PERIOD_MAX */
	KUNIT_EXPECT_FALSE(test, bebs_wake_releases(r + MS(1), r, 0,
						    NSEC_PER_SEC, BEBS_PERIOD_MAX));
	KUNIT_EXPECT_TRUE(test, bebs_wake_releases(r + BEBS_PERIOD_MAX - 1, r,
						   NSEC_PER_SEC / 2, NSEC_PER_SEC,
						   BEBS_PERIOD_MAX));
}

/*
 * Section 4.2: released at t from r_orig, d = r_orig + p, and d - t is
 * at most 2p - b (figure 2: b 10, p 30, expired at 10 and 20 ms,
 * released by slack at 25 ms with d = 60).
 */
static void bebs_test_deadline(struct kunit *test)
{
	u64 b = MS(10), p = MS(30), t;

	KUNIT_EXPECT_EQ(test, bebs_release_deadline(MS(25), MS(30), b, p), MS(60));
	KUNIT_EXPECT_EQ(test, bebs_release_deadline(MS(30), MS(30), b, p), MS(60));
	/* late past a whole period: a new period from now */
	KUNIT_EXPECT_EQ(test, bebs_release_deadline(MS(70), MS(30), b, p), MS(100));
	for (t = MS(10); t <= MS(30); t += MS(1))
		KUNIT_EXPECT_LE(test, bebs_release_deadline(t, MS(30), b, p) - t,
				2 * p - b);
	/* a period that grew since: d is held to the bound */
	KUNIT_EXPECT_EQ(test, bebs_release_deadline(MS(10), MS(60), b, p),
			MS(10) + 2 * p - b);
}

static void bebs_test_sizes(struct kunit *test)
{
	kunit_info(test, "sizeof: bebs_rq %zu per CPU, sched_bebs_entity %zu per task\n",
		   sizeof(struct bebs_rq), sizeof(struct sched_bebs_entity));
	KUNIT_EXPECT_PTR_EQ(test, bebs_rq_of(cpu_rq(0))->rq, cpu_rq(0));
}

static struct kunit_case bebs_test_cases[] = {
	KUNIT_CASE(bebs_test_sizes),
	KUNIT_CASE(bebs_test_adapt),
	KUNIT_CASE(bebs_test_sample),
	KUNIT_CASE(bebs_test_wakeup),
	KUNIT_CASE(bebs_test_deadline),
	{}
};

static struct kunit_suite bebs_test_suite = {
	.name		= "bebs",
	.test_cases	= bebs_test_cases,
};

kunit_test_suite(bebs_test_suite);
