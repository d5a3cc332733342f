// SPDX-License-Identifier: GPL-2.0
/*
 * Borrowed Virtual Time (BVT) scheduling class
 *
 * Every thread advances an actual virtual time A while it runs, at a rate
 * inversely proportional to its weight: A grows by delta * 1024 / weight
 * for delta nanoseconds of CPU, so a thread of weight 2048 ages half as
 * fast as one of 1024 and gets twice the CPU. Run time is charged in whole
 * minimum charging units (mcu), rounded up when the thread stops running;
 * the default mcu of 0 charges exact nanoseconds. The runnable entity with
 * the lowest effective virtual time
 *
 *	E = A - (warped ? W : 0) + (migrated ? M : 0)
 *
 * runs next. A latency-sensitive thread borrows against its future share
 * by warping back W: it is dispatched ahead of threads whose A is within W
 * of its own, but A keeps advancing at the usual rate, so over time it gets
 * no more than its weight. Two limits contain a thread that abuses its
 * warp: after L nanoseconds of running warped (the warp time limit) it is
 * unwarped until it next sleeps, and after a warped stretch ends (at L, by
 * sleeping, or by leaving its signal handler) it may not warp again for U
 * nanoseconds (the unwarp time requirement). An hrtimer enforces L to the
 * microsecond. A thread may instead warp only while it handles a signal
 * (MS_FLAG_WARP_SIGNAL), the paper's SA_BVT_WARP: from the wakeup that
 * delivers the signal until the handler returns through sigreturn.
 *
 * The scheduler virtual time SVT is the minimum A of the runnable
 * entities. A thread that wakes keeps its A, but no less than SVT minus
 * C / weight: sleeping earns no more credit against the threads that kept
 * running than the error the paper allows anyway, whether the sleep was
 * voluntary (the paper raises A to SVT) or involuntary (the paper keeps
 * A). The context switch allowance C keeps a thread running until
 * another's E is lower than its own by at least C / weight of virtual
 * time, which bounds the switch rate between threads of equal claim. A waking thread
 * preempts by the same rule, a warped one as soon as its E is below the
 * running thread's; either goes ahead of the threads of equal E. A thread
 * that last ran on another CPU pays the migration penalty M in E until it
 * runs.
 *
 * Two levels (sections 2.5 and 6.3): threads with MS_FLAG_RESERVED, which
 * needs CAP_SYS_NICE, form the reserved-effort level; every other thread
 * is best effort. The best-effort level is itself one entity of the
 * reserved-effort level, with the weight, warp, L and U of the
 * kernel.sched_bvt_be_* sysctls, so the threads of level 0 keep their share
 * however many best-effort threads there are. The best-effort entity warps
 * when the thread it would run is warped: in threshold mode by its own W
 * if that thread's W exceeds a threshold, in direct mode by that thread's
 * W. Run time is charged to the thread and to the aggregate.
 *
 * Each level keeps its queued entities in an rbtree by E, augmented with
 * the lowest A of each subtree for SVT (as fair keeps min_vruntime), so
 * enqueue, dequeue and pick are O(log n). As in fair, the running entity
 * of a level (the thread, and at level 0 the aggregate of a best-effort
 * thread) is out of its tree from ->set_next_task() to ->put_prev_task(),
 * so charging it touches no tree; pick and SVT compare it with the tree.
 * Weights are kept with their reciprocals, so that charging multiplies
 * rather than divides (ms_div()). Virtual times are u64 nanoseconds
 * compared with wrap-safe signed differences; nothing is ever rebased.
 * On SMP each CPU has its own levels. A waking thread moves, within its
 * CPU's last-level cache, to an idle CPU or to one whose BVT weight is
 * lower by at least its own; every 20 ms a CPU pushes a queued thread to
 * one whose weight is lower by more than the thread's, which narrows the
 * gap; a CPU whose last BVT thread left pulls one the same way. The
 * balancing is common with VTRR (ms_balance() in multisched.c). Each CPU
 * also has a BVT dl_server (ms_server_init()), charged with what BVT runs,
 * which runs BVT when RT and BEBS would starve it.
 *
 * Paper: K. J. Duda and D. R. Cheriton, "Borrowed-Virtual-Time (BVT)
 * scheduling: supporting latency-sensitive threads in a general-purpose
 * scheduler", SOSP 1999.
 */
#include <linux/mmu_context.h>
#include <linux/rbtree_augmented.h>
#include <linux/sched/signal.h>
#include <linux/sysctl.h>

#include "sched.h"

#include <trace/events/multisched.h>

/* Virtual time advances by delta * BVT_WEIGHT_UNIT / weight. */
#define BVT_WEIGHT_UNIT		1024

/* Modes of the best-effort level (kernel.sched_bvt_be_mode). */
#define BVT_BE_THRESHOLD	0
#define BVT_BE_DIRECT		1

/* The warp timer fires at L; the rq clock may read a little short of it. */
#define BVT_TIMER_SLACK_NS	(20 * NSEC_PER_USEC)

/*
 * A sleeper's A is compared with SVT by a signed difference, which is
 * exact while SVT has moved less than 2^63 ns of virtual time. SVT moves
 * at most 1024 times as fast as real time (weight 1), so in a day by less
 * than 2^57: after a sleep of a day or more the old A is not looked at.
 */
#define BVT_STALE_SLEEP		(24 * 60 * 60 * HZ)

/* How many threads of each level, least urgent first, balancing looks at. */
#define BVT_BALANCE_SCAN	32

/* L of a MS_FLAG_WARP_SIGNAL thread that set none, in ns. */
#define BVT_SIGNAL_WARP_LIMIT	(10 * NSEC_PER_MSEC)

/*
 * One level of BVT: a scheduler with its own threads and SVT. Protected,
 * as all of struct bvt_rq, by the runqueue's lock; the balancer also
 * reads struct bvt_rq's @balance without it (struct ms_balance).
 */
struct bvt_sched {
	struct rb_root_cached	evt_tree;	/* queued entities but @curr, by E */
	struct sched_bvt_entity	*curr;		/* the running entity, in no tree */
	unsigned int		nr_running;	/* queued entities, @curr included */
	u64			svt;		/* scheduler virtual time */
#ifdef CONFIG_SCHED_CORE
	u64			svt_fi;		/* @svt at the core's last pick */
#endif
};

#define BVT_LEVEL_RE	0	/* reserved effort: CAP_SYS_NICE threads, @be */
#define BVT_LEVEL_BE	1	/* best effort: every other thread */

struct bvt_rq {
	struct bvt_sched	level[2];
	struct sched_bvt_entity	be;		/* level 1 as an entity of level 0 */
	struct ms_balance	balance;	/* tasks of both levels, their weights */
	bool			skip_c;		/* picks ignore C until a switch */
	struct hrtimer		warp_timer;	/* ends a warped stretch at L */
	struct task_struct	*warp_task;	/* the task warp_timer is armed for */
	struct rq		*rq;		/* the runqueue this state belongs to */
	struct sched_dl_entity	server;		/* runs BVT when above starves it */
};

/* Each CPU's BVT state, beside its struct rq. */
static DEFINE_PER_CPU(struct bvt_rq, bvt_rqs);

static inline struct bvt_rq *bvt_rq_of(struct rq *rq)
{
	return per_cpu_ptr(&bvt_rqs, cpu_of(rq));
}

/*
 * bvt_mcu_round - how much run time to charge, in whole mcu
 * @uncharged:	run time not yet charged; keeps the remainder
 * @mcu:	the minimum charging unit, 0 to charge exact nanoseconds
 * @stop:	the thread stops running: round the remainder up (section 2)
 */
static inline u64 bvt_mcu_round(u64 *uncharged, u32 mcu, bool stop)
{
	u64 charge = *uncharged, rem;

	if (!mcu) {
		*uncharged = 0;
		return charge;
	}
	rem = do_div(charge, mcu);
	charge *= mcu;
	if (stop && rem) {
		charge += mcu;
		rem = 0;
	}
	*uncharged = rem;
	return charge;
}

/*
 * bvt_wakeup_avt - A of a thread that wakes at scheduler virtual time @svt
 * @credit:	how far behind SVT it may stay: C in its virtual time
 * @stale:	it slept so long that its A may no longer compare with @svt
 *
 * It keeps the A it had, down to SVT - @credit. The paper raises a thread
 * that slept voluntarily to SVT, so that waiting for an event earns no
 * credit (figure 2), and lets one that slept involuntarily (a page fault,
 * a lock) keep its A (section 2.1). Both keep at most C here: that is no
 * more than the error the paper allows between share and allocation, so
 * no sleeper claims an excessive share, and it is what lets a thread that
 * sleeps briefly and often, using less than its share, be dispatched
 * before the running thread has got C ahead of it at every wakeup.
 */
static inline u64 bvt_wakeup_avt(u64 avt, u64 svt, u64 credit, bool stale)
{
	u64 floor = svt - credit;

	return stale || (s64)(avt - floor) < 0 ? floor : avt;
}

/*
 * The warp time limit L a thread runs with, from its parameters: its own,
 * or for one that warps in signal handlers and set none,
 * BVT_SIGNAL_WARP_LIMIT. A handler left by siglongjmp() or a legacy
 * sigreturn never tells BVT it returned: such a thread always has an L.
 */
static inline u64 bvt_param_limit(u32 flags, u64 limit)
{
	if (!limit && (flags & MS_FLAG_WARP_SIGNAL))
		return BVT_SIGNAL_WARP_LIMIT;
	return limit;
}

/*
 * C, the context switch allowance, and M, the migration penalty, in
 * nanoseconds of real time, bounded to 100 ms so that a typo cannot make
 * BVT round-robin in seconds; the mcu, bounded to 10 ms as in the paper's
 * implementation. The best-effort aggregate: weight, W, L (10 us..1 s),
 * U, the threshold, and the mode.
 */
static unsigned int sysctl_sched_bvt_csw_allowance = 2 * NSEC_PER_MSEC;
static unsigned int sysctl_sched_bvt_migration_penalty = NSEC_PER_MSEC / 2;
static unsigned int sysctl_sched_bvt_mcu;
static unsigned int sysctl_sched_bvt_be_weight = BVT_WEIGHT_UNIT;
static unsigned int sysctl_sched_bvt_be_warp;
static unsigned int sysctl_sched_bvt_be_warp_limit = 10 * NSEC_PER_MSEC;
static unsigned int sysctl_sched_bvt_be_unwarp;
static unsigned int sysctl_sched_bvt_be_threshold;
static unsigned int sysctl_sched_bvt_be_mode = BVT_BE_THRESHOLD;

static unsigned int bvt_time_max = 100 * NSEC_PER_MSEC;
static unsigned int bvt_mcu_max = 10 * NSEC_PER_MSEC;
static unsigned int bvt_be_time_max = NSEC_PER_SEC;
static unsigned int bvt_be_limit_min = MS_WARP_LIMIT_MIN;
static unsigned int bvt_weight_max = MS_WEIGHT_MAX;

#ifdef CONFIG_SYSCTL
#define BVT_SYSCTL(name, var, min, max)				\
	{							\
		.procname	= name,				\
		.data		= &(var),			\
		.maxlen		= sizeof(unsigned int),		\
		.mode		= 0644,				\
		.proc_handler	= proc_douintvec_minmax,	\
		.extra1		= (min),			\
		.extra2		= (max),			\
	}

static struct ctl_table bvt_sysctls[] = {
	BVT_SYSCTL("sched_bvt_csw_allowance_ns", sysctl_sched_bvt_csw_allowance,
		   SYSCTL_ZERO, &bvt_time_max),
	BVT_SYSCTL("sched_bvt_migration_penalty_ns",
		   sysctl_sched_bvt_migration_penalty, SYSCTL_ZERO, &bvt_time_max),
	BVT_SYSCTL("sched_bvt_mcu_ns", sysctl_sched_bvt_mcu,
		   SYSCTL_ZERO, &bvt_mcu_max),
	BVT_SYSCTL("sched_bvt_be_weight", sysctl_sched_bvt_be_weight,
		   SYSCTL_ONE, &bvt_weight_max),
	BVT_SYSCTL("sched_bvt_be_warp_ns", sysctl_sched_bvt_be_warp,
		   SYSCTL_ZERO, &bvt_be_time_max),
	BVT_SYSCTL("sched_bvt_be_warp_limit_ns", sysctl_sched_bvt_be_warp_limit,
		   &bvt_be_limit_min, &bvt_be_time_max),
	BVT_SYSCTL("sched_bvt_be_unwarp_ns", sysctl_sched_bvt_be_unwarp,
		   SYSCTL_ZERO, &bvt_be_time_max),
	BVT_SYSCTL("sched_bvt_be_threshold_ns", sysctl_sched_bvt_be_threshold,
		   SYSCTL_ZERO, &bvt_be_time_max),
	BVT_SYSCTL("sched_bvt_be_mode", sysctl_sched_bvt_be_mode,
		   SYSCTL_ZERO, SYSCTL_ONE),
};
#endif /* CONFIG_SYSCTL */

static inline struct sched_bvt_entity *bvt_se(struct task_struct *p)
{
	return &p->ms.run.state.bvt;
}

static inline struct task_struct *bvt_task_of(struct sched_bvt_entity *se)
{
	WARN_ON_ONCE(se->group);
	return container_of(se, struct task_struct, ms.run.state.bvt);
}

static inline struct bvt_sched *bvt_level(struct rq *rq,
					  struct sched_bvt_entity *se)
{
	return &bvt_rq_of(rq)->level[se->level];
}

static u32 bvt_weight(struct task_struct *p)
{
	return ms_task_weight(p);
}

static int bvt_task_level(struct task_struct *p)
{
	return p->ms.flags & MS_FLAG_RESERVED ? BVT_LEVEL_RE : BVT_LEVEL_BE;
}

/*
 * A charge is capped at 2^53 ns (104 days), so that it can be scaled by
 * BVT_WEIGHT_UNIT in 64 bits.
 */
#define BVT_DELTA_MAX		BIT_ULL(53)

/*
 * __bvt_vtime - virtual time for @delta ns at @weight, whose ms_recip() is
 * @inv: delta * BVT_WEIGHT_UNIT / weight, exact, by a multiply (ms_div())
 */
static inline u64 __bvt_vtime(u64 delta, u32 weight, u64 inv)
{
	return ms_div(min(delta, BVT_DELTA_MAX) * BVT_WEIGHT_UNIT, weight, inv);
}

/* The same, for an entity: weights are kept with their reciprocals. */
static inline u64 bvt_vtime(struct sched_bvt_entity *se, u64 delta)
{
	return __bvt_vtime(delta, se->weight, se->inv_weight);
}

/* Set @se's weight, and its reciprocal if the weight changed. */
static inline void bvt_set_weight(struct sched_bvt_entity *se, u32 weight)
{
	if (se->weight == weight && se->inv_weight)
		return;
	se->weight = weight;
	se->inv_weight = ms_recip(weight);
}

/* L and U of an entity: the thread's own, or the aggregate's sysctls. */
static u64 bvt_warp_limit(struct sched_bvt_entity *se)
{
	struct task_struct *p;

	if (se->group)
		return READ_ONCE(sysctl_sched_bvt_be_warp_limit);
	p = bvt_task_of(se);
	return bvt_param_limit(p->ms.flags, p->ms.warp_limit);
}

static u64 bvt_unwarp_time(struct sched_bvt_entity *se)
{
	if (se->group)
		return READ_ONCE(sysctl_sched_bvt_be_unwarp);
	return bvt_task_of(se)->ms.unwarp;
}

static void bvt_trace_warp(struct sched_bvt_entity *se, const char *why)
{
	trace_bvt_warp(se->group ? -1 : bvt_task_of(se)->pid, se->level,
		       se->warped, why, se->avt, se->warp_used);
}

/*
 * bvt_handler_pending - will @p run a signal handler when it next runs?
 *
 * A pending, unblocked signal whose action is a handler: not one that is
 * ignored, and not one whose default action (killing, stopping) runs no
 * code of the thread's. Read without the siglock, under the rq lock with
 * interrupts off: sighand_struct is SLAB_TYPESAFE_BY_RCU. A signal that
 * comes while the thread is queued but not running is seen only when the
 * thread next runs (its tick and its handler's entry rewarp it).
 */
static bool bvt_handler_pending(struct task_struct *p)
{
	struct sighand_struct *sighand;
	sigset_t pending, shared, blocked;
	int sig;

	if (!task_sigpending(p) || fatal_signal_pending(p))
		return false;
	sighand = rcu_dereference_sched(p->sighand);
	if (!sighand)
		return false;
	/* without the siglock: hints, rechecked when a signal or wakeup comes */
	pending = data_race(p->pending.signal);	/* vs __send_signal_locked() */
	shared = data_race(p->signal->shared_pending.signal);	/* likewise */
	blocked = data_race(p->blocked);	/* vs sigprocmask() */
	sigorsets(&pending, &pending, &shared);
	sigandnsets(&pending, &pending, &blocked);
	for (sig = 1; sig <= _NSIG; sig++) {
		__sighandler_t h;

		if (!sigismember(&pending, sig))
			continue;
		h = READ_ONCE(sighand->action[sig - 1].sa.sa_handler);
		if (h != SIG_DFL && h != SIG_IGN)
			return true;
	}
	return false;
}

/*
 * bvt_task_warp - the W a thread asks to run with now, 0 for none
 *
 * Its W, unless warping is switched off, or it warps only in signal
 * handlers and is neither in one nor woken to run one.
 */
static s64 bvt_task_warp(struct task_struct *p)
{
	if (p->ms.warp <= 0 || (p->ms.flags & MS_FLAG_WARP_OFF))
		return 0;
	if ((p->ms.flags & MS_FLAG_WARP_SIGNAL) && !p->ms.run.sig_depth &&
	    !bvt_handler_pending(p))
		return 0;
	return p->ms.warp;
}

/* E = A - (warped ? W : 0) + (migrated ? M : 0) */
static u64 bvt_evt(struct sched_bvt_entity *se)
{
	u64 evt = se->avt;

	if (se->warped)
		evt -= se->warp;
	if (se->migrated)
		evt += bvt_vtime(se, READ_ONCE(sysctl_sched_bvt_migration_penalty));
	return evt;
}

static inline bool bvt_evt_less(struct rb_node *a, const struct rb_node *b)
{
	return ms_before(rb_entry(a, struct sched_bvt_entity, evt_node)->evt,
			 rb_entry(b, struct sched_bvt_entity, evt_node)->evt);
}

/* Ties go to @a: a thread waking at SVT goes ahead of those already there. */
static inline bool bvt_evt_less_eq(struct rb_node *a, const struct rb_node *b)
{
	return !ms_before(rb_entry(b, struct sched_bvt_entity, evt_node)->evt,
			  rb_entry(a, struct sched_bvt_entity, evt_node)->evt);
}

/*
 * The augmentation: @se->min_avt = the lowest A of @se's subtree, so that
 * the root has the lowest A of the tree (bvt_update_svt()).
 */
static inline void __bvt_min_avt_update(struct sched_bvt_entity *se,
					struct rb_node *node)
{
	struct sched_bvt_entity *child;

	if (!node)
		return;
	child = rb_entry(node, struct sched_bvt_entity, evt_node);
	if (ms_before(child->min_avt, se->min_avt))
		se->min_avt = child->min_avt;
}

static inline bool bvt_min_avt_update(struct sched_bvt_entity *se, bool exit)
{
	u64 old = se->min_avt;

	se->min_avt = se->avt;
	__bvt_min_avt_update(se, se->evt_node.rb_left);
	__bvt_min_avt_update(se, se->evt_node.rb_right);
	return se->min_avt == old;
}

RB_DECLARE_CALLBACKS(static, bvt_min_avt_cb, struct sched_bvt_entity,
		     evt_node, min_avt, bvt_min_avt_update);

/*
 * __bvt_insert - queue @se by its E and its A
 * @woke:	it is waking up: among entities of equal E it goes first, as
 *		a thread that had been runnable but not dispatched would be
 */
static void __bvt_insert(struct bvt_sched *bs, struct sched_bvt_entity *se,
			 bool woke)
{
	se->evt = bvt_evt(se);
	se->min_avt = se->avt;
	rb_add_augmented_cached(&se->evt_node, &bs->evt_tree,
				woke ? bvt_evt_less_eq : bvt_evt_less,
				&bvt_min_avt_cb);
}

static void __bvt_erase(struct bvt_sched *bs, struct sched_bvt_entity *se)
{
	rb_erase_augmented_cached(&se->evt_node, &bs->evt_tree,
				  &bvt_min_avt_cb);
}

/*
 * bvt_enqueue_entity - @se becomes runnable at @bs
 * @woke:	see __bvt_insert()
 *
 * The running entity stays out of the tree: the last best-effort thread
 * can leave and another arrive (balance_bvt() pulls before the pick)
 * while the aggregate is still the running entity of level 0.
 */
static void bvt_enqueue_entity(struct bvt_sched *bs,
			       struct sched_bvt_entity *se, bool woke)
{
	if (se == bs->curr)
		se->evt = bvt_evt(se);
	else
		__bvt_insert(bs, se, woke);
	se->on_rq = 1;
	bs->nr_running++;
}

static void bvt_dequeue_entity(struct bvt_sched *bs,
			       struct sched_bvt_entity *se)
{
	if (se != bs->curr)
		__bvt_erase(bs, se);
	se->on_rq = 0;
	bs->nr_running--;
}

/*
 * Re-key a queued entity after its A or warp state changed. The running
 * entity has only its E brought up to date: it is in no tree.
 */
static void bvt_requeue(struct bvt_sched *bs, struct sched_bvt_entity *se)
{
	if (!se->on_rq)
		return;
	if (se == bs->curr) {
		se->evt = bvt_evt(se);
		return;
	}
	__bvt_erase(bs, se);
	__bvt_insert(bs, se, false);
}

/* @se starts running: out of its tree, with its E up to date. */
static void bvt_set_curr(struct bvt_sched *bs, struct sched_bvt_entity *se)
{
	if (bs->curr == se)
		return;
	WARN_ON_ONCE(bs->curr);
	if (se->on_rq)
		__bvt_erase(bs, se);
	se->evt = bvt_evt(se);
	bs->curr = se;
}

/* The running entity of @bs stops running: back into its tree if queued. */
static void bvt_put_curr(struct bvt_sched *bs)
{
	struct sched_bvt_entity *se = bs->curr;

	if (!se)
		return;
	bs->curr = NULL;
	if (se->on_rq)
		__bvt_insert(bs, se, false);
}

/* The queued entity of lowest E, the running one not counted. */
static struct sched_bvt_entity *bvt_first(struct bvt_sched *bs)
{
	struct rb_node *n = rb_first_cached(&bs->evt_tree);

	return n ? rb_entry(n, struct sched_bvt_entity, evt_node) : NULL;
}

/* The runnable entity of lowest E, the running one counted. */
static struct sched_bvt_entity *bvt_lowest(struct bvt_sched *bs)
{
	struct sched_bvt_entity *first = bvt_first(bs), *curr = bs->curr;

	if (!curr || !curr->on_rq)
		return first;
	return first && !ms_before(curr->evt, first->evt) ? first : curr;
}

/*
 * SVT, the minimum A of a level's runnable entities, the running one
 * included. It only moves forward, so that a thread waking on an empty
 * level is not sent back.
 */
static void bvt_update_svt(struct bvt_sched *bs)
{
	struct rb_node *n = bs->evt_tree.rb_root.rb_node;
	struct sched_bvt_entity *curr = bs->curr;
	bool any = false;
	u64 min_avt = 0;

	if (n) {
		min_avt = rb_entry(n, struct sched_bvt_entity, evt_node)->min_avt;
		any = true;
	}
	if (curr && curr->on_rq) {
		if (!any || ms_before(curr->avt, min_avt))
			min_avt = curr->avt;
		any = true;
	}
	if (any && ms_before(bs->svt, min_avt))
		WRITE_ONCE(bs->svt, min_avt);
}

/* A warped stretch ends: U counts from @now. */
static void bvt_unwarp(struct rq *rq, struct sched_bvt_entity *se,
		       const char *why)
{
	se->unwarp_until = rq_clock(rq) + bvt_unwarp_time(se);
	se->warp_used = 0;
	if (se->warped) {
		se->warped = 0;
		bvt_trace_warp(se, why);
	}
}

/*
 * bvt_set_warp - update what @se asks to warp by, and whether it may
 * @warp:	the W it asks for, 0 for none
 * @woke:	it is waking up, so a refusal by U counts as a U hit
 *
 * It warps when it asks to, has not used up L since it last slept, and U
 * has passed since its last warped stretch ended. The caller re-keys it.
 */
static void bvt_set_warp(struct rq *rq, struct sched_bvt_entity *se,
			 s64 warp, bool woke)
{
	bool asks = warp > 0, asked = se->warp > 0, warped;

	/* It stopped asking: that ends a warped stretch, as sleeping does. */
	if (!asks) {
		if (se->warped)
			bvt_unwarp(rq, se, "off");
		se->limit_hit = 0;
	}
	se->warp = warp;
	if (!asks || se->limit_hit)
		return;

	warped = !ms_before(rq_clock(rq), se->unwarp_until);
	if (!warped && (woke || !asked)) {
		se->nr_unwarp_hits++;
		bvt_trace_warp(se, "U");
	}
	if (warped != se->warped) {
		se->warped = warped;
		bvt_trace_warp(se, "allowed");
	}
}

/* The entity ran L warped: unwarp it until it sleeps. */
static void bvt_limit_hit(struct rq *rq, struct sched_bvt_entity *se)
{
	se->limit_hit = 1;
	se->nr_limit_hits++;
	bvt_unwarp(rq, se, "L");
}

/*
 * The W the best-effort aggregate asks for: that of the thread it would
 * run, if it is warped, directly or (threshold mode) as the aggregate's
 * own W when the thread's exceeds the threshold.
 */
static s64 bvt_be_warp(struct bvt_rq *bvt_rq)
{
	struct sched_bvt_entity *first = bvt_lowest(&bvt_rq->level[BVT_LEVEL_BE]);

	if (!first || !first->warped)
		return 0;
	if (READ_ONCE(sysctl_sched_bvt_be_mode) == BVT_BE_DIRECT)
		return first->warp;
	if (first->warp > READ_ONCE(sysctl_sched_bvt_be_threshold))
		return READ_ONCE(sysctl_sched_bvt_be_warp);
	return 0;
}

/*
 * The best-effort level changed: re-key its aggregate in level 0. Only
 * the warp can have moved a queued aggregate's E (its A moves when it is
 * charged, as the running entity, which is in no tree); most often it
 * has not, and the aggregate stays where it is in the tree.
 */
static void bvt_update_be(struct rq *rq)
{
	struct bvt_rq *bvt_rq = bvt_rq_of(rq);
	struct sched_bvt_entity *be = &bvt_rq->be;
	struct bvt_sched *bs = &bvt_rq->level[BVT_LEVEL_RE];

	if (!be->on_rq)
		return;
	bvt_set_warp(rq, be, bvt_be_warp(bvt_rq), false);
	if (be == bs->curr || bvt_evt(be) != be->evt)
		bvt_requeue(bs, be);
}

/* Charge @delta ns of run time to one entity, the thread or the aggregate. */
static void bvt_account(struct rq *rq, struct sched_bvt_entity *se,
			u64 delta, bool stop)
{
	u64 limit = bvt_warp_limit(se);

	se->uncharged += delta;
	se->avt += bvt_vtime(se, bvt_mcu_round(&se->uncharged,
					       READ_ONCE(sysctl_sched_bvt_mcu), stop));
	if (!se->warped)
		return;
	se->warp_used += delta;
	if (limit && se->warp_used + BVT_TIMER_SLACK_NS >= limit)
		bvt_limit_hit(rq, se);
}

/*
 * Charge the running thread, and the best-effort aggregate if it belongs
 * to it: A advances by the run time scaled by weight, and warped run time
 * counts against L. @stop: it is leaving the CPU, so round up to an mcu;
 * @be_stop: so is the best-effort level (the next thread is not in it).
 */
static void __update_curr_bvt(struct rq *rq, bool stop, bool be_stop)
{
	struct task_struct *curr = ms_rq_curr(rq);
	struct sched_bvt_entity *se = bvt_se(curr), *be = &bvt_rq_of(rq)->be;
	s64 delta;

	if (curr->sched_class != &bvt_sched_class)
		return;

	delta = update_curr_common(rq);
	/*
	 * Nothing ran since the last charge: a stop has only an mcu
	 * remainder to round up, and with no mcu (the default) none.
	 */
	if (delta < 0 ||
	    (!delta && (!stop || (!se->uncharged && !be->uncharged))))
		return;

	ms_server_update(&bvt_rq_of(rq)->server, delta);
	bvt_account(rq, se, delta, stop);
	bvt_requeue(bvt_level(rq, se), se);
	bvt_update_svt(bvt_level(rq, se));
	if (se->level == BVT_LEVEL_BE) {
		bvt_set_weight(be, READ_ONCE(sysctl_sched_bvt_be_weight));
		bvt_account(rq, be, delta, be_stop);
		bvt_update_be(rq);
		bvt_update_svt(&bvt_rq_of(rq)->level[BVT_LEVEL_RE]);
	}
}

static void update_curr_bvt(struct rq *rq)
{
	__update_curr_bvt(rq, false, false);
}

/* Warped run time left before @se hits L, or U64_MAX. */
static u64 bvt_warp_left(struct sched_bvt_entity *se)
{
	u64 limit = bvt_warp_limit(se);

	if (!se->warped || !limit)
		return U64_MAX;
	return limit > se->warp_used ? limit - se->warp_used : 0;
}

/* Arm the L timer for the running thread, or for its aggregate. */
static void bvt_arm_warp_timer(struct rq *rq, struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p);
	u64 left = bvt_warp_left(se);

	if (se->level == BVT_LEVEL_BE)
		left = min(left, bvt_warp_left(&bvt_rq_of(rq)->be));
	if (left == U64_MAX)
		return;
	bvt_rq_of(rq)->warp_task = p;
	hrtimer_start(&bvt_rq_of(rq)->warp_timer, ns_to_ktime(left),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * The running entity of @level if it is still queued: the thread, the
 * aggregate, or NULL.
 */
static struct sched_bvt_entity *bvt_curr_at(struct rq *rq, int level)
{
	struct sched_bvt_entity *curr = bvt_rq_of(rq)->level[level].curr;

	return curr && curr->on_rq ? curr : NULL;
}

/*
 * bvt_c_vtime - the allowance C in the running entity's virtual time
 *
 * Another entity displaces @curr once its E is lower by this much.
 */
static u64 bvt_c_vtime(struct sched_bvt_entity *curr)
{
	return bvt_vtime(curr, READ_ONCE(sysctl_sched_bvt_csw_allowance));
}

/*
 * Section 2.1: switch from @curr (i) to @first (j) when A_j <= A_i - C/w_i.
 * The bound is inclusive, and that matters: a thread that used less than
 * its share wakes exactly C/w behind SVT (bvt_wakeup_avt()), and the
 * running thread is often the one at SVT. With a strict test such a
 * thread waits for the next tick at every wakeup, and a periodic thread
 * that fell behind its deadlines (its sleeps return at once) then makes
 * one period of progress per tick and never catches up.
 */
static bool bvt_should_switch(struct sched_bvt_entity *curr,
			      struct sched_bvt_entity *first)
{
	return first != curr &&
	       !ms_before(curr->evt, first->evt + bvt_c_vtime(curr));
}

/*
 * bvt_run_left - the run time after which a thread's E has grown by
 * @vleft of virtual time, at @weight (whose ms_recip() is @inv), with
 * @uncharged ns not yet charged to its A and an mcu of @mcu (0 for exact
 * nanoseconds)
 *
 * A grows by bvt_vtime() of what bvt_mcu_round() charges: whole mcu,
 * counting @uncharged. Rounded up, so that the thread is there, not a
 * nanosecond short, when the time has run. For bvt_switch_left().
 */
static inline u64 bvt_run_left(u64 vleft, u32 weight, u64 inv,
			       u64 uncharged, u32 mcu)
{
	u64 left;

	/* __bvt_vtime()'s inverse, rounded up */
	left = mul_u64_u32_shr(vleft, weight, ilog2(BVT_WEIGHT_UNIT));
	if (__bvt_vtime(left, weight, inv) < vleft)
		left++;
	if (!mcu)
		return left;
	left = max_t(u64, DIV_ROUND_UP_ULL(left, mcu) * mcu, mcu);
	return left > uncharged ? left - uncharged : 0;
}

/*
 * bvt_switch_left - the run time after which @rival displaces @curr
 *
 * bvt_should_switch() holds once @curr's E has grown to @rival's plus C
 * in @curr's virtual time. U64_MAX when there is no @rival; at most a
 * second, after which the hrtick only looks again.
 */
static u64 bvt_switch_left(struct sched_bvt_entity *curr,
			   struct sched_bvt_entity *rival)
{
	s64 vleft;

	if (!curr || !rival)
		return U64_MAX;
	vleft = (s64)(rival->evt + bvt_c_vtime(curr) - curr->evt);
	if (vleft <= 0)
		return 0;
	return min_t(u64, NSEC_PER_SEC,
		     bvt_run_left(vleft, curr->weight, curr->inv_weight,
				  curr->uncharged,
				  READ_ONCE(sysctl_sched_bvt_mcu)));
}

/*
 * bvt_hrtick - with the HRTICK feature, switch on time rather than at
 * the tick after it: arm the rq's hrtick for the run time after which
 * another entity of @p's level, or of level 0 for @p's aggregate, is C
 * ahead of it. The hrtick calls task_tick_bvt(), which charges @p and
 * reschedules. A warped stretch ends at L by the warp timer, and a
 * waking thread is looked at by wakeup_preempt_bvt(), which calls this
 * again when the thread does not preempt.
 */
static void bvt_hrtick(struct rq *rq, struct task_struct *p)
{
	struct bvt_rq *bvt_rq = bvt_rq_of(rq);
	struct sched_bvt_entity *se = bvt_se(p), *top = se;
	u64 left;

	/* only for the running entity, which is in no tree */
	if (!hrtick_enabled_fair(rq) || bvt_curr_at(rq, se->level) != se)
		return;
	/* its rival: the first of the tree */
	if (se->level == BVT_LEVEL_BE) {
		top = &bvt_rq->be;
		left = bvt_switch_left(se, bvt_first(&bvt_rq->level[BVT_LEVEL_BE]));
	} else {
		left = U64_MAX;
	}
	left = min(left, bvt_switch_left(top, bvt_first(&bvt_rq->level[BVT_LEVEL_RE])));
	if (left != U64_MAX)
		ms_hrtick_start(rq, left);
}

/*
 * Lowest E of a level, unless the running entity @curr is still within C;
 * without @honour_c, @curr loses a tie, as it did when it was re-keyed
 * behind the entities of equal E.
 */
static struct sched_bvt_entity *bvt_choose(struct bvt_sched *bs,
					   struct sched_bvt_entity *curr,
					   bool honour_c)
{
	struct sched_bvt_entity *first = bvt_first(bs);

	if (!curr || !first)
		return curr ?: first;
	if (honour_c)
		return bvt_should_switch(curr, first) ? first : curr;
	return ms_before(curr->evt, first->evt) ? curr : first;
}

/* The thread BVT runs next: choose in level 0, then in level 1. */
static struct task_struct *bvt_pick(struct rq *rq, bool honour_c)
{
	struct bvt_rq *bvt_rq = bvt_rq_of(rq);
	struct sched_bvt_entity *se;

	se = bvt_choose(&bvt_rq->level[BVT_LEVEL_RE],
			bvt_curr_at(rq, BVT_LEVEL_RE), honour_c);
	if (se && se->group)
		se = bvt_choose(&bvt_rq->level[BVT_LEVEL_BE],
				bvt_curr_at(rq, BVT_LEVEL_BE), honour_c);
	return se ? bvt_task_of(se) : NULL;
}

/*
 * The running thread, or its aggregate, has run warped for L. The timer
 * was armed for it when it started running or warping, and cancelled
 * when it stopped running; if it fires for another thread, the cancel
 * raced with the expiry and there is nothing to do.
 */
static enum hrtimer_restart bvt_warp_timer(struct hrtimer *timer)
{
	struct bvt_rq *bvt_rq = container_of(timer, struct bvt_rq, warp_timer);
	struct rq *rq = bvt_rq->rq;
	struct task_struct *curr;
	struct rq_flags rf;

	rq_lock(rq, &rf);
	update_rq_clock(rq);
	curr = ms_rq_curr(rq);
	if (curr == bvt_rq->warp_task &&
	    curr->sched_class == &bvt_sched_class) {
		bvt_rq->warp_task = NULL;
		update_curr_bvt(rq);
		bvt_arm_warp_timer(rq, curr);
		/*
		 * A thread still first keeps the CPU without a switch, and
		 * so without a ->set_next_task() to arm the hrtick for it.
		 */
		if (bvt_pick(rq, true) != curr)
			resched_curr(rq);
		else
			bvt_hrtick(rq, curr);
	}
	rq_unlock(rq, &rf);

	return HRTIMER_NORESTART;
}

/* The first best-effort thread arrived: the aggregate wakes in level 0. */
static void bvt_enqueue_be(struct rq *rq)
{
	struct bvt_rq *bvt_rq = bvt_rq_of(rq);
	struct bvt_sched *bs = &bvt_rq->level[BVT_LEVEL_RE];
	struct sched_bvt_entity *be = &bvt_rq->be;

	bvt_set_weight(be, READ_ONCE(sysctl_sched_bvt_be_weight));
	be->avt = bvt_wakeup_avt(be->avt, bs->svt, 0,
				 time_after(jiffies, be->slept_at + BVT_STALE_SLEEP));
	bvt_enqueue_entity(bs, be, true);
}

/* The last best-effort thread left: the aggregate sleeps. */
static void bvt_dequeue_be(struct rq *rq)
{
	struct bvt_rq *bvt_rq = bvt_rq_of(rq);
	struct sched_bvt_entity *be = &bvt_rq->be;

	bvt_dequeue_entity(&bvt_rq->level[BVT_LEVEL_RE], be);
	if (be->warp_used || be->limit_hit || be->warped)
		bvt_unwarp(rq, be, "sleep");
	be->limit_hit = 0;
	be->warp = 0;
	be->slept_at = jiffies;
}

/*
 * A counts in the level the thread was last in: on a move to the other
 * level (MS_FLAG_RESERVED changed) carry its lead or lag over SVT along.
 */
static void bvt_set_level(struct rq *rq, struct sched_bvt_entity *se,
			  int level)
{
	struct bvt_rq *bvt_rq = bvt_rq_of(rq);

	if (se->level == level)
		return;
	se->avt = se->avt - bvt_rq->level[se->level].svt +
		  bvt_rq->level[level].svt;
	se->level = level;
}

static void enqueue_task_bvt(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_bvt_entity *se = bvt_se(p);
	struct bvt_rq *bvt_rq = bvt_rq_of(rq);
	struct bvt_sched *bs;

	/* SVT counts the running thread's A as of now */
	update_curr_bvt(rq);
	bvt_set_weight(se, bvt_weight(p));
	bvt_set_level(rq, se, bvt_task_level(p));
	bs = bvt_level(rq, se);
	if (se->level == BVT_LEVEL_BE && !bvt_rq->be.on_rq)
		bvt_enqueue_be(rq);

	if (flags & ENQUEUE_INITIAL) {
		/* a new thread: level with its parent, no earlier than SVT */
		se->avt = bs->svt + max_t(s64, se->lag, 0);
		se->lag = 0;
	} else if (flags & ENQUEUE_WAKEUP) {
		se->avt = bvt_wakeup_avt(se->avt, bs->svt, bvt_c_vtime(se),
					 time_after(jiffies, se->slept_at +
						    BVT_STALE_SLEEP));
	}
	bvt_set_warp(rq, se, bvt_task_warp(p), flags & ENQUEUE_WAKEUP);

	bvt_enqueue_entity(bs, se, flags & ENQUEUE_WAKEUP);
	ms_balance_account(&bvt_rq->balance, se->weight, 1);
	add_nr_running(rq, 1);
	bvt_update_svt(bs);
	if (se->level == BVT_LEVEL_BE)
		bvt_update_be(rq);
	ms_server_start(&bvt_rq->server);
}

/*
 * A thread blocks: its warped stretch ends, and U counts from here. When
 * it slept decides whether its A is still worth comparing when it wakes.
 */
static void bvt_sleep(struct rq *rq, struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p);

	if (se->warp_used || se->limit_hit || se->warped)
		bvt_unwarp(rq, se, "sleep");
	se->limit_hit = 0;
	se->slept_at = jiffies;
}

static bool dequeue_task_bvt(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_bvt_entity *se = bvt_se(p);
	struct bvt_rq *bvt_rq = bvt_rq_of(rq);
	struct bvt_sched *bs = bvt_level(rq, se);

	update_curr_bvt(rq);
	bvt_dequeue_entity(bs, se);
	ms_balance_account(&bvt_rq->balance, -(s64)se->weight, -1);
	sub_nr_running(rq, 1);

	if (flags & DEQUEUE_SLEEP)
		bvt_sleep(rq, p);
	bvt_update_svt(bs);
	if (se->level == BVT_LEVEL_BE) {
		if (!bs->nr_running)
			bvt_dequeue_be(rq);
		else
			bvt_update_be(rq);
	}
	return true;
}

/*
 * bvt_movable - the thread to move from @src to @dst
 * @gap:	@src's BVT weight minus @dst's
 *
 * The heaviest queued, not running, thread that may run on @dst and
 * weighs less than @gap, so that moving it narrows the gap; scans at most
 * BVT_BALANCE_SCAN threads of each level, least urgent first.
 */
static struct task_struct *bvt_movable(struct rq *src, struct rq *dst, u64 gap)
{
	struct task_struct *best = NULL, *p;
	struct sched_bvt_entity *se;
	struct rb_node *n;
	int level, scan;

	for (level = BVT_LEVEL_RE; level <= BVT_LEVEL_BE; level++) {
		n = rb_last(&bvt_rq_of(src)->level[level].evt_tree.rb_root);
		for (scan = 0; n && scan < BVT_BALANCE_SCAN;
		     n = rb_prev(n), scan++) {
			se = rb_entry(n, struct sched_bvt_entity, evt_node);
			if (se->group)
				continue;
			p = bvt_task_of(se);
			if (!ms_can_move(src, dst, p))
				continue;
			if (se->weight < gap &&
			    (!best || se->weight > bvt_se(best)->weight))
				best = p;
		}
	}
	return best;
}

/* Balancing by BVT weight, common with VTRR (multisched.c). */
DEFINE_MS_BALANCER(bvt, bvt_rqs, bvt_weight, bvt_movable);

static struct task_struct *pick_task_bvt(struct rq *rq)
{
	struct bvt_rq *bvt_rq = bvt_rq_of(rq);
	struct task_struct *p;

	/* every pick of a lower class's task asks; nothing to charge then */
	if (!bvt_rq->balance.nr_running)
		return NULL;
	update_curr_bvt(rq);
	/*
	 * Core scheduling may pick and then run something else, so a pick
	 * changes nothing that a later one reads: @skip_c lasts until a
	 * thread is switched in, or the running one is picked again, which
	 * it would be with C honoured too.
	 */
	p = bvt_pick(rq, !bvt_rq->skip_c);
	if (p == ms_rq_curr(rq))
		bvt_rq->skip_c = false;
	if (p)
		trace_bvt_pick(p, bvt_se(p)->evt, bvt_level(rq, bvt_se(p))->svt,
			       p == ms_rq_curr(rq) ? "stay" : "E");
	return p;
}

/* The BVT server's pick: what BVT would run. */
static struct task_struct *bvt_server_pick(struct sched_dl_entity *dl_se)
{
	return pick_task_bvt(dl_se->rq);
}

static void put_prev_task_bvt(struct rq *rq, struct task_struct *p,
			      struct task_struct *next)
{
	bool be_next = next && next->sched_class == &bvt_sched_class &&
		       bvt_se(next)->level == BVT_LEVEL_BE;
	struct bvt_rq *bvt_rq = bvt_rq_of(rq);

	__update_curr_bvt(rq, true, !be_next);
	/*
	 * The thread, then at level 0 the thread or its aggregate; the
	 * aggregate stays the running entity of level 0 when @next is a
	 * best-effort thread too, as fair keeps the group entities @prev and
	 * @next share, and set_next_task_bvt() finds it there.
	 */
	bvt_put_curr(&bvt_rq->level[BVT_LEVEL_BE]);
	if (!be_next || bvt_rq->level[BVT_LEVEL_RE].curr != &bvt_rq->be)
		bvt_put_curr(&bvt_rq->level[BVT_LEVEL_RE]);
	ms_update_util(rq, true);
	/* without warp_task, a queued timer has nothing to do when it fires */
	if (bvt_rq->warp_task) {
		bvt_rq->warp_task = NULL;
		hrtimer_try_to_cancel(&bvt_rq->warp_timer);
	}
}

static void set_next_task_bvt(struct rq *rq, struct task_struct *p, bool first)
{
	struct sched_bvt_entity *se = bvt_se(p);
	struct bvt_rq *bvt_rq = bvt_rq_of(rq);

	p->se.exec_start = rq_clock_task(rq);
	ms_update_util(rq, false);
	/* it pays M until it runs: bvt_set_curr() takes it out of E */
	se->migrated = 0;
	bvt_set_curr(bvt_level(rq, se), se);
	if (se->level == BVT_LEVEL_BE)
		bvt_set_curr(&bvt_rq->level[BVT_LEVEL_RE], &bvt_rq->be);
	bvt_arm_warp_timer(rq, p);
	if (first)
		bvt_rq->skip_c = false;
	bvt_hrtick(rq, p);
}

/*
 * Re-evaluate the running thread's warp (U may have passed, its handler
 * may have returned) and preempt it if another entity is now C ahead.
 */
static void bvt_rewarp_curr(struct rq *rq, struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p);

	bvt_set_warp(rq, se, bvt_task_warp(p), false);
	bvt_requeue(bvt_level(rq, se), se);
	if (se->level == BVT_LEVEL_BE)
		bvt_update_be(rq);
	bvt_arm_warp_timer(rq, p);
	if (bvt_pick(rq, true) != p)
		resched_curr(rq);
}

/*
 * @queued: the hrtick. The tick re-arms it for a thread that keeps the
 * CPU, which gets no ->set_next_task(); an hrtick that fired before the
 * task clock reached the switch is re-armed for the rest.
 */
static void task_tick_bvt(struct rq *rq, struct task_struct *p, int queued)
{
	update_curr_bvt(rq);
	ms_tick_util(rq);
	ms_tick_core(rq);
	bvt_rewarp_curr(rq, p);
	if (!test_tsk_need_resched(p) &&
	    (queued || !ms_hrtick_armed(rq)))
		bvt_hrtick(rq, p);
	if (!queued)
		ms_trigger_push(&bvt_balancer, rq);
}

/* The level at which @a and @b compete: themselves, or their aggregate. */
static void bvt_common_level(struct rq *rq, struct sched_bvt_entity **a,
			     struct sched_bvt_entity **b)
{
	if ((*a)->level == BVT_LEVEL_BE && (*b)->level == BVT_LEVEL_BE)
		return;
	if ((*a)->level == BVT_LEVEL_BE)
		*a = &bvt_rq_of(rq)->be;
	if ((*b)->level == BVT_LEVEL_BE)
		*b = &bvt_rq_of(rq)->be;
}

static void wakeup_preempt_bvt(struct rq *rq, struct task_struct *p, int flags)
{
	struct task_struct *curr = ms_rq_curr(rq);
	struct sched_bvt_entity *a = bvt_se(p), *b = bvt_se(curr);

	update_curr_bvt(rq);
	/*
	 * A woken warped thread with a lower E than the running one runs at
	 * once; an unwarped one must be C ahead, as at every other switch,
	 * or every wakeup of a thread that slept would preempt. One that has
	 * used less than its share wakes C behind SVT (bvt_wakeup_avt()), so
	 * it displaces a running thread at or past SVT whose weight is at
	 * least its own; a lighter running thread keeps the CPU to the tick.
	 */
	bvt_common_level(rq, &a, &b);
	if (a != b && (a->warped ? ms_before(a->evt, b->evt) :
				   bvt_should_switch(b, a))) {
		bvt_rq_of(rq)->skip_c = true;
		resched_curr(rq);
	} else if (curr->sched_class == &bvt_sched_class) {
		/* it may displace the running thread before the tick */
		bvt_hrtick(rq, curr);
	}
}

static void yield_task_bvt(struct rq *rq)
{
	bvt_rq_of(rq)->skip_c = true;
}

/*
 * A child starts level with its parent, and no earlier than SVT: record
 * the parent's lead over SVT, which enqueue_task_bvt() applies on the CPU
 * the child starts on (wake_up_new_task() places it without migrating A).
 */
static void task_fork_bvt(struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p), *pse = bvt_se(current);
	int level = bvt_task_level(p);
	u64 svt;

	ms_own_state(p, SCHED_BVT);
	se->level = level;
	se->lag = 0;
	bvt_set_weight(se, bvt_weight(p));
	se->slept_at = jiffies;
	if (current->sched_class != &bvt_sched_class || pse->level != level)
		return;
	svt = READ_ONCE(bvt_rq_of(task_rq(current))->level[level].svt);
	se->lag = max_t(s64, pse->avt - svt, 0);
}

/*
 * A thread that joins BVT, or comes back to it (after a priority-
 * inheritance boost, say), starts at SVT plus any lead it had when it
 * left: it brings no credit, and a boost does not wipe what it owes.
 */
static void switching_to_bvt(struct rq *rq, struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p);

	/*
	 * A running task is charged before its first enqueue in BVT
	 * (__sched_setscheduler() puts it back with set_next_task()).
	 * Its lag is its own only if the state is BVT's.
	 */
	ms_own_state(p, SCHED_BVT);
	bvt_set_weight(se, bvt_weight(p));
	se->slept_at = jiffies;
	se->level = bvt_task_level(p);
	se->avt = bvt_rq_of(rq)->level[se->level].svt + max_t(s64, se->lag, 0);
	se->lag = 0;
	se->warp_used = 0;
	se->limit_hit = 0;
	se->warped = 0;
	se->migrated = 0;
}

/*
 * Called after the task's new class took it: when that class is another
 * multisched class, the state is no longer BVT's (ms_own_state()) and is
 * left alone; when it is RT or DL (a boost) or fair, the lag is kept for
 * the way back.
 */
static void switched_from_bvt(struct rq *rq, struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p);

	p->ms.run.sig_depth = 0;
	if (p->ms.run.state_policy != SCHED_BVT)
		return;
	se->lag = se->avt - bvt_rq_of(rq)->level[se->level].svt;
	/* a lead measured against an SVT a day on is no lead at all */
	if (!task_on_rq_queued(p) &&
	    time_after(jiffies, se->slept_at + BVT_STALE_SLEEP))
		se->lag = 0;
}

static void prio_changed_bvt(struct rq *rq, struct task_struct *p, int oldprio)
{
	/* Parameters are re-read on enqueue, which setscheduler does. */
}

static unsigned int get_rr_interval_bvt(struct rq *rq, struct task_struct *p)
{
	return nsecs_to_jiffies(READ_ONCE(sysctl_sched_bvt_csw_allowance));
}

static void bvt_signal_handler(struct task_struct *p, bool enter)
{
	struct sched_bvt_entity *se = bvt_se(p);
	struct rq_flags rf;
	struct rq *rq;

	rq = task_rq_lock(p, &rf);
	if (enter && p->ms.run.sig_depth < U8_MAX)
		p->ms.run.sig_depth++;
	else if (!enter && p->ms.run.sig_depth)
		p->ms.run.sig_depth--;
	if (p->sched_class == &bvt_sched_class && se->on_rq) {
		update_rq_clock(rq);
		update_curr_bvt(rq);
		bvt_rewarp_curr(rq, p);
	}
	task_rq_unlock(rq, p, &rf);
}

/**
 * ms_signal_handler - the current thread enters or leaves a signal handler
 * @enter:	true once its frame is set up, false at sigreturn
 *
 * Called from signal delivery and sigreturn for every thread; threads
 * with MS_FLAG_WARP_SIGNAL run warped from the wakeup that delivers a
 * signal until their handler returns.
 */
void ms_signal_handler(bool enter)
{
	if (READ_ONCE(current->ms.flags) & MS_FLAG_WARP_SIGNAL)
		bvt_signal_handler(current, enter);
}

#ifdef CONFIG_SMP
/*
 * A is relative to the SVT of the CPU a thread runs on: carry its lead or
 * lag over to the new CPU, and charge M until it runs there.
 */
static void migrate_task_rq_bvt(struct task_struct *p, int new_cpu)
{
	struct sched_bvt_entity *se = bvt_se(p);
	u64 old_svt = READ_ONCE(bvt_rq_of(task_rq(p))->level[se->level].svt);
	u64 new_svt = READ_ONCE(bvt_rq_of(cpu_rq(new_cpu))->level[se->level].svt);

	se->avt = se->avt - old_svt + new_svt;
	se->migrated = 1;
}

#endif /* CONFIG_SMP */

static void bvt_init_rq(struct rq *rq, int cpu)
{
	struct bvt_rq *bvt_rq = per_cpu_ptr(&bvt_rqs, cpu);
	int level;

	bvt_rq->rq = rq;
	ms_balance_init(&bvt_rq->balance, &bvt_balancer);
	for (level = BVT_LEVEL_RE; level <= BVT_LEVEL_BE; level++)
		bvt_rq->level[level].evt_tree = RB_ROOT_CACHED;
	bvt_rq->be.group = 1;
	bvt_rq->be.level = BVT_LEVEL_RE;
	bvt_set_weight(&bvt_rq->be, BVT_WEIGHT_UNIT);
	hrtimer_init(&bvt_rq->warp_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	bvt_rq->warp_timer.function = bvt_warp_timer;
	ms_server_init(&bvt_rq->server, rq, bvt_server_pick);
}

static struct sched_dl_entity *bvt_server(int cpu)
{
	return &per_cpu(bvt_rqs, cpu).server;
}

static unsigned int bvt_nr_running(struct rq *rq)
{
	return bvt_rq_of(rq)->balance.nr_running;
}

DEFINE_SCHED_CLASS(bvt) = {
	.enqueue_task		= enqueue_task_bvt,
	.dequeue_task		= dequeue_task_bvt,
	.yield_task		= yield_task_bvt,
	.wakeup_preempt		= wakeup_preempt_bvt,
	.pick_task		= pick_task_bvt,
	.put_prev_task		= put_prev_task_bvt,
	.set_next_task		= set_next_task_bvt,
#ifdef CONFIG_SMP
	.balance		= balance_bvt,
	.select_task_rq		= select_task_rq_bvt,
	.migrate_task_rq	= migrate_task_rq_bvt,
	.set_cpus_allowed	= set_cpus_allowed_common,
#endif
	.task_tick		= task_tick_bvt,
	.task_fork		= task_fork_bvt,
	.switching_to		= switching_to_bvt,
	.switched_from		= switched_from_bvt,
	.switched_to		= ms_switched_to,
	.prio_changed		= prio_changed_bvt,
	.get_rr_interval	= get_rr_interval_bvt,
	.update_curr		= update_curr_bvt,
};

/* The fields of struct sched_attr BVT takes: weight, W, L, U, flags. */
static int bvt_validate(const struct sched_attr *attr)
{
	if (attr->sched_runtime || attr->sched_deadline || attr->sched_period)
		return -EINVAL;
	if (attr->sched_warp < 0 || attr->sched_warp > MS_WARP_MAX)
		return -EINVAL;
	if (attr->sched_warp_limit &&
	    (attr->sched_warp_limit < MS_WARP_LIMIT_MIN ||
	     attr->sched_warp_limit > MS_WARP_LIMIT_MAX))
		return -EINVAL;
	if (attr->sched_unwarp > MS_UNWARP_MAX)
		return -EINVAL;
	return 0;
}

/*
 * bvt_loosens_warp - would @attr free a warped thread from a limit?
 *
 * Section 2.2 of the paper contains a thread that abuses its warp with
 * the warp time limit L and the unwarp time requirement U; warping only
 * in signal handlers and MS_FLAG_WARP_OFF contain it further. Without a
 * warp none of them matters, so giving up the warp may drop them too.
 */
static bool bvt_loosens_warp(struct task_struct *p,
			     const struct sched_attr *attr)
{
	const struct sched_ms_entity *ms = &p->ms;
	u32 dropped = ms->flags & ~attr->sched_ms_flags;
	u64 old_limit = bvt_param_limit(ms->flags, ms->warp_limit);
	u64 new_limit = bvt_param_limit(attr->sched_ms_flags,
					attr->sched_warp_limit);

	if (attr->sched_warp <= 0 || (attr->sched_ms_flags & MS_FLAG_WARP_OFF))
		return false;
	if (old_limit && (!new_limit || new_limit > old_limit))
		return true;
	if (attr->sched_unwarp < ms->unwarp)
		return true;
	return dropped & (MS_FLAG_WARP_OFF | MS_FLAG_WARP_SIGNAL);
}

/*
 * What needs CAP_SYS_NICE in BVT beyond the common rules: the reserved
 * level, unless the thread keeps it; a warp above the current one; and,
 * for a warped thread, looser L, U, MS_FLAG_WARP_OFF or
 * MS_FLAG_WARP_SIGNAL.
 */
static bool bvt_asks_for_more(struct task_struct *p,
			      const struct sched_attr *attr, bool same)
{
	if ((attr->sched_ms_flags & MS_FLAG_RESERVED) &&
	    !(same && (p->ms.flags & MS_FLAG_RESERVED)))
		return true;
	if (attr->sched_warp > (same ? p->ms.warp : 0))
		return true;
	return same && bvt_loosens_warp(p, attr);
}

/* Read without the rq lock: a snapshot, as the rest of /proc/<pid>/sched. */
static void bvt_proc_show(struct task_struct *p, struct seq_file *m)
{
	const struct sched_bvt_entity *se = bvt_se(p);

	ms_proc_u64(m, "ms.bvt.level", se->level);
	ms_proc_u64(m, "ms.bvt.A", se->avt);
	ms_proc_u64(m, "ms.bvt.E", se->evt);
	ms_proc_s64(m, "ms.bvt.W", se->warp);
	ms_proc_u64(m, "ms.bvt.warped", se->warped);
	ms_proc_u64(m, "ms.bvt.warped_ns", se->warp_used);
	ms_proc_u64(m, "ms.bvt.L_hits", se->nr_limit_hits);
	ms_proc_u64(m, "ms.bvt.U_hits", se->nr_unwarp_hits);
}

#ifdef CONFIG_SCHED_CORE
/*
 * Core scheduling compares threads queued on sibling CPUs, whose SVTs
 * are unrelated. As fair does with its vruntime, each level notes its
 * SVT at every pick of the core, and only once while a sibling is forced
 * idle; two threads compare by how far E has gone past that point,
 * the virtual time each consumed since, in units of its own weight. The
 * thread that runs on while its sibling is forced idle moves away from
 * its point, the idle one's stays, and the sibling gets its turn when the
 * runner has consumed more than it (at a tick: ms_tick_core()), so two
 * threads of different cookies share the core by weight. A warped thread
 * counts W ahead, as on its own CPU. Threads of different levels compare
 * at level 0, a best-effort thread through its aggregate.
 */
static s64 bvt_core_key(const struct task_struct *p, int level)
{
	const struct sched_bvt_entity *se = &p->ms.run.state.bvt;
	struct bvt_rq *bvt_rq = bvt_rq_of(task_rq(p));

	if (se->level != level)
		se = &bvt_rq->be;
	return se->evt - bvt_rq->level[level].svt_fi;
}

static bool bvt_core_less(const struct task_struct *a,
			  const struct task_struct *b, bool in_fi)
{
	int level = a->ms.run.state.bvt.level == BVT_LEVEL_BE &&
		    b->ms.run.state.bvt.level == BVT_LEVEL_BE ?
		    BVT_LEVEL_BE : BVT_LEVEL_RE;

	return bvt_core_key(a, level) > bvt_core_key(b, level);
}

static void bvt_core_fi(struct rq *rq)
{
	struct bvt_rq *bvt_rq = bvt_rq_of(rq);

	bvt_rq->level[BVT_LEVEL_RE].svt_fi = bvt_rq->level[BVT_LEVEL_RE].svt;
	bvt_rq->level[BVT_LEVEL_BE].svt_fi = bvt_rq->level[BVT_LEVEL_BE].svt;
}
#endif

const struct ms_class ms_bvt_class = {
	.name		= "bvt",
	.policy		= SCHED_BVT,
	.class		= &bvt_sched_class,
	.ready		= true,
	.general	= true,
	.flags		= MS_FLAGS_BVT,
	.validate	= bvt_validate,
	.asks_for_more	= bvt_asks_for_more,
	.init_rq	= bvt_init_rq,
	.proc_show	= bvt_proc_show,
	.server		= bvt_server,
	.nr_running	= bvt_nr_running,
	.balance	= &bvt_rqs.balance,
	.tick_switches	= true,
#ifdef CONFIG_SCHED_CORE
	.core_prio	= MAX_RT_PRIO + 1,
	.core_less	= bvt_core_less,
	.core_fi	= bvt_core_fi,
#endif
#ifdef CONFIG_SYSCTL
	.sysctls	= bvt_sysctls,
	.nr_sysctls	= ARRAY_SIZE(bvt_sysctls),
#endif
};

#ifdef CONFIG_SCHED_MULTISCHED_KUNIT_TEST
#include "bvt_test.c"
#endif
