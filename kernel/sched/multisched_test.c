// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the multisched common code: the validation of the
 * SCHED_ATTR_SIZE_VER2 parameters, the class table and the class order.
 * Included from multisched.c so that the static helpers are reachable.
 */
#include <kunit/test.h>

static struct sched_attr ms_test_attr(int policy)
{
	return (struct sched_attr){
		.size		= SCHED_ATTR_SIZE_VER2,
		.sched_policy	= policy,
	};
}

static void ms_test_defaults_valid(struct kunit *test)
{
	int policy;

	/* Every policy but the reservation ones takes all-default fields. */
	for (policy = SCHED_BVT; policy <= SCHED_BEBS; policy++) {
		struct sched_attr a = ms_test_attr(policy);

		KUNIT_EXPECT_EQ_MSG(test, ms_validate_attr(policy, &a), 0,
				    "policy %d", policy);
	}
	{
		struct sched_attr a = ms_test_attr(SCHED_RBS);

		KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_RBS, &a), -EINVAL);
		a.sched_ms_flags = MS_FLAG_RBS_FEEDBACK;
		KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_RBS, &a), 0);
	}
}

static void ms_test_weight_range(struct kunit *test)
{
	struct sched_attr a = ms_test_attr(SCHED_VTRR);

	a.sched_weight = MS_WEIGHT_MIN;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_VTRR, &a), 0);
	a.sched_weight = MS_WEIGHT_MAX;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_VTRR, &a), 0);
	a.sched_weight = MS_WEIGHT_MAX + 1;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_VTRR, &a), -EINVAL);
}

static void ms_test_bvt_warp(struct kunit *test)
{
	struct sched_attr a = ms_test_attr(SCHED_BVT);

	a.sched_warp = 20 * NSEC_PER_MSEC;
	a.sched_warp_limit = 5 * NSEC_PER_MSEC;
	a.sched_unwarp = 50 * NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BVT, &a), 0);

	a.sched_warp = -1;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BVT, &a), -EINVAL);
	a.sched_warp = MS_WARP_MAX + 1;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BVT, &a), -EINVAL);
	a.sched_warp = MS_WARP_MAX;
	a.sched_warp_limit = MS_WARP_LIMIT_MIN - 1;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BVT, &a), -EINVAL);
	a.sched_warp_limit = MS_WARP_LIMIT_MAX + 1;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BVT, &a), -EINVAL);
	a.sched_warp_limit = 0;
	a.sched_unwarp = MS_UNWARP_MAX + 1;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BVT, &a), -EINVAL);
	a.sched_unwarp = 0;
	a.sched_runtime = NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BVT, &a), -EINVAL);
}

static void ms_test_flags_per_class(struct kunit *test)
{
	struct sched_attr a = ms_test_attr(SCHED_BVT);

	a.sched_ms_flags = MS_FLAG_WARP_OFF;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BVT, &a), 0);
	a.sched_ms_flags = MS_FLAG_RESERVED | MS_FLAG_WARP_SIGNAL;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BVT, &a), 0);
	a.sched_ms_flags = MS_FLAG_BEBS_PERIODIC;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BVT, &a), -EINVAL);
	a.sched_ms_flags = MS_FLAG_RBS_IO;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BVT, &a), -EINVAL);
	a.sched_ms_flags = MS_FLAG_WARP_OFF;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_VTRR, &a), -EINVAL);
	a.sched_ms_flags = 1U << 31;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BVT, &a), -EINVAL);
}

static void ms_test_budget_period(struct kunit *test)
{
	struct sched_attr a = ms_test_attr(SCHED_RBS);

	a.sched_runtime = 3 * NSEC_PER_MSEC;
	a.sched_period = 10 * NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_RBS, &a), 0);
	a.sched_runtime = 11 * NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_RBS, &a), -EINVAL);
	a.sched_runtime = MS_RUNTIME_MIN - 1;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_RBS, &a), -EINVAL);
	a.sched_runtime = MS_RUNTIME_MIN;
	a.sched_period = MS_PERIOD_MAX + 1;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_RBS, &a), -EINVAL);

	a = ms_test_attr(SCHED_BEBS);
	a.sched_ms_flags = MS_FLAG_BEBS_PERIODIC;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BEBS, &a), -EINVAL);
	a.sched_runtime = 2 * NSEC_PER_MSEC;
	a.sched_period = 10 * NSEC_PER_MSEC;
	a.sched_deadline = 5 * NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BEBS, &a), 0);
	a.sched_deadline = NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BEBS, &a), -EINVAL);
}

static void ms_test_unknown_policy(struct kunit *test)
{
	struct sched_attr a = ms_test_attr(SCHED_RBS + 1);

	KUNIT_EXPECT_FALSE(test, ms_policy(SCHED_RBS + 1));
	KUNIT_EXPECT_FALSE(test, ms_policy(SCHED_EXT));
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_RBS + 1, &a), -EINVAL);
}

static void ms_test_class_table(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ms_classes); i++) {
		const struct ms_class *c = &ms_classes[i];

		KUNIT_EXPECT_PTR_EQ(test, ms_class_of(c->policy), c);
		KUNIT_EXPECT_PTR_EQ(test, ms_class_by_name(c->name), c);
		/* General-purpose classes below RT, reservations above it. */
		KUNIT_EXPECT_EQ_MSG(test,
				    sched_class_above(&rt_sched_class, c->class),
				    c->general, "%s", c->name);
		KUNIT_EXPECT_TRUE(test, sched_class_above(c->class,
							  &fair_sched_class));
	}
	KUNIT_EXPECT_NULL(test, ms_class_by_name("fair"));
	KUNIT_EXPECT_NULL(test, ms_class_of(SCHED_NORMAL));
}

static void ms_test_nice_weight(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ms_effective_weight(0, 0), 1024U);
	KUNIT_EXPECT_EQ(test, ms_effective_weight(0, MIN_NICE), 88761U);
	KUNIT_EXPECT_EQ(test, ms_effective_weight(0, MAX_NICE), 15U);
	KUNIT_EXPECT_EQ(test, ms_effective_weight(7, MIN_NICE), 7U);
	KUNIT_EXPECT_LT(test, (u64)ms_nice_weight(MIN_NICE), MS_WEIGHT_MAX);
}

/* Run time is charged in whole mcu, rounded up when the thread stops. */
static void ms_test_bvt_mcu(struct kunit *test)
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

/* Section 2.1: A = max(A, SVT) after a voluntary sleep only. */
static void ms_test_bvt_wakeup(struct kunit *test)
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

static struct kunit_case ms_test_cases[] = {
	KUNIT_CASE(ms_test_defaults_valid),
	KUNIT_CASE(ms_test_weight_range),
	KUNIT_CASE(ms_test_bvt_warp),
	KUNIT_CASE(ms_test_bvt_mcu),
	KUNIT_CASE(ms_test_bvt_wakeup),
	KUNIT_CASE(ms_test_flags_per_class),
	KUNIT_CASE(ms_test_budget_period),
	KUNIT_CASE(ms_test_unknown_policy),
	KUNIT_CASE(ms_test_class_table),
	KUNIT_CASE(ms_test_nice_weight),
	{}
};

static struct kunit_suite ms_test_suite = {
	.name		= "multisched",
	.test_cases	= ms_test_cases,
};

kunit_test_suite(ms_test_suite);
