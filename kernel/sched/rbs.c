// SPDX-License-Identifier: GPL-2.0
/*
 * Reservation-based (RBS) scheduling class
 *
 * A thread holds a reservation of a proportion of the CPU per period,
 * admission-controlled and enforced as a sporadic server: budget consumed
 * in a period is replenished one period after it was used. Threads doing
 * I/O are served by priority-inheritance bandwidth-preserving servers, and
 * the rbs_ctl feedback controller sets proportion and period from each
 * thread's measured progress.
 *
 * Paper: D. C. Steere et al., "A feedback-driven proportion allocator for
 * real-rate scheduling", OSDI 1999, with the sporadic and
 * priority-inheritance bandwidth-preserving servers of the Quest paper
 * (M. Danish, Y. Li and R. West, "Virtual-CPU scheduling in the Quest
 * operating system").
 *
 * Status: the class is linked into the hierarchy (see multisched.c for its
 * place), but it accepts no tasks yet (ms_rbs_class.ready): until the
 * algorithm above lands here, ms_check_attr() refuses SCHED_RBS with EINVAL
 * and it cannot be chosen as the class of SCHED_NORMAL tasks, so
 * pick_task_rbs() can never find a task.
 */
#include <linux/mmu_context.h>

#include "sched.h"

/*
 * The algorithm's arithmetic, free of runqueues (rbs_test.c checks it).
 *
 * A Main reservation is a corrected sporadic server (Quest, algorithms
 * 3-6 and 11-13, after Stanovich et al.): its budget C is held in chunks,
 * each usable from its time on, that always add up to C. The server runs
 * from the chunk at the head; @usage is what it has run of it. A chunk
 * used up goes back into the queue one period T after it became usable,
 * so that in any window of length T the server runs at most C.
 */
struct rbs_repl {
	u64	t;	/* when the chunk can be used */
	u64	b;	/* its budget */
};

struct rbs_ss {
	u64		C;
	u64		T;
	u64		usage;
	unsigned int	len;	/* chunks in @q, by time, at least one */
	unsigned int	max;	/* the room in @q, at least two */
	struct rbs_repl	*q;
};

/*
 * Algorithm 6: all of C is usable now. C is never 0 (the class refuses
 * budgets under 10 us): a chunk of 0 would never be used up, and
 * rbs_ss_budget_check() would not end.
 */
static inline void rbs_ss_init(struct rbs_ss *ss, u64 C, u64 T,
			       struct rbs_repl *q, unsigned int max, u64 now)
{
	WARN_ON_ONCE(!C);
	ss->C = C;
	ss->T = T;
	ss->usage = 0;
	ss->q = q;
	ss->max = max;
	ss->len = 1;
	q[0] = (struct rbs_repl){ .t = now, .b = C };
}

/* What the server may run at @now: 0 before the head chunk's time. */
static inline s64 rbs_ss_capacity(const struct rbs_ss *ss, u64 now)
{
	if (ss->q[0].t > now)
		return 0;
	return (s64)(ss->q[0].b - ss->usage);
}

static inline void rbs_ss_pop(struct rbs_ss *ss)
{
	ss->len--;
	memmove(&ss->q[0], &ss->q[1], ss->len * sizeof(ss->q[0]));
}

/* Fold the second chunk into the head, which keeps the time @t. */
static inline void rbs_ss_merge_second(struct rbs_ss *ss, u64 t)
{
	u64 b = ss->q[0].b;

	rbs_ss_pop(ss);
	ss->q[0].b += b;
	ss->q[0].t = t;
}

/*
 * Queue @b to be usable at @t, in time order after chunks of the same
 * time. With the queue full, @b joins the last chunk, which becomes
 * usable at the later of the two times: no budget is lost and none comes
 * back early. (Quest folds the head's remnant into the next chunk
 * instead, which holds back budget the server may use now; stopping the
 * charge, as other implementations do, would let it run more than C.)
 * Returns true if the queue was full.
 */
static inline bool rbs_ss_add(struct rbs_ss *ss, u64 t, u64 b)
{
	struct rbs_repl *last = &ss->q[ss->len - 1];
	unsigned int i;

	if (ss->len == ss->max) {
		last->b += b;
		last->t = max(last->t, t);
		return true;
	}
	for (i = ss->len; i > 0 && ss->q[i - 1].t > t; i--)
		ss->q[i] = ss->q[i - 1];
	ss->q[i] = (struct rbs_repl){ .t = t, .b = b };
	ss->len++;
	return false;
}

/*
 * Algorithm 11, after the server was charged @delta: if it has no
 * capacity left, every chunk it used up goes back one period after its
 * time. What it ran beyond them (the budget timer's lateness) delays the
 * next chunk by as much and stays charged against it; a chunk delayed
 * into the ones after it takes them in. Only what @delta added delays
 * it: an overrun charged in two steps (at the timer, then at the switch)
 * is not counted twice, as the algorithm's listing would.
 */
static inline void rbs_ss_budget_check(struct rbs_ss *ss, u64 delta, u64 now)
{
	struct rbs_repl r;

	if (rbs_ss_capacity(ss, now) > 0)
		return;
	while (ss->q[0].b <= ss->usage) {
		ss->usage -= ss->q[0].b;
		r = ss->q[0];
		rbs_ss_pop(ss);
		r.t += ss->T;
		rbs_ss_add(ss, r.t, r.b);
	}
	if (ss->usage) {
		ss->q[0].t += min(ss->usage, delta);
		while (ss->len > 1 &&
		       ss->q[0].t + ss->q[0].b >= ss->q[1].t)
			rbs_ss_merge_second(ss, ss->q[0].t);
	}
}

/* Algorithm 3: the server ran @delta until @now. */
static inline void rbs_ss_charge(struct rbs_ss *ss, u64 delta, u64 now)
{
	ss->usage += delta;
	rbs_ss_budget_check(ss, delta, now);
}

/*
 * Algorithm 12: the server blocks with capacity left. What it ran of the
 * head chunk becomes a chunk of its own, usable one period after the
 * head's time; the rest stays usable. True if the queue was full.
 */
static inline bool rbs_ss_split(struct rbs_ss *ss, u64 now)
{
	u64 used = ss->usage;

	if (!used || ss->q[0].t > now)
		return false;
	/* it blocked with capacity: it used less than the head chunk */
	if (WARN_ON_ONCE(used >= ss->q[0].b))
		return false;
	ss->q[0].b -= used;
	ss->usage = 0;
	return rbs_ss_add(ss, ss->q[0].t + ss->T, used);
}

/*
 * Algorithm 13: the server wakes at @now. With capacity, the head chunk
 * is used from now on, and the chunks that come due before it would be
 * used up join it. Returns whether it may run now; if not, it may at the
 * head chunk's time.
 */
static inline bool rbs_ss_unblock(struct rbs_ss *ss, u64 now)
{
	if (rbs_ss_capacity(ss, now) <= 0)
		return false;
	ss->q[0].t = now;
	while (ss->len > 1 &&
	       ss->q[1].t <= now + ss->q[0].b - ss->usage)
		rbs_ss_merge_second(ss, now);
	return true;
}

/*
 * An I/O reservation is a priority-inheritance bandwidth-preserving
 * server (Quest, algorithms 7-10): a utilisation U and the period T of
 * the Main reservation it works for, so a budget of Cmax = U T. What it
 * runs, u, moves its eligibility time e on by u / U, and it holds one
 * replenishment, of Cmax at e.
 */
struct rbs_pibs {
	u64	U;		/* utilisation, in BW_UNIT parts */
	u64	T;		/* the period it inherited */
	u64	b;		/* budget left */
	u64	usage;		/* run since e last moved */
	u64	e;		/* eligibility time */
	u64	r_t;		/* its replenishment: when, */
	u64	r_b;		/* and how much */
	bool	r_valid;
	bool	budgeted;	/* replenished since it last blocked */
};

static inline u64 rbs_pibs_cmax(const struct rbs_pibs *io)
{
	return (io->T * io->U) >> BW_SHIFT;
}

/* U is in BW_UNIT parts, never 0: the eligibility time divides by it. */
static inline void rbs_pibs_init(struct rbs_pibs *io, u64 U, u64 T, u64 now)
{
	WARN_ON_ONCE(!U);
	*io = (struct rbs_pibs){ .U = U ?: 1, .T = T, .e = now };
}

/*
 * Algorithm 7: the server ran @delta, and blocked if @blocked. When it
 * blocks or runs out, e moves on by what it ran over U and the budget
 * left goes: the replenishment comes at e.
 */
static inline void rbs_pibs_charge(struct rbs_pibs *io, u64 delta,
				   bool blocked)
{
	io->b = io->b > delta ? io->b - delta : 0;
	io->usage += delta;
	if (!blocked && io->b)
		return;
	/* rounded up: the server is never eligible early */
	io->e += DIV64_U64_ROUND_UP(io->usage << BW_SHIFT, io->U);
	if (!io->r_valid) {
		io->r_b = rbs_pibs_cmax(io);
		io->r_valid = true;
	}
	io->r_t = io->e;
	io->usage = 0;
	io->b = 0;
	if (blocked)
		io->budgeted = false;
}

/*
 * Algorithm 8: the replenishment came due by @now. The budget is held
 * to Cmax, which shrinks with a shorter inherited period (the listing's
 * postcondition, which it does not enforce).
 */
static inline void rbs_pibs_update(struct rbs_pibs *io, u64 now)
{
	if (io->r_valid && io->r_t <= now) {
		io->b = io->r_b;
		io->r_valid = false;
	}
	io->b = min(io->b, rbs_pibs_cmax(io));
}

/*
 * Algorithm 10: a Main reservation of period @period asks for work at @now.
 * An idle server takes its period, a busy one only a shorter one; an
 * idle one's eligibility does not lag behind now; and one replenishment
 * of Cmax is posted until it blocks again.
 */
static inline void rbs_pibs_request(struct rbs_pibs *io, u64 period,
				    u64 now, bool active, bool running)
{
	if (period < io->T || !active)
		io->T = period;
	if (!running && io->e < now)
		io->e = now;
	if (!io->r_valid) {
		if (!io->budgeted) {
			io->r_t = io->e;
			io->r_b = rbs_pibs_cmax(io);
			io->r_valid = true;
		}
	} else {
		io->r_b = rbs_pibs_cmax(io);
	}
	io->budgeted = true;
	io->b = min(io->b, rbs_pibs_cmax(io));
}

/*
 * Admission (Quest, inequality 1): on a CPU with n Main reservations of
 * utilisation U_i and I/O reservations of utilisation U_j,
 * sum U_i + sum (2 - U_j) U_j <= n (2^(1/n) - 1), the Liu and Layland
 * bound of rate-monotonic scheduling; an I/O server counts as what it may
 * add, in any window, to the Main reservation it works for. In BW_UNIT
 * parts: n (2^(1/n) - 1) rounded down for n up to 32, and ln 2 (the
 * limit, below every one of them) beyond.
 */
static const u32 rbs_ll_table[] = {
	1048576, 868668, 817640, 793592, 779607, 770464, 764020, 759233,
	755538, 752599, 750205, 748218, 746543, 745110, 743872, 742790,
	741838, 740993, 740237, 739559, 738945, 738388, 737880, 737414,
	736987, 736592, 736227, 735888, 735573, 735279, 735004, 734746,
};

#define RBS_LL_LIMIT	726817

static inline u64 rbs_ll_bound(unsigned int n)
{
	if (!n)
		n = 1;
	return n <= ARRAY_SIZE(rbs_ll_table) ? rbs_ll_table[n - 1] :
					       RBS_LL_LIMIT;
}

/* (2 - U) U of an I/O reservation of utilisation @u, in BW_UNIT parts. */
static inline u64 rbs_io_load(u64 u)
{
	u = min_t(u64, u, BW_UNIT);
	return ((2ULL * BW_UNIT - u) * u) >> BW_SHIFT;
}

static struct task_struct *pick_task_rbs(struct rq *rq)
{
	return NULL;
}

DEFINE_SCHED_CLASS(rbs) = {
	.pick_task	= pick_task_rbs,
};

static void rbs_init_rq(struct rq *rq, int cpu)
{
}

/*
 * A reservation gives a budget and a period; with MS_FLAG_RBS_FEEDBACK
 * the controller may choose both. No warp, no separate deadline.
 */
static int rbs_validate(const struct sched_attr *attr)
{
	if (attr->sched_warp || attr->sched_warp_limit || attr->sched_unwarp ||
	    attr->sched_deadline)
		return -EINVAL;
	if ((attr->sched_ms_flags & MS_FLAG_RBS_FEEDBACK) &&
	    !attr->sched_runtime && !attr->sched_period)
		return 0;
	if (!ms_period_valid(attr->sched_runtime, attr->sched_period))
		return -EINVAL;
	return 0;
}

/* Every RBS task holds a reservation: CAP_SYS_NICE, as SCHED_DEADLINE. */
static bool rbs_asks_for_more(struct task_struct *p,
			      const struct sched_attr *attr, bool same)
{
	return true;
}

const struct ms_class ms_rbs_class = {
	.name		= "rbs",
	.policy		= SCHED_RBS,
	.class		= &rbs_sched_class,
	.ready		= false,
	.general	= false,
	.flags		= MS_FLAGS_RBS,
	.validate	= rbs_validate,
	.asks_for_more	= rbs_asks_for_more,
	.init_rq	= rbs_init_rq,
};

#ifdef CONFIG_SCHED_MULTISCHED_KUNIT_TEST
#include "rbs_test.c"
#endif
