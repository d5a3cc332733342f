// SPDX-License-Identifier: GPL-2.0
/*
 * EDF with best-effort bandwidth servers (BEBS) scheduling class
 *
 * Paper: S. Banachowski, T. Bisson and S. A. Brandt, "Integrating
 * best-effort scheduling into a real-time system" (RTSS 2004), sections 4
 * and 5.
 *
 * Every task of the class has a server of its own: a budget b every
 * period p, the budget c left in the current period, and a deadline d.
 * The CPU runs the executing server with the earliest deadline (EDF). A
 * server is in one of three states (section 4.1):
 *
 *  - executing: released at r with c = b and d = r + p; c falls as its
 *    task runs, and an hrtimer ends the run when c reaches 0;
 *  - expired: c ran out; the server waits for its next release at
 *    r_orig = r + p, where the first rule applies again. Its deadline is
 *    never pushed back, as CBS would, so a task that used more than its
 *    share is not punished later by a deadline far in the future;
 *  - blocked: the task slept with budget left. When it wakes at t, it
 *    keeps c and d unless t >= r + p or b - c <= (t - r) * b / p, the CBS
 *    wakeup rule, in which case it is released at t.
 *
 * Slack reclamation (section 4.2): when the CPU would idle and servers are
 * expired, the one released next is released now, and every expired
 * server's release moves forward by the same amount, so that they keep
 * their order. A server released early at t gets d = r_orig + p, the
 * deadline it would have had, not t + p as in IRIS: a task that slept
 * through the slack is not put behind those that used it. So d - t never
 * exceeds 2p - b. The shift is one number per CPU, @shift below: an
 * expired server is keyed by its release plus the shift when it expired,
 * and is due when its key is at most now plus the current shift, which
 * moves every expired server's release at once.
 *
 * The slack reclaimed is the CPU's: this kernel has classes below BEBS
 * (BVT, VTRR, fair, sched_ext), and an expired server waits while any of
 * them has a task to run there. So BEBS tasks take their utilisation
 * U_BE and leave the rest of the CPU to those classes, and take it all
 * when they are alone.
 *
 * Server parameters (section 4.3): each time a server stops executing
 * (it blocks or expires) the CPU its task used since it last woke, e (up
 * to e_max), is averaged into e_avg = (3 e_avg + e) / 4. At its next
 * release b = min(e_avg + e_avg / 2, e_max) and p = b / u, with the
 * utilisation u = q / L * U_BE: q is the task's weight (from nice, or
 * sched_weight), L the sum of the weights of the class's queued tasks on
 * the CPU, and U_BE the CPU's bandwidth not admitted to reservations (the
 * shared accounting of multisched.c: SCHED_DEADLINE tasks and the class
 * servers). A compute-bound task thus gets b = e_max and a period that
 * grows with the load; one that runs in short bursts gets a short budget
 * and period and a near deadline when it wakes. Parameters change at
 * releases, lazily (section 4.4), and b only when it moves by more than
 * an eighth, so pick never divides; but with periodic tasks on the CPU,
 * U_BE found smaller (a reservation admitted or moved here) or a
 * best-effort task that joins cuts the executing servers' utilisation at
 * once (bebs_check_u_be(), bebs_shrink()), as the paper does when the
 * best-effort bandwidth shrinks. For the paper's comparison with
 * fixed periods (figures 3 and 4), kernel.sched_bebs_fixed_period_ns
 * fixes p for every best-effort server instead, and b = u p.
 *
 * A server woken or released with an earlier deadline than the running
 * one preempts it, at once, or, between best-effort servers on a CPU
 * without periodic tasks or reservations, once the running one has had
 * an EEVDF base slice since it was picked (bebs_keep()): their deadlines
 * are soft, and a preemption per wakeup is what made hackbench's tasks
 * switch four times as often as under EEVDF.
 *
 * SMP: each CPU schedules its own servers. A waking task goes to an idle
 * CPU or stays where it ran; the weight balancer BVT and VTRR use
 * (multisched.c) evens out L by pushes and pulls, and places new tasks.
 * A server's times are absolute, so it moves without change. What
 * remains is per-CPU: the share of U_BE on the CPU the task is on.
 *
 * Periodic real-time tasks (MS_FLAG_BEBS_PERIODIC, section 5): a budget
 * C (sched_runtime) every period T (sched_period), each job due D after
 * its release (sched_deadline, 0 for T). They run in the same EDF with
 * the best-effort servers, as servers of fixed b = C and p = T, with the
 * same wakeup rule, whose deadline is r + D. Their bandwidth C / D is
 * admitted on one CPU (ms_admit(): first-fit over the task's affinity
 * when it enters, on its CPU when it changes; EBUSY when the CPU's
 * admitted bandwidth and U_BE,min would pass sched_rt_runtime_us /
 * sched_rt_period_us), which lowers U_BE for the best-effort servers
 * there; the task moves there (ms_place()) and stays. A job
 * that uses its budget is throttled to its next period, never released
 * by slack, and counted as a miss, as is one that ends after its
 * deadline; what it ran past its budget is taken from the next job, as
 * SCHED_DEADLINE does. A periodic task's child is best-effort.
 *
 * Locking: everything here is under the runqueue's lock, including the two
 * hrtimer handlers, which take it.
 */
#include <linux/mmu_context.h>
#include <linux/sched/signal.h>
#include <linux/sysctl.h>

#include "sched.h"

#include <trace/events/multisched.h>

/* The states of a server (struct sched_bebs_entity's @state). */
enum bebs_state {
	BEBS_NEW,		/* never released: released when it first queues */
	BEBS_EXECUTING,
	BEBS_BLOCKED,
	BEBS_EXPIRED,
};

/* Why a server was released, for the bebs_release trace event. */
enum bebs_why {
	BEBS_WHY_NEW,
	BEBS_WHY_WAKEUP,
	BEBS_WHY_PERIOD,
	BEBS_WHY_SLACK,
};

/* Why a periodic task's job missed, for the bebs_miss trace event. */
enum bebs_miss_why {
	BEBS_MISS_OVERRUN,
	BEBS_MISS_LATE,
};

/* e_avg of a task that has not run yet */
#define BEBS_E_INIT		(2ULL * NSEC_PER_MSEC)
/* the smallest budget: an hrtimer per 100 us at most */
#define BEBS_BUDGET_MIN		(100ULL * NSEC_PER_USEC)
/* the longest period; keeps the products of the wakeup rule in 64 bits */
#define BEBS_PERIOD_MAX		(10ULL * NSEC_PER_SEC)
/* a budget moves only when it changes by more than 1/2^BEBS_HYST */
#define BEBS_HYST		3
/* how many queued tasks the balancer scans for one to move */
#define BEBS_BALANCE_SCAN	32

/*
 * A CPU's BEBS run queue, protected by the runqueue's lock. Its number of
 * tasks and L are @balance.nr_running and @balance.load, which the
 * balancer also reads without the lock.
 */
struct bebs_rq {
	struct rb_root_cached	ready;		/* executing servers, by deadline */
	struct rb_root_cached	expired;	/* expired servers, by release key */
	struct rb_root_cached	throttled;	/* periodic ones out of budget, by release */
	u64			shift;		/* how far slack moved expired releases */
	u64			u_be;		/* U_BE, BW_UNIT parts (bebs_check_u_be()) */
	u64			nr_slack;	/* early releases on this CPU */
	unsigned int		nr_periodic;	/* queued periodic tasks */
	u32			shrink_seq;	/* bebs_shrink() walks */
	struct rq		*rq;
	struct hrtimer		budget_timer;	/* ends the running server's budget */
	struct hrtimer		release_timer;	/* releases the first expired server */
	struct ms_balance	balance;	/* N and L */
	struct sched_dl_entity	server;		/* runs BEBS when above starves it */
};

static DEFINE_PER_CPU(struct bebs_rq, bebs_rqs);

static inline struct bebs_rq *bebs_rq_of(struct rq *rq)
{
	return per_cpu_ptr(&bebs_rqs, cpu_of(rq));
}

static inline struct sched_bebs_entity *bebs_se(struct task_struct *p)
{
	return &p->ms.run.state.bebs;
}

static inline struct task_struct *bebs_task_of(struct sched_bebs_entity *se)
{
	return container_of(se, struct task_struct, ms.run.state.bebs);
}

/* e_max, the largest budget: 200 ms as in the paper, 1 ms to 1 s. */
static unsigned int sysctl_sched_bebs_e_max = 200 * NSEC_PER_MSEC;
static unsigned int bebs_e_max_min = NSEC_PER_MSEC;
static unsigned int bebs_e_max_max = NSEC_PER_SEC;

/*
 * A fixed period for every best-effort server, 0 (the default) to adapt
 * it (section 4.3), else 1 ms to 1 s: then b = u p. For experiments with
 * the paper's fixed periods (its figures 3 and 4), not for production.
 */
static unsigned int sysctl_sched_bebs_fixed_period;

/*
 * U_BE,min (section 5), in parts per million of a CPU: what a periodic
 * task's admission leaves to best-effort tasks on its CPU.
 */
static unsigned int sysctl_sched_bebs_u_be_min = 50000;
static unsigned int bebs_ppm_max = 1000000;

#ifdef CONFIG_SYSCTL
/* 0, or a period within the e_max range: 1 ms to 1 s */
static int bebs_fixed_period_handler(const struct ctl_table *table, int write,
				     void *buffer, size_t *lenp, loff_t *ppos)
{
	unsigned int val = READ_ONCE(sysctl_sched_bebs_fixed_period);
	struct ctl_table t = *table;
	int ret;

	t.data = &val;
	ret = proc_douintvec(&t, write, buffer, lenp, ppos);
	if (ret || !write)
		return ret;
	if (val && (val < bebs_e_max_min || val > bebs_e_max_max))
		return -EINVAL;
	WRITE_ONCE(sysctl_sched_bebs_fixed_period, val);
	return 0;
}

static struct ctl_table bebs_sysctls[] = {
	{
		.procname	= "sched_bebs_u_be_min_ppm",
		.data		= &sysctl_sched_bebs_u_be_min,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &bebs_ppm_max,
	},
	{
		.procname	= "sched_bebs_e_max_ns",
		.data		= &sysctl_sched_bebs_e_max,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &bebs_e_max_min,
		.extra2		= &bebs_e_max_max,
	},
	{
		.procname	= "sched_bebs_fixed_period_ns",
		.data		= &sysctl_sched_bebs_fixed_period,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= bebs_fixed_period_handler,
	},
};
#endif /* CONFIG_SYSCTL */

/*
 * The algorithm's arithmetic, free of runqueues (bebs_test.c checks it).
 */

/* Section 4.3, step 2: e_avg = (w e_avg + e) / (w + 1), w = 3. */
static inline u64 bebs_e_avg(u64 e_avg, u64 e)
{
	return (3 * e_avg + e) >> 2;
}

/* Step 3: b = min(e_avg + e_avg / 2, e_max), and not below BEBS_BUDGET_MIN. */
static inline u64 bebs_budget(u64 e_avg, u64 e_max)
{
	return clamp(e_avg + e_avg / 2, BEBS_BUDGET_MIN, e_max);
}

/* Keep @old unless @new differs from it by more than 1/2^BEBS_HYST of it. */
static inline u64 bebs_hysteresis(u64 old, u64 new)
{
	u64 diff = new > old ? new - old : old - new;

	return old && diff <= old >> BEBS_HYST ? old : new;
}

/*
 * u = q / L * U_BE, in BW_UNIT parts, at least one part. @load is L, the
 * queued weights including @q's task (or just q, for a task not queued).
 */
static inline u64 bebs_util(u32 q, u64 load, u64 u_be)
{
	if (load < q)
		load = q;
	return max_t(u64, div64_u64((u64)q * u_be, load), 1);
}

/* Step 4: p = b / u, at least b and at most BEBS_PERIOD_MAX. */
static inline u64 bebs_period(u64 b, u64 util)
{
	u64 p = div64_u64(b << BW_SHIFT, util);

	return clamp(p, b, BEBS_PERIOD_MAX);
}

/*
 * A fixed period @p (sched_bebs_fixed_period_ns): b = u p, at least
 * BEBS_BUDGET_MIN and at most p.
 */
static inline u64 bebs_fixed_budget(u64 p, u64 util)
{
	return clamp((p * util) >> BW_SHIFT, BEBS_BUDGET_MIN, p);
}

/*
 * The CBS wakeup rule of section 4.1: is a blocked server waking at @now
 * released (true) or does it resume with its budget and deadline?
 * (b - c) <= (now - r) * b / p is tested as (b - c) * p <= (now - r) * b,
 * which fits in 64 bits as b <= 1 s, p <= BEBS_PERIOD_MAX and
 * now - r < p.
 */
static inline bool bebs_wake_releases(u64 now, u64 r, s64 c, u64 b, u64 p)
{
	u64 used;

	if (!ms_before(now, r + p))
		return true;
	if (ms_before(now, r))
		return false;
	used = c > 0 ? b - min_t(u64, c, b) : b;
	return used * p <= (now - r) * b;
}

/*
 * Section 4.2: the deadline of a server released at @now from the release
 * @r_orig it waited for. Released on time or late, d = r_orig + p as
 * rule 1 has it; released early by slack, d = r_orig + p as well, not
 * now + p. A release so late that r_orig + p has passed starts a new
 * period at @now. With fixed b and p, d - now <= 2p - b follows (the
 * server ran b since its last release, which was at least p before
 * r_orig); when the last adaptation lengthened p it could exceed that,
 * and d is held to the bound.
 */
static inline u64 bebs_release_deadline(u64 now, u64 r_orig, u64 b, u64 p)
{
	u64 d = ms_before(now, r_orig + p) ? r_orig + p : now + p;

	return min(d, now + 2 * p - b);
}

/*
 * The trees.
 */

static inline bool bebs_deadline_less(struct rb_node *a, const struct rb_node *b)
{
	return ms_before(rb_entry(a, struct sched_bebs_entity, node)->deadline,
			 rb_entry(b, struct sched_bebs_entity, node)->deadline);
}

static inline bool bebs_release_less(struct rb_node *a, const struct rb_node *b)
{
	return ms_before(rb_entry(a, struct sched_bebs_entity, node)->release_key,
			 rb_entry(b, struct sched_bebs_entity, node)->release_key);
}

static inline bool bebs_release_at_less(struct rb_node *a, const struct rb_node *b)
{
	return ms_before(rb_entry(a, struct sched_bebs_entity, node)->release_at,
			 rb_entry(b, struct sched_bebs_entity, node)->release_at);
}

static struct sched_bebs_entity *bebs_first(struct rb_root_cached *root)
{
	struct rb_node *n = rb_first_cached(root);

	return n ? rb_entry(n, struct sched_bebs_entity, node) : NULL;
}

/* The tree @se is on while queued: by its state and kind. */
static struct rb_root_cached *bebs_tree(struct bebs_rq *brq,
					struct sched_bebs_entity *se)
{
	if (se->state != BEBS_EXPIRED)
		return &brq->ready;
	return se->periodic ? &brq->throttled : &brq->expired;
}

/* Queue @se on the tree of its state; it is not on one. */
static void bebs_insert(struct bebs_rq *brq, struct sched_bebs_entity *se)
{
	struct rb_root_cached *root = bebs_tree(brq, se);

	if (root == &brq->ready)
		rb_add_cached(&se->node, root, bebs_deadline_less);
	else if (root == &brq->expired)
		rb_add_cached(&se->node, root, bebs_release_less);
	else
		rb_add_cached(&se->node, root, bebs_release_at_less);
}

static void bebs_erase(struct bebs_rq *brq, struct sched_bebs_entity *se)
{
	rb_erase_cached(&se->node, bebs_tree(brq, se));
	RB_CLEAR_NODE(&se->node);
}

/* The rq clock reading at which the first expired server is due. */
static u64 bebs_next_release(struct bebs_rq *brq, struct sched_bebs_entity *se)
{
	return se->release_key - brq->shift;
}

/*
 * Arm the release timer for the first expired or throttled server, or
 * leave it be when there is none: no timer runs for a CPU with nothing
 * waiting for a release.
 */
static void bebs_arm_release(struct bebs_rq *brq)
{
	struct sched_bebs_entity *se = bebs_first(&brq->expired);
	struct sched_bebs_entity *th = bebs_first(&brq->throttled);
	u64 when;
	s64 delta;

	if (!se && !th)
		return;
	when = se ? bebs_next_release(brq, se) : th->release_at;
	if (th && ms_before(th->release_at, when))
		when = th->release_at;
	delta = when - rq_clock(brq->rq);
	hrtimer_start(&brq->release_timer, ns_to_ktime(max_t(s64, delta, 0)),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static const char *const bebs_why_name[] = {
	[BEBS_WHY_NEW]		= "new",
	[BEBS_WHY_WAKEUP]	= "wakeup",
	[BEBS_WHY_PERIOD]	= "period",
	[BEBS_WHY_SLACK]	= "slack",
};

static const char *const bebs_miss_name[] = {
	[BEBS_MISS_OVERRUN]	= "overrun",
	[BEBS_MISS_LATE]	= "late",
};

/*
 * The class's part of the common task work (ms_queue_work()), when the
 * task next returns to user mode, where it may signal:
 * MS_WORK_BEBS_OVERRUN, a task that asked for it (MS_FLAG_BEBS_OVERRUN)
 * learns of an overrun as a SCHED_DEADLINE task with
 * SCHED_FLAG_DL_OVERRUN does: its process gets SIGXCPU. Signals cannot be
 * sent under the runqueue's lock, so the work sends it when the task
 * returns to user mode, which is where its next job starts (fair.c queues
 * its NUMA work the same way, from the tick). Overruns while it is
 * pending are one signal, as a standard signal pending twice is one. As
 * SCHED_DEADLINE, only a task that still has the flag is signalled.
 */
static void bebs_task_work(struct task_struct *p, unsigned long what)
{
	if ((what & BIT(MS_WORK_BEBS_OVERRUN)) &&
	    (READ_ONCE(p->ms.flags) & MS_FLAG_BEBS_OVERRUN))
		do_send_sig_info(SIGXCPU, SEND_SIG_PRIV, p, PIDTYPE_TGID);
}

/* A periodic task's job missed its deadline at @now. */
static void bebs_miss(struct sched_bebs_entity *se, u64 now,
		      enum bebs_miss_why why)
{
	se->nr_missed++;
	if (why == BEBS_MISS_LATE)
		se->nr_late++;
	trace_bebs_miss(bebs_task_of(se), se->deadline, now, bebs_miss_name[why]);
	if (why == BEBS_MISS_OVERRUN &&
	    (bebs_task_of(se)->ms.flags & MS_FLAG_BEBS_OVERRUN))
		ms_queue_work(bebs_task_of(se), MS_WORK_BEBS_OVERRUN);
}

/*
 * U_BE: the CPU's bandwidth less what is admitted on it, DL tasks and
 * the class servers, but not BEBS's own server, whose bandwidth serves
 * these very tasks. Read at the tick, when a periodic task queues, and
 * when a reservation follows its task here (bebs_check_u_be()), not at
 * every release (it divides), and without the root domain's dl_bw lock,
 * which every CPU's tick would otherwise take: an admission elsewhere is
 * seen at the next tick.
 */
static void bebs_update_u_be(struct bebs_rq *brq)
{
	u64 used = ms_bw_used_hint(cpu_of(brq->rq));

	used -= min(used, brq->server.dl_bw);
	brq->u_be = BW_UNIT - min(used, BW_UNIT);
}

/*
 * Sections 4.3 and 4.4: the budget from e_avg, the utilisation from the
 * task's weight, the CPU's load and U_BE, and the period from both; at a
 * release, never in pick.
 */
static void bebs_adapt(struct bebs_rq *brq, struct sched_bebs_entity *se)
{
	u64 fixed = READ_ONCE(sysctl_sched_bebs_fixed_period);
	u64 b, util, p;

	util = bebs_util(se->weight, brq->balance.load, brq->u_be);
	if (fixed) {
		p = fixed;
		b = bebs_fixed_budget(p, util);
	} else {
		b = bebs_hysteresis(se->budget,
				    bebs_budget(se->e_avg,
						READ_ONCE(sysctl_sched_bebs_e_max)));
		p = bebs_period(b, util);
	}
	if (b == se->budget && p == se->period)
		return;
	se->budget = b;
	se->period = p;
	trace_bebs_adapt(bebs_task_of(se), se->e_avg, b, p, brq->balance.load,
			 brq->u_be, false);
}

/*
 * Section 4.4 guards the periodic tasks admitted on this CPU, queued or
 * asleep between jobs (ms_cpu_reserved_edf(): RBS's reservations, in a
 * class above, need no cut), and one queued here away from its
 * reservation's CPU.
 */
static bool bebs_guarded(struct bebs_rq *brq)
{
	return brq->nr_periodic || ms_cpu_reserved_edf(cpu_of(brq->rq));
}

/*
 * Section 4.4: U_BE shrank (a reservation arrived) or L grew (a
 * best-effort task joined) on a CPU with periodic tasks
 * (bebs_guarded()), whose deadlines hold only while the best-effort
 * servers keep within U_BE. Cut every executing best-effort server's
 * utilisation at once, as the paper does in this direction: keep its
 * budget, lengthen its period to b / u and push its deadline back as
 * much. Linear in the queued servers; only with periodic tasks on the
 * CPU. The other direction waits for the servers' releases. Returns
 * whether a server was cut: the running one may have to give way
 * (bebs_preempt_first()).
 */
static bool bebs_shrink(struct bebs_rq *brq)
{
	struct sched_bebs_entity *se;
	struct rb_node *n, *next;
	bool cut = false;
	u64 p;

	/*
	 * A server whose deadline moves goes back in later in the tree,
	 * where the walk meets it again: @shrink_seq says it was done.
	 */
	brq->shrink_seq++;
	for (n = rb_first_cached(&brq->ready); n; n = next) {
		next = rb_next(n);
		se = rb_entry(n, struct sched_bebs_entity, node);
		if (se->periodic || se->shrink_seq == brq->shrink_seq)
			continue;
		se->shrink_seq = brq->shrink_seq;
		p = bebs_period(se->budget,
				bebs_util(se->weight, brq->balance.load, brq->u_be));
		if (p <= se->period)
			continue;
		rb_erase_cached(n, &brq->ready);
		se->deadline += p - se->period;
		se->period = p;
		rb_add_cached(n, &brq->ready, bebs_deadline_less);
		trace_bebs_adapt(bebs_task_of(se), se->e_avg, se->budget, p,
				 brq->balance.load, brq->u_be, true);
		cut = true;
	}
	return cut;
}

static void bebs_check_preempt(struct rq *rq, struct sched_bebs_entity *se);

/*
 * After a cut (bebs_shrink()): the running server gives way if its
 * deadline moved past another's. The rq clock is up to date.
 */
static void bebs_preempt_first(struct rq *rq)
{
	struct sched_bebs_entity *first = bebs_first(&bebs_rq_of(rq)->ready);

	if (first)
		bebs_check_preempt(rq, first);
}

/*
 * Read U_BE anew (bebs_update_u_be()) at the tick, and when a reservation
 * follows its task here back from a priority-inheritance boost
 * (switched_to_bebs()), which no enqueue sees: when it shrank on a CPU
 * with periodic tasks, the executing servers make room at once.
 */
static void bebs_check_u_be(struct rq *rq)
{
	struct bebs_rq *brq = bebs_rq_of(rq);
	u64 old = brq->u_be;

	bebs_update_u_be(brq);
	if (brq->u_be < old && bebs_guarded(brq) && bebs_shrink(brq))
		bebs_preempt_first(rq);
}

/*
 * Rule 1: release @se at @now, its period starting at @r, deadline @d.
 * It is not on a tree.
 */
static void bebs_release(struct bebs_rq *brq, struct sched_bebs_entity *se,
			 u64 now, u64 r, enum bebs_why why)
{
	struct task_struct *p = bebs_task_of(se);

	if (se->periodic) {
		/* a job: C every T, due D after its release, and no adaptation */
		se->budget = p->ms.runtime;
		se->period = p->ms.period;
		se->release = ms_before(now, r + se->period) ? r : now;
		se->deadline = se->release + (p->ms.deadline ?: p->ms.period);
		/*
		 * What the last job overran is the new one's debt
		 * (bebs_expire()), less than a budget unless C shrank since.
		 */
		if (se->left < 0)
			se->left = se->budget - min_t(u64, -se->left,
						      se->budget - 1);
		else
			se->left = se->budget;
		se->state = BEBS_EXECUTING;
		trace_bebs_release(p, now, se->deadline, se->budget, se->period,
				   bebs_why_name[why]);
		return;
	}
	bebs_adapt(brq, se);
	se->release = r;
	se->deadline = why == BEBS_WHY_NEW || why == BEBS_WHY_WAKEUP ?
		       now + se->period :
		       bebs_release_deadline(now, se->release_orig, se->budget,
					     se->period);
	if (!ms_before(now, se->release + se->period))
		se->release = now;
	se->left = se->budget;
	if (why == BEBS_WHY_NEW || why == BEBS_WHY_WAKEUP)
		se->burst = 0;
	se->state = BEBS_EXECUTING;
	trace_bebs_release(p, now, se->deadline, se->budget, se->period,
			   bebs_why_name[why]);
}

/*
 * Step 1 of section 4.3: @se stops executing; average what its task ran
 * since it last woke, up to e_max. The paper samples what it ran since
 * the server last became executing, so a job cut by its budget counts as
 * two short samples, and e_avg falls when a job did not fit: under TCG
 * one job stretched by the host settled a soft periodic task in a
 * budget below its job (figure 9, bebs_mix). Here the burst goes on over
 * an expiry, and a job that did not fit raises e_avg. @blocked: the burst
 * ends.
 */
static void bebs_sample(struct sched_bebs_entity *se, bool blocked)
{
	u64 e = min_t(u64, se->burst, READ_ONCE(sysctl_sched_bebs_e_max));

	se->e_avg = bebs_e_avg(se->e_avg, e);
	if (blocked)
		se->burst = 0;
}

/*
 * Rule 3: @se's budget ran out; it waits for r + p on the expired tree,
 * or, a periodic task's, on the throttled one. A periodic task's job
 * that ran out of budget overran (@overrun), unless it gave the rest up
 * (sched_yield()).
 */
static void bebs_expire(struct bebs_rq *brq, struct sched_bebs_entity *se,
			u64 now, bool overrun)
{
	if (se->periodic && overrun)
		bebs_miss(se, now, BEBS_MISS_OVERRUN);
	else if (!se->periodic)
		bebs_sample(se, false);
	if (se->on_rq)
		bebs_erase(brq, se);
	se->state = BEBS_EXPIRED;
	se->release_orig = se->release + se->period;
	/*
	 * A job that overran (the budget timer fired late) pays for it as
	 * SCHED_DEADLINE's replenishment does: whole budgets by whole
	 * periods skipped, the rest from the next job (bebs_release()).
	 * What it runs after this, until the switch, is not charged: under
	 * TCG that debt started chains of overruns in jobs whose work needs
	 * most of their budget (figure 7, bebs_resp).
	 */
	if (se->periodic && se->left < 0 && se->budget) {
		u64 k = div64_u64(-se->left, se->budget);

		se->release_orig += k * se->period;
		se->left += k * se->budget;
	}
	se->release_key = se->release_orig + brq->shift;
	se->release_at = se->release_orig;
	se->nr_expired++;
	trace_bebs_expire(bebs_task_of(se), se->e_avg, se->release_orig);
	if (se->on_rq) {
		bebs_insert(brq, se);
		if (bebs_first(bebs_tree(brq, se)) == se)
			bebs_arm_release(brq);
	}
}

static void bebs_arm_budget(struct rq *rq, struct sched_bebs_entity *se);

/*
 * @se was released: back on its tree, and if its task is the one running
 * (it ran out of budget and was picked again, which calls no
 * ->set_next_task()), its budget timer starts now.
 */
static void bebs_requeue_released(struct bebs_rq *brq,
				  struct sched_bebs_entity *se)
{
	bebs_insert(brq, se);
	if (task_current(brq->rq, bebs_task_of(se)))
		bebs_arm_budget(brq->rq, se);
}

/* Release every throttled periodic server whose next period began. */
static bool bebs_release_throttled(struct bebs_rq *brq, u64 now)
{
	struct sched_bebs_entity *se;
	bool any = false;

	while ((se = bebs_first(&brq->throttled)) &&
	       !ms_before(now, se->release_at)) {
		bebs_erase(brq, se);
		bebs_release(brq, se, now, se->release_at, BEBS_WHY_PERIOD);
		bebs_requeue_released(brq, se);
		any = true;
	}
	return any;
}

/* Release every expired server that is due at @now (with the shift). */
static bool bebs_release_due(struct bebs_rq *brq, u64 now, enum bebs_why why)
{
	struct sched_bebs_entity *se;
	bool any = false;

	while ((se = bebs_first(&brq->expired)) &&
	       !ms_before(now, bebs_next_release(brq, se))) {
		bebs_erase(brq, se);
		bebs_release(brq, se, now, min(now, se->release_orig), why);
		if (why == BEBS_WHY_SLACK && ms_before(now, se->release_orig)) {
			se->nr_slack++;
			brq->nr_slack++;
		}
		bebs_requeue_released(brq, se);
		any = true;
	}
	return any;
}

/*
 * Section 4.2: the CPU would idle with servers expired. Move every
 * expired release forward by what separates the first of them from now,
 * and release it.
 */
static void bebs_reclaim_slack(struct bebs_rq *brq, u64 now)
{
	struct sched_bebs_entity *se = bebs_first(&brq->expired);
	u64 due;

	if (!se)
		return;
	due = bebs_next_release(brq, se);
	if (ms_before(now, due))
		brq->shift += due - now;
	bebs_release_due(brq, now, BEBS_WHY_SLACK);
	hrtimer_try_to_cancel(&brq->release_timer);
	bebs_arm_release(brq);
}

/*
 * The class.
 */

/*
 * How much longer the running best-effort server of @curr keeps the CPU
 * against @se, a best-effort server with an earlier deadline that was
 * woken or released: the rest of one EEVDF base slice
 * (sysctl_sched_base_slice) since @curr was picked, as RUN_TO_PARITY
 * lets an EEVDF task run its slice; 0 when @se preempts it now. Only
 * between best-effort servers, whose deadlines are their own soft
 * targets, and only on a CPU without periodic tasks or reservations,
 * whose guarantees rest on strict EDF: there every earlier deadline
 * preempts at once.
 */
static u64 bebs_keep(struct rq *rq, struct task_struct *curr,
		     struct sched_bebs_entity *se)
{
	u64 slice = READ_ONCE(sysctl_sched_base_slice), ran;

	if (se->periodic || bebs_se(curr)->periodic ||
	    bebs_rq_of(rq)->nr_periodic || ms_cpu_reserved(cpu_of(rq)))
		return 0;
	ran = curr->se.sum_exec_runtime - curr->se.prev_sum_exec_runtime;
	return ran < slice ? slice - ran : 0;
}

/*
 * Arm the budget timer for what is left of @se's budget, or for the end
 * of its slice if a server with an earlier deadline waits for it.
 */
static void bebs_arm_budget(struct rq *rq, struct sched_bebs_entity *se)
{
	struct sched_bebs_entity *first = bebs_first(&bebs_rq_of(rq)->ready);
	s64 when;

	if (se->state != BEBS_EXECUTING || !se->on_rq)
		return;
	when = max_t(s64, se->left, 0);
	if (first && first != se && ms_before(first->deadline, se->deadline))
		when = min_t(s64, when, bebs_keep(rq, bebs_task_of(se), first));
	hrtimer_start(&bebs_rq_of(rq)->budget_timer, ns_to_ktime(when),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static void update_curr_bebs(struct rq *rq)
{
	struct task_struct *curr = ms_rq_curr(rq);
	struct sched_bebs_entity *se = bebs_se(curr);
	struct bebs_rq *brq = bebs_rq_of(rq);
	s64 delta;

	if (curr->sched_class != &bebs_sched_class || !se->on_rq)
		return;
	delta = update_curr_common(rq);
	if (delta <= 0)
		return;
	ms_server_update(&brq->server, delta);
	if (se->state != BEBS_EXECUTING)
		return;
	se->left -= delta;
	se->burst += delta;
	if (se->left <= 0) {
		bebs_expire(brq, se, rq_clock(rq), true);
		resched_curr(rq);
	}
}

/*
 * Ends the running server's budget to the accuracy of the hrtimer, or
 * its slice when a server with an earlier deadline waits (bebs_keep()).
 * The budget is charged in task time, which leaves out interrupts, so
 * the timer may fire before it is used up: then it is armed again for
 * what is left.
 */
static enum hrtimer_restart bebs_budget_timer(struct hrtimer *timer)
{
	struct bebs_rq *brq = container_of(timer, struct bebs_rq, budget_timer);
	struct rq *rq = brq->rq;
	struct sched_bebs_entity *cse, *first;
	struct task_struct *curr;
	struct rq_flags rf;

	rq_lock(rq, &rf);
	update_rq_clock(rq);
	update_curr_bebs(rq);
	curr = ms_rq_curr(rq);
	if (curr->sched_class == &bebs_sched_class) {
		cse = bebs_se(curr);
		first = bebs_first(&brq->ready);
		if (cse->state == BEBS_EXECUTING && cse->on_rq && first &&
		    first != cse && ms_before(first->deadline, cse->deadline) &&
		    !bebs_keep(rq, curr, first))
			resched_curr(rq);
		else
			bebs_arm_budget(rq, cse);
	}
	rq_unlock(rq, &rf);
	return HRTIMER_NORESTART;
}

/*
 * Would @se, just released or woken, preempt what @rq runs? EDF: it does
 * if its deadline is earlier, at once or, between best-effort servers,
 * at the end of the running one's slice (bebs_keep()). The rq clock is
 * up to date: the callers are the wakeup path, an enqueue, the release
 * timer, and, after a cut, the tick and ->switched_to().
 */
static void bebs_check_preempt(struct rq *rq, struct sched_bebs_entity *se)
{
	struct task_struct *curr = ms_rq_curr(rq);
	struct sched_bebs_entity *cse = bebs_se(curr);

	if (se->state != BEBS_EXECUTING)
		return;
	if (sched_class_above(&bebs_sched_class, curr->sched_class)) {
		resched_curr(rq);
		return;
	}
	if (curr->sched_class != &bebs_sched_class)
		return;
	if (cse->state == BEBS_EXECUTING && cse->on_rq) {
		if (!ms_before(se->deadline, cse->deadline))
			return;
		/* what it ran so far, and whether that used up its budget */
		update_curr_bebs(rq);
		if (cse->state == BEBS_EXECUTING && bebs_keep(rq, curr, se)) {
			bebs_arm_budget(rq, cse);
			return;
		}
	}
	resched_curr(rq);
}

static enum hrtimer_restart bebs_release_timer(struct hrtimer *timer)
{
	struct bebs_rq *brq = container_of(timer, struct bebs_rq, release_timer);
	struct rq *rq = brq->rq;
	struct sched_bebs_entity *se;
	struct rq_flags rf;

	rq_lock(rq, &rf);
	update_rq_clock(rq);
	if (bebs_release_throttled(brq, rq_clock(rq)) |
	    bebs_release_due(brq, rq_clock(rq), BEBS_WHY_PERIOD)) {
		se = bebs_first(&brq->ready);
		if (se)
			bebs_check_preempt(rq, se);
		/*
		 * The server stopped when it found only expired servers; it
		 * has a task to run again.
		 */
		ms_server_start(&brq->server);
	}
	bebs_arm_release(brq);
	rq_unlock(rq, &rf);
	return HRTIMER_NORESTART;
}

/* Is @p a periodic task (with its reservation admitted)? */
static inline bool bebs_periodic(struct task_struct *p)
{
	return p->policy == SCHED_BEBS &&
	       (p->ms.flags & MS_FLAG_BEBS_PERIODIC);
}

static void enqueue_task_bebs(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_bebs_entity *se = bebs_se(p);
	struct bebs_rq *brq = bebs_rq_of(rq);
	u64 now = rq_clock(rq);
	bool periodic = bebs_periodic(p);
	bool cut = false;

	/* it became periodic, or best-effort: a new server of its kind */
	if (periodic != se->periodic) {
		se->periodic = periodic;
		se->state = BEBS_NEW;
		se->left = 0;
	}
	/* L is the best-effort load: a periodic task has its own bandwidth */
	se->weight = periodic ? 0 : ms_task_weight(p);
	ms_balance_account(&brq->balance, se->weight, 1);
	se->on_rq = 1;
	brq->nr_periodic += periodic;

	/*
	 * A reservation new here, moved here with its task (ms_place()), or
	 * moved to the CPU its task was on by a cpuset (ms_set_cpus_allowed(),
	 * the task dequeued or asleep meanwhile), lowered U_BE: the servers
	 * adapt at once. A new or migrated one cuts even when U_BE reads
	 * unchanged: a tick here may have read the drop first, and cut then
	 * (bebs_guarded() counts an admitted reservation), which leaves this
	 * walk nothing to do.
	 */
	if (periodic) {
		u64 u_be = brq->u_be;

		bebs_update_u_be(brq);
		if (se->state == BEBS_NEW || (flags & ENQUEUE_MIGRATED) ||
		    brq->u_be < u_be)
			cut = bebs_shrink(brq);
	}
	switch (se->state) {
	case BEBS_NEW:
		if (!se->e_avg)
			se->e_avg = BEBS_E_INIT;
		bebs_release(brq, se, now, now, BEBS_WHY_NEW);
		break;
	case BEBS_BLOCKED:
		/*
		 * The wakeup rule serves a periodic task too: its next job may
		 * wake a little less than T after the kernel released the last
		 * one late, and is released all the same while the server's
		 * rate allows; a task that wakes early with its budget used
		 * waits for its next period.
		 */
		if (bebs_wake_releases(now, se->release, se->left, se->budget,
				       se->period))
			bebs_release(brq, se, now, now, BEBS_WHY_WAKEUP);
		else
			se->state = BEBS_EXECUTING;
		break;
	case BEBS_EXPIRED:
		if (periodic && !ms_before(now, se->release_at)) {
			bebs_release(brq, se, now, se->release_at, BEBS_WHY_PERIOD);
			break;
		}
		/* it waits for the same release here, with this CPU's shift */
		se->release_key = se->release_at + brq->shift;
		break;
	default:
		break;
	}
	bebs_insert(brq, se);
	/*
	 * L grew beside periodic tasks: the servers make room now, this one
	 * too if it resumed an older period.
	 */
	if (!periodic && bebs_guarded(brq))
		cut |= bebs_shrink(brq);
	if (se->state == BEBS_EXPIRED &&
	    bebs_first(bebs_tree(brq, se)) == se)
		bebs_arm_release(brq);
	add_nr_running(rq, 1);
	ms_server_start(&brq->server);
	/*
	 * A cut may have moved the running server's deadline past another
	 * one's; a wakeup checks only @p, a restore (a cpuset's move)
	 * nothing.
	 */
	if (cut)
		bebs_preempt_first(rq);
}

static bool dequeue_task_bebs(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_bebs_entity *se = bebs_se(p);
	struct bebs_rq *brq = bebs_rq_of(rq);

	update_curr_bebs(rq);
	bebs_erase(brq, se);
	se->on_rq = 0;
	brq->nr_periodic -= se->periodic;
	ms_balance_account(&brq->balance, -(s64)se->weight, -1);
	if (se->state == BEBS_EXPIRED) {
		if (!se->periodic)
			se->release_at = bebs_next_release(brq, se);
		if (flags & DEQUEUE_SLEEP)
			se->burst = 0;
	} else if (flags & DEQUEUE_SLEEP) {
		/* rule 2: it sleeps with budget left; a job ends */
		if (!se->periodic)
			bebs_sample(se, true);
		else if (ms_before(se->deadline, rq_clock(rq)))
			bebs_miss(se, rq_clock(rq), BEBS_MISS_LATE);
		se->state = BEBS_BLOCKED;
	}
	sub_nr_running(rq, 1);
	return true;
}

/*
 * bebs_movable - the task to move from @src to @dst
 * @gap:	@src's L minus @dst's
 *
 * The heaviest queued, not running, task that may run on @dst and weighs
 * less than @gap; expired servers first, as they wait here while @dst may
 * run them. Scans at most BEBS_BALANCE_SCAN of each tree.
 */
static struct task_struct *bebs_movable(struct rq *src, struct rq *dst, u64 gap)
{
	struct bebs_rq *brq = bebs_rq_of(src);
	struct rb_root_cached *roots[] = { &brq->expired, &brq->ready };
	struct task_struct *best = NULL, *p;
	struct sched_bebs_entity *se;
	struct rb_node *n;
	int i, scan;

	for (i = 0; i < ARRAY_SIZE(roots) && !best; i++) {
		scan = 0;
		for (n = rb_first_cached(roots[i]); n && scan < BEBS_BALANCE_SCAN;
		     n = rb_next(n), scan++) {
			se = rb_entry(n, struct sched_bebs_entity, node);
			p = bebs_task_of(se);
			if (se->periodic || !ms_can_move(src, dst, p) ||
			    se->weight >= gap)
				continue;
			if (!best || se->weight > bebs_se(best)->weight)
				best = p;
		}
	}
	return best;
}

/* L is a weight: the balancer BVT and VTRR use evens it out. */
DEFINE_MS_BALANCER(bebs, bebs_rqs, ms_task_weight, bebs_movable);

/*
 * @server: the pick of BEBS's dl_server, which runs only when the classes
 * above starve BEBS and so those below too: its time is BEBS's, and
 * slack is taken whatever the classes below have queued.
 */
static struct task_struct *__pick_task_bebs(struct rq *rq, bool server)
{
	struct bebs_rq *brq = bebs_rq_of(rq);
	struct sched_bebs_entity *se;
	u64 now;

	/*
	 * Every pick of a lower class's task asks. A queued task is in one
	 * of the trees, and one that left was charged by its dequeue.
	 */
	if (!brq->balance.nr_running)
		return NULL;
	update_curr_bebs(rq);
	se = bebs_first(&brq->ready);
	if (se) {
		/*
		 * The running task picked again, which calls no
		 * ->set_next_task(): the budget timer that asked for the
		 * switch, for a server that has since left (pushed, pulled
		 * or changed), armed nothing; arm it here. Not queued, as
		 * hrtimer_active() would still say while that callback
		 * returns on another CPU (set_next_task_bebs() may have armed
		 * it there). Only on this CPU, where the timer is pinned (core
		 * scheduling picks for its siblings too).
		 */
		if (task_current(rq, bebs_task_of(se)) && rq == this_rq() &&
		    !hrtimer_is_queued(&brq->budget_timer))
			bebs_arm_budget(rq, se);
		return bebs_task_of(se);
	}
	if (RB_EMPTY_ROOT(&brq->expired.rb_root) &&
	    RB_EMPTY_ROOT(&brq->throttled.rb_root))
		return NULL;
	/*
	 * Releases the timer has yet to make, then slack if the CPU is idle;
	 * throttled periodic tasks wait for their periods.
	 */
	now = rq_clock(rq);
	if (!(bebs_release_throttled(brq, now) |
	      bebs_release_due(brq, now, BEBS_WHY_PERIOD)) &&
	    !RB_EMPTY_ROOT(&brq->expired.rb_root) &&
	    (server || !ms_below_runnable(rq, &bebs_sched_class)))
		bebs_reclaim_slack(brq, now);
	se = bebs_first(&brq->ready);
	return se ? bebs_task_of(se) : NULL;
}

static struct task_struct *pick_task_bebs(struct rq *rq)
{
	return __pick_task_bebs(rq, false);
}

static void put_prev_task_bebs(struct rq *rq, struct task_struct *p,
			       struct task_struct *next)
{
	update_curr_bebs(rq);
	ms_update_util(rq, true);
	hrtimer_try_to_cancel(&bebs_rq_of(rq)->budget_timer);
}

static void set_next_task_bebs(struct rq *rq, struct task_struct *p, bool first)
{
	struct sched_bebs_entity *se = bebs_se(p);

	p->se.exec_start = rq_clock_task(rq);
	ms_update_util(rq, false);
	/* where its slice starts, for bebs_keep() */
	p->se.prev_sum_exec_runtime = p->se.sum_exec_runtime;
	/*
	 * A running task whose server is expired or throttled comes back
	 * here deboosted (rt_mutex_setprio()) or put back in the class by
	 * sched_setattr(2): no pick returns it, and nothing charges it
	 * (update_curr_bebs()), so it leaves the CPU, as a throttled
	 * SCHED_DEADLINE task does.
	 */
	if (se->on_rq && se->state != BEBS_EXECUTING)
		resched_curr(rq);
	bebs_arm_budget(rq, se);
}

static void task_tick_bebs(struct rq *rq, struct task_struct *p, int queued)
{
	update_curr_bebs(rq);
	bebs_check_u_be(rq);
	ms_tick_util(rq);
	ms_trigger_push(&bebs_balancer, rq);
	/* a periodic task away from its reservation's CPU goes back */
	if (bebs_se(p)->periodic && ms_away(p, cpu_of(rq)))
		ms_queue_work(p, MS_WORK_PLACE);
}

/* EDF: a woken or released server preempts one with a later deadline. */
static void wakeup_preempt_bebs(struct rq *rq, struct task_struct *p, int flags)
{
	bebs_check_preempt(rq, bebs_se(p));
}

/*
 * sched_yield(): the server gives up what is left of its budget and
 * waits for its next release (or for slack, a best-effort one); as
 * SCHED_DEADLINE's yield, this is how a periodic job may say it is done.
 */
static void yield_task_bebs(struct rq *rq)
{
	struct sched_bebs_entity *se = bebs_se(ms_rq_curr(rq));

	update_rq_clock(rq);
	update_curr_bebs(rq);
	if (se->state == BEBS_EXECUTING && se->on_rq)
		bebs_expire(bebs_rq_of(rq), se, rq_clock(rq), false);
}

/* A child starts as a new server, with its parent's e_avg if it has one. */
static void task_fork_bebs(struct task_struct *p)
{
	u64 e_avg = 0;

	if (current->sched_class == &bebs_sched_class)
		e_avg = bebs_se(current)->e_avg;
	ms_own_state(p, SCHED_BEBS);
	memset(bebs_se(p), 0, sizeof(struct sched_bebs_entity));
	RB_CLEAR_NODE(&bebs_se(p)->node);
	bebs_se(p)->e_avg = e_avg;
}

/*
 * A task that joins BEBS is a new server. One that comes back to it after
 * a priority-inheritance boost keeps its server: an expired one still
 * waits for its release, a blocked one meets the wakeup rule.
 */
static void switching_to_bebs(struct rq *rq, struct task_struct *p)
{
	struct sched_bebs_entity *se = bebs_se(p);

	if (!ms_own_state(p, SCHED_BEBS))
		RB_CLEAR_NODE(&se->node);
	if (se->state == BEBS_EXECUTING)
		se->state = BEBS_BLOCKED;
}

/*
 * A periodic task back from a priority-inheritance boost may bring its
 * reservation here (ms_switched_to_resv()): U_BE shrinks after its
 * enqueue, which read it before.
 */
static void switched_to_bebs(struct rq *rq, struct task_struct *p)
{
	ms_switched_to_resv(rq, p);
	bebs_check_u_be(rq);
}

static void prio_changed_bebs(struct rq *rq, struct task_struct *p, int oldprio)
{
	/* set_user_nice() dequeued and enqueued it: q and L are re-read. */
}

/*
 * A periodic task keeps the CPU its reservation is on. A waking
 * best-effort task goes to an idle CPU, the one it last ran on first,
 * and otherwise stays there, where its cache is: the balancer's pushes
 * (every 20 ms) and pulls (when a CPU runs out of BEBS tasks) even out
 * L, as fair leaves most of its balancing to the load balancer rather
 * than to wakeups. A new task is placed by weight (ms_select_task_rq()).
 */
static int select_task_rq_bebs_any(struct task_struct *p, int cpu, int flags)
{
	int resv = READ_ONCE(p->ms.run.resv_cpu), i;

	if (READ_ONCE(p->ms.run.resv_bw) && cpu_active(resv) &&
	    cpumask_test_cpu(resv, p->cpus_ptr))
		return resv;
	if (!(flags & WF_TTWU) || p->nr_cpus_allowed == 1)
		return select_task_rq_bebs(p, cpu, flags);
	for_each_cpu_wrap(i, p->cpus_ptr, cpu)
		if (cpu_active(i) && available_idle_cpu(i))
			return i;
	return cpu;
}

/*
 * A periodic task moves to its reservation's CPU (ms_place()), or off it
 * only when it must (a cpuset change, suspend): the reservation follows
 * it then (ms_migrate_reservation()).
 */
static void migrate_task_rq_bebs(struct task_struct *p, int new_cpu)
{
	ms_migrate_reservation(p, new_cpu);
}

/*
 * The reservation goes with the task. A task dies deboosted (it holds no
 * rt_mutex by then), so one that held a reservation dies in this class.
 */
static void task_dead_bebs(struct task_struct *p)
{
	ms_release(p);
}

static unsigned int get_rr_interval_bebs(struct rq *rq, struct task_struct *p)
{
	return nsecs_to_jiffies(bebs_se(p)->budget);
}

/* The BEBS server's pick: what BEBS would run. */
static struct task_struct *bebs_server_pick(struct sched_dl_entity *dl_se)
{
	return __pick_task_bebs(dl_se->rq, true);
}

static void init_bebs_rq(struct rq *rq, int cpu)
{
	struct bebs_rq *brq = per_cpu_ptr(&bebs_rqs, cpu);

	brq->rq = rq;
	brq->ready = RB_ROOT_CACHED;
	brq->expired = RB_ROOT_CACHED;
	brq->throttled = RB_ROOT_CACHED;
	brq->u_be = BW_UNIT;
	ms_balance_init(&brq->balance, &bebs_balancer);
	hrtimer_init(&brq->budget_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	brq->budget_timer.function = bebs_budget_timer;
	hrtimer_init(&brq->release_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	brq->release_timer.function = bebs_release_timer;
	ms_server_init(&brq->server, rq, bebs_server_pick);
}

static struct sched_dl_entity *bebs_server(int cpu)
{
	return &per_cpu(bebs_rqs, cpu).server;
}

static unsigned int bebs_nr_running(struct rq *rq)
{
	return bebs_rq_of(rq)->balance.nr_running;
}

#ifdef CONFIG_SCHED_CORE
/*
 * Core scheduling takes a task for a sibling from the core tree, or
 * steals one for an idle sibling (sched_core_find(), try_steal_cookie()):
 * not one whose server is expired or throttled, which no pick of the
 * class returns and update_curr_bebs() would not charge, and not a
 * periodic task to another CPU than its own, where its bandwidth is not
 * admitted. Under the rq lock of @p's CPU.
 */
static int task_is_throttled_bebs(struct task_struct *p, int cpu)
{
	const struct sched_bebs_entity *se = bebs_se(p);

	return se->state != BEBS_EXECUTING ||
	       (se->periodic && cpu != task_cpu(p));
}
#endif

DEFINE_SCHED_CLASS(bebs) = {
	.enqueue_task		= enqueue_task_bebs,
	.dequeue_task		= dequeue_task_bebs,
	.yield_task		= yield_task_bebs,
	.wakeup_preempt		= wakeup_preempt_bebs,
	.pick_task		= pick_task_bebs,
	.put_prev_task		= put_prev_task_bebs,
	.set_next_task		= set_next_task_bebs,
#ifdef CONFIG_SMP
	.balance		= balance_bebs,
	.select_task_rq		= select_task_rq_bebs_any,
	.migrate_task_rq	= migrate_task_rq_bebs,
	.set_cpus_allowed	= ms_set_cpus_allowed,
#endif
	.task_dead		= task_dead_bebs,
	.task_tick		= task_tick_bebs,
	.task_fork		= task_fork_bebs,
	.switching_to		= switching_to_bebs,
	.switched_to		= switched_to_bebs,
	.prio_changed		= prio_changed_bebs,
	.get_rr_interval	= get_rr_interval_bebs,
	.update_curr		= update_curr_bebs,
#ifdef CONFIG_SCHED_CORE
	.task_is_throttled	= task_is_throttled_bebs,
#endif
};

/*
 * A best-effort server takes its parameters from how its task runs: no
 * budget, period, deadline or warp, and no overrun signal. A periodic task
 * gives a budget and a period within the limits every reservation has,
 * and a deadline between them (0: the period).
 */
static int bebs_validate(const struct sched_attr *attr)
{
	if (attr->sched_warp || attr->sched_warp_limit || attr->sched_unwarp)
		return -EINVAL;
	if (!(attr->sched_ms_flags & MS_FLAG_BEBS_PERIODIC))
		return attr->sched_runtime || attr->sched_deadline ||
		       attr->sched_period ||
		       (attr->sched_ms_flags & MS_FLAG_BEBS_OVERRUN) ? -EINVAL : 0;
	if (!ms_period_valid(attr->sched_runtime, attr->sched_period))
		return -EINVAL;
	if (attr->sched_deadline &&
	    (attr->sched_deadline < attr->sched_runtime ||
	     attr->sched_deadline > attr->sched_period))
		return -EINVAL;
	return 0;
}

/* A periodic task reserves its density C / D: EDF's sufficient test. */
static u64 bebs_bandwidth(struct task_struct *p,
			  const struct sched_attr *attr)
{
	if (!(attr->sched_ms_flags & MS_FLAG_BEBS_PERIODIC))
		return 0;
	return to_ratio(attr->sched_deadline ?: attr->sched_period,
			attr->sched_runtime);
}

/* What admission leaves free on the CPU: U_BE,min, in BW_UNIT parts. */
static u64 bebs_bw_free(void)
{
	return div_u64((u64)READ_ONCE(sysctl_sched_bebs_u_be_min) << BW_SHIFT,
		       1000000);
}

/* A periodic task holds a reservation: CAP_SYS_NICE, as SCHED_DEADLINE. */
static bool bebs_asks_for_more(struct task_struct *p,
			       const struct sched_attr *attr, bool same)
{
	return attr->sched_ms_flags & MS_FLAG_BEBS_PERIODIC;
}

static const char *const bebs_state_name[] = {
	[BEBS_NEW]		= "new",
	[BEBS_EXECUTING]	= "executing",
	[BEBS_BLOCKED]		= "blocked",
	[BEBS_EXPIRED]		= "expired",
};

/* Read without the rq lock: a snapshot, as the rest of /proc/<pid>/sched. */
static void bebs_proc_show(struct task_struct *p, struct seq_file *m)
{
	const struct sched_bebs_entity *se = bebs_se(p);

	seq_printf(m, "%-45s:%21s\n", "ms.bebs.state",
		   bebs_state_name[READ_ONCE(se->state) & 3]);
	ms_proc_u64(m, "ms.bebs.budget_ns", se->budget);
	ms_proc_u64(m, "ms.bebs.period_ns", se->period);
	ms_proc_s64(m, "ms.bebs.left_ns", se->left);
	ms_proc_u64(m, "ms.bebs.deadline", se->deadline);
	ms_proc_u64(m, "ms.bebs.e_avg_ns", se->e_avg);
	ms_proc_u64(m, "ms.bebs.nr_expired", se->nr_expired);
	ms_proc_u64(m, "ms.bebs.nr_slack", se->nr_slack);
	ms_proc_u64(m, "ms.bebs.nr_missed", se->nr_missed);
	ms_proc_u64(m, "ms.bebs.nr_late", se->nr_late);
	ms_proc_u64(m, "ms.bebs.reserved_ppm",
		    DIV_ROUND_UP_ULL(READ_ONCE(p->ms.run.resv_bw) * 1000000ULL,
				     BW_UNIT));
	ms_proc_s64(m, "ms.bebs.reserved_cpu", READ_ONCE(p->ms.run.resv_bw) ?
		    READ_ONCE(p->ms.run.resv_cpu) : -1);
}

#ifdef CONFIG_SCHED_CORE
/* EDF across the CPUs of a core: deadlines are times of the rq clocks. */
static bool bebs_core_less(const struct task_struct *a,
			   const struct task_struct *b, bool in_fi)
{
	return ms_before(b->ms.run.state.bebs.deadline,
			 a->ms.run.state.bebs.deadline);
}
#endif

const struct ms_class ms_bebs_class = {
	.name		= "bebs",
	.policy		= SCHED_BEBS,
	.class		= &bebs_sched_class,
	.ready		= true,
	.general	= true,
	.flags		= MS_FLAGS_BEBS,
	.validate	= bebs_validate,
	.asks_for_more	= bebs_asks_for_more,
	.init_rq	= init_bebs_rq,
	.proc_show	= bebs_proc_show,
	.server		= bebs_server,
	.nr_running	= bebs_nr_running,
	.balance	= &bebs_rqs.balance,
	.bandwidth	= bebs_bandwidth,
	.bw_free	= bebs_bw_free,
	.task_work	= bebs_task_work,
	.reservation_flags = MS_FLAG_BEBS_PERIODIC | MS_FLAG_BEBS_OVERRUN,
#ifdef CONFIG_SCHED_CORE
	.core_prio	= MAX_RT_PRIO,
	.core_less	= bebs_core_less,
#endif
#ifdef CONFIG_SYSCTL
	.sysctls	= bebs_sysctls,
	.nr_sysctls	= ARRAY_SIZE(bebs_sysctls),
#endif
};

#ifdef CONFIG_SCHED_MULTISCHED_KUNIT_TEST
#include "bebs_test.c"
#endif
