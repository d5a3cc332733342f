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
	int i;

	/*
	 * Every class takes all-default fields, but for RBS: a reservation
	 * needs a budget and a period, unless the feedback controller sets
	 * them (MS_FLAG_RBS_FEEDBACK), which it does not for an I/O server.
	 */
	for (i = 0; i < ARRAY_SIZE(ms_classes); i++) {
		int policy = ms_classes[i]->policy;
		struct sched_attr a = ms_test_attr(policy);

		KUNIT_EXPECT_EQ_MSG(test, ms_validate_attr(policy, &a),
				    policy == SCHED_RBS ? -EINVAL : 0,
				    "policy %d", policy);
		a.sched_ms_flags = MS_FLAG_RBS_FEEDBACK;
		if (policy == SCHED_RBS)
			KUNIT_EXPECT_EQ(test, ms_validate_attr(policy, &a), 0);
		a.sched_ms_flags = MS_FLAG_RBS_FEEDBACK | MS_FLAG_RBS_IO;
		if (policy == SCHED_RBS)
			KUNIT_EXPECT_EQ(test, ms_validate_attr(policy, &a),
					-EINVAL);
	}
}

#ifdef CONFIG_SCHED_VTRR
static void ms_test_weight_range(struct kunit *test)
{
	struct sched_attr a = ms_test_attr(SCHED_VTRR);

	a.sched_weight = MS_WEIGHT_MIN;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_VTRR, &a), 0);
	a.sched_weight = MS_WEIGHT_MAX;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_VTRR, &a), 0);
	a.sched_weight = MS_WEIGHT_MAX + 1;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_VTRR, &a), -EINVAL);
	/* no warp in VTRR */
	a.sched_weight = 0;
	a.sched_ms_flags = MS_FLAG_WARP_OFF;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_VTRR, &a), -EINVAL);
}
#endif

#ifdef CONFIG_SCHED_BVT
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
	a.sched_ms_flags = 1U << 31;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BVT, &a), -EINVAL);
}
#endif

#ifdef CONFIG_SCHED_RBS
static void ms_test_rbs_budget_period(struct kunit *test)
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
}
#endif

#ifdef CONFIG_SCHED_BEBS
/*
 * A best-effort server takes no budget, period or deadline; a periodic
 * task needs a budget and period, and a deadline between them or 0.
 */
static void ms_test_bebs_periodic(struct kunit *test)
{
	struct sched_attr a = ms_test_attr(SCHED_BEBS);

	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BEBS, &a), 0);
	a.sched_ms_flags = MS_FLAG_BEBS_PERIODIC;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BEBS, &a), -EINVAL);
	a.sched_runtime = 2 * NSEC_PER_MSEC;
	a.sched_period = 10 * NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BEBS, &a), 0);
	a.sched_deadline = 5 * NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BEBS, &a), 0);
	a.sched_deadline = NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BEBS, &a), -EINVAL);
	a.sched_deadline = 11 * NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BEBS, &a), -EINVAL);
	a.sched_deadline = 0;
	a.sched_ms_flags = 0;
	KUNIT_EXPECT_EQ(test, ms_validate_attr(SCHED_BEBS, &a), -EINVAL);
}
#endif

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
		const struct ms_class *c = ms_classes[i];

		KUNIT_EXPECT_PTR_EQ(test, ms_class_of(c->policy), c);
		KUNIT_EXPECT_PTR_EQ(test, ms_class_by_name(c->name), c);
		/* General-purpose classes below RT, reservations above it. */
		KUNIT_EXPECT_EQ_MSG(test,
				    sched_class_above(&rt_sched_class, c->class),
				    c->general, "%s", c->name);
		KUNIT_EXPECT_TRUE(test, sched_class_above(c->class,
							  &fair_sched_class));
		/* the operations the common layer calls without checking */
		KUNIT_EXPECT_NOT_NULL(test, c->validate);
		KUNIT_EXPECT_NOT_NULL(test, c->init_rq);
		/* an earlier entry is higher in the hierarchy */
		if (i)
			KUNIT_EXPECT_TRUE(test,
					  sched_class_above(ms_classes[i - 1]->class,
							    c->class));
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

/*
 * What the classes cost the structures every task and CPU carry, printed
 * for sched-multisched.rst. The run-time state is last, so that clearing
 * it on fork clears nothing else, and the class state is a union: it is
 * no larger than the largest class's.
 */
static void ms_test_sizes(struct kunit *test)
{
	size_t largest = 0;

#ifdef CONFIG_SCHED_BVT
	largest = max(largest, sizeof(struct sched_bvt_entity));
#endif
#ifdef CONFIG_SCHED_VTRR
	largest = max(largest, sizeof(struct sched_vtrr_entity));
#endif
#ifdef CONFIG_SCHED_BEBS
	largest = max(largest, sizeof(struct sched_bebs_entity));
#endif
#ifdef CONFIG_SCHED_RBS
	largest = max(largest, sizeof(struct sched_rbs_entity));
#endif
	kunit_info(test, "sizeof: task_struct %zu, sched_ms_entity %zu (parameters %zu, run-time state %zu, class state union %zu), rq %zu\n",
		   sizeof(struct task_struct), sizeof(struct sched_ms_entity),
		   offsetof(struct sched_ms_entity, run),
		   sizeof_field(struct sched_ms_entity, run),
		   sizeof_field(struct sched_ms_run, state),
		   sizeof(struct rq));
	KUNIT_EXPECT_EQ(test, sizeof(struct sched_ms_entity),
			offsetof(struct sched_ms_entity, run) +
			sizeof_field(struct sched_ms_entity, run));
	KUNIT_EXPECT_EQ(test, sizeof_field(struct sched_ms_run, state),
			largest);
}

/*
 * The class state union: a class that claims it from another gets it
 * cleared, one that claims it again (after a boost, say) keeps it.
 */
static void ms_test_own_state(struct kunit *test)
{
	struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	u8 *b;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_FALSE(test, ms_own_state(p, SCHED_BVT));
	KUNIT_EXPECT_EQ(test, p->ms.run.state_policy, SCHED_BVT);
	memset(&p->ms.run.state, 0x5a, sizeof(p->ms.run.state));
	p->ms.run.sig_depth = 3;
	KUNIT_EXPECT_TRUE(test, ms_own_state(p, SCHED_BVT));
	KUNIT_EXPECT_EQ(test, *(u8 *)&p->ms.run.state, 0x5a);
	KUNIT_EXPECT_FALSE(test, ms_own_state(p, SCHED_VTRR));
	KUNIT_EXPECT_EQ(test, p->ms.run.state_policy, SCHED_VTRR);
	b = (u8 *)&p->ms.run.state;
	for (i = 0; i < sizeof(p->ms.run.state); i++)
		KUNIT_EXPECT_EQ_MSG(test, b[i], 0, "byte %d", i);
	/* not class state: the signal depth is the task's */
	KUNIT_EXPECT_EQ(test, p->ms.run.sig_depth, 3);
}

/* The shared bandwidth accounting: the admission test and its units. */
static void ms_test_bw_fits(struct kunit *test)
{
	u64 limit = to_ratio(NSEC_PER_SEC, 950 * NSEC_PER_MSEC);

	KUNIT_EXPECT_EQ(test, ms_bw_to_ppm(BW_UNIT), 1000000ULL);
	KUNIT_EXPECT_EQ(test, ms_bw_to_ppm(0), 0ULL);
	/* 95% in DL's fixed point is 996147.2 / 2^20: shown as 950000 */
	KUNIT_EXPECT_EQ(test, ms_bw_to_ppm(limit), 950000ULL);
	KUNIT_EXPECT_TRUE(test, ms_bw_fits(0, limit, limit));
	KUNIT_EXPECT_FALSE(test, ms_bw_fits(1, limit, limit));
	KUNIT_EXPECT_TRUE(test, ms_bw_fits(limit / 2, limit / 2, limit));
	KUNIT_EXPECT_FALSE(test, ms_bw_fits(limit / 2, limit / 2 + 2, limit));
	/* no wrap-around: neither a huge request nor a full CPU fits */
	KUNIT_EXPECT_FALSE(test, ms_bw_fits(0, U64_MAX, limit));
	KUNIT_EXPECT_FALSE(test, ms_bw_fits(U64_MAX, 1, limit));
}

/* ms_bw_used_hint(), under the rq lock it asks for */
static u64 ms_test_bw_hint(int cpu)
{
	guard(rq_lock_irqsave)(cpu_rq(cpu));
	return ms_bw_used_hint(cpu);
}

/*
 * ms_bw_admit() on a real CPU: what it admits shows in ms_bw_used() and
 * in its lockless ms_bw_used_hint(), it refuses what would pass the
 * limit, or leave less than asked free, and a release gives the room
 * back.
 */
static void ms_test_bw_admit(struct kunit *test)
{
	int cpu = raw_smp_processor_id();
	u64 limit = ms_bw_limit(), before = ms_bw_used(cpu);
	u64 tenth = BW_UNIT / 10;

	KUNIT_ASSERT_LE(test, before + 2 * tenth, limit);
	KUNIT_EXPECT_EQ(test, ms_test_bw_hint(cpu), before);
	KUNIT_EXPECT_EQ(test, ms_bw_admit(cpu, 0, tenth, 0), 0);
	KUNIT_EXPECT_EQ(test, ms_bw_used(cpu), before + tenth);
	KUNIT_EXPECT_EQ(test, ms_test_bw_hint(cpu), before + tenth);
	KUNIT_EXPECT_EQ(test, ms_bw_admit(cpu, tenth, limit - before + 1, 0),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, ms_bw_used(cpu), before + tenth);
	KUNIT_EXPECT_EQ(test, ms_bw_admit(cpu, tenth, limit - before - tenth,
					  tenth + 1), -EBUSY);
	KUNIT_EXPECT_EQ(test, ms_bw_admit(cpu, tenth, limit - before - tenth,
					  tenth), 0);
	KUNIT_EXPECT_EQ(test, ms_bw_used(cpu), limit - tenth);
	KUNIT_EXPECT_EQ(test, ms_bw_admit(cpu, limit - before - tenth,
					  limit - before, 0), 0);
	KUNIT_EXPECT_EQ(test, ms_bw_used(cpu), limit);
	KUNIT_EXPECT_EQ(test, ms_bw_admit(cpu, limit - before, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, ms_bw_used(cpu), before);
	KUNIT_EXPECT_EQ(test, ms_test_bw_hint(cpu), before);
}

/*
 * ms_bw_move(): a reservation moved between two CPUs (the CPU to itself
 * when only one is online) leaves the first and shows on the second, and
 * goes when released there.
 */
static void ms_test_bw_move(struct kunit *test)
{
	int from = cpumask_first(cpu_online_mask);
	int to = cpumask_next(from, cpu_online_mask);
	u64 tenth = BW_UNIT / 10, a, b;

	if (to >= nr_cpu_ids)
		to = from;
	a = ms_bw_used(from);
	b = ms_bw_used(to);
	KUNIT_ASSERT_EQ(test, ms_bw_admit(from, 0, tenth, 0), 0);
	ms_bw_move(from, to, tenth, false);
	KUNIT_EXPECT_EQ(test, ms_bw_used(to), b + tenth);
	if (to != from)
		KUNIT_EXPECT_EQ(test, ms_bw_used(from), a);
	KUNIT_EXPECT_EQ(test, ms_bw_admit(to, tenth, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, ms_bw_used(from), a);
	KUNIT_EXPECT_EQ(test, ms_bw_used(to), b);
}

#ifdef CONFIG_SCHED_RBS
/*
 * The rate-monotonic bound of a CPU's reservations (ms_rm_fits()): the
 * reservations that are not rate-monotonic count as one more task, and
 * a CPU without RBS reservations has no bound but the limit.
 */
static void ms_test_rm_fits(struct kunit *test)
{
	u64 pct = BW_UNIT / 100;

	KUNIT_EXPECT_TRUE(test, ms_rm_fits(90 * pct, 0, 0));
	KUNIT_EXPECT_TRUE(test, ms_rm_fits(BW_UNIT, BW_UNIT, 1));
	/* two: 82.8% */
	KUNIT_EXPECT_TRUE(test, ms_rm_fits(82 * pct, 82 * pct, 2));
	KUNIT_EXPECT_FALSE(test, ms_rm_fits(83 * pct, 83 * pct, 2));
	KUNIT_EXPECT_TRUE(test, ms_rm_fits(82 * pct, 50 * pct, 1));
	KUNIT_EXPECT_FALSE(test, ms_rm_fits(83 * pct, 50 * pct, 1));
	/* three and the rest as a fourth: 75.6% */
	KUNIT_EXPECT_TRUE(test, ms_rm_fits(75 * pct, 60 * pct, 3));
	KUNIT_EXPECT_FALSE(test, ms_rm_fits(76 * pct, 60 * pct, 3));
	/* many: ln 2 */
	KUNIT_EXPECT_TRUE(test, ms_rm_fits(69 * pct, 69 * pct, 100));
	KUNIT_EXPECT_FALSE(test, ms_rm_fits(70 * pct, 70 * pct, 100));
}
#endif

/*
 * ms_balance_account() counts a CPU in its class's overloaded CPUs while
 * it has two tasks or more, and only then: the pull scans nothing while
 * the count is 0, so a count left at 0 would stop every pull, and one
 * left above it would scan for nothing.
 */
static void ms_test_overloaded(struct kunit *test)
{
	struct ms_balance a = { }, b = { };
	atomic_t overloaded = ATOMIC_INIT(0);
	static const int steps[] = { 1, 1, 1, -1, -1, -1 };
	static const int want[] = { 0, 1, 1, 1, 0, 0 };
	int i;

	a.overloaded = &overloaded;
	b.overloaded = &overloaded;
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		ms_balance_account(&a, steps[i] * 1024, steps[i]);
		KUNIT_EXPECT_EQ(test, atomic_read(&overloaded), want[i]);
	}
	/* two CPUs overloaded at once count twice */
	ms_balance_account(&a, 2048, 2);
	ms_balance_account(&b, 3072, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&overloaded), 2);
	ms_balance_account(&b, -2048, -2);
	KUNIT_EXPECT_EQ(test, atomic_read(&overloaded), 1);
	ms_balance_account(&a, -2048, -2);
	ms_balance_account(&b, -1024, -1);
	KUNIT_EXPECT_EQ(test, atomic_read(&overloaded), 0);
	KUNIT_EXPECT_EQ(test, a.load + b.load, 0);
	/* a CPU whose class state does not point to a count is not counted */
	b.overloaded = NULL;
	ms_balance_account(&b, 2048, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&overloaded), 0);
}

static struct kunit_case ms_test_cases[] = {
	KUNIT_CASE(ms_test_overloaded),
	KUNIT_CASE(ms_test_sizes),
	KUNIT_CASE(ms_test_defaults_valid),
#ifdef CONFIG_SCHED_VTRR
	KUNIT_CASE(ms_test_weight_range),
#endif
#ifdef CONFIG_SCHED_BVT
	KUNIT_CASE(ms_test_bvt_warp),
	KUNIT_CASE(ms_test_flags_per_class),
#endif
#ifdef CONFIG_SCHED_RBS
	KUNIT_CASE(ms_test_rbs_budget_period),
	KUNIT_CASE(ms_test_rm_fits),
#endif
#ifdef CONFIG_SCHED_BEBS
	KUNIT_CASE(ms_test_bebs_periodic),
#endif
	KUNIT_CASE(ms_test_unknown_policy),
	KUNIT_CASE(ms_test_class_table),
	KUNIT_CASE(ms_test_nice_weight),
	KUNIT_CASE(ms_test_own_state),
	KUNIT_CASE(ms_test_bw_fits),
	KUNIT_CASE(ms_test_bw_admit),
	KUNIT_CASE(ms_test_bw_move),
	{}
};

static struct kunit_suite ms_test_suite = {
	.name		= "multisched",
	.test_cases	= ms_test_cases,
};

kunit_test_suite(ms_test_suite);
