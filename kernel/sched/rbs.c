// SPDX-License-Identifier: GPL-2.0
/*
 * Reservation-based (RBS) scheduling class
 *
 * A thread holds a reservation of a proportion C/T of one CPU: a budget
 * C in every period T, admission-controlled and enforced as a sporadic
 * server, so that in any window of length T the thread runs at most C,
 * and runs C whenever it wants to while the reservations above it leave
 * room. Threads doing I/O are served by priority-inheritance
 * bandwidth-preserving servers, and the rbs_ctl feedback controller
 * (rbs_ctl.c) sets proportion and period from each thread's measured
 * progress.
 *
 * Paper: D. C. Steere et al., "A feedback-driven proportion allocator for
 * real-rate scheduling", OSDI 1999 (section 3.1, the reservation
 * scheduler), with the sporadic and priority-inheritance
 * bandwidth-preserving servers of the Quest paper (M. Danish, Y. Li and
 * R. West, "Virtual-CPU scheduling in the Quest operating system").
 *
 * The algorithm. Each CPU runs, of its RBS tasks with capacity, the one
 * whose period is shortest: rate-monotonic priority, ties going to the
 * task queued first (@seq, taken at each wakeup and each replenishment, so
 * that a server given budget back waits behind those of its period that
 * are ready). A task's budget is held in chunks, each usable from its own
 * time on (struct rbs_ss, Quest's replenishment list): the server runs
 * from the chunk at the head, and a chunk it used goes back one period
 * after the time it became usable (algorithms 3-6, 11). A task that
 * blocks, or is preempted, with capacity left splits off what it used
 * (algorithm 12), and one that wakes merges the chunks due before its head
 * would run out (algorithm 13). A chunk's time is when its use began
 * (rbs_ss_start()): each chunk is used in one stretch from its time and
 * comes back a period later, so in no window of T does the task run more
 * than C, whatever delays its start. A task out of capacity is throttled
 * until its head chunk's time: an hrtimer per CPU ends its budget, and
 * another replenishes the first throttled task, so no time is overrun
 * beyond the timers' latency, and a CPU whose tasks sleep arms no timer.
 * A task whose chunk comes due just after another of its period ran out
 * may be replenished up to 10 us early (rbs_replenish_early()), so that
 * the two run back to back: a window of T then holds C plus that much.
 * The replenishment queue holds at most sysctl_sched_rbs_repl_max chunks;
 * a replenishment that does not fit joins the last one, later, rather than
 * be lost or left uncharged.
 *
 * Admission (ms_admit(), __ms_bw_admit()): a reservation goes on the
 * first CPU of its affinity where the classes' and SCHED_DEADLINE's
 * admitted bandwidth stays under the sched_rt_runtime_us limit, and the
 * CPU's RBS reservations, with everything else admitted there counted as
 * one more task, stay within Liu and Layland's bound n (2^(1/n) - 1)
 * (rbs_ll_bound()). The task stays on that CPU; one that a
 * priority-inheritance boost took elsewhere is sent back from the tick.
 *
 * A change of C or T goes on with the chunks the server has
 * (rbs_ss_change()): no change gives budget back, so the controller may
 * make one at every step. A task out of capacity whose reservation asks
 * for it (MS_FLAG_RBS_BACKGROUND) runs in the background, uncharged,
 * while no other task is runnable on its CPU: Quest's background
 * priority, below every class; a task of any class queued there takes
 * the CPU back (ms_wakeup_below()).
 *
 * An I/O server (MS_FLAG_RBS_IO) is Quest's priority-inheritance
 * bandwidth-preserving server (algorithms 7-10): a utilisation U, and
 * the period of the reservation whose thread woke it (rbs_io_waking()).
 *
 * A reservation may be shared (MS_FLAG_RBS_SHARED, struct rbs_resv): one
 * server for the threads that join it (MS_FLAG_RBS_JOIN), which take
 * turns, a tick each, while it has budget.
 *
 * A thread with MS_FLAG_RBS_FEEDBACK holds the budget and period the
 * controller gives it (struct sched_ms_run's @ctl_budget, @ctl_period),
 * changed with rbs_ctl_set() as sched_setattr(2) changes a reservation.
 *
 * Locking: a CPU's struct rbs_rq and the servers queued on it, a task's
 * own or a shared reservation's, are protected by its rq lock, which the
 * timers take; a shared reservation's parameters by its own lock, taken
 * inside it (struct rbs_resv).
 */
#include <linux/mmu_context.h>
#include <linux/sysctl.h>

#include "sched.h"

#include <trace/events/multisched.h>

/*
 * The algorithm's arithmetic, free of runqueues (rbs_test.c checks it).
 *
 * A Main reservation is a corrected sporadic server (Quest, algorithms
 * 3-6 and 11-13, after Stanovich et al.): its budget C is held in chunks,
 * each usable from its time on, that always add up to C. The server runs
 * from the chunk at the head; @usage is what it has run of it. A chunk
 * used up goes back into the queue one period T after it became usable,
 * so that in any window of length T the server runs at most C. The
 * server and its chunks, struct rbs_ss and struct rbs_repl, are in
 * <linux/sched/multisched.h>, as a task's entity holds them.
 */

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
	ss->debt = 0;
	ss->debt_t = 0;
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
	struct rbs_repl *last;
	unsigned int i;

	if (ss->len == ss->max) {
		last = &ss->q[ss->len - 1];
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
	unsigned int i;
	u64 k;

	if (rbs_ss_capacity(ss, now) > 0)
		return;
	/*
	 * An overrun of whole budgets (a stall) sends every chunk back as
	 * many periods at once: what the loop below would do one chunk at a
	 * time, in hard interrupt context.
	 */
	if (ss->usage >= ss->C) {
		k = div64_u64(ss->usage, ss->C);
		for (i = 0; i < ss->len; i++)
			ss->q[i].t += k * ss->T;
		ss->usage -= k * ss->C;
	}
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
 * The server uses its head chunk at @now, of which it has run @usage:
 * the chunk's time becomes the moment its use began, if that is later,
 * so that it comes back one period after it, never earlier. Quest sets
 * it so at an unblock (algorithm 13); a server can also begin a chunk
 * late while it is runnable: after the replenishment timer's latency,
 * after a task of a class above it, or when the chunk came due while it
 * used the one before. Chunks due before the head would run out from its
 * new time join it, as at an unblock.
 */
static inline void rbs_ss_start(struct rbs_ss *ss, u64 now)
{
	u64 t = now - min(ss->usage, now);

	if (ss->q[0].t > now || ss->q[0].t >= t)
		return;
	ss->q[0].t = t;
	while (ss->len > 1 &&
	       ss->q[1].t <= t + ss->q[0].b - ss->usage)
		rbs_ss_merge_second(ss, t);
}

/*
 * The reservation becomes @budget every @period at @now, without starting
 * its server again: the chunks keep their times, so that what it ran in
 * the last period still comes back when it would have, and chunks used
 * from now on come back @period after their time. A smaller budget gives
 * up first what the server has yet to use (the chunks due by now, the
 * latest first); only then budget it ran in the last period (the chunks
 * still to come back, the latest first), which it owes as @debt until
 * the time of the latest of them, @debt_t: a larger budget repays the
 * debt as a chunk usable then, before it adds the rest as a chunk usable
 * now. So no change, however often made, gives budget beyond the larger
 * of the two budgets in a window of the period; one old period after the
 * change, the new budget holds. It costs O(len), with no timer.
 */
static inline void rbs_ss_change(struct rbs_ss *ss, u64 budget, u64 period,
				 u64 now)
{
	unsigned int i, j, due;
	u64 d, x, h, old_T = ss->T;

	WARN_ON_ONCE(!budget);
	/*
	 * What it ran of a head that is due becomes a chunk of its own, as
	 * at a block, due a period after the head's time: budget it ran,
	 * which a smaller budget takes as a debt. @usage is left only on a
	 * head still to come (an overrun charged to it).
	 */
	rbs_ss_split(ss, now);
	ss->T = period;
	/* the chunks it was taken from would have come back by now */
	if (ss->debt_t <= now)
		ss->debt = 0;
	if (budget >= ss->C) {
		/* nothing goes ahead of a head that carries @usage */
		h = ss->usage ? ss->q[0].t : 0;
		d = budget - ss->C;
		x = min(d, ss->debt);
		if (x)
			rbs_ss_add(ss, max(ss->debt_t, h), x);
		ss->debt -= x;
		if (d > x)
			rbs_ss_add(ss, max(now, h), d - x);
		ss->C = budget;
		return;
	}
	d = ss->C - budget;
	ss->C = budget;
	for (due = 0; due < ss->len && ss->q[due].t <= now; due++)
		;
	/* what it has yet to use: of the head, what it has not run */
	for (i = due; d && i-- > 0;) {
		x = min(d, ss->q[i].b - (i ? 0 : ss->usage));
		ss->q[i].b -= x;
		d -= x;
	}
	/* what it ran in the last period, owed */
	for (i = ss->len; d && i-- > due;) {
		x = min(d, ss->q[i].b - (i ? 0 : ss->usage));
		ss->q[i].b -= x;
		ss->debt += x;
		ss->debt_t = max(ss->debt_t, ss->q[i].t);
		d -= x;
	}
	/* It has run more of its head than the new budget: the head keeps the new C */
	if (d) {
		ss->q[0].b -= d;
		if (!due) {
			ss->debt += d;
			ss->debt_t = max(ss->debt_t, ss->q[0].t);
		}
	}
	/*
	 * What it ran of the head beyond that was the old budget's, run in
	 * the head's window: it is owed until one old period after the
	 * head's time, not an overrun of the new budget, which would send
	 * the chunks back usage / C periods (rbs_ss_budget_check()) and
	 * starve the task for as many after a deep cut. The head is used
	 * up and comes back a period after its time.
	 */
	if (ss->usage > ss->q[0].b) {
		ss->debt += ss->usage - ss->q[0].b;
		ss->debt_t = max(ss->debt_t, ss->q[0].t + old_T);
		ss->usage = ss->q[0].b;
	}
	for (i = 0, j = 0; i < ss->len; i++)
		if (ss->q[i].b)
			ss->q[j++] = ss->q[i];
	ss->len = j;
	rbs_ss_budget_check(ss, 0, now);
}

/*
 * Cmax = U T, at least 1 ns: a server whose budget rounds to 0 would be
 * replenished with nothing, and never run again.
 */
static inline u64 rbs_pibs_cmax(const struct rbs_pibs *io)
{
	return max_t(u64, (io->T * io->U) >> BW_SHIFT, 1);
}

/*
 * The server's utilisation becomes @U, in BW_UNIT parts, never 0: the
 * eligibility time divides by it; its own period is @T. It inherits no
 * period shorter than the one that gives it a budget of MS_RUNTIME_MIN,
 * nor than its own if that is shorter (its own budget is at least that):
 * a server of small U that inherited a short period would get a budget
 * of a few ns, overrun it by the timer's latency at every run, and push
 * its eligibility out by that over U. A longer period keeps the analysis
 * of inequality 1, where a larger budget at the short one would not.
 */
static inline void rbs_pibs_set_u(struct rbs_pibs *io, u64 U, u64 T)
{
	WARN_ON_ONCE(!U);
	io->U = U ?: 1;
	io->T_min = min(DIV64_U64_ROUND_UP(MS_RUNTIME_MIN << BW_SHIFT, io->U),
			T);
}

static inline void rbs_pibs_init(struct rbs_pibs *io, u64 U, u64 T, u64 now)
{
	*io = (struct rbs_pibs){ .T = T, .e = now };
	rbs_pibs_set_u(io, U, T);
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
	period = max(period, io->T_min);
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

/*
 * The room a new server takes in its replenishment queue, 2 to
 * RBS_REPL_MAX chunks: with fewer, the server merges more replenishments
 * into its last one, each of which then comes back later.
 */
static unsigned int sysctl_sched_rbs_repl_max = RBS_REPL_MAX;
static unsigned int rbs_repl_min = 2;
static unsigned int rbs_repl_max = RBS_REPL_MAX;

#ifdef CONFIG_SYSCTL
static struct ctl_table rbs_sysctls[] = {
	{
		.procname	= "sched_rbs_repl_max",
		.data		= &sysctl_sched_rbs_repl_max,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &rbs_repl_min,
		.extra2		= &rbs_repl_max,
	},
};
#endif

/*
 * A CPU's RBS run queue, protected by the runqueue's lock.
 */
struct rbs_rq {
	struct rb_root_cached	ready;		/* with capacity, by period, then @seq */
	struct rb_root_cached	throttled;	/* without, by their head chunk's time */
	unsigned int		nr_running;
	unsigned int		nr_bg;		/* queued with MS_FLAG_RBS_BACKGROUND */
	unsigned int		nr_rr;		/* shared servers with two members queued or more */
	u64			seq;		/* queueings, for ties of equal periods */
	bool			repl_stale;	/* repl_timer to be armed (rbs_repl_sync()) */
	struct rq		*rq;
	struct hrtimer		budget_timer;	/* ends the running task's capacity */
	struct hrtimer		repl_timer;	/* the first throttled task's replenishment */
};

static DEFINE_PER_CPU(struct rbs_rq, rbs_rqs);

static inline struct rbs_rq *rbs_rq_of(struct rq *rq)
{
	return per_cpu_ptr(&rbs_rqs, cpu_of(rq));
}

static inline struct sched_rbs_entity *rbs_se(struct task_struct *p)
{
	return &p->ms.run.state.rbs;
}

/*
 * The task a server runs: the task itself, or the first of a shared
 * server's queued members (never called on one with none).
 */
static inline struct task_struct *rbs_task_of(struct sched_rbs_entity *se)
{
	if (se->shared)
		se = list_first_entry(&se->members, struct sched_rbs_entity,
				      member);
	return container_of(se, struct task_struct, ms.run.state.rbs);
}

/* The server @p is queued on; its own entity while it is not queued. */
static inline struct sched_rbs_entity *rbs_srv(struct task_struct *p)
{
	struct sched_rbs_entity *te = rbs_se(p);

	return te->on_rq && te->server ? te->server : te;
}

/* The server of @rq's running task, if that is a queued RBS task. */
static inline struct sched_rbs_entity *rbs_curr_srv(struct rq *rq)
{
	struct task_struct *curr = ms_rq_curr(rq);

	if (curr->sched_class != &rbs_sched_class || !rbs_se(curr)->on_rq)
		return NULL;
	return rbs_srv(curr);
}

/*
 * A shared reservation (MS_FLAG_RBS_SHARED): one server for the threads
 * in it, its members: the one that made it, those that joined it
 * (MS_FLAG_RBS_JOIN, rbs_join()). A member queued on the reservation's
 * CPU is queued on @se, whose @members take turns, a tick each; @se is
 * in the CPU's trees while one of them is queued. One that runs
 * elsewhere (a priority-inheritance boost's push, a cpuset change, the
 * moment between its joining and its move) runs on its own entity as a
 * server of the reservation's C and T until it is back: @se is protected
 * by @cpu's rq lock, which such a CPU does not hold.
 *
 * The reservation holds the bandwidth admitted on @cpu, released when the
 * last reference goes: one per member, and one while @se is queued.
 * Reservations come from a pool, refilled where sleeping is allowed
 * (rbs_resv_reserve()), and go back to it; they are never freed, so a
 * lockless reader of a member's pointer reads a reservation, if perhaps
 * a later one (rbs_join() checks), and a change's irq_work may run after
 * the reservation is gone (it checks the server is queued).
 */
struct rbs_resv {
	struct sched_rbs_entity	se;	/* the server, under @cpu's rq lock */
	raw_spinlock_t		lock;	/* @C, @T, @flags, @bw, @nr_members */
	seqcount_raw_spinlock_t	seq;	/* @C, @T, @flags read without @lock */
	refcount_t		ref;
	u64			C;
	u64			T;
	u32			flags;	/* of MS_FLAG_RBS_IO, MS_FLAG_RBS_BACKGROUND */
	u64			bw;	/* admitted on @cpu, rate-monotonic */
	int			cpu;
	unsigned int		nr_members;
	pid_t			id;	/* the thread that made it */
	u64			start;	/* its server's first budget, no sooner */
	struct list_head	pool;	/* in rbs_resv_pool while unused */
	struct irq_work		change;	/* takes a change to @cpu (rbs_resv_changed()) */
};

static LIST_HEAD(rbs_resv_pool);
static DEFINE_RAW_SPINLOCK(rbs_resv_pool_lock);
static unsigned int rbs_resv_nr_free;	/* under rbs_resv_pool_lock */

static inline struct rbs_resv *rbs_resv_of(struct sched_rbs_entity *se)
{
	return container_of(se, struct rbs_resv, se);
}

/* A reservation's parameters, read together. */
struct rbs_params {
	u64	C;
	u64	T;
	u32	flags;
};

/*
 * A shared reservation's parameters, read together without its lock: a
 * member's change writes them under it (rbs_resv_set()), from any CPU.
 */
static void rbs_resv_params(struct rbs_resv *o, struct rbs_params *pa)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&o->seq);
		*pa = (struct rbs_params){ .C = o->C, .T = o->T,
					   .flags = o->flags };
	} while (read_seqcount_retry(&o->seq, seq));
}

static void rbs_resv_set(struct rbs_resv *o, u64 C, u64 T, u32 flags)
{
	lockdep_assert_held(&o->lock);
	write_seqcount_begin(&o->seq);
	o->C = C;
	o->T = T;
	o->flags = flags & (MS_FLAG_RBS_IO | MS_FLAG_RBS_BACKGROUND);
	write_seqcount_end(&o->seq);
}

/* @p's reservation's parameters: its own, or its shared reservation's. */
static void rbs_params_of(struct task_struct *p, struct rbs_params *pa)
{
	struct rbs_resv *o = p->ms.run.rbs_resv;

	if (!o) {
		*pa = (struct rbs_params){ .C = p->ms.runtime,
					   .T = p->ms.period,
					   .flags = p->ms.flags };
		/* the controller's allocation (rbs_ctl.c) */
		if (p->ms.flags & MS_FLAG_RBS_FEEDBACK) {
			pa->C = p->ms.run.ctl_budget;
			pa->T = p->ms.run.ctl_period;
		}
		return;
	}
	rbs_resv_params(o, pa);
}

static void rbs_resv_changed(struct irq_work *work);

/**
 * rbs_resv_reserve - have shared reservations ready in the pool
 *
 * From sched_setattr(2)'s checks, where it may sleep, for a request of
 * MS_FLAG_RBS_SHARED: the admission that takes it runs under the rq lock.
 *
 * Return: 0, or -ENOMEM.
 */
int rbs_resv_reserve(void)
{
	struct rbs_resv *o;

	/* two: one more request racing this one finds one too */
	if (READ_ONCE(rbs_resv_nr_free) >= 2)
		return 0;
	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	raw_spin_lock_init(&o->lock);
	seqcount_raw_spinlock_init(&o->seq, &o->lock);
	o->change = IRQ_WORK_INIT_HARD(rbs_resv_changed);
	raw_spin_lock_irq(&rbs_resv_pool_lock);
	list_add(&o->pool, &rbs_resv_pool);
	WRITE_ONCE(rbs_resv_nr_free, rbs_resv_nr_free + 1);
	raw_spin_unlock_irq(&rbs_resv_pool_lock);
	return 0;
}

static struct rbs_resv *rbs_resv_take(void)
{
	struct rbs_resv *o;
	unsigned long flags;

	raw_spin_lock_irqsave(&rbs_resv_pool_lock, flags);
	o = list_first_entry_or_null(&rbs_resv_pool, struct rbs_resv, pool);
	if (o) {
		list_del(&o->pool);
		WRITE_ONCE(rbs_resv_nr_free, rbs_resv_nr_free - 1);
	}
	raw_spin_unlock_irqrestore(&rbs_resv_pool_lock, flags);
	return o;
}

static void rbs_resv_give_back(struct rbs_resv *o)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&rbs_resv_pool_lock, flags);
	list_add(&o->pool, &rbs_resv_pool);
	WRITE_ONCE(rbs_resv_nr_free, rbs_resv_nr_free + 1);
	raw_spin_unlock_irqrestore(&rbs_resv_pool_lock, flags);
}

/*
 * Drop a reference; the last releases the bandwidth, and with it the
 * reservation's place in its CPU's count of rate-monotonic ones. The
 * server is off its CPU's trees by then: its queued members hold a
 * reference.
 */
static void rbs_resv_put(struct rbs_resv *o)
{
	if (!refcount_dec_and_test(&o->ref))
		return;
	WARN_ON_ONCE(o->se.on_rq);
	/* none if its last member took it along (rbs_part()) */
	if (o->bw)
		__ms_bw_admit(o->cpu, o->bw, 0, 0, true, false);
	rbs_resv_give_back(o);
}

/*
 * Algorithm 12 for @se, which blocks or is preempted at @now with
 * capacity left: what it ran of its head chunk comes back a period after
 * the head's time, as a chunk of its own.
 */
static void rbs_split(struct sched_rbs_entity *se, u64 now)
{
	u64 used = se->ss.usage, back = se->ss.q[0].t + se->ss.T;
	bool full;

	if (!used || se->ss.q[0].t > now)
		return;
	full = rbs_ss_split(&se->ss, now);
	se->nr_split++;
	se->nr_full += full;
	trace_rbs_split(rbs_task_of(se), now, used, back, full);
}

/* Count and trace the chunks that joined @se's head since it had @len. */
static inline void rbs_merged(struct sched_rbs_entity *se, unsigned int len,
			      u64 now)
{
	if (se->ss.len >= len)
		return;
	se->nr_merge += len - se->ss.len;
	trace_rbs_merge(rbs_task_of(se), now, len - se->ss.len, se->ss.q[0].b);
}

/*
 * Algorithm 13 for @se, which wakes at @now: with capacity, its head
 * chunk is used from now on, and the chunks due before it would run out
 * join it.
 */
static void rbs_unblock(struct sched_rbs_entity *se, u64 now)
{
	unsigned int len = se->ss.len;

	rbs_ss_unblock(&se->ss, now);
	rbs_merged(se, len, now);
}

/* @se uses its head chunk from @now on (rbs_ss_start()). */
static void rbs_begin(struct sched_rbs_entity *se, u64 now)
{
	unsigned int len = se->ss.len;

	rbs_ss_start(&se->ss, now);
	rbs_merged(se, len, now);
}

/* The period that ranks @se: its own, or the one an I/O server inherited. */
static inline u64 rbs_period(const struct sched_rbs_entity *se)
{
	return se->io_server ? se->io.T : se->ss.T;
}

/*
 * What @se may run at @now. An I/O server's replenishment due by then
 * counts, but is taken only by rbs_io_update(): a throttled entity's key
 * in its tree must not change.
 */
static inline s64 rbs_capacity(const struct sched_rbs_entity *se, u64 now)
{
	const struct rbs_pibs *io = &se->io;

	if (!se->io_server)
		return rbs_ss_capacity(&se->ss, now);
	if (io->b)
		return io->b;
	if (io->r_valid && io->r_t <= now)
		return min(io->r_b, rbs_pibs_cmax(io));
	return 0;
}

/* Algorithm 8, for an I/O server @se that is not in the throttled tree. */
static inline void rbs_io_update(struct sched_rbs_entity *se, u64 now)
{
	if (se->io_server)
		rbs_pibs_update(&se->io, now);
}

/*
 * When a throttled @se has budget again, the key of the throttled tree:
 * its head chunk's time, or an I/O server's replenishment, which one
 * without budget always has (rbs_pibs_charge()).
 */
static inline u64 rbs_next_time(const struct sched_rbs_entity *se)
{
	if (!se->io_server)
		return se->ss.q[0].t;
	WARN_ON_ONCE(!se->io.r_valid);
	return se->io.r_valid ? se->io.r_t : se->io.e;
}

/* What it gets then, for the trace. */
static inline u64 rbs_next_budget(const struct sched_rbs_entity *se)
{
	if (!se->io_server)
		return se->ss.q[0].b - se->ss.usage;
	return se->io.r_valid ? min(se->io.r_b, rbs_pibs_cmax(&se->io)) : 0;
}

/* Rate-monotonic: the shorter period first, then the one queued first. */
static inline bool rbs_prio_less(const struct sched_rbs_entity *a,
				 const struct sched_rbs_entity *b)
{
	if (rbs_period(a) != rbs_period(b))
		return rbs_period(a) < rbs_period(b);
	return ms_before(a->seq, b->seq);
}

static inline bool rbs_ready_less(struct rb_node *a, const struct rb_node *b)
{
	return rbs_prio_less(rb_entry(a, struct sched_rbs_entity, node),
			     rb_entry(b, struct sched_rbs_entity, node));
}

static inline bool rbs_throttled_less(struct rb_node *a,
				      const struct rb_node *b)
{
	return rbs_next_time(rb_entry(a, struct sched_rbs_entity, node)) <
	       rbs_next_time(rb_entry(b, struct sched_rbs_entity, node));
}

static struct sched_rbs_entity *rbs_first(struct rb_root_cached *root)
{
	struct rb_node *n = rb_first_cached(root);

	return n ? rb_entry(n, struct sched_rbs_entity, node) : NULL;
}

static void rbs_insert(struct rbs_rq *rrq, struct sched_rbs_entity *se)
{
	if (se->throttled)
		rb_add_cached(&se->node, &rrq->throttled, rbs_throttled_less);
	else
		rb_add_cached(&se->node, &rrq->ready, rbs_ready_less);
}

static void rbs_erase(struct rbs_rq *rrq, struct sched_rbs_entity *se)
{
	if (RB_EMPTY_NODE(&se->node))
		return;
	rb_erase_cached(&se->node, se->throttled ? &rrq->throttled :
						   &rrq->ready);
	RB_CLEAR_NODE(&se->node);
}

/*
 * Arm the replenishment timer for the first throttled task, if any. The
 * chunks' times are rq clock readings, not CLOCK_MONOTONIC's: the timer
 * is armed for the time from now. The rq clock is up to date.
 */
static void rbs_arm_repl(struct rbs_rq *rrq)
{
	struct sched_rbs_entity *se = rbs_first(&rrq->throttled);
	s64 delay;

	rrq->repl_stale = false;
	if (!se) {
		hrtimer_try_to_cancel(&rrq->repl_timer);
		return;
	}
	delay = rbs_next_time(se) - rq_clock(rrq->rq);
	hrtimer_start(&rrq->repl_timer, ns_to_ktime(max_t(s64, delay, 0)),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * The replenishment timer of a server that runs out as it runs is armed
 * when it leaves the CPU, not at once: the switch charges the budget
 * timer's lateness, which moves its head chunk, and replenishes the
 * server that runs next, which the timer may not have reached yet; the
 * timer would be armed two or three times. So @repl_stale is set only
 * with a reschedule asked for (or the timer armed at once, in the
 * background), and the switch syncs it: pick_task_rbs(), or
 * put_prev_task_rbs() if a class above runs next. A dequeue and the tick
 * sync it too.
 */
static inline void rbs_repl_sync(struct rbs_rq *rrq)
{
	if (rrq->repl_stale)
		rbs_arm_repl(rrq);
}

/*
 * @se, queued, has no capacity left: it waits for its head chunk. Its
 * replenishment timer is armed later if it is the running server, which
 * is @leaving the CPU.
 */
static void rbs_throttle(struct rbs_rq *rrq, struct sched_rbs_entity *se,
			 bool leaving)
{
	rbs_erase(rrq, se);
	se->throttled = 1;
	se->nr_exhausted++;
	rbs_insert(rrq, se);
	if (rbs_first(&rrq->throttled) == se) {
		if (leaving)
			rrq->repl_stale = true;
		else
			rbs_arm_repl(rrq);
	}
	trace_rbs_throttle(rbs_task_of(se), rq_clock(rrq->rq), rbs_next_time(se));
}

/*
 * Background mode (Quest's background priority): a task out of capacity
 * whose reservation has MS_FLAG_RBS_BACKGROUND may run, uncharged, when
 * nothing else on its CPU is runnable: no task of any class is queued
 * there but throttled RBS tasks. rq->nr_running counts tasks, and BEBS's
 * expired servers, which keep a background task off the CPU until their
 * release. In 6.12 it also counts a dl_server queued in the deadline
 * class (inc_dl_tasks()): one is queued while its class has tasks here,
 * which count anyway, and at most until the next pick after the class
 * emptied, which stops it; background time can wait for that pick.
 */
static inline bool rbs_cpu_idle_but_throttled(struct rq *rq)
{
	struct rbs_rq *rrq = rbs_rq_of(rq);

	/* fair's sleepers whose dequeue it delays (DELAY_DEQUEUE) count too */
	return rrq->nr_bg && !rbs_first(&rrq->ready) &&
	       rq->nr_running - rq->cfs.h_nr_delayed == rrq->nr_running;
}

/* The first throttled task to be replenished that may run in the background. */
static struct sched_rbs_entity *rbs_first_bg(struct rbs_rq *rrq)
{
	struct rb_node *n;

	for (n = rb_first_cached(&rrq->throttled); n; n = rb_next(n)) {
		struct sched_rbs_entity *se;

		se = rb_entry(n, struct sched_rbs_entity, node);
		if (se->bg)
			return se;
	}
	return NULL;
}

/*
 * The running task @se, throttled, goes on in the background if it may:
 * uncharged, its chunks waiting as they are. True if it does.
 */
static bool rbs_bg_start(struct rq *rq, struct sched_rbs_entity *se)
{
	if (se->bg_running)
		return true;
	if (!se->bg || !rbs_cpu_idle_but_throttled(rq))
		return false;
	se->bg_running = 1;
	se->bg_start = rq_clock_task(rq);
	trace_rbs_background(rbs_task_of(se), true);
	return true;
}

static void rbs_bg_stop(struct rq *rq, struct sched_rbs_entity *se)
{
	if (!se->bg_running)
		return;
	se->bg_running = 0;
	se->bg_time += rq_clock_task(rq) - se->bg_start;
	trace_rbs_background(rbs_task_of(se), false);
}

/**
 * ms_wakeup_below - a task of a class below the running one's was queued
 * @rq:		its runqueue, locked
 *
 * From wakeup_preempt(), which leaves a class above the woken task's
 * running: an RBS task running in the background gives way to any task.
 */
void ms_wakeup_below(struct rq *rq)
{
	struct task_struct *curr = ms_rq_curr(rq);

	if (curr->sched_class == &rbs_sched_class && rbs_srv(curr)->bg_running)
		resched_curr(rq);
}

static void rbs_arm_budget(struct rq *rq, struct sched_rbs_entity *se);

/*
 * @se, throttled, has budget at @now: it may run again. @due is the time
 * its head chunk came due, for the trace: @now or before, or up to
 * RBS_EARLY_NS after it if rbs_replenish_early() brought it forward. One
 * that is still the running task (it had yet to be switched out) goes on
 * without a switch, so its chunk starts and its budget timer is armed
 * here.
 */
static void rbs_replenish(struct rbs_rq *rrq, struct sched_rbs_entity *se,
			  u64 now, u64 due)
{
	trace_rbs_replenish(rbs_task_of(se), now, due, rbs_next_budget(se));
	rbs_erase(rrq, se);
	se->throttled = 0;
	/*
	 * Queued again, behind the servers of its period that are ready, as
	 * SCHED_FIFO queues a task made runnable at the tail of its
	 * priority: it does not preempt one of them that runs, which would
	 * split that one's chunk for nothing.
	 */
	se->seq = rrq->seq++;
	rbs_io_update(se, now);
	rbs_insert(rrq, se);
	if (rbs_curr_srv(rrq->rq) == se) {
		rbs_bg_stop(rrq->rq, se);
		if (!se->io_server)
			rbs_begin(se, now);
		rbs_arm_budget(rrq->rq, se);
	}
}

/* Replenish the throttled tasks whose head chunk is due by @now. */
static bool rbs_replenish_due(struct rbs_rq *rrq, u64 now)
{
	struct sched_rbs_entity *se;
	bool any = false;

	while ((se = rbs_first(&rrq->throttled)) &&
	       rbs_capacity(se, now) > 0) {
		rbs_replenish(rrq, se, now, rbs_next_time(se));
		any = true;
	}
	return any;
}

/* how early a server may be replenished after one of its period ran out */
#define RBS_EARLY_NS	(10 * NSEC_PER_USEC)

/*
 * The running server ran out and no RBS server is ready: if the first
 * throttled one is a Main server of the same period whose head chunk
 * comes due within RBS_EARLY_NS, it is returned, to be replenished now,
 * its chunk's time brought forward to now, so that it runs straight after
 * the one that ran out rather than a task of a class below running for
 * those few microseconds between them. Servers of one period that run
 * back to back otherwise drift apart: a chunk's time is when its use
 * began, and the timers' latencies differ from one period to the next,
 * so now and then a gap of a microsecond or two opens that nothing
 * closes, two switches a period from then on.
 *
 * The chunk comes back a period after its new time, so the server may run
 * C plus RBS_EARLY_NS in a window of T. It is only ever brought up to the
 * end of a server of its period, none of which starts before the first
 * of them in that period, which is not brought forward: over many
 * periods it runs no more than C every T. (A server of another period,
 * or an I/O server, would let it lock onto that one's period.) Only the
 * first throttled server is looked at: one of another period due sooner
 * is replenished by the timer a few microseconds later anyway.
 *
 * With the rq lock held and the rq clock, @now, updated; from
 * pick_task_rbs(), which replenishes it, and balance_rbs(), which asks.
 */
static struct sched_rbs_entity *rbs_early(struct rbs_rq *rrq, u64 now)
{
	struct sched_rbs_entity *curr = rbs_curr_srv(rrq->rq), *se;

	if (!curr || !curr->throttled || curr->bg_running || curr->io_server)
		return NULL;
	se = rbs_first(&rrq->throttled);
	if (!se || se == curr || se->io_server ||
	    rbs_period(se) != rbs_period(curr) ||
	    rbs_ss_capacity(&se->ss, now + RBS_EARLY_NS) <= 0)
		return NULL;
	return se;
}

/*
 * Replenish rbs_early()'s server now; true if there is one. Its head is
 * not due yet: rbs_replenish_due() has just run with the same @now.
 */
static bool rbs_replenish_early(struct rbs_rq *rrq, u64 now)
{
	struct sched_rbs_entity *se = rbs_early(rrq, now);
	u64 due;

	if (!se)
		return false;
	due = se->ss.q[0].t;
	rbs_erase(rrq, se);
	se->ss.q[0].t = now;
	rbs_insert(rrq, se);
	rbs_replenish(rrq, se, now, due);
	return true;
}

/* Charge @se's server with @delta it ran (algorithm 7 for an I/O server). */
static inline void rbs_charge(struct sched_rbs_entity *se, u64 delta, u64 now)
{
	if (se->io_server)
		rbs_pibs_charge(&se->io, delta, false);
	else
		rbs_ss_charge(&se->ss, delta, now);
}

/*
 * Algorithm 10: the I/O server @p was woken since it last looked, by
 * threads asking for work at the shortest period they had
 * (rbs_io_waking()). One that is @active (queued: woken before it
 * slept, or running, or queued again without a wakeup, as at a deboost
 * or a migration) takes only a shorter period. Its key changes, so it
 * leaves its tree meanwhile. Returns true if its budget shrank while it
 * runs: its budget timer is then to be armed again, once what it ran is
 * charged.
 */
static bool rbs_io_request(struct rbs_rq *rrq, struct sched_rbs_entity *se,
			   struct task_struct *p, u64 now, bool active)
{
	bool curr;
	u64 b;
	u32 T;

	if (!se->io_server || !READ_ONCE(p->ms.run.io_request))
		return false;
	T = xchg(&p->ms.run.io_request, 0);
	if (!T)
		return false;
	curr = task_current(rrq->rq, p) || rbs_curr_srv(rrq->rq) == se;
	b = se->io.b;
	if (se->on_rq)
		rbs_erase(rrq, se);
	rbs_pibs_request(&se->io, T, now, active, curr);
	se->nr_request++;
	trace_rbs_io_request(p, now, T, se->io.T, se->io.e, se->io.b);
	if (!se->on_rq)
		return false;
	rbs_insert(rrq, se);
	if (se->throttled && rbs_first(&rrq->throttled) == se)
		rbs_arm_repl(rrq);
	return curr && se->io.b < b;
}

static void update_curr_rbs(struct rq *rq)
{
	struct task_struct *curr = ms_rq_curr(rq);
	struct sched_rbs_entity *se = rbs_curr_srv(rq);
	struct rbs_rq *rrq = rbs_rq_of(rq);
	bool shrank;
	u64 now;
	s64 delta;

	if (!se)
		return;
	now = rq_clock(rq);
	/* a request that came while it ran (it was woken before it slept) */
	shrank = se->io_server && rbs_io_request(rrq, se, curr, now, true);
	delta = update_curr_common(rq);
	if (delta <= 0) {
		if (shrank)
			rbs_arm_budget(rq, se);
		return;
	}
	/* in the background, uncharged, while the CPU has nothing else */
	if (se->bg_running) {
		if (!rbs_cpu_idle_but_throttled(rq))
			resched_curr(rq);
		return;
	}
	if (se->throttled) {
		/*
		 * It runs out of budget until it is switched out, or goes
		 * on in the background: charged, which delays its head
		 * chunk (rbs_ss_budget_check()), the throttled tree's key,
		 * so it is queued anew; and asked again to leave the CPU.
		 */
		rbs_erase(rrq, se);
		rbs_charge(se, delta, now);
		rbs_insert(rrq, se);
		if (rbs_first(&rrq->throttled) == se)
			rrq->repl_stale = true;
		if (rbs_bg_start(rq, se))
			rbs_repl_sync(rrq);
		else
			resched_curr(rq);
		return;
	}
	rbs_charge(se, delta, now);
	rbs_io_update(se, now);
	if (rbs_capacity(se, now) <= 0) {
		rbs_throttle(rrq, se, true);
		if (rbs_bg_start(rq, se))
			rbs_repl_sync(rrq);
		else
			resched_curr(rq);
		return;
	}
	/* it goes on, maybe into a chunk that came due meanwhile */
	if (!se->io_server)
		rbs_begin(se, now);
	else if (shrank)
		rbs_arm_budget(rq, se);
}

/*
 * Arm the budget timer for the running task's capacity. Capacity is
 * charged in task time, which leaves out interrupts, so the timer may
 * fire early: it is then armed again for what is left.
 */
static void rbs_arm_budget(struct rq *rq, struct sched_rbs_entity *se)
{
	s64 left;

	if (!se->on_rq || se->throttled)
		return;
	left = rbs_capacity(se, rq_clock(rq));
	hrtimer_start(&rbs_rq_of(rq)->budget_timer,
		      ns_to_ktime(max_t(s64, left, 0)),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static enum hrtimer_restart rbs_budget_timer(struct hrtimer *timer)
{
	struct rbs_rq *rrq = container_of(timer, struct rbs_rq, budget_timer);
	struct rq *rq = rrq->rq;
	struct task_struct *curr;
	struct rq_flags rf;

	rq_lock(rq, &rf);
	update_rq_clock(rq);
	update_curr_rbs(rq);
	curr = ms_rq_curr(rq);
	if (curr->sched_class == &rbs_sched_class)
		rbs_arm_budget(rq, rbs_srv(curr));
	rq_unlock(rq, &rf);
	return HRTIMER_NORESTART;
}

/*
 * Would @se, just woken or replenished, preempt what @rq runs? It does a
 * lower class's task, and an RBS task of a longer period, or one that is
 * out of capacity.
 */
static void rbs_check_preempt(struct rq *rq, struct sched_rbs_entity *se)
{
	struct task_struct *curr = ms_rq_curr(rq);
	struct sched_rbs_entity *cse;

	if (se->throttled || !se->on_rq)
		return;
	if (sched_class_above(&rbs_sched_class, curr->sched_class)) {
		resched_curr(rq);
		return;
	}
	if (curr->sched_class != &rbs_sched_class)
		return;
	update_curr_rbs(rq);
	cse = rbs_srv(curr);
	/* a member of the running reservation waits for its turn */
	if (cse == se)
		return;
	if (!cse->on_rq || cse->throttled || rbs_prio_less(se, cse))
		resched_curr(rq);
}

static enum hrtimer_restart rbs_repl_timer(struct hrtimer *timer)
{
	struct rbs_rq *rrq = container_of(timer, struct rbs_rq, repl_timer);
	struct rq *rq = rrq->rq;
	struct sched_rbs_entity *se;
	struct rq_flags rf;

	rq_lock(rq, &rf);
	update_rq_clock(rq);
	/* what the running task ran so far, background or not, is its own */
	update_curr_rbs(rq);
	if (rbs_replenish_due(rrq, rq_clock(rq))) {
		se = rbs_first(&rrq->ready);
		if (se)
			rbs_check_preempt(rq, se);
	}
	if (rbs_first(&rrq->throttled))
		rbs_arm_repl(rrq);
	else
		rrq->repl_stale = false;
	rq_unlock(rq, &rf);
	return HRTIMER_NORESTART;
}

/*
 * When a server that turns into the other kind (MS_FLAG_RBS_IO set or
 * cleared) may first run: not before its old server would have had
 * budget again, so that a change of kind, like a change of C or T
 * (rbs_ss_change()), gives no budget back. An I/O server is eligible
 * again when what it ran since e has moved e on; a sporadic server has
 * all of its budget back at its last chunk's time, or a period after
 * the head's if it ran some of it, or when its debt is paid.
 */
static u64 rbs_kind_change_time(const struct sched_rbs_entity *se, u64 now)
{
	const struct rbs_pibs *io = &se->io;
	const struct rbs_ss *ss = &se->ss;
	u64 t = now;

	if (se->io_server) {
		t = max(t, io->e + DIV64_U64_ROUND_UP(io->usage << BW_SHIFT,
						      io->U));
		return io->r_valid ? max(t, io->r_t) : t;
	}
	if (ss->len)
		t = max(t, ss->q[ss->len - 1].t);
	if (ss->usage)
		t = max(t, ss->q[0].t + ss->T);
	return ss->debt ? max(t, ss->debt_t) : t;
}

/*
 * A new server: all of C is usable now (algorithm 6). A new I/O server
 * has no budget until it is asked for work; it is asked now, at its own
 * period. A thread that turns from one kind into the other gets a new
 * server of the new kind, usable from rbs_kind_change_time(). A request
 * left from before is dropped, unless the server starts at the wakeup it
 * belongs to (@wakeup).
 */
static void rbs_start(struct sched_rbs_entity *se, struct task_struct *p,
		      const struct rbs_params *pa, u64 now, bool wakeup)
{
	u64 from = se->started ? rbs_kind_change_time(se, now) : now;

	/* the first of its own after it left a shared one (rbs_drop()) */
	if (!se->started && !se->shared)
		from = max(from, p->ms.run.rbs_not_before);
	/* a shared reservation's first server goes on from its maker's */
	if (se->shared && !se->started)
		from = max(from, rbs_resv_of(se)->start);
	if (!wakeup)
		xchg(&p->ms.run.io_request, 0);
	rbs_ss_init(&se->ss, pa->C, pa->T, se->q,
		    READ_ONCE(sysctl_sched_rbs_repl_max), from);
	se->io_server = !!(pa->flags & MS_FLAG_RBS_IO);
	if (se->io_server) {
		se->ss.len = 0;
		rbs_pibs_init(&se->io, to_ratio(pa->T, pa->C), pa->T, from);
		rbs_pibs_request(&se->io, pa->T, now, false, false);
		se->nr_request++;
	}
	se->started = 1;
	trace_rbs_change(p, 0, 0, se->ss.C, se->ss.T);
}

/*
 * sched_setattr(2) (or the controller, rbs_ctl_set()) changed the budget or
 * the period: the server goes on with its chunks (rbs_ss_change()), so
 * that a change gives no budget back. Called at the enqueue that follows
 * the change, under the rq lock; admission has been done.
 */
static void rbs_change(struct sched_rbs_entity *se, struct task_struct *p,
		       const struct rbs_params *pa, u64 now)
{
	u64 C = se->ss.C, T = se->ss.T;

	if (se->io_server) {
		/* a new U; the period is the requesters' until it blocks */
		se->ss.C = pa->C;
		se->ss.T = pa->T;
		rbs_pibs_set_u(&se->io, to_ratio(pa->T, pa->C) ?: 1, pa->T);
		se->io.b = min(se->io.b, rbs_pibs_cmax(&se->io));
	} else {
		rbs_ss_change(&se->ss, pa->C, pa->T, now);
	}
	se->nr_change++;
	trace_rbs_change(p, C, T, se->ss.C, se->ss.T);
}

/*
 * A shared server's parameters changed (rbs_admit_shared()) while it was
 * queued, or its kind: it takes them at @now, as at an enqueue, and
 * moves in its trees.
 */
static void rbs_resync(struct rbs_rq *rrq, struct sched_rbs_entity *se,
		       struct task_struct *p, const struct rbs_params *pa,
		       u64 now)
{
	rbs_erase(rrq, se);
	rrq->nr_bg -= se->bg;
	if (se->io_server != !!(pa->flags & MS_FLAG_RBS_IO))
		rbs_start(se, p, pa, now, false);
	else
		rbs_change(se, p, pa, now);
	se->bg = !!(pa->flags & MS_FLAG_RBS_BACKGROUND);
	rrq->nr_bg += se->bg;
	se->throttled = rbs_capacity(se, now) <= 0;
	/*
	 * One that ran in the background and has budget again, or may no
	 * longer run there, stops: charged from now on (the same task may
	 * be picked again, with no put_prev_task_rbs() to stop it).
	 */
	if (se->bg_running && (!se->throttled || !se->bg)) {
		rbs_bg_stop(rrq->rq, se);
		if (!se->throttled && rbs_curr_srv(rrq->rq) == se &&
		    !se->io_server)
			rbs_begin(se, now);
	}
	rbs_insert(rrq, se);
	if (se->throttled && rbs_first(&rrq->throttled) == se)
		rbs_arm_repl(rrq);
	if (!se->throttled && rbs_curr_srv(rrq->rq) == se)
		rbs_arm_budget(rrq->rq, se);
}

static inline bool rbs_params_differ(const struct sched_rbs_entity *se,
				     const struct rbs_params *pa)
{
	return se->ss.C != pa->C || se->ss.T != pa->T ||
	       se->io_server != !!(pa->flags & MS_FLAG_RBS_IO) ||
	       se->bg != !!(pa->flags & MS_FLAG_RBS_BACKGROUND);
}

/*
 * @p joins the members queued on its reservation's server @se, which is
 * queued already: its wakeup is a request if @se is an I/O server.
 */
static void rbs_enqueue_member(struct rq *rq, struct sched_rbs_entity *se,
			       struct task_struct *p,
			       const struct rbs_params *pa, int flags)
{
	struct rbs_rq *rrq = rbs_rq_of(rq);
	u64 now = rq_clock(rq);

	if (rbs_params_differ(se, pa)) {
		update_curr_rbs(rq);
		rbs_resync(rrq, se, p, pa, now);
		if (rbs_curr_srv(rq) == se)
			resched_curr(rq);
	}
	if (se->io_server) {
		if ((flags & ENQUEUE_WAKEUP) && !READ_ONCE(p->ms.run.io_request))
			WRITE_ONCE(p->ms.run.io_request, pa->T);
		rbs_io_request(rrq, se, p, now, true);
	}
	if (se->throttled && task_current(rq, p) && !se->bg_running)
		resched_curr(rq);
	if (!(flags & ENQUEUE_WAKEUP) && !task_current(rq, p))
		rbs_check_preempt(rq, se);
}

/*
 * A member away from its reservation's CPU gives back what it counted
 * there (rbs_away_move()): it is back, or leaves the reservation.
 */
static void rbs_away_release(struct task_struct *p)
{
	struct sched_ms_run *run = &p->ms.run;
	u64 bw = xchg(&run->rbs_away_bw, 0);

	if (bw)
		__ms_bw_admit(run->rbs_away_cpu, bw, 0, 0, true, false);
}

static void enqueue_task_rbs(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_rbs_entity *te = rbs_se(p), *se = te;
	struct rbs_resv *o = p->ms.run.rbs_resv;
	struct rbs_rq *rrq = rbs_rq_of(rq);
	u64 now = rq_clock(rq);
	struct rbs_params pa;

	rbs_params_of(p, &pa);
	if (WARN_ON_ONCE(!pa.C || !pa.T))
		return;
	/*
	 * A member on its reservation's CPU is queued on the shared server,
	 * and counts nothing where it was away: it may have come back in
	 * another class (a priority-inheritance boost), which does not call
	 * migrate_task_rq_rbs().
	 */
	if (o && o->cpu == cpu_of(rq)) {
		se = &o->se;
		if (unlikely(p->ms.run.rbs_away_bw))
			rbs_away_release(p);
	}
	/*
	 * A task on a server of its own is queued with it, below; one on a
	 * shared server at once: the server's trace events name its members.
	 */
	te->server = se;
	rrq->nr_running++;
	if (se != te) {
		te->on_rq = 1;
		list_add_tail(&te->member, &se->members);
		if (se->nr_queued++) {
			/* members to take turns: the tick is needed (nohz_full) */
			rrq->nr_rr += se->nr_queued == 2;
			add_nr_running(rq, 1);
			rbs_enqueue_member(rq, se, p, &pa, flags);
			return;
		}
		refcount_inc(&o->ref);
	}
	add_nr_running(rq, 1);
	if (!se->started || se->io_server != !!(pa.flags & MS_FLAG_RBS_IO))
		rbs_start(se, p, &pa, now, flags & ENQUEUE_WAKEUP);
	else if (se->ss.C != pa.C || se->ss.T != pa.T)
		rbs_change(se, p, &pa, now);
	if (se->io_server) {
		/* every wakeup is a request: at its own period if no reservation's */
		if ((flags & ENQUEUE_WAKEUP) && !READ_ONCE(p->ms.run.io_request))
			WRITE_ONCE(p->ms.run.io_request, pa.T);
		rbs_io_request(rrq, se, p, now, !(flags & ENQUEUE_WAKEUP));
		rbs_io_update(se, now);
	} else if (flags & ENQUEUE_WAKEUP) {
		rbs_unblock(se, now);
	}
	se->throttled = rbs_capacity(se, now) <= 0;
	se->seq = rrq->seq++;
	se->on_rq = 1;
	se->bg = !!(pa.flags & MS_FLAG_RBS_BACKGROUND);
	rrq->nr_bg += se->bg;
	rbs_insert(rrq, se);
	if (se->throttled && rbs_first(&rrq->throttled) == se)
		rbs_arm_repl(rrq);
	/* the running task, back without budget (a deboost, a change) */
	if (se->throttled && task_current(rq, p) && !se->bg_running)
		resched_curr(rq);
	/*
	 * One given budget by a change, or moved here, may preempt what
	 * runs: no wakeup_preempt() follows a change. One given background
	 * mode without budget runs now on a CPU that idles.
	 */
	if (!(flags & ENQUEUE_WAKEUP) && !task_current(rq, p)) {
		rbs_check_preempt(rq, se);
		if (se->throttled && se->bg && is_idle_task(ms_rq_curr(rq)) &&
		    rbs_cpu_idle_but_throttled(rq))
			resched_curr(rq);
	}
}

static bool dequeue_task_rbs(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_rbs_entity *te = rbs_se(p), *se = te->server;
	struct rbs_rq *rrq = rbs_rq_of(rq);

	if (!te->on_rq)
		return true;
	update_curr_rbs(rq);
	/* the server goes on with the others, and in the background without it */
	if (task_current(rq, p))
		rbs_bg_stop(rq, se);
	if (se != te && se->nr_queued > 1) {
		list_del_init(&te->member);
		rrq->nr_rr -= --se->nr_queued == 1;
		goto out;
	}
	rbs_erase(rrq, se);
	/* algorithm 7: an I/O server that blocks is eligible again at e */
	if ((flags & DEQUEUE_SLEEP) && se->io_server)
		rbs_pibs_charge(&se->io, 0, true);
	/* algorithm 12: it blocks with capacity; what it used comes back at T */
	else if ((flags & DEQUEUE_SLEEP) && !se->throttled)
		rbs_split(se, rq_clock(rq));
	se->on_rq = 0;
	se->throttled = 0;
	rrq->nr_bg -= se->bg;
	se->bg = 0;
	if (se != te) {
		list_del_init(&te->member);
		se->nr_queued = 0;
		rbs_resv_put(rbs_resv_of(se));
	}
out:
	rbs_repl_sync(rrq);
	te->on_rq = 0;
	te->server = NULL;
	rrq->nr_running--;
	sub_nr_running(rq, 1);
	return true;
}

static struct task_struct *pick_task_rbs(struct rq *rq)
{
	struct rbs_rq *rrq = rbs_rq_of(rq);
	struct sched_rbs_entity *se;

	if (!rrq->nr_running)
		return NULL;
	update_curr_rbs(rq);
	/* replenishments the timer has yet to make */
	if (rbs_replenish_due(rrq, rq_clock(rq)))
		rrq->repl_stale = true;
	se = rbs_first(&rrq->ready);
	if (!se && rbs_replenish_early(rrq, rq_clock(rq))) {
		rrq->repl_stale = true;
		se = rbs_first(&rrq->ready);
	}
	rbs_repl_sync(rrq);
	if (!se && rbs_cpu_idle_but_throttled(rq))
		se = rbs_first_bg(rrq);
	return se ? rbs_task_of(se) : NULL;
}

/*
 * A task switched out while it still has capacity and wants to run (it
 * was preempted) splits off what it ran, as one that blocks does
 * (algorithm 12): the rest begins again when it runs again
 * (rbs_ss_start()), so that every chunk is used in one stretch from its
 * time, and no window of T holds more than C.
 */
static void put_prev_task_rbs(struct rq *rq, struct task_struct *p,
			      struct task_struct *next)
{
	struct sched_rbs_entity *se = rbs_srv(p);

	update_curr_rbs(rq);
	rbs_repl_sync(rbs_rq_of(rq));
	ms_update_util(rq, true);
	/* another member of its reservation: the server goes on running */
	if (se->shared && next && next != p &&
	    next->sched_class == &rbs_sched_class && rbs_srv(next) == se)
		return;
	rbs_bg_stop(rq, se);
	hrtimer_try_to_cancel(&rbs_rq_of(rq)->budget_timer);
	if (se->on_rq && !se->throttled && !se->io_server)
		rbs_split(se, rq_clock(rq));
}

static void set_next_task_rbs(struct rq *rq, struct task_struct *p, bool first)
{
	struct sched_rbs_entity *se = rbs_srv(p);

	p->se.exec_start = rq_clock_task(rq);
	ms_update_util(rq, false);
	if (se->on_rq && !se->throttled && !se->io_server)
		rbs_begin(se, rq_clock(rq));
	else if (se->on_rq && se->throttled && !rbs_bg_start(rq, se))
		resched_curr(rq);
	rbs_arm_budget(rq, se);
}

/*
 * The tick charges the running task, and arms its budget timer if
 * nothing did (a task given budget back while it ran, with the switch
 * that would have armed it skipped as the same task was picked). A task
 * that runs on a CPU other than its reservation's, where its bandwidth
 * is not counted, is sent back.
 */
/*
 * The tick of a shared reservation's running member @p: a change of the
 * reservation's parameters made while the server was queued is taken,
 * and the members take turns.
 */
static void rbs_tick_shared(struct rq *rq, struct sched_rbs_entity *se,
			    struct task_struct *p)
{
	struct sched_rbs_entity *te = rbs_se(p);
	struct rbs_params pa;

	rbs_params_of(p, &pa);
	if (rbs_params_differ(se, &pa)) {
		rbs_resync(rbs_rq_of(rq), se, p, &pa, rq_clock(rq));
		resched_curr(rq);
	}
	/* the one that ran goes last, wherever it was (queued anew, say) */
	if (se->nr_queued > 1) {
		list_move_tail(&te->member, &se->members);
		resched_curr(rq);
	}
}

static void task_tick_rbs(struct rq *rq, struct task_struct *p, int queued)
{
	struct sched_rbs_entity *se = rbs_srv(p);

	update_curr_rbs(rq);
	rbs_repl_sync(rbs_rq_of(rq));
	ms_tick_util(rq);
	if (se->shared)
		rbs_tick_shared(rq, se, p);
	if (se->on_rq && !se->throttled &&
	    !hrtimer_active(&rbs_rq_of(rq)->budget_timer))
		rbs_arm_budget(rq, se);
	/* away from its reservation's CPU (see ms_queue_work()): it goes back */
	if (ms_away(p, cpu_of(rq)))
		ms_queue_work(p, MS_WORK_PLACE);
}

static void wakeup_preempt_rbs(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_rbs_entity *se = rbs_srv(p);

	/* an I/O server woken while still queued takes the request here */
	rbs_io_request(rbs_rq_of(rq), se, p, rq_clock(rq), true);
	rbs_check_preempt(rq, se);
}

/**
 * rbs_io_waking - a thread wakes an RBS I/O server
 * @p:		the I/O server's thread
 *
 * From try_to_wake_up(), in the waker's context, under @p's pi_lock,
 * once for every wakeup of a sleeping @p. A waker in an RBS reservation
 * asks for work at its period, or at the one it inherited if it is an
 * I/O server itself; the server takes the shortest period asked for
 * since it last looked (rbs_io_request()). A wakeup from an interrupt
 * (a threaded handler's), or by a thread outside RBS, asks at the
 * server's own period: an interrupt does not tell whom it serves.
 */
void rbs_io_waking(struct task_struct *p)
{
	struct rbs_resv *o = READ_ONCE(p->ms.run.rbs_resv);
	struct sched_rbs_entity *ws;
	struct task_struct *w = current;
	u64 period = 0;
	u32 T, old;

	lockdep_assert_held(&p->pi_lock);
	if (p->policy != SCHED_RBS ||
	    !((o ? READ_ONCE(o->flags) : p->ms.flags) & MS_FLAG_RBS_IO))
		return;
	/*
	 * The waker's server: a reservation it shares, which is never
	 * freed (struct rbs_resv), or its own.
	 */
	if (in_task() && w != p && w->policy == SCHED_RBS &&
	    w->ms.run.state_policy == SCHED_RBS) {
		ws = READ_ONCE(rbs_se(w)->server) ?: rbs_se(w);
		if (READ_ONCE(ws->started))
			period = READ_ONCE(ws->io_server) ?
				 READ_ONCE(ws->io.T) : READ_ONCE(ws->ss.T);
	}
	/* @w's state may change under us (it is not locked): keep it sane */
	T = period ? clamp_t(u64, period, MS_PERIOD_MIN, MS_PERIOD_MAX) :
		     (o ? READ_ONCE(o->T) : p->ms.period);
	old = READ_ONCE(p->ms.run.io_request);
	do {
		if (old && old <= T)
			return;
	} while (!try_cmpxchg(&p->ms.run.io_request, &old, T));
}

/* A reservation is not given up by yielding: the task keeps its chunks. */
static void yield_task_rbs(struct rq *rq)
{
}

/*
 * A task that joins RBS starts a new server at its first enqueue; one
 * that comes back after a priority-inheritance boost keeps its chunks.
 */
static void switching_to_rbs(struct rq *rq, struct task_struct *p)
{
	struct sched_rbs_entity *te = rbs_se(p);

	if (ms_own_state(p, SCHED_RBS))
		return;
	RB_CLEAR_NODE(&te->node);
	INIT_LIST_HEAD(&te->member);
	INIT_LIST_HEAD(&te->members);
}

static void prio_changed_rbs(struct rq *rq, struct task_struct *p, int oldprio)
{
	/* nice means nothing to a reservation */
}

#ifdef CONFIG_SMP
/*
 * A member of a shared reservation that the kernel moves to @new_cpu,
 * off the reservation's CPU (a cpuset change: an affinity without that
 * CPU is refused, and a boosted member moves in another class), runs
 * there on a server of its own with the reservation's C and T
 * (enqueue_task_rbs()). That bandwidth is counted on the CPU it runs on,
 * without admission, as a cpuset move does with a reservation of the
 * task's own (ms_migrate_reservation()): k members sent away run up to
 * (k + 1) C every T, and the CPUs they run on show it. Back on the
 * reservation's CPU (here, or at its enqueue there, when it came back
 * boosted), or leaving the reservation (rbs_drop()), it gives that back.
 * What it counts is the reservation's bandwidth when it left; a change of
 * the reservation meanwhile does not move it. A boosted member that moves
 * in the real-time class moves no count: what it counted stays where it
 * was counted until it is back or leaves.
 */
static void rbs_away_move(struct task_struct *p, int new_cpu)
{
	struct sched_ms_run *run = &p->ms.run;
	struct rbs_resv *o = READ_ONCE(run->rbs_resv);
	u64 bw;

	if (!o || new_cpu == o->cpu) {
		rbs_away_release(p);
		return;
	}
	if (run->rbs_away_bw) {
		ms_bw_move(run->rbs_away_cpu, new_cpu, run->rbs_away_bw, true);
		WRITE_ONCE(run->rbs_away_cpu, new_cpu);
		return;
	}
	/* the reservation's, as changed since the member joined */
	bw = READ_ONCE(o->bw);
	if (!bw)
		return;
	ms_bw_add(new_cpu, bw, true);
	WRITE_ONCE(run->rbs_away_cpu, new_cpu);
	WRITE_ONCE(run->rbs_away_bw, bw);
}

/* A task stays on the CPU of its reservation while it may run there. */
static int select_task_rq_rbs(struct task_struct *p, int cpu, int flags)
{
	int resv = READ_ONCE(p->ms.run.resv_cpu);

	if (READ_ONCE(p->ms.run.resv_bw) && cpu_active(resv) &&
	    cpumask_test_cpu(resv, p->cpus_ptr))
		return resv;
	return cpu;
}

/*
 * Off its CPU only when it must (a cpuset change): the reservation
 * follows. A boosted task moved by the class it was boosted to (the
 * real-time class's push) leaves it behind, and goes back from the tick.
 */
static void migrate_task_rq_rbs(struct task_struct *p, int new_cpu)
{
	if (p->ms.run.resv_shared)
		rbs_away_move(p, new_cpu);
	else
		ms_migrate_reservation(p, new_cpu);
}

/*
 * A member of a shared reservation on its CPU, away from the
 * reservation's, which it may no longer use or which is inactive (a
 * cpuset took it away while the member was away, pushed there by the
 * class a priority-inheritance boost put it in, whose callbacks count
 * nothing): counted where it is, as if the cpuset had moved it
 * (rbs_away_move()), rather than run there uncounted until it leaves.
 * One that may go back goes from the tick; one on a CPU it may not use
 * either is counted where its wakeup or the stopper takes it
 * (migrate_task_rq_rbs()). The affinity is @cpus_mask, not @cpus_ptr,
 * which migrate_disable() narrows for a while. Its rq lock is held too
 * if it is queued.
 */
static void rbs_away_fixup(struct task_struct *p)
{
	struct rbs_resv *o = READ_ONCE(p->ms.run.rbs_resv);
	int cpu = task_cpu(p), home;

	lockdep_assert_held(&p->pi_lock);
	if (!o || !cpumask_test_cpu(cpu, &p->cpus_mask) || !cpu_active(cpu))
		return;
	home = READ_ONCE(o->cpu);
	if (home != cpu && (!cpumask_test_cpu(home, &p->cpus_mask) ||
			    !cpu_active(home)))
		rbs_away_move(p, cpu);
}

/*
 * Back from a boost, on a CPU a cpuset may have left it while the class
 * it was boosted to moved it: its reservation follows it there
 * (ms_switched_to_resv()), or a member of a shared one is counted there.
 */
static void switched_to_rbs(struct rq *rq, struct task_struct *p)
{
	rbs_away_fixup(p);
	ms_switched_to_resv(rq, p);
}

/*
 * A cpuset change: the common part (ms_set_cpus_allowed()), and a member
 * of a shared reservation left on a CPU it keeps, without the
 * reservation's, is counted there (rbs_away_fixup()). Not for
 * migrate_disable() and migrate_enable(), which change the mask for a
 * while only, and hold no pi_lock (migrate_disable_switch()).
 */
static void set_cpus_allowed_rbs(struct task_struct *p,
				 struct affinity_context *ctx)
{
	ms_set_cpus_allowed(p, ctx);
	if (!(ctx->flags & (SCA_MIGRATE_ENABLE | SCA_MIGRATE_DISABLE)))
		rbs_away_fixup(p);
}

/*
 * Does RBS, or a class above it, have a task to run here? Then the
 * classes below need not pull one (prev_balance()). A throttled task
 * counts only once its chunk is due, or is one pick_task_rbs() will
 * replenish early (rbs_early()), and one that may run in the background
 * not at all: the classes below may pull work first.
 */
static int balance_rbs(struct rq *rq, struct task_struct *prev,
		       struct rq_flags *rf)
{
	struct rbs_rq *rrq = rbs_rq_of(rq);
	struct sched_rbs_entity *se = rbs_first(&rrq->throttled);

	return sched_stop_runnable(rq) || sched_dl_runnable(rq) ||
	       rbs_first(&rrq->ready) ||
	       (se && rbs_capacity(se, rq_clock(rq)) > 0) ||
	       rbs_early(rrq, rq_clock(rq));
}
#else
static void switched_to_rbs(struct rq *rq, struct task_struct *p)
{
	ms_switched_to_resv(rq, p);
}
#endif

/* A task dies deboosted, in its class: the reservation goes with it. */
static void task_dead_rbs(struct task_struct *p)
{
	ms_release(p);
}

static unsigned int get_rr_interval_rbs(struct rq *rq, struct task_struct *p)
{
	struct rbs_resv *o = READ_ONCE(p->ms.run.rbs_resv);

	return nsecs_to_jiffies(o ? READ_ONCE(o->C) : p->ms.runtime);
}

#ifdef CONFIG_SCHED_CORE
/*
 * Core scheduling takes a task for a sibling from the core tree, or
 * steals one for an idle sibling (sched_core_find(), try_steal_cookie()):
 * not one whose server is throttled and not running in the background,
 * which set_next_task_rbs() would send off the CPU again, and not one to
 * another CPU than its own, away from its reservation (ms_away()). Under
 * the rq lock of @p's CPU.
 */
static int task_is_throttled_rbs(struct task_struct *p, int cpu)
{
	const struct sched_rbs_entity *se = rbs_srv(p);

	return (se->throttled && !se->bg_running) || cpu != task_cpu(p);
}
#endif

DEFINE_SCHED_CLASS(rbs) = {
	.enqueue_task		= enqueue_task_rbs,
	.dequeue_task		= dequeue_task_rbs,
	.yield_task		= yield_task_rbs,
	.wakeup_preempt		= wakeup_preempt_rbs,
	.pick_task		= pick_task_rbs,
	.put_prev_task		= put_prev_task_rbs,
	.set_next_task		= set_next_task_rbs,
#ifdef CONFIG_SMP
	.balance		= balance_rbs,
	.select_task_rq		= select_task_rq_rbs,
	.migrate_task_rq	= migrate_task_rq_rbs,
	.set_cpus_allowed	= set_cpus_allowed_rbs,
#endif
	.task_dead		= task_dead_rbs,
	.task_tick		= task_tick_rbs,
	.switching_to		= switching_to_rbs,
	.switched_to		= switched_to_rbs,
	.prio_changed		= prio_changed_rbs,
	.get_rr_interval	= get_rr_interval_rbs,
	.update_curr		= update_curr_rbs,
#ifdef CONFIG_SCHED_CORE
	.task_is_throttled	= task_is_throttled_rbs,
#endif
};

static void rbs_init_rq(struct rq *rq, int cpu)
{
	struct rbs_rq *rrq = per_cpu_ptr(&rbs_rqs, cpu);

	rrq->rq = rq;
	rrq->ready = RB_ROOT_CACHED;
	rrq->throttled = RB_ROOT_CACHED;
	hrtimer_init(&rrq->budget_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	rrq->budget_timer.function = rbs_budget_timer;
	hrtimer_init(&rrq->repl_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	rrq->repl_timer.function = rbs_repl_timer;
}

/*
 * A reservation gives a budget and a period within the limits every
 * reservation has, or asks the controller for them (rbs_ctl_validate()).
 * No warp and no separate deadline.
 */
static int rbs_validate(const struct sched_attr *attr)
{
	if (attr->sched_warp || attr->sched_warp_limit || attr->sched_unwarp ||
	    attr->sched_deadline)
		return -EINVAL;
	/*
	 * A thread that joins takes the reservation's parameters; 0 names
	 * the one it is in (a caller that kept the flags it had).
	 */
	if (attr->sched_ms_flags & MS_FLAG_RBS_JOIN)
		return attr->sched_ms_flags != MS_FLAG_RBS_JOIN ||
		       attr->sched_runtime || attr->sched_period ||
		       attr->sched_join_tid > PID_MAX_LIMIT ? -EINVAL : 0;
	if (attr->sched_ms_flags & MS_FLAG_RBS_FEEDBACK)
		return rbs_ctl_validate(attr);
	if (!ms_period_valid(attr->sched_runtime, attr->sched_period))
		return -EINVAL;
	return 0;
}

/*
 * What a reservation counts for on its CPU: its proportion C/T; an I/O
 * server's U counts as (2 - U) U (Quest, inequality 1), towards the
 * rate-monotonic bound and towards the limit of all reservations alike.
 */
static u64 rbs_bandwidth(struct task_struct *p,
			 const struct sched_attr *attr)
{
	u64 u, C, T;

	if (attr->sched_ms_flags & MS_FLAG_RBS_FEEDBACK) {
		rbs_ctl_initial(p, attr, &C, &T);
		return to_ratio(T, C);
	}
	u = to_ratio(attr->sched_period, attr->sched_runtime);

	return attr->sched_ms_flags & MS_FLAG_RBS_IO ? rbs_io_load(u) : u;
}

/* Every RBS task holds a reservation: CAP_SYS_NICE, as SCHED_DEADLINE. */
static bool rbs_asks_for_more(struct task_struct *p,
			      const struct sched_attr *attr, bool same)
{
	return true;
}

/*
 * @p leaves its shared reservation, under its rq lock and pi_lock, or
 * dead (@locked false): the reservation's bandwidth stays while another
 * member does. Only one of a setattr and the exit that race drops it.
 * One that leaves from the reservation's CPU takes along when its server
 * would have had all of its budget back, so that a reservation it makes
 * next starts no sooner (rbs_share(), rbs_start()): members that leave
 * one together and make a new one gain no budget.
 */
static void rbs_drop(struct task_struct *p, bool locked)
{
	struct sched_ms_run *run = &p->ms.run;
	struct rbs_resv *o = xchg(&run->rbs_resv, NULL);
	unsigned long flags;
	u64 t;

	if (!o)
		return;
	rbs_away_release(p);
	run->resv_shared = 0;
	if (locked && o->cpu == task_cpu(p) && o->se.started) {
		t = rbs_kind_change_time(&o->se, rq_clock(task_rq(p)));
		run->rbs_not_before = max(run->rbs_not_before, t);
	}
	raw_spin_lock_irqsave(&o->lock, flags);
	o->nr_members--;
	raw_spin_unlock_irqrestore(&o->lock, flags);
	rbs_resv_put(o);
}

/**
 * rbs_leave - a member of a shared reservation is dead
 * @p:		the task
 *
 * From ms_release().
 */
void rbs_leave(struct task_struct *p)
{
	rbs_drop(p, false);
	WRITE_ONCE(p->ms.run.resv_bw, 0);
}

/*
 * @p, its rq locked and its pi_lock held, joins the shared reservation of
 * the thread @tid of the caller's PID namespace, 0 for the one it is in.
 * What it held before goes: its own reservation, or another it shared.
 * The reservation's CPU must be one @p may run on; @p goes there at once
 * (ms_place()).
 */
static int rbs_join(struct task_struct *p, u64 tid)
{
	struct sched_ms_run *run = &p->ms.run;
	struct rbs_resv *o = NULL;
	struct task_struct *t;
	unsigned long flags;
	int ret = 0;
	u64 bw;

	if (!tid)
		return run->rbs_resv ? 0 : -EINVAL;
	if (p->flags & PF_EXITING)
		return -ESRCH;
	rcu_read_lock();
	t = find_task_by_vpid(tid);
	if (t)
		o = READ_ONCE(t->ms.run.rbs_resv);
	if (!t)
		ret = -ESRCH;
	else if (!o)
		ret = -EINVAL;
	else if (!refcount_inc_not_zero(&o->ref))
		ret = -ESRCH;
	/* taken from the pool again meanwhile, for another reservation */
	else if (READ_ONCE(t->ms.run.rbs_resv) != o)
		ret = -EAGAIN;
	rcu_read_unlock();
	if (ret) {
		if (ret == -EAGAIN)
			rbs_resv_put(o);
		return ret;
	}
	if (o == run->rbs_resv || !cpumask_test_cpu(o->cpu, &p->cpus_mask)) {
		ret = o == run->rbs_resv ? 0 : -EBUSY;
		rbs_resv_put(o);
		return ret;
	}
	/* its last member is taking its bandwidth along (rbs_admit_shared()) */
	raw_spin_lock_irqsave(&o->lock, flags);
	bw = o->bw;
	if (bw)
		o->nr_members++;
	raw_spin_unlock_irqrestore(&o->lock, flags);
	if (!bw) {
		rbs_resv_put(o);
		return -ESRCH;
	}
	if (run->rbs_resv)
		rbs_drop(p, true);
	else if (run->resv_bw)
		__ms_bw_admit(run->resv_cpu, run->resv_bw, 0, 0, run->resv_rm,
			      false);
	WRITE_ONCE(run->resv_cpu, o->cpu);
	WRITE_ONCE(run->resv_bw, bw);
	run->resv_rm = false;
	run->resv_shared = 1;
	WRITE_ONCE(run->rbs_resv, o);
	return 0;
}

/*
 * A new shared reservation for @p, admitted as its own would be (on its
 * CPU if it has one, else first-fit), then handed to the reservation.
 */
static int rbs_share(struct task_struct *p, int policy,
		     const struct sched_attr *attr)
{
	struct sched_rbs_entity *te = rbs_se(p);
	struct sched_ms_run *run = &p->ms.run;
	struct rbs_resv *o = rbs_resv_take();
	int ret;

	/*
	 * More requests than rbs_resv_reserve() left room for: this one
	 * starts again, from the checks that refill the pool.
	 */
	if (!o)
		return MS_ADMIT_RETRY;
	ret = ms_admit_own(p, policy, attr);
	if (ret) {
		rbs_resv_give_back(o);
		return ret;
	}
	memset(&o->se, 0, sizeof(o->se));
	RB_CLEAR_NODE(&o->se.node);
	INIT_LIST_HEAD(&o->se.members);
	o->se.shared = 1;
	refcount_set(&o->ref, 1);
	/* under its lock: a stale reader may hold it from its last use */
	raw_spin_lock(&o->lock);
	rbs_resv_set(o, attr->sched_runtime, attr->sched_period,
		     attr->sched_ms_flags);
	raw_spin_unlock(&o->lock);
	o->bw = run->resv_bw;
	o->cpu = run->resv_cpu;
	o->nr_members = 1;
	o->id = task_pid_nr(p);
	/* no budget back: not before its own server would have had it */
	o->start = run->rbs_not_before;
	if (run->state_policy == SCHED_RBS && te->started)
		o->start = max(o->start,
			       rbs_kind_change_time(te, rq_clock(task_rq(p))));
	run->resv_rm = false;
	run->resv_shared = 1;
	WRITE_ONCE(run->rbs_resv, o);
	return 0;
}

/*
 * A change of a shared reservation, on its CPU: the server takes it now
 * if it is queued there (an enqueue or a tick would take it too, later;
 * a nohz_full CPU may have no tick). An irq_work, as the change is made
 * under another CPU's rq lock.
 */
static void rbs_resv_changed(struct irq_work *work)
{
	struct rbs_resv *o = container_of(work, struct rbs_resv, change);
	struct rq *rq = this_rq();
	struct rbs_params pa;
	struct rq_flags rf;

	rq_lock(rq, &rf);
	if (o->cpu == cpu_of(rq) && o->se.on_rq) {
		update_rq_clock(rq);
		update_curr_rbs(rq);
		rbs_resv_params(o, &pa);
		if (rbs_params_differ(&o->se, &pa)) {
			rbs_resync(rbs_rq_of(rq), &o->se,
				   rbs_task_of(&o->se), &pa, rq_clock(rq));
			resched_curr(rq);
		}
	}
	rq_unlock(rq, &rf);
}

/*
 * A member leaves: for a reservation of its own, admitted first so that
 * a refusal leaves it in, or another policy. The last member asking for
 * a reservation of its own takes the shared one's bandwidth on its CPU
 * along, as a change of it: that it holds already.
 */
static int rbs_part(struct task_struct *p, int policy,
		    const struct sched_attr *attr)
{
	struct sched_ms_run *run = &p->ms.run;
	struct rbs_resv *o = run->rbs_resv;
	unsigned long flags;
	int ret = -EAGAIN;
	u64 bw;

	if (policy == SCHED_RBS) {
		bw = rbs_bandwidth(p, attr);
		raw_spin_lock_irqsave(&o->lock, flags);
		if (o->nr_members == 1) {
			ret = __ms_bw_admit(o->cpu, o->bw, bw, 0, true, true);
			if (!ret)
				WRITE_ONCE(o->bw, 0);
		}
		raw_spin_unlock_irqrestore(&o->lock, flags);
		if (ret != -EAGAIN) {
			if (ret)
				return ret;
			/* its CPU stays the task's: @o may go back to the pool */
			rbs_drop(p, true);
			WRITE_ONCE(run->resv_bw, bw);
			run->resv_rm = true;
			return 0;
		}
	}
	WRITE_ONCE(run->resv_bw, 0);
	ret = ms_admit_own(p, policy, attr);
	if (ret) {
		WRITE_ONCE(run->resv_bw, o->bw);
		return ret;
	}
	rbs_drop(p, true);
	return 0;
}

/**
 * rbs_admit_shared - ms_admit() for a shared reservation
 * @p:		the task, its rq locked and its pi_lock held
 * @policy:	the policy it is to have
 * @attr:	the request
 *
 * A task joins one (MS_FLAG_RBS_JOIN), makes one (MS_FLAG_RBS_SHARED),
 * changes the one it is in (MS_FLAG_RBS_SHARED from a member: for all its
 * members, on its CPU), or leaves the one it is in (rbs_part()).
 *
 * Return: 0, -EBUSY (no room; a reservation to join on a CPU the task
 * may not use), -EINVAL (the thread to join shares no reservation),
 * -ESRCH (no such thread, a reservation that is ending, or an exiting
 * task), -EAGAIN (a race with the reservation's end), or MS_ADMIT_RETRY
 * (rbs_share()).
 */
int rbs_admit_shared(struct task_struct *p, int policy,
		     const struct sched_attr *attr)
{
	struct sched_ms_run *run = &p->ms.run;
	struct rbs_resv *o = run->rbs_resv;
	u32 f = policy == SCHED_RBS ? attr->sched_ms_flags : 0;
	unsigned long flags;
	int ret = 0;
	u64 bw;

	lockdep_assert_held(&p->pi_lock);
	if (f & MS_FLAG_RBS_JOIN)
		return rbs_join(p, attr->sched_join_tid);
	if ((f & MS_FLAG_RBS_SHARED) && !o)
		return rbs_share(p, policy, attr);
	if (!(f & MS_FLAG_RBS_SHARED))
		return rbs_part(p, policy, attr);
	/*
	 * A member changes it, for all of its members; under its lock, as
	 * another member may be changing it from another CPU.
	 */
	bw = rbs_bandwidth(p, attr);
	raw_spin_lock_irqsave(&o->lock, flags);
	if (bw != o->bw)
		ret = __ms_bw_admit(o->cpu, o->bw, bw, 0, true, true);
	if (!ret) {
		rbs_resv_set(o, attr->sched_runtime, attr->sched_period, f);
		WRITE_ONCE(o->bw, bw);
	}
	raw_spin_unlock_irqrestore(&o->lock, flags);
	if (ret)
		return ret;
	WRITE_ONCE(run->resv_bw, bw);
	irq_work_queue_on(&o->change, o->cpu);
	return 0;
}

/**
 * rbs_getparams - what sched_getattr() reads of a shared reservation
 * @p:		a member
 * @attr:	its parameters, to which the reservation's are written
 *
 * Its budget, period and flags, with MS_FLAG_RBS_SHARED: what a caller
 * that reads, modifies and writes them back asks of the reservation.
 * Lockless (never freed; the parameters under the reservation's seqcount).
 */
void rbs_getparams(struct task_struct *p, struct sched_attr *attr)
{
	struct rbs_resv *o = READ_ONCE(p->ms.run.rbs_resv);
	struct rbs_params pa;

	if (!o)
		return;
	rbs_resv_params(o, &pa);
	attr->sched_runtime = pa.C;
	attr->sched_period = pa.T;
	attr->sched_deadline = 0;
	attr->sched_ms_flags = pa.flags | MS_FLAG_RBS_SHARED;
}

/* What needs the tick (ms_can_stop_tick()): members to take turns. */
static unsigned int rbs_nr_running(struct rq *rq)
{
	return rbs_rq_of(rq)->nr_rr ? 2 : 0;
}

/* Read without the rq lock: a snapshot, as the rest of /proc/<pid>/sched. */
static void rbs_proc_show(struct task_struct *p, struct seq_file *m)
{
	struct rbs_resv *o = READ_ONCE(p->ms.run.rbs_resv);
	const struct sched_rbs_entity *se = o ? &o->se : rbs_se(p);
	unsigned int i, len = min_t(unsigned int, READ_ONCE(se->ss.len),
				    RBS_REPL_MAX);

	ms_proc_u64(m, "ms.rbs.budget_ns", READ_ONCE(se->ss.C));
	ms_proc_u64(m, "ms.rbs.period_ns", READ_ONCE(se->ss.T));
	ms_proc_u64(m, "ms.rbs.usage_ns", READ_ONCE(se->ss.usage));
	ms_proc_u64(m, "ms.rbs.head_ns", len ? READ_ONCE(se->q[0].b) : 0);
	ms_proc_u64(m, "ms.rbs.head_time", len ? READ_ONCE(se->q[0].t) : 0);
	ms_proc_u64(m, "ms.rbs.nr_chunks", len);
	/* the replenishment queue, time/budget of each chunk, a snapshot */
	seq_printf(m, "%-45s:", "ms.rbs.queue");
	for (i = 0; i < len; i++)
		seq_printf(m, " %llu/%llu", READ_ONCE(se->q[i].t),
			   READ_ONCE(se->q[i].b));
	seq_putc(m, '\n');
	ms_proc_u64(m, "ms.rbs.throttled", READ_ONCE(se->throttled));
	ms_proc_u64(m, "ms.rbs.nr_exhausted", READ_ONCE(se->nr_exhausted));
	ms_proc_u64(m, "ms.rbs.nr_split", READ_ONCE(se->nr_split));
	ms_proc_u64(m, "ms.rbs.nr_full", READ_ONCE(se->nr_full));
	ms_proc_u64(m, "ms.rbs.nr_merge", READ_ONCE(se->nr_merge));
	ms_proc_u64(m, "ms.rbs.nr_change", READ_ONCE(se->nr_change));
	ms_proc_u64(m, "ms.rbs.background_ns", READ_ONCE(se->bg_time));
	if (READ_ONCE(se->io_server)) {
		ms_proc_u64(m, "ms.rbs.io_period_ns", READ_ONCE(se->io.T));
		ms_proc_u64(m, "ms.rbs.io_budget_ns", READ_ONCE(se->io.b));
		ms_proc_u64(m, "ms.rbs.io_eligible", READ_ONCE(se->io.e));
		ms_proc_u64(m, "ms.rbs.nr_request", READ_ONCE(se->nr_request));
	}
	if (o) {
		ms_proc_s64(m, "ms.rbs.shared_id", READ_ONCE(o->id));
		ms_proc_u64(m, "ms.rbs.members", READ_ONCE(o->nr_members));
		ms_proc_u64(m, "ms.rbs.on_own_server",
			    READ_ONCE(rbs_se(p)->server) == rbs_se(p));
		/* counted where a cpuset sent it (rbs_away_move()) */
		ms_proc_u64(m, "ms.rbs.away_ppm",
			    DIV_ROUND_UP_ULL(READ_ONCE(p->ms.run.rbs_away_bw) *
					     1000000ULL, BW_UNIT));
	}
	ms_proc_u64(m, "ms.rbs.reserved_ppm",
		    DIV_ROUND_UP_ULL((o ? READ_ONCE(o->bw) :
				      READ_ONCE(p->ms.run.resv_bw)) * 1000000ULL,
				     BW_UNIT));
	ms_proc_s64(m, "ms.rbs.reserved_cpu", READ_ONCE(p->ms.run.resv_bw) ?
		    READ_ONCE(p->ms.run.resv_cpu) : -1);
	if (READ_ONCE(p->ms.flags) & MS_FLAG_RBS_FEEDBACK)
		rbs_ctl_proc_show(p, m);
}

/**
 * rbs_ctl_set - the feedback controller's change of a reservation
 * @rq:		@p's runqueue, locked, with @p's pi_lock
 * @p:		a thread of SCHED_RBS with MS_FLAG_RBS_FEEDBACK
 * @C:		its new budget, 10 us or more
 * @T:		its new period, at least @C
 *
 * Admits the new proportion on the reservation's CPU as sched_setattr(2)
 * would (__ms_bw_admit(); a smaller one always fits) and hands it to the
 * server as sched_setattr(2) does: a queued thread is dequeued and queued
 * again, a running one put back and set as next around it, so that the
 * enqueue makes the change (rbs_change(): no budget given back) and
 * set_next_task_rbs() arms the budget timer for it; a sleeping one, or
 * one a priority-inheritance boost holds in another class, takes it at
 * its next enqueue.
 *
 * Return: 0, or -EBUSY when the CPU has no room for a larger one, which
 * then keeps what it had; -ESRCH for a thread that left the controller
 * or gave a budget of its own meanwhile (a sched_setattr(2) that raced
 * the step).
 */
int rbs_ctl_set(struct rq *rq, struct task_struct *p, u64 C, u64 T)
{
	struct sched_ms_run *run = &p->ms.run;
	u64 bw = to_ratio(T, C);
	bool queued, running;
	int ret;

	lockdep_assert_held(&p->pi_lock);
	lockdep_assert_rq_held(rq);
	if (p->policy != SCHED_RBS || !(p->ms.flags & MS_FLAG_RBS_FEEDBACK) ||
	    p->ms.runtime || !run->resv_bw || run->rbs_resv ||
	    (p->flags & PF_EXITING))
		return -ESRCH;
	if (bw != run->resv_bw) {
		ret = __ms_bw_admit(run->resv_cpu, run->resv_bw, bw, 0, true,
				    true);
		if (ret)
			return ret;
		WRITE_ONCE(run->resv_bw, bw);
	}
	if (p->sched_class != &rbs_sched_class) {
		WRITE_ONCE(run->ctl_budget, C);
		WRITE_ONCE(run->ctl_period, T);
		return 0;
	}
	update_rq_clock(rq);
	queued = task_on_rq_queued(p);
	running = task_current(rq, p);
	if (queued)
		dequeue_task(rq, p, DEQUEUE_SAVE | DEQUEUE_NOCLOCK);
	if (running)
		put_prev_task(rq, p);
	WRITE_ONCE(run->ctl_budget, C);
	WRITE_ONCE(run->ctl_period, T);
	if (queued)
		enqueue_task(rq, p, ENQUEUE_RESTORE | ENQUEUE_NOCLOCK);
	if (running)
		set_next_task(rq, p);
	return 0;
}

static u64 rbs_rm_bound(unsigned int n)
{
	return rbs_ll_bound(n);
}

#ifdef CONFIG_SCHED_CORE
/* The server @p runs on, as rbs_srv(). */
static const struct sched_rbs_entity *rbs_core_srv(const struct task_struct *p)
{
	const struct sched_rbs_entity *te = &p->ms.run.state.rbs;

	return te->on_rq && te->server ? te->server : te;
}

/* Rate-monotonic across the CPUs of a core, as on one. */
static bool rbs_core_less(const struct task_struct *a,
			  const struct task_struct *b, bool in_fi)
{
	return rbs_prio_less(rbs_core_srv(b), rbs_core_srv(a));
}

/* Out of capacity and in the background: it ranks just above idle. */
static bool rbs_core_background(const struct task_struct *p)
{
	return rbs_core_srv(p)->bg_running;
}
#endif

const struct ms_class ms_rbs_class = {
	.name		= "rbs",
	.policy		= SCHED_RBS,
	.class		= &rbs_sched_class,
	.ready		= true,
	.general	= false,
	.flags		= MS_FLAG_RBS_IO | MS_FLAG_RBS_BACKGROUND |
			  MS_FLAG_RBS_SHARED | MS_FLAG_RBS_JOIN |
			  MS_FLAG_RBS_FEEDBACK,
	.reservation_flags = MS_FLAG_RBS_SHARED | MS_FLAG_RBS_JOIN |
			     MS_FLAG_RBS_FEEDBACK,
	.nr_running	= rbs_nr_running,
	.tick_switches	= true,
	.validate	= rbs_validate,
	.asks_for_more	= rbs_asks_for_more,
	.init_rq	= rbs_init_rq,
	.proc_show	= rbs_proc_show,
	.bandwidth	= rbs_bandwidth,
	.rm_bound	= rbs_rm_bound,
#ifdef CONFIG_SCHED_CORE
	.core_prio	= 0,
	.core_less	= rbs_core_less,
	.core_background = rbs_core_background,
#endif
#ifdef CONFIG_SYSCTL
	.sysctls	= rbs_sysctls,
	.nr_sysctls	= ARRAY_SIZE(rbs_sysctls),
#endif
};

#ifdef CONFIG_SCHED_MULTISCHED_KUNIT_TEST
#include "rbs_test.c"
#endif
