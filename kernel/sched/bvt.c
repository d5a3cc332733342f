// SPDX-License-Identifier: GPL-2.0
/*
 * Borrowed Virtual Time (BVT) scheduling class
 *
 * Every thread advances an actual virtual time A while it runs, at a rate
 * inversely proportional to its weight: A grows by delta * 1024 / weight
 * for delta nanoseconds of CPU, so a thread of weight 2048 ages half as
 * fast as one of 1024 and gets twice the CPU. The runnable thread with the
 * lowest effective virtual time
 *
 *	E = A - (warped ? W : 0) + (migrated ? M : 0)
 *
 * runs next. A latency-sensitive thread borrows against its future share
 * by warping back W: it is dispatched ahead of threads whose A is within W
 * of its own, but A keeps advancing at the usual rate, so over time it gets
 * no more than its weight. Two limits contain a thread that abuses its
 * warp: after L nanoseconds of running warped (the warp time limit) it is
 * unwarped until it next sleeps, and after it unwarps (at L, or by
 * sleeping) it may not warp again for U nanoseconds (the unwarp time
 * requirement). An hrtimer enforces L to the microsecond.
 *
 * The scheduler virtual time SVT is the minimum A of the runnable
 * threads. A thread that wakes from a sleep has A raised to at least SVT,
 * so that sleeping earns no credit against the threads that kept running.
 * The context switch allowance C keeps a thread running until another's E
 * is lower than its own by C / weight of virtual time, which bounds the
 * switch rate between threads of equal claim; a waking thread whose E is
 * below the running thread's preempts at once. A thread that last ran on
 * another CPU pays the migration penalty M in E until it runs.
 *
 * Runnable threads, the running one included, sit in two rbtrees: by E
 * for dispatch and by A for SVT, so enqueue, dequeue and pick are
 * O(log n). Virtual times are u64 nanoseconds compared with wrap-safe
 * signed differences; nothing is ever rebased.
 *
 * Paper: K. J. Duda and D. R. Cheriton, "Borrowed-Virtual-Time (BVT)
 * scheduling: supporting latency-sensitive threads in a general-purpose
 * scheduler", SOSP 1999.
 *
 * Not yet here (see Documentation/scheduler/sched-multisched.rst): the
 * reserved-effort/best-effort levels, warping only in signal handlers,
 * and load balancing beyond placement at wakeup.
 */
#include <linux/mmu_context.h>
#include <linux/sysctl.h>

#include "sched.h"

#include <trace/events/multisched.h>

/* Virtual time advances by delta * BVT_WEIGHT_UNIT / weight. */
#define BVT_WEIGHT_UNIT		1024

/*
 * C, the context switch allowance, and M, the migration penalty, in
 * nanoseconds of real time. Bounded to 100 ms so that a typo cannot make
 * BVT round-robin in seconds.
 */
static unsigned int sysctl_sched_bvt_csw_allowance = 2 * NSEC_PER_MSEC;
static unsigned int sysctl_sched_bvt_migration_penalty = NSEC_PER_MSEC / 2;
static unsigned int bvt_time_max = 100 * NSEC_PER_MSEC;

#ifdef CONFIG_SYSCTL
static struct ctl_table bvt_sysctls[] = {
	{
		.procname	= "sched_bvt_csw_allowance_ns",
		.data		= &sysctl_sched_bvt_csw_allowance,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &bvt_time_max,
	},
	{
		.procname	= "sched_bvt_migration_penalty_ns",
		.data		= &sysctl_sched_bvt_migration_penalty,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &bvt_time_max,
	},
};

static int __init bvt_sysctl_init(void)
{
	register_sysctl_init("kernel", bvt_sysctls);
	return 0;
}
late_initcall(bvt_sysctl_init);
#endif /* CONFIG_SYSCTL */

/* rq->curr, which is __rcu for lockless readers; we hold the rq lock. */
static inline struct task_struct *bvt_rq_curr(struct rq *rq)
{
	return rcu_dereference_protected(rq->curr,
					 lockdep_is_held(__rq_lockp(rq)));
}

static inline struct sched_bvt_entity *bvt_se(struct task_struct *p)
{
	return &p->ms.bvt;
}

static inline struct task_struct *bvt_task_of(struct sched_bvt_entity *se)
{
	return container_of(se, struct task_struct, ms.bvt);
}

/* Wrap-safe comparison of virtual times. */
static inline bool bvt_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

static u32 bvt_weight(struct task_struct *p)
{
	return p->ms.weight ?: sched_prio_to_weight[p->static_prio - MAX_RT_PRIO];
}

/* Virtual time for @delta ns of real time at @weight. */
static inline u64 bvt_vtime(u64 delta, u32 weight)
{
	return mul_u64_u32_div(delta, BVT_WEIGHT_UNIT, weight);
}

/*
 * bvt_may_warp - may the thread run warped at @now?
 *
 * It has a warp, has not switched it off, has not used up L since it last
 * woke, and U has passed since it last unwarped.
 */
static bool bvt_may_warp(struct task_struct *p, u64 now)
{
	struct sched_bvt_entity *se = bvt_se(p);

	return p->ms.warp > 0 && !(p->ms.flags & MS_FLAG_WARP_OFF) &&
	       !se->limit_hit && !bvt_before(now, se->unwarp_until);
}

/* E = A - (warped ? W : 0) + (migrated ? M : 0) */
static u64 bvt_evt(struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p);
	u64 evt = se->avt;

	if (se->warped)
		evt -= p->ms.warp;
	if (se->migrated)
		evt += bvt_vtime(READ_ONCE(sysctl_sched_bvt_migration_penalty),
				 se->weight);
	return evt;
}

static inline bool bvt_evt_less(struct rb_node *a, const struct rb_node *b)
{
	return bvt_before(rb_entry(a, struct sched_bvt_entity, evt_node)->evt,
			  rb_entry(b, struct sched_bvt_entity, evt_node)->evt);
}

static inline bool bvt_avt_less(struct rb_node *a, const struct rb_node *b)
{
	return bvt_before(rb_entry(a, struct sched_bvt_entity, avt_node)->avt,
			  rb_entry(b, struct sched_bvt_entity, avt_node)->avt);
}

static void __bvt_insert(struct bvt_rq *bvt_rq, struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p);

	se->evt = bvt_evt(p);
	rb_add_cached(&se->evt_node, &bvt_rq->evt_tree, bvt_evt_less);
	rb_add_cached(&se->avt_node, &bvt_rq->avt_tree, bvt_avt_less);
}

static void __bvt_erase(struct bvt_rq *bvt_rq, struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p);

	rb_erase_cached(&se->evt_node, &bvt_rq->evt_tree);
	rb_erase_cached(&se->avt_node, &bvt_rq->avt_tree);
}

/* Re-key a queued thread after its A or warp state changed. */
static void bvt_requeue(struct bvt_rq *bvt_rq, struct task_struct *p)
{
	if (!bvt_se(p)->on_rq)
		return;
	__bvt_erase(bvt_rq, p);
	__bvt_insert(bvt_rq, p);
}

static struct task_struct *bvt_first(struct bvt_rq *bvt_rq)
{
	struct rb_node *n = rb_first_cached(&bvt_rq->evt_tree);

	return n ? bvt_task_of(rb_entry(n, struct sched_bvt_entity, evt_node)) : NULL;
}

/*
 * SVT, the minimum A of the runnable threads. It only moves forward, so
 * that a thread waking on an empty runqueue is not sent back in time.
 */
static void bvt_update_svt(struct bvt_rq *bvt_rq)
{
	struct rb_node *n = rb_first_cached(&bvt_rq->avt_tree);
	u64 min_avt;

	if (!n)
		return;
	min_avt = rb_entry(n, struct sched_bvt_entity, avt_node)->avt;
	if (bvt_before(bvt_rq->svt, min_avt))
		WRITE_ONCE(bvt_rq->svt, min_avt);
}

/* Start warping if L and U now allow it; end warping when they do not. */
static bool bvt_update_warp(struct rq *rq, struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p);
	bool warp = bvt_may_warp(p, rq_clock(rq));

	if (warp == se->warped)
		return false;
	se->warped = warp;
	trace_bvt_warp(p, warp, warp ? "allowed" : "limits");
	return true;
}

static void bvt_arm_warp_timer(struct rq *rq, struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p);
	u64 left;

	if (!se->warped || !p->ms.warp_limit)
		return;
	left = p->ms.warp_limit > se->warp_used ?
	       p->ms.warp_limit - se->warp_used : 0;
	rq->ms.bvt.warp_task = p;
	hrtimer_start(&rq->ms.bvt.warp_timer, ns_to_ktime(left),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/* The running thread has run L warped: unwarp it until it sleeps. */
static void bvt_warp_limit(struct rq *rq, struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p);

	se->limit_hit = 1;
	se->warped = 0;
	se->nr_limit_hits++;
	se->unwarp_until = rq_clock(rq) + p->ms.unwarp;
	trace_bvt_warp(p, false, "L");
}

/*
 * Charge the running thread: A advances by its run time scaled by weight,
 * and warped run time counts against L.
 */
static void update_curr_bvt(struct rq *rq)
{
	struct task_struct *curr = bvt_rq_curr(rq);
	struct sched_bvt_entity *se = bvt_se(curr);
	s64 delta;

	if (curr->sched_class != &bvt_sched_class)
		return;

	delta = update_curr_common(rq);
	if (delta <= 0)
		return;

	se->avt += bvt_vtime(delta, se->weight);
	if (se->warped) {
		se->warp_used += delta;
		if (curr->ms.warp_limit && se->warp_used >= curr->ms.warp_limit)
			bvt_warp_limit(rq, curr);
	}
	bvt_requeue(&rq->ms.bvt, curr);
	bvt_update_svt(&rq->ms.bvt);
}

/*
 * The running thread has run warped for L. The timer was armed for it in
 * set_next_task_bvt() (or when it started warping) and cancelled when it
 * stopped running; if it fires for another thread, the cancel raced with
 * the expiry and there is nothing to do.
 */
static enum hrtimer_restart bvt_warp_timer(struct hrtimer *timer)
{
	struct rq *rq = container_of(timer, struct rq, ms.bvt.warp_timer);
	struct task_struct *curr;
	struct rq_flags rf;

	rq_lock(rq, &rf);
	update_rq_clock(rq);
	curr = bvt_rq_curr(rq);
	if (curr == rq->ms.bvt.warp_task &&
	    curr->sched_class == &bvt_sched_class) {
		update_curr_bvt(rq);
		if (bvt_se(curr)->warped) {
			bvt_warp_limit(rq, curr);
			bvt_requeue(&rq->ms.bvt, curr);
		}
		resched_curr(rq);
	}
	rq->ms.bvt.warp_task = NULL;
	rq_unlock(rq, &rf);

	return HRTIMER_NORESTART;
}

static void enqueue_task_bvt(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_bvt_entity *se = bvt_se(p);
	struct bvt_rq *bvt_rq = &rq->ms.bvt;

	se->weight = bvt_weight(p);
	if (flags & ENQUEUE_WAKEUP) {
		/* Sleeping earns no credit: A = max(A, SVT). */
		if (bvt_before(se->avt, bvt_rq->svt))
			se->avt = bvt_rq->svt;
		if (p->ms.warp > 0 && !se->limit_hit &&
		    bvt_before(rq_clock(rq), se->unwarp_until))
			se->nr_unwarp_hits++;
	}
	bvt_update_warp(rq, p);

	__bvt_insert(bvt_rq, p);
	se->on_rq = 1;
	bvt_rq->nr_running++;
	add_nr_running(rq, 1);
	bvt_update_svt(bvt_rq);
}

static bool dequeue_task_bvt(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_bvt_entity *se = bvt_se(p);
	struct bvt_rq *bvt_rq = &rq->ms.bvt;

	update_curr_bvt(rq);
	__bvt_erase(bvt_rq, p);
	se->on_rq = 0;
	bvt_rq->nr_running--;
	sub_nr_running(rq, 1);

	/* Sleeping ends a warped stretch: U counts from here. */
	if (flags & DEQUEUE_SLEEP) {
		if (se->warp_used || se->limit_hit)
			se->unwarp_until = rq_clock(rq) + p->ms.unwarp;
		se->warp_used = 0;
		se->limit_hit = 0;
		if (se->warped)
			trace_bvt_warp(p, false, "sleep");
		se->warped = 0;
	}
	return true;
}

/*
 * bvt_c_vtime - the allowance C in the running thread's virtual time
 *
 * Another thread displaces @curr once its E is lower by more than this.
 */
static u64 bvt_c_vtime(struct task_struct *curr)
{
	return bvt_vtime(READ_ONCE(sysctl_sched_bvt_csw_allowance),
			 bvt_se(curr)->weight);
}

static bool bvt_should_switch(struct task_struct *curr, struct task_struct *first)
{
	return first != curr &&
	       bvt_before(bvt_se(first)->evt + bvt_c_vtime(curr), bvt_se(curr)->evt);
}

static struct task_struct *pick_task_bvt(struct rq *rq)
{
	struct bvt_rq *bvt_rq = &rq->ms.bvt;
	struct task_struct *first, *curr = bvt_rq_curr(rq);

	first = bvt_first(bvt_rq);
	if (!first)
		return NULL;

	/* The running thread keeps the CPU until it is C behind. */
	if (curr->sched_class == &bvt_sched_class && bvt_se(curr)->on_rq &&
	    !bvt_rq->skip_c && !bvt_should_switch(curr, first))
		first = curr;
	bvt_rq->skip_c = false;
	trace_bvt_pick(first, bvt_se(first)->evt, bvt_rq->svt);
	return first;
}

static void put_prev_task_bvt(struct rq *rq, struct task_struct *p,
			      struct task_struct *next)
{
	update_curr_bvt(rq);
	rq->ms.bvt.warp_task = NULL;
	hrtimer_try_to_cancel(&rq->ms.bvt.warp_timer);
}

static void set_next_task_bvt(struct rq *rq, struct task_struct *p, bool first)
{
	struct sched_bvt_entity *se = bvt_se(p);

	p->se.exec_start = rq_clock_task(rq);
	if (se->migrated) {
		se->migrated = 0;
		bvt_requeue(&rq->ms.bvt, p);
	}
	bvt_arm_warp_timer(rq, p);
}

static void task_tick_bvt(struct rq *rq, struct task_struct *p, int queued)
{
	struct bvt_rq *bvt_rq = &rq->ms.bvt;
	struct task_struct *first;

	update_curr_bvt(rq);

	/* U may have passed while it ran unwarped: warp from now on. */
	if (bvt_update_warp(rq, p)) {
		bvt_requeue(bvt_rq, p);
		bvt_arm_warp_timer(rq, p);
	}

	first = bvt_first(bvt_rq);
	if (first && bvt_should_switch(p, first))
		resched_curr(rq);
}

static void wakeup_preempt_bvt(struct rq *rq, struct task_struct *p, int flags)
{
	struct task_struct *curr = bvt_rq_curr(rq);

	update_curr_bvt(rq);
	/* A woken thread with a lower E than the running one runs at once. */
	if (bvt_before(bvt_se(p)->evt, bvt_se(curr)->evt)) {
		rq->ms.bvt.skip_c = true;
		resched_curr(rq);
	}
}

static void yield_task_bvt(struct rq *rq)
{
	rq->ms.bvt.skip_c = true;
}

static void task_fork_bvt(struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p);

	/* A child starts level with its parent, and no earlier than SVT. */
	se->avt = bvt_se(current)->avt;
	if (bvt_before(se->avt, READ_ONCE(task_rq(p)->ms.bvt.svt)))
		se->avt = READ_ONCE(task_rq(p)->ms.bvt.svt);
}

static void switching_to_bvt(struct rq *rq, struct task_struct *p)
{
	struct sched_bvt_entity *se = bvt_se(p);

	/* A newcomer starts at SVT: it brings no credit and owes none. */
	se->avt = rq->ms.bvt.svt;
	se->warp_used = 0;
	se->limit_hit = 0;
	se->warped = 0;
	se->migrated = 0;
}

static void switched_to_bvt(struct rq *rq, struct task_struct *p)
{
	if (task_on_rq_queued(p) && bvt_rq_curr(rq) != p)
		wakeup_preempt(rq, p, 0);
}

static void prio_changed_bvt(struct rq *rq, struct task_struct *p, int oldprio)
{
	/* Parameters are re-read on enqueue, which setscheduler does. */
}

static unsigned int get_rr_interval_bvt(struct rq *rq, struct task_struct *p)
{
	return nsecs_to_jiffies(READ_ONCE(sysctl_sched_bvt_csw_allowance));
}

#ifdef CONFIG_SMP
/*
 * Place a waking or new thread on the allowed CPU with the fewest BVT
 * threads, staying where it is on a tie. The per-CPU counts are read
 * without their locks: placement is a hint, fairness is per CPU.
 */
static int select_task_rq_bvt(struct task_struct *p, int cpu, int flags)
{
	unsigned int best_nr, nr;
	int i, best = cpu;

	if (p->nr_cpus_allowed == 1 || !(flags & (WF_TTWU | WF_FORK)))
		return cpu;

	best_nr = READ_ONCE(cpu_rq(cpu)->ms.bvt.nr_running);
	for_each_cpu_and(i, p->cpus_ptr, cpu_active_mask) {
		nr = READ_ONCE(cpu_rq(i)->ms.bvt.nr_running);
		if (nr < best_nr) {
			best_nr = nr;
			best = i;
		}
	}
	return best;
}

/*
 * A is relative to the SVT of the CPU a thread runs on: carry its lead or
 * lag over to the new CPU, and charge M until it runs there.
 */
static void migrate_task_rq_bvt(struct task_struct *p, int new_cpu)
{
	struct sched_bvt_entity *se = bvt_se(p);
	u64 old_svt = READ_ONCE(task_rq(p)->ms.bvt.svt);
	u64 new_svt = READ_ONCE(cpu_rq(new_cpu)->ms.bvt.svt);

	se->avt = se->avt - old_svt + new_svt;
	se->migrated = 1;
}

static int balance_bvt(struct rq *rq, struct task_struct *prev,
		       struct rq_flags *rf)
{
	return rq->ms.bvt.nr_running > 0;
}
#endif /* CONFIG_SMP */

void init_bvt_rq(struct rq *rq)
{
	struct bvt_rq *bvt_rq = &rq->ms.bvt;

	bvt_rq->evt_tree = RB_ROOT_CACHED;
	bvt_rq->avt_tree = RB_ROOT_CACHED;
	hrtimer_init(&bvt_rq->warp_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	bvt_rq->warp_timer.function = bvt_warp_timer;
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
	.switched_to		= switched_to_bvt,
	.prio_changed		= prio_changed_bvt,
	.get_rr_interval	= get_rr_interval_bvt,
	.update_curr		= update_curr_bvt,
};
