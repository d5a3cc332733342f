// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of rbs_ctl's control law, free of tasks and timers. Included
 * from rbs_ctl.c, so that its static helpers are reachable.
 *
 * Figure 6 in a model: a producer fills a buffer at a rate that needs a
 * proportion u of the CPU from the consumer, which drains @a of the buffer
 * a step at a whole CPU. Its allocation, set by rbs_ctl_decide() from the
 * fill level, takes effect a step later (the controller runs between the
 * server's periods). When u doubles, the fill level must be back within
 * 10% of half in 30 steps (0.3 s at 100 Hz) and stay there, for drains
 * from 5% to 40% of the buffer a step: the range the default gains are
 * chosen for (sched-rbs-ctl.rst).
 *
 * Section 3.3's squish: two miscellaneous threads of importance 1024 and
 * 3072 on a CPU with room for 60% fill it, in shares where each gives up
 * the step's growth d = Ki F / 1000 of pressure F = 1/8: (P1 + d) / 1 =
 * (P3 + d) / 3, so P1 = (room - 2 d) / 4, 14.375%, and P3 = 45.625%.
 */
#include <kunit/test.h>

static void rbs_ctl_test_follow(struct kunit *test)
{
	static const s64 drains[] = { 50000, 100000, 200000, 400000 };
	unsigned int i, n, settled;
	struct rbs_ctl c;
	s64 fill, applied, need;

	for (i = 0; i < ARRAY_SIZE(drains); i++) {
		memset(&c, 0, sizeof(c));
		c.P = 125000;
		applied = c.P;
		fill = RBS_CTL_PPM / 2;
		settled = 0;
		for (n = 0; n < 300; n++) {
			need = n < 100 ? 125000 : 250000;
			fill += div64_s64(drains[i] * (need - applied),
					  RBS_CTL_PPM);
			fill = clamp_t(s64, fill, 0, RBS_CTL_PPM);
			applied = c.P;
			c.F2 = c.F1;
			c.F1 = c.F;
			c.F = fill - RBS_CTL_PPM / 2;
			c.P = rbs_ctl_decide(&c, 1000, 100, 0);
			if (n >= 100 && abs(c.F) > RBS_CTL_PPM / 20)
				settled = n + 1 - 100;
		}
		kunit_info(test, "drain %lld ppm a step: settled in %u steps, at %lld ppm",
			   drains[i], settled, c.P);
		KUNIT_EXPECT_LE(test, settled, 30U);
		KUNIT_EXPECT_LE(test, abs(c.P - 250000), 2500LL);
	}
}

static void rbs_ctl_test_squish(struct kunit *test)
{
	struct rbs_ctl a = { .P = 10000 }, b = { .P = 10000 };
	struct rbs_ctl_cpu pc;
	const s64 room = 600000;
	unsigned int n;

	for (n = 0; n < 1000; n++) {
		a.F = RBS_CTL_MISC_F;
		b.F = RBS_CTL_MISC_F;
		a.want = rbs_ctl_decide(&a, 1000, 100, 0);
		b.want = rbs_ctl_decide(&b, 1000, 100, 0);
		a.F1 = RBS_CTL_MISC_F;
		b.F1 = RBS_CTL_MISC_F;
		pc = (struct rbs_ctl_cpu){
			.want = a.want + b.want,
			.weighted = rbs_ctl_part(a.want, 1024) +
				    rbs_ctl_part(b.want, 3072),
		};
		pc.excess = pc.want - room;
		a.P = rbs_ctl_squished(a.want, 1024, &pc);
		b.P = rbs_ctl_squished(b.want, 3072, &pc);
	}
	kunit_info(test, "importance 1024 and 3072 settle at %lld and %lld ppm",
		   a.P, b.P);
	KUNIT_EXPECT_LE(test, abs(a.P - 143750), 1000LL);
	KUNIT_EXPECT_LE(test, abs(b.P - 456250), 1000LL);
}

static struct kunit_case rbs_ctl_test_cases[] = {
	KUNIT_CASE(rbs_ctl_test_follow),
	KUNIT_CASE(rbs_ctl_test_squish),
	{}
};

static struct kunit_suite rbs_ctl_test_suite = {
	.name = "rbs_ctl",
	.test_cases = rbs_ctl_test_cases,
};

kunit_test_suite(rbs_ctl_test_suite);
