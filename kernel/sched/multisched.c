// SPDX-License-Identifier: GPL-2.0
/*
 * Multisched: the common part of the BVT, VTRR, BEBS and RBS classes
 *
 * Four scheduling classes from the research literature sit beside the
 * mainline ones (see Documentation/scheduler/sched-multisched.rst):
 *
 *   stop > dl > RBS > rt > BEBS > BVT > VTRR > fair > ext > idle
 *
 * RBS reservations are admission-controlled and bandwidth-bounded, so they
 * sit with SCHED_DEADLINE above RT. BEBS, BVT and VTRR are general-purpose
 * schedulers meant to be able to run the whole system; they sit below RT
 * and above fair. Each general class that accepts tasks has a dl_server
 * per CPU, as fair has, so that none starves the classes below it.
 *
 * This file holds what the classes share, and knows each class only as
 * a struct ms_class in the table below: whether it accepts tasks yet, the
 * validation of the SCHED_ATTR_SIZE_VER2 parameters (the common checks,
 * then the class's ->validate()) and the privilege rules for them (the
 * common ones, then the class's ->asks_for_more()), the choice of class
 * for a policy (including the "normal class" that runs SCHED_NORMAL and
 * SCHED_BATCH tasks instead of fair, set at boot with sched_normal_class=
 * or at run time with the kernel.sched_normal_class sysctl), the
 * /proc/<pid>/sched section (the class's ->proc_show() adds its lines),
 * and the proportional-share balancer. The algorithms live in the class
 * files.
 */
#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/cpu.h>
#include <linux/mmu_context.h>
#include <linux/sysctl.h>
#include <linux/task_work.h>
#include <linux/seq_file.h>
#include <linux/stop_machine.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>

#include "sched.h"
#include "pelt.h"

#define CREATE_TRACE_POINTS
#include <trace/events/multisched.h>

/* The classes, highest in the hierarchy first (checked at boot). */
static const struct ms_class *const ms_classes[] = {
#ifdef CONFIG_SCHED_RBS
	&ms_rbs_class,
#endif
#ifdef CONFIG_SCHED_BEBS
	&ms_bebs_class,
#endif
#ifdef CONFIG_SCHED_BVT
	&ms_bvt_class,
#endif
#ifdef CONFIG_SCHED_VTRR
	&ms_vtrr_class,
#endif
};

static const struct ms_class *ms_class_of(int policy)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ms_classes); i++)
		if (ms_classes[i]->policy == policy)
			return ms_classes[i];
	return NULL;
}

static const struct ms_class *ms_class_by_name(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ms_classes); i++)
		if (sysfs_streq(name, ms_classes[i]->name))
			return ms_classes[i];
	return NULL;
}

/*
 * The class that runs SCHED_NORMAL and SCHED_BATCH tasks; NULL is fair.
 * Written under ms_normal_mutex, read locklessly on fork and setscheduler.
 */
static const struct ms_class *ms_normal;
static DEFINE_MUTEX(ms_normal_mutex);

static u32 ms_nice_weight(int nice)
{
	return sched_prio_to_weight[nice - MIN_NICE];
}

/* The weight a task asked for, or the one its nice value implies. */
static u32 ms_effective_weight(u32 weight, int nice)
{
	return weight ? weight : ms_nice_weight(nice);
}

/* A task's weight (a BVT weight, a VTRR share), from its parameters. */
u32 ms_task_weight(struct task_struct *p)
{
	return ms_effective_weight(p->ms.weight, task_nice(p));
}

/* A budget and period a reservation class may take. */
bool ms_period_valid(u64 runtime, u64 period)
{
	return period >= MS_PERIOD_MIN && period <= MS_PERIOD_MAX &&
	       runtime >= MS_RUNTIME_MIN && runtime <= period;
}

/*
 * ms_validate_attr - are @attr's parameters well-formed for @policy?
 *
 * Pure range checking, no privilege and no admission control. Each class
 * takes only the fields and flags that mean something to it; anything else
 * set is an error rather than silently ignored.
 */
static int ms_validate_attr(int policy, const struct sched_attr *attr)
{
	const struct ms_class *c = ms_class_of(policy);

	if (!c)
		return -EINVAL;
	if (attr->sched_ms_flags & ~c->flags)
		return -EINVAL;
	if (attr->sched_join_tid && !(attr->sched_ms_flags & MS_FLAG_RBS_JOIN))
		return -EINVAL;
	if (attr->sched_weight &&
	    (attr->sched_weight < MS_WEIGHT_MIN ||
	     attr->sched_weight > MS_WEIGHT_MAX))
		return -EINVAL;
	return c->validate(attr);
}

/*
 * ms_asks_for_more - does @attr need CAP_SYS_NICE?
 *
 * As with nice values and RT priorities, a task may give up what it has
 * but not take more. Without CAP_SYS_NICE:
 *
 *  - entering a class from another one needs a non-zero RLIMIT_RTPRIO, as
 *    SCHED_FIFO does: BVT, VTRR and BEBS run above fair, and one hog per
 *    CPU in them would leave SCHED_NORMAL tasks only the fair server's
 *    5%. The normal class (sched_normal_class=) is exempt: SCHED_NORMAL
 *    tasks already run in it;
 *  - nice may only be lowered as far as RLIMIT_NICE allows (the mainline
 *    rule);
 *  - the weight may not rise above the current one, unless it is derived
 *    from a nice value that RLIMIT_NICE allowed;
 *  - and whatever the class's ->asks_for_more() finds: a higher warp or
 *    looser limits, the reserved level, a reservation (refused, as
 *    SCHED_DEADLINE is).
 */
static bool ms_asks_for_more(struct task_struct *p, int policy,
			     const struct sched_attr *attr)
{
	const struct ms_class *normal = READ_ONCE(ms_normal);
	const struct ms_class *c = ms_class_of(policy);
	bool same = p->policy == policy;
	int nice = task_nice(p);
	u32 old_weight, new_weight;

	if (!same && !(normal && normal->policy == policy) &&
	    !task_rlimit(p, RLIMIT_RTPRIO))
		return true;
	if (attr->sched_nice < nice && !can_nice(p, attr->sched_nice))
		return true;
	old_weight = ms_effective_weight(same ? p->ms.weight : 0, nice);
	new_weight = ms_effective_weight(attr->sched_weight, attr->sched_nice);
	if (new_weight > old_weight &&
	    (attr->sched_weight || attr->sched_nice >= nice))
		return true;
	return c->asks_for_more && c->asks_for_more(p, attr, same);
}

/* As user_check_sched_setscheduler(): capable() only when it matters. */
static int ms_check_privilege(struct task_struct *p, int policy,
			      const struct sched_attr *attr)
{
	if (!ms_asks_for_more(p, policy, attr))
		return 0;
	return capable(CAP_SYS_NICE) ? 0 : -EPERM;
}

/**
 * ms_check_attr - validate a sched_setattr() request for @policy
 * @p:		the task
 * @attr:	the request
 * @policy:	the policy it asks for, after SETPARAM_POLICY is resolved
 * @user:	whether it comes from user space and privileges apply
 *
 * Return: 0, -EINVAL for a class that is not there (not built, or not yet
 * accepting tasks) or a parameter out of range, or -EPERM.
 */
int ms_check_attr(struct task_struct *p, const struct sched_attr *attr,
		  int policy, bool user)
{
	const struct ms_class *c;
	int ret;

	if (!ms_policy(policy))
		return ms_attr_has_params(attr) ? -EINVAL : 0;

	c = ms_class_of(policy);
	if (!c || !c->ready)
		return -EINVAL;

	ret = ms_validate_attr(policy, attr);
	if (!ret && user)
		ret = ms_check_privilege(p, policy, attr);
#ifdef CONFIG_SCHED_RBS
	/* a shared reservation comes from a pool that may need to grow */
	if (!ret && policy == SCHED_RBS &&
	    (attr->sched_ms_flags & MS_FLAG_RBS_SHARED))
		ret = rbs_resv_reserve();
	/* and the feedback controller's state is made ready for the task */
	if (!ret && policy == SCHED_RBS &&
	    (attr->sched_ms_flags & MS_FLAG_RBS_FEEDBACK))
		ret = rbs_ctl_prepare(p);
#endif
	return ret;
}

/**
 * ms_keep_params - the request, with the class parameters the caller kept
 * @p:		the task
 * @attr:	the request
 * @policy:	the policy it asks for, SETPARAM_POLICY resolved
 * @buf:	room for a copy of @attr
 *
 * sched_setparam(2), sched_setscheduler(2) and sched_setattr(2) with a
 * structure shorter than SCHED_ATTR_SIZE_VER2 carry no class parameters,
 * and sched_setattr(2) with SCHED_FLAG_KEEP_POLICY and an all-zero tail
 * does not ask to change them. A task that stays in its policy keeps the
 * weight, flags, W, L and U it has, as a SCHED_FIFO task keeps its
 * priority when only its nice value changes; one that changes policy
 * starts from the defaults. BEBS and RBS budgets and periods are in the
 * 48-byte structure and always sent.
 *
 * Return: @attr, or @buf holding @attr with @p's class parameters.
 */
const struct sched_attr *ms_keep_params(struct task_struct *p,
					const struct sched_attr *attr,
					int policy, struct sched_attr *buf)
{
	const struct sched_ms_entity *ms = &p->ms;

	if (!ms_policy(policy) || policy != READ_ONCE(p->policy))
		return attr;
	if (attr->size >= SCHED_ATTR_SIZE_VER2 &&
	    ((int)attr->sched_policy >= 0 || ms_attr_has_params(attr)))
		return attr;
	if (buf != attr)
		*buf = *attr;
	buf->sched_weight = ms->weight;
	buf->sched_ms_flags = ms->flags;
	buf->sched_warp = ms->warp;
	buf->sched_warp_limit = ms->warp_limit;
	buf->sched_unwarp = ms->unwarp;
	return buf;
}

/* Store @attr's class parameters in @p; @attr is NULL to clear them. */
void ms_setparams(struct task_struct *p, int policy,
		  const struct sched_attr *attr)
{
	struct sched_ms_entity *ms = &p->ms;

	if (!ms_policy(policy) || !attr) {
		memset(ms, 0, offsetof(struct sched_ms_entity, run));
		return;
	}
#ifdef CONFIG_SCHED_RBS
	/* from what @p had, as admission (ms_admit()) saw it */
	if (policy == SCHED_RBS && (attr->sched_ms_flags & MS_FLAG_RBS_FEEDBACK))
		rbs_ctl_setparams(p, attr);
#endif

	ms->weight = attr->sched_weight;
	ms->flags = attr->sched_ms_flags;
	ms->warp = attr->sched_warp;
	ms->warp_limit = attr->sched_warp_limit;
	ms->unwarp = attr->sched_unwarp;
	ms->runtime = attr->sched_runtime;
	ms->deadline = attr->sched_deadline;
	ms->period = attr->sched_period;
	trace_ms_setattr(p, policy);
}

void ms_getparams(struct task_struct *p, struct sched_attr *attr)
{
	const struct sched_ms_entity *ms = &p->ms;

	attr->sched_nice = task_nice(p);
	attr->sched_weight = ms->weight;
	attr->sched_ms_flags = ms->flags;
	attr->sched_warp = ms->warp;
	attr->sched_warp_limit = ms->warp_limit;
	attr->sched_unwarp = ms->unwarp;
	attr->sched_runtime = ms->runtime;
	attr->sched_deadline = ms->deadline;
	attr->sched_period = ms->period;
#ifdef CONFIG_SCHED_RBS
	/* a shared reservation's member reads the reservation's */
	if (READ_ONCE(p->ms.run.rbs_resv))
		rbs_getparams(p, attr);
#endif
}

bool ms_params_changed(struct task_struct *p, const struct sched_attr *attr)
{
	struct sched_attr cur = { };

	ms_getparams(p, &cur);
	return cur.sched_nice != attr->sched_nice ||
	       cur.sched_weight != attr->sched_weight ||
	       cur.sched_ms_flags != attr->sched_ms_flags ||
	       cur.sched_warp != attr->sched_warp ||
	       cur.sched_warp_limit != attr->sched_warp_limit ||
	       cur.sched_unwarp != attr->sched_unwarp ||
	       cur.sched_runtime != attr->sched_runtime ||
	       cur.sched_deadline != attr->sched_deadline ||
	       cur.sched_period != attr->sched_period ||
	       attr->sched_join_tid;
}

/**
 * ms_setscheduler_class - the multisched class that runs @policy
 * @policy:	a task's policy
 *
 * Called by __setscheduler_class() once DL and RT priorities (including
 * priority-inheritance boosts) are ruled out.
 *
 * Return: the class, or NULL when @policy belongs to a mainline class.
 */
const struct sched_class *ms_setscheduler_class(int policy)
{
	const struct ms_class *c;

	if (ms_policy(policy)) {
		c = ms_class_of(policy);
		return c ? c->class : NULL;
	}
	if (policy == SCHED_NORMAL || policy == SCHED_BATCH) {
		c = READ_ONCE(ms_normal);
		return c ? c->class : NULL;
	}
	return NULL;
}

/*
 * sched_fork() has applied SCHED_RESET_ON_FORK: a child that left the
 * multisched policies drops their parameters, the others inherit them.
 */
void ms_fork(struct task_struct *p)
{
	const struct ms_class *c = ms_class_of(p->policy);
	struct sched_attr attr = { };

	/*
	 * The parent's run-time state is its own; task_fork() seeds it.
	 * Cleared first: ms_getparams() reads a shared RBS reservation's
	 * parameters through it, and the child is no member of it.
	 */
	memset(&p->ms.run, 0, sizeof(p->ms.run));
	if (!ms_policy(p->policy))
		ms_setparams(p, p->policy, NULL);
	/*
	 * A reservation is admitted per task, as SCHED_DEADLINE's: the child
	 * of a task that holds one keeps its class without it.
	 */
	ms_getparams(p, &attr);
	if (c && c->bandwidth &&
	    (c->bandwidth(p, &attr) || (p->ms.flags & c->reservation_flags))) {
		p->ms.flags &= ~c->reservation_flags;
		p->ms.runtime = 0;
		p->ms.deadline = 0;
		p->ms.period = 0;
		/*
		 * A class whose every task holds one (RBS) has no place for
		 * the child: it runs as SCHED_NORMAL, as a child of a
		 * SCHED_DEADLINE task with SCHED_RESET_ON_FORK does.
		 */
		ms_getparams(p, &attr);
		if (c->validate(&attr)) {
			p->policy = SCHED_NORMAL;
			ms_setparams(p, SCHED_NORMAL, NULL);
		}
	}
}

/*
 * The child chose its class in sched_fork(), before it was on the task
 * list; a concurrent ms_switch_normal() may have missed it. It is not
 * runnable yet, so its class can simply be chosen again.
 */
static void ms_refork_class(struct task_struct *p)
{
	struct rq_flags rf;
	struct rq *rq;

	rq = task_rq_lock(p, &rf);
	if (!rt_or_dl_task(p)) {
		p->sched_class = __setscheduler_class(p->policy, p->prio);
		/* the class state is the old class's: seed the new one's */
		if (p->sched_class->task_fork)
			p->sched_class->task_fork(p);
	}
	task_rq_unlock(rq, p, &rf);
}

void ms_post_fork(struct task_struct *p)
{
	/* The common case: the class chosen in sched_fork() still holds. */
	if (fair_policy(p->policy) &&
	    READ_ONCE(p->sched_class) != __setscheduler_class(p->policy, p->prio))
		ms_refork_class(p);
}

/*
 * Move @p into the class its policy now maps to, if it is a SCHED_NORMAL
 * or SCHED_BATCH task running in another one (and not boosted).
 */
static bool ms_move_normal_task(struct task_struct *p)
{
	const struct sched_class *old, *new = NULL;
	struct sched_enq_and_set_ctx ctx;
	struct rq_flags rf;
	struct rq *rq;

	rq = task_rq_lock(p, &rf);
	old = p->sched_class;
	if (fair_policy(p->policy) && !is_idle_task(p) && !rt_or_dl_task(p))
		new = __setscheduler_class(p->policy, p->prio);
	if (new && new != old) {
		update_rq_clock(rq);
		if (p->se.sched_delayed)
			dequeue_task(rq, p, DEQUEUE_SLEEP | DEQUEUE_DELAYED |
				     DEQUEUE_NOCLOCK);
		sched_deq_and_put_task(p, DEQUEUE_SAVE | DEQUEUE_MOVE, &ctx);
		p->sched_class = new;
		check_class_changing(rq, p, old);
		sched_enq_and_set_task(&ctx);
		check_class_changed(rq, p, old, p->prio);
	}
	task_rq_unlock(rq, p, &rf);

	return new && new != old;
}

/*
 * Move every SCHED_NORMAL and SCHED_BATCH task into the class that
 * ms_normal now names. Forks racing with this are caught by
 * ms_post_fork(), as for uclamp_sync_util_min_rt_default():
 *
 *   copy_process()			ms_switch_normal()
 *     write_lock(&tasklist_lock)	  ms_normal = new
 *     // link thread			  read_lock(&tasklist_lock)
 *     write_unlock(&tasklist_lock)	  smp_mb__after_spinlock()
 *     sched_post_fork()		  for_each_process_thread()
 *       ms_post_fork()			    ms_move_normal_task()
 *
 * either the walk sees the child, or the child reads the new ms_normal.
 */
static unsigned int ms_switch_normal(void)
{
	struct task_struct *g, *p;
	unsigned int moved = 0;

	lockdep_assert_held(&ms_normal_mutex);

	read_lock(&tasklist_lock);
	smp_mb__after_spinlock();
	for_each_process_thread(g, p)
		moved += ms_move_normal_task(p);
	read_unlock(&tasklist_lock);

	return moved;
}

static const char *ms_normal_name(const struct ms_class *c)
{
	return c ? c->name : "fair";
}

/*
 * ms_set_normal - choose the class of SCHED_NORMAL tasks by name
 *
 * Return: 0, or -EINVAL for a name that is not "fair" or a general-purpose
 * class accepting tasks.
 */
static int ms_set_normal(const char *name)
{
	const struct ms_class *c = NULL;
	const char *from;
	unsigned int moved;

	if (!sysfs_streq(name, "fair")) {
		c = ms_class_by_name(name);
		if (!c || !c->ready || !c->general)
			return -EINVAL;
	}

	guard(mutex)(&ms_normal_mutex);
	if (c == ms_normal)
		return 0;
	from = ms_normal_name(ms_normal);
	WRITE_ONCE(ms_normal, c);
	moved = ms_switch_normal();
	trace_ms_normal_class(from, ms_normal_name(c), moved);
	pr_info("multisched: SCHED_NORMAL tasks now run in %s (%u moved)\n",
		ms_normal_name(c), moved);
	return 0;
}

static int __init ms_normal_setup(char *str)
{
	const struct ms_class *c = ms_class_by_name(str);

	if (sysfs_streq(str, "fair"))
		return 1;
	if (!c || !c->ready || !c->general) {
		pr_err("multisched: sched_normal_class=%s: no such general-purpose class accepting tasks; using fair\n",
		       str);
		return 1;
	}
	/* No task has forked yet: setting the pointer is all it takes. */
	ms_normal = c;
	return 1;
}
__setup("sched_normal_class=", ms_normal_setup);

/*
 * Shared bandwidth accounting, for the classes that admit reservations
 * (BEBS periodic tasks, RBS reservations). They admit per CPU, against
 * the limit SCHED_DEADLINE and RT throttling use, sched_rt_runtime_us
 * over sched_rt_period_us of each CPU, counting what SCHED_DEADLINE has
 * admitted there: DL admits per root domain, so its share of a CPU is the
 * root domain's admitted bandwidth (total_bw: its DL tasks and the
 * servers of its CPUs) over the root domain's active CPUs (ms_bw_dl()).
 * Bandwidths are in DL's fixed point, BW_UNIT the whole CPU.
 *
 * SCHED_DEADLINE's admission counts these reservations too
 * (ms_bw_reserved()), but not the rate-monotonic bound of a CPU's RBS
 * reservations (ms_rm_fits()), which only the classes' admissions keep.
 */
#define MS_PPM		1000000ULL

/* "cpuN used_ppm total_ppm\n" at most */
#define MS_BW_LINE	(3 + 10 + 2 * (1 + 20) + 1)

/* @bw in parts per million of the CPU, rounded up: never shows room that is not there */
static u64 ms_bw_to_ppm(u64 bw)
{
	return DIV_ROUND_UP_ULL(bw * MS_PPM, BW_UNIT);
}

/* Does @asked fit on a CPU where @used of @limit is admitted? */
static bool ms_bw_fits(u64 used, u64 asked, u64 limit)
{
	return asked <= limit && used <= limit - asked;
}

struct ms_bw {
	raw_spinlock_t	lock;		/* serialises admissions on the CPU */
	u64		used;		/* admitted by the classes, under @lock */
	u64		rm_used;	/* of @used, rate-monotonic (RBS), under @lock */
	unsigned int	rm_nr;		/* how many of those, under @lock */
};

static DEFINE_PER_CPU(struct ms_bw, ms_bw);

u64 ms_bw_limit(void)
{
	if (global_rt_runtime() == RUNTIME_INF)
		return BW_UNIT;
	return to_ratio(global_rt_period(), global_rt_runtime());
}

/*
 * SCHED_DEADLINE's admitted bandwidth on a CPU of @rd: its share of the
 * root domain's total_bw, which holds the DL tasks', and the servers of
 * the root domain's CPUs, fair's and the classes' (kept there across
 * rebuilds of the root domains: dl_clear_root_domain(),
 * ms_servers_restore_root()), given as @total_bw.
 */
static u64 ms_bw_dl_share(struct root_domain *rd, u64 total_bw)
{
	unsigned int cpus = cpumask_weight_and(rd->span, cpu_active_mask);

	return cpus ? div_u64(total_bw, cpus) : 0;
}

/* The same, read under @rd's dl_bw lock. */
static u64 __ms_bw_dl(struct root_domain *rd)
{
	lockdep_assert_held(&rd->dl_bw.lock);
	return ms_bw_dl_share(rd, rd->dl_bw.total_bw);
}

static u64 ms_bw_dl(int cpu)
{
	struct root_domain *rd;
	unsigned long flags;
	u64 bw;

	rcu_read_lock_sched();
	rd = cpu_rq(cpu)->rd;
	raw_spin_lock_irqsave(&rd->dl_bw.lock, flags);
	bw = __ms_bw_dl(rd);
	raw_spin_unlock_irqrestore(&rd->dl_bw.lock, flags);
	rcu_read_unlock_sched();
	return bw;
}

/* What is admitted on @cpu: SCHED_DEADLINE's share and the classes'. */
u64 ms_bw_used(int cpu)
{
	return ms_bw_dl(cpu) + READ_ONCE(per_cpu(ms_bw, cpu).used);
}

/*
 * ms_bw_used() without the locks, for a CPU's own tick, which should not
 * take a lock every CPU of the root domain shares: the root domain's
 * total_bw and the CPU's reservations as last written, a word each, so
 * the reading may be a moment old but is never torn. Under @cpu's rq
 * lock, which keeps cpu_rq(@cpu)->rd.
 */
u64 ms_bw_used_hint(int cpu)
{
	struct root_domain *rd = cpu_rq(cpu)->rd;

	lockdep_assert_rq_held(cpu_rq(cpu));
	return ms_bw_dl_share(rd, READ_ONCE(rd->dl_bw.total_bw)) +
	       READ_ONCE(per_cpu(ms_bw, cpu).used);
}

/*
 * Does a class hold reservations on @cpu (BEBS periodic tasks, RBS)?
 * Read without @ms_bw's lock, for a scheduling decision on the CPU: an
 * admission racing with it is seen at the next decision, and the task
 * admitted has yet to be queued there.
 */
bool ms_cpu_reserved(int cpu)
{
	return READ_ONCE(per_cpu(ms_bw, cpu).used) != 0;
}

/*
 * Does @cpu hold reservations scheduled by deadline (BEBS periodic
 * tasks), besides RBS's rate-monotonic ones? The same kind of reading.
 */
bool ms_cpu_reserved_edf(int cpu)
{
	struct ms_bw *b = per_cpu_ptr(&ms_bw, cpu);

	return READ_ONCE(b->used) > READ_ONCE(b->rm_used);
}

/* The rate-monotonic bound of @n tasks, from the class that has one. */
static u64 ms_rm_bound(unsigned int n)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ms_classes); i++)
		if (ms_classes[i]->rm_bound)
			return ms_classes[i]->rm_bound(n);
	return BW_UNIT;
}

/*
 * Do the reservations of a CPU fit its rate-monotonic bound, @rm_nr of
 * them rate-monotonic with @rm_used, among @used in all (SCHED_DEADLINE's
 * share included)? The rest counts as one more task at the highest
 * priority: it runs above RBS (SCHED_DEADLINE), or is counted as if it
 * did (BEBS periodic tasks, below it). Nothing to check without
 * rate-monotonic reservations.
 */
static bool ms_rm_fits(u64 used, u64 rm_used, unsigned int rm_nr)
{
	if (!rm_nr)
		return true;
	return used <= ms_rm_bound(rm_nr + (used > rm_used));
}

/**
 * __ms_bw_admit - change a reservation on @cpu from @old_bw to @new_bw
 * @cpu:	the CPU the reservation is on
 * @old_bw:	what it held there, 0 for a new one
 * @new_bw:	what it asks for, 0 to release it
 * @free_bw:	what must stay free on the CPU besides, for a growing one
 * @old_rm:	whether @old_bw counted as rate-monotonic (RBS)
 * @new_rm:	whether @new_bw is to
 *
 * The check and the change are made under the root domain's dl_bw lock
 * too, which SCHED_DEADLINE's admission holds while it counts the
 * classes' reservations (ms_bw_reserved()): of two admissions that race,
 * DL's and a class's, the second sees the first. A reservation that
 * grows, or becomes rate-monotonic, must also leave the CPU within the
 * rate-monotonic bound of its RBS reservations (ms_rm_fits()).
 *
 * Return: 0, or -EBUSY when the CPU's admitted bandwidth would exceed the
 * limit (ms_bw_fits()) or the bound, or the CPU is going offline; a
 * reservation can always shrink or go.
 */
int __ms_bw_admit(int cpu, u64 old_bw, u64 new_bw, u64 free_bw, bool old_rm,
		  bool new_rm)
{
	struct ms_bw *b = per_cpu_ptr(&ms_bw, cpu);
	u64 rm_used, dl;
	unsigned int rm_nr;
	struct root_domain *rd;
	unsigned long flags;
	int ret = 0;

	raw_spin_lock_irqsave(&b->lock, flags);
	rcu_read_lock_sched();
	rd = cpu_rq(cpu)->rd;
	raw_spin_lock(&rd->dl_bw.lock);
	if (WARN_ON_ONCE(old_bw > b->used))
		old_bw = b->used;
	if (WARN_ON_ONCE(old_rm && (old_bw > b->rm_used || !b->rm_nr)))
		old_rm = false;
	rm_used = b->rm_used - (old_rm ? old_bw : 0) + (new_rm ? new_bw : 0);
	rm_nr = b->rm_nr - old_rm + new_rm;
	dl = __ms_bw_dl(rd);
	if ((new_bw > old_bw || new_rm > old_rm) &&
	    (!cpu_active(cpu) ||
	     !ms_bw_fits(dl + b->used - old_bw, new_bw + free_bw,
			 ms_bw_limit()) ||
	     !ms_rm_fits(dl + b->used - old_bw + new_bw, rm_used, rm_nr))) {
		ret = -EBUSY;
	} else {
		WRITE_ONCE(b->used, b->used - old_bw + new_bw);
		b->rm_used = rm_used;
		b->rm_nr = rm_nr;
	}
	raw_spin_unlock(&rd->dl_bw.lock);
	rcu_read_unlock_sched();
	raw_spin_unlock_irqrestore(&b->lock, flags);
	return ret;
}

/**
 * ms_bw_room - what some of a CPU's RBS reservations may hold together
 * @cpu:	the CPU
 * @mine:	what they hold now
 *
 * For the feedback controller, which resizes the reservations it sets
 * while the others on @cpu stay: the bandwidth those may grow or shrink
 * to, together, before __ms_bw_admit() would refuse, under the limit of
 * all reservations and the rate-monotonic bound of the CPU's RBS
 * reservations as many as they are now (ms_rm_fits()). A snapshot under
 * the CPU's admission lock; an admission after it may take some of it.
 *
 * Return: the room, 0 when the others leave none.
 */
u64 ms_bw_room(int cpu, u64 mine)
{
	struct ms_bw *b = per_cpu_ptr(&ms_bw, cpu);
	u64 used, others, cap;
	struct root_domain *rd;
	unsigned long flags;

	raw_spin_lock_irqsave(&b->lock, flags);
	rcu_read_lock_sched();
	rd = cpu_rq(cpu)->rd;
	raw_spin_lock(&rd->dl_bw.lock);
	used = __ms_bw_dl(rd) + b->used;
	others = used - min(mine, used);
	cap = ms_bw_limit();
	if (b->rm_nr)
		cap = min(cap, ms_rm_bound(b->rm_nr + (used > b->rm_used)));
	raw_spin_unlock(&rd->dl_bw.lock);
	rcu_read_unlock_sched();
	raw_spin_unlock_irqrestore(&b->lock, flags);
	return cap > others ? cap - others : 0;
}

/* __ms_bw_admit() for a reservation that is not rate-monotonic. */
int ms_bw_admit(int cpu, u64 old_bw, u64 new_bw, u64 free_bw)
{
	return __ms_bw_admit(cpu, old_bw, new_bw, free_bw, false, false);
}

/*
 * Move @bw of reservations from @from to @to without admission, @rm if
 * it is rate-monotonic: for a task that the kernel moves off its CPU
 * against its reservation (a cpuset change). What is admitted stays
 * counted, on the CPU it runs on, even beyond that CPU's bound.
 *
 * The two CPUs' locks are taken in CPU order, then the dl_bw lock, as in
 * ms_bw_admit(). Within one root domain both changes are made under its
 * dl_bw lock, so SCHED_DEADLINE's admission (ms_bw_reserved()) never
 * counts the reservation on neither CPU or on both; across root domains
 * each is changed under its own, as dl_task_offline_migration() moves a
 * DL task's bandwidth.
 */
void ms_bw_move(int from, int to, u64 bw, bool rm)
{
	struct ms_bw *bf = per_cpu_ptr(&ms_bw, from);
	struct ms_bw *bt = per_cpu_ptr(&ms_bw, to);
	struct ms_bw *first = from < to ? bf : bt;
	struct ms_bw *second = from < to ? bt : bf;
	struct root_domain *rd_from, *rd_to;
	unsigned long flags;

	if (from == to)
		return;
	raw_spin_lock_irqsave(&first->lock, flags);
	raw_spin_lock_nested(&second->lock, SINGLE_DEPTH_NESTING);
	rcu_read_lock_sched();
	rd_from = cpu_rq(from)->rd;
	rd_to = cpu_rq(to)->rd;
	raw_spin_lock(&rd_from->dl_bw.lock);
	WRITE_ONCE(bf->used, bf->used - min(bw, bf->used));
	if (rm && !WARN_ON_ONCE(!bf->rm_nr)) {
		bf->rm_used -= min(bw, bf->rm_used);
		bf->rm_nr--;
		bt->rm_used += bw;
		bt->rm_nr++;
	}
	if (rd_to != rd_from) {
		raw_spin_unlock(&rd_from->dl_bw.lock);
		raw_spin_lock(&rd_to->dl_bw.lock);
	}
	WRITE_ONCE(bt->used, bt->used + bw);
	raw_spin_unlock(&rd_to->dl_bw.lock);
	rcu_read_unlock_sched();
	raw_spin_unlock(&second->lock);
	raw_spin_unlock_irqrestore(&first->lock, flags);
}

/*
 * Count @bw more on @cpu without admission, @rm if it is rate-monotonic:
 * for what the kernel makes a CPU run against its reservations, a member
 * of a shared RBS reservation that a cpuset sends off the reservation's
 * CPU (rbs_away_move()). Given back with __ms_bw_admit(@cpu, @bw, 0, 0,
 * @rm, false). Locks as __ms_bw_admit().
 */
void ms_bw_add(int cpu, u64 bw, bool rm)
{
	struct ms_bw *b = per_cpu_ptr(&ms_bw, cpu);
	struct root_domain *rd;
	unsigned long flags;

	raw_spin_lock_irqsave(&b->lock, flags);
	rcu_read_lock_sched();
	rd = cpu_rq(cpu)->rd;
	raw_spin_lock(&rd->dl_bw.lock);
	WRITE_ONCE(b->used, b->used + bw);
	if (rm) {
		b->rm_used += bw;
		b->rm_nr++;
	}
	raw_spin_unlock(&rd->dl_bw.lock);
	rcu_read_unlock_sched();
	raw_spin_unlock_irqrestore(&b->lock, flags);
}

/**
 * ms_bw_reserved - the classes' reservations on the CPUs of a root domain
 * @dl_b:	the root domain's dl_bw, locked
 *
 * For SCHED_DEADLINE's admission test (__dl_overflow()), which counts them
 * as admitted bandwidth of the root domain: a DL task cannot take what a
 * periodic BEBS task holds. ms_bw_admit() changes them under the same
 * lock.
 *
 * Return: their sum, in BW_UNIT parts.
 */
u64 ms_bw_reserved(struct dl_bw *dl_b)
{
	struct root_domain *rd = container_of(dl_b, struct root_domain, dl_bw);
	u64 sum = 0;
	int cpu;

	lockdep_assert_held(&dl_b->lock);
	for_each_cpu(cpu, rd->span)
		sum += READ_ONCE(per_cpu(ms_bw, cpu).used);
	return sum;
}

/**
 * ms_admit - admit the reservation @attr asks of @p, or release @p's
 * @p:		the task, its rq locked and its pi_lock held
 * @policy:	the policy it is to have
 * @attr:	the request
 *
 * From __sched_setscheduler(), after SCHED_DEADLINE's admission and
 * before anything changes; nothing fails after it. A reservation that
 * @p holds is changed on its CPU (ms_bw_admit()). A new one is placed
 * first-fit: on the first CPU, in CPU order, of @p's affinity that is
 * active and has room for it, which packs reservations onto the low CPUs
 * and leaves whole CPUs free for a large one. The class keeps the task
 * on that CPU from its next wakeup; ms_place() moves a queued task there
 * once the locks are dropped.
 *
 * Return: 0, -EBUSY when no CPU has room, -ESRCH for a task that is
 * exiting, or another error of a shared reservation (rbs_admit_shared());
 * or MS_ADMIT_RETRY when a new shared reservation found its pool empty,
 * taken by requests that raced this one since ms_check_attr() filled it,
 * or a thread asking for the feedback controller lost the state that
 * ms_check_attr() made for it (rbs_ctl_prepare()): the caller drops its
 * locks and starts again from those checks.
 */
int ms_admit(struct task_struct *p, int policy, const struct sched_attr *attr)
{
	if (attr->sched_flags & SCHED_FLAG_KEEP_PARAMS)
		return 0;
#ifdef CONFIG_SCHED_RBS
	/* its controller state, which the controller dropped meanwhile */
	if (policy == SCHED_RBS &&
	    (attr->sched_ms_flags & MS_FLAG_RBS_FEEDBACK) && !p->ms.run.rbs_ctl)
		return MS_ADMIT_RETRY;
	/* a shared RBS reservation, to join, make, change or leave */
	if (p->ms.run.resv_shared ||
	    (policy == SCHED_RBS &&
	     (attr->sched_ms_flags & (MS_FLAG_RBS_SHARED | MS_FLAG_RBS_JOIN))))
		return rbs_admit_shared(p, policy, attr);
#endif
	return ms_admit_own(p, policy, attr);
}

/**
 * ms_admit_own - ms_admit() for a reservation that is @p's own
 * @p:		the task, its rq locked and its pi_lock held
 * @policy:	the policy it is to have
 * @attr:	the request
 *
 * Return: as ms_admit().
 */
int ms_admit_own(struct task_struct *p, int policy,
		 const struct sched_attr *attr)
{
	struct sched_ms_run *run = &p->ms.run;
	const struct ms_class *c;
	u64 new_bw = 0, free_bw;
	int cpu, ret = -EBUSY;
	bool rm = false;

	c = ms_policy(policy) ? ms_class_of(policy) : NULL;
	if (c && c->bandwidth)
		new_bw = c->bandwidth(p, attr);
	if (new_bw)
		rm = c->rm_bound;
	if (new_bw == run->resv_bw && rm == run->resv_rm)
		return 0;
	/*
	 * A task on its way out may be past task_dead(), which releases
	 * its reservation: one admitted then (a zombie's) would be held for
	 * good. PF_EXITING is set long before the final schedule, which
	 * takes the rq lock we hold.
	 */
	if (new_bw && (p->flags & PF_EXITING))
		return -ESRCH;
	free_bw = c && c->bw_free ? c->bw_free() : 0;
	if (run->resv_bw) {
		cpu = run->resv_cpu;
		ret = __ms_bw_admit(cpu, run->resv_bw, new_bw, free_bw,
				    run->resv_rm, rm);
	} else {
		for_each_cpu_and(cpu, &p->cpus_mask, cpu_active_mask) {
			ret = __ms_bw_admit(cpu, 0, new_bw, free_bw, false, rm);
			if (!ret)
				break;
		}
	}
	if (ret)
		return ret;
	WRITE_ONCE(run->resv_cpu, cpu);
	WRITE_ONCE(run->resv_bw, new_bw);
	run->resv_rm = rm;
	return 0;
}

#ifdef CONFIG_SMP
/*
 * Move @p, queued on @rq and not running, to @dst if it still may go.
 * double_lock_balance() may drop @rq's lock: the checks come after it.
 * Not while it is boosted by priority inheritance: it runs in the class
 * of its waiter then, which may have placed it (the real-time class
 * pushes it), and goes back from the tick once deboosted.
 */
static void ms_place_move(struct rq *rq, struct rq *dst, struct task_struct *p)
{
	raw_spin_rq_lock(rq);
	double_lock_balance(rq, dst);
	if (task_rq(p) == rq && task_on_rq_queued(p) &&
	    p->prio == p->normal_prio &&
	    !task_on_cpu(rq, p) && !is_migration_disabled(p) &&
	    cpumask_test_cpu(cpu_of(dst), p->cpus_ptr) &&
	    cpu_active(cpu_of(dst))) {
		deactivate_task(rq, p, 0);
		set_task_cpu(p, cpu_of(dst));
		activate_task(dst, p, 0);
		wakeup_preempt(dst, p, 0);
	}
	double_unlock_balance(rq, dst);
	raw_spin_rq_unlock(rq);
}

/*
 * The stopper of the CPU @arg was queued on, which has preempted it: move
 * it, if it is still queued here, to the CPU of its reservation.
 */
static int ms_place_stop(void *arg)
{
	struct task_struct *p = arg;
	struct rq *rq = this_rq();
	int cpu;

	raw_spin_lock_irq(&p->pi_lock);
	cpu = READ_ONCE(p->ms.run.resv_cpu);
	if (READ_ONCE(p->ms.run.resv_bw) && cpu != cpu_of(rq))
		ms_place_move(rq, cpu_rq(cpu), p);
	raw_spin_unlock_irq(&p->pi_lock);
	return 0;
}

/**
 * ms_away - is @p, on @cpu, away from its reservation's CPU, and may it go?
 * @p:		the task
 * @cpu:	the CPU it is on
 *
 * Not when that CPU is inactive or outside @p's affinity (a cpuset
 * change that kept @cpu): a move there would be refused at every try.
 * Lockless: the stopper checks again under the locks.
 */
bool ms_away(struct task_struct *p, int cpu)
{
	int resv = READ_ONCE(p->ms.run.resv_cpu);

	return READ_ONCE(p->ms.run.resv_bw) && resv != cpu &&
	       cpu_active(resv) && cpumask_test_cpu(resv, p->cpus_ptr);
}

/**
 * ms_place - move @p to the CPU its reservation was admitted on
 * @p:		the task, referenced by the caller
 *
 * From __sched_setscheduler() once it has dropped its locks, where it may
 * sleep (not from normalize_rt_tasks(), which holds tasklist_lock; it
 * releases every reservation, so there is nothing to move), and from the
 * task work that the classes' ticks queue (ms_queue_work()). A sleeping
 * task goes there at its wakeup (the classes' ->select_task_rq()); a
 * queued one is moved now by the stopper of its CPU, which takes it off
 * the CPU if it runs, as a change of affinity would. A task that runs
 * with migration disabled, whose wakeup was under way, or that is
 * boosted by priority inheritance (ms_place_move()), is moved later,
 * from the tick, by the task work that calls this (BEBS's periodic
 * tasks and RBS's).
 */
void ms_place(struct task_struct *p)
{
	if (!ms_away(p, task_cpu(p)) || !task_on_rq_queued(p))
		return;
	might_sleep();
	stop_one_cpu(task_cpu(p), ms_place_stop, p);
}
#else
bool ms_away(struct task_struct *p, int cpu)
{
	return false;
}

void ms_place(struct task_struct *p)
{
}
#endif /* CONFIG_SMP */

static void ms_task_work(struct callback_head *work)
{
	unsigned long what = xchg(&current->ms.run.work_pending, 0);
	const struct ms_class *c;

	/*
	 * Not for a thread on its way out (exit_task_work() runs the work:
	 * the process goes on) or one that has since left the classes; a
	 * class's bits go to the class it is in now.
	 */
	if ((current->flags & PF_EXITING) || !ms_policy(current->policy))
		return;
	if (what & BIT(MS_WORK_PLACE))
		ms_place(current);
	c = ms_class_of(current->policy);
	if (c && c->task_work && (what & ~(BIT(MS_WORK_CLASS) - 1)))
		c->task_work(current, what);
}

/**
 * ms_queue_work - have @p do @what when it next returns to user mode
 * @p:		the task, its rq locked
 * @what:	an MS_WORK_* bit
 *
 * For what the scheduler cannot do under the rq lock: a task's move to
 * its reservation's CPU, which ms_place() could not make (the task ran
 * with migration disabled, its wakeup was on its way elsewhere, or a
 * priority-inheritance boost took it to another CPU in the class it was
 * boosted to), found from the tick; and the classes' own work (BEBS's
 * SIGXCPU at an overrun). The work is @p's struct sched_ms_run's @work,
 * outside the class state, which another class may clear while it is
 * queued; @work_pending's bits are set under the rq lock and cleared by
 * the work. Kernel threads, which never return to user mode, get none:
 * one goes to its reservation's CPU at its next wakeup. The classes' bits
 * are distinct (MS_WORK_CLASS on, in multisched.h): a task that changed
 * class while one was pending is handed it, and its new class ignores it.
 */
void ms_queue_work(struct task_struct *p, int what)
{
	struct sched_ms_run *run = &p->ms.run;

	if ((p->flags & PF_KTHREAD) || test_and_set_bit(what, &run->work_pending) ||
	    test_and_set_bit(MS_WORK_QUEUED, &run->work_pending))
		return;
	init_task_work(&run->work, ms_task_work);
	/*
	 * No allocation under the rq lock (TWAF_NO_ALLOC, as core.c's
	 * mm_cid work); -ESRCH: the task is exiting and will not need it.
	 */
	if (task_work_add(p, &run->work, TWA_RESUME | TWAF_NO_ALLOC))
		WRITE_ONCE(run->work_pending, 0);
}

/* @p is dead, or left for good: release what it holds. */
void ms_release(struct task_struct *p)
{
	struct sched_ms_run *run = &p->ms.run;

#ifdef CONFIG_SCHED_RBS
	if (run->resv_shared) {
		rbs_leave(p);
		return;
	}
#endif
	if (!run->resv_bw)
		return;
	__ms_bw_admit(run->resv_cpu, run->resv_bw, 0, 0, run->resv_rm, false);
	WRITE_ONCE(run->resv_bw, 0);
	run->resv_rm = false;
}

/*
 * @p moves to @cpu, not queued, its pi_lock held (->migrate_task_rq()),
 * or is on @cpu, back from a boost (ms_switched_to_resv()): a reservation
 * goes with it. The classes keep a task with a reservation on its CPU,
 * so only what they cannot refuse moves it: a cpuset change.
 */
void ms_migrate_reservation(struct task_struct *p, int cpu)
{
	struct sched_ms_run *run = &p->ms.run;

	/* a shared reservation stays: its members away run on their own */
	if (!run->resv_bw || run->resv_shared || run->resv_cpu == cpu)
		return;
	/*
	 * A task not yet on its reservation's CPU (ms_place()) moves
	 * without it, unless that CPU is no longer one it may use.
	 */
	if (task_cpu(p) != run->resv_cpu &&
	    cpumask_test_cpu(run->resv_cpu, &p->cpus_mask) &&
	    cpu_active(run->resv_cpu))
		return;
	ms_bw_move(run->resv_cpu, cpu, run->resv_bw, run->resv_rm);
	WRITE_ONCE(run->resv_cpu, cpu);
}

/**
 * ms_switched_to_resv - ->switched_to() of the classes with reservations
 * @rq:		@p's rq, locked
 * @p:		the task, its pi_lock held too
 *
 * A task that comes back into its class from a priority-inheritance
 * boost was moved meanwhile by the callbacks of the class it was boosted
 * to, which leave its reservation where it was: if a cpuset took that CPU
 * away meanwhile, the task could never go back to it. The reservation
 * then follows it here, unadmitted, as after a cpuset move
 * (ms_migrate_reservation()); one it may still use stays, and the task
 * goes back to it from the tick (ms_place()). Nor onto a CPU the task
 * may not use or that is inactive: a task deboosted asleep there (a PI
 * waiter gave up) is moved at its wakeup, and its reservation with it
 * (->migrate_task_rq()). Entering the class, a task is admitted within
 * its affinity, and nothing moves.
 */
void ms_switched_to_resv(struct rq *rq, struct task_struct *p)
{
	int cpu = task_cpu(p);

	lockdep_assert_held(&p->pi_lock);
	if (cpumask_test_cpu(cpu, &p->cpus_mask) && cpu_active(cpu))
		ms_migrate_reservation(p, cpu);
	ms_switched_to(rq, p);
}

#ifdef CONFIG_SMP
/**
 * ms_set_cpus_allowed - ->set_cpus_allowed() of the classes with
 * reservations
 * @p:		the task, its pi_lock held, and its rq lock if it is queued
 *		(select_fallback_rq() and kthread_bind() hold only the
 *		first, for a task that is not)
 * @ctx:	the new affinity
 *
 * A cpuset that takes away the CPU a task's reservation is admitted on,
 * while the task is on another CPU it keeps (one made periodic asleep,
 * not yet placed by ms_place()), moves nothing: affine_move_task()
 * migrates only a task whose own CPU goes. The reservation then follows
 * the task to its CPU, unadmitted, as ms_migrate_reservation() has it
 * follow a cpuset's migration, rather than stay counted on a CPU the
 * task may no longer use, where ms_check_affinity() would then refuse
 * it every affinity the cpuset allows. A shared reservation stays: a
 * member away runs on a server of its own. migrate_disable() narrows
 * the mask for a while only (SCA_MIGRATE_DISABLE): nothing moves. Nor
 * onto a CPU going offline, which ms_bw_deactivate() has let go: the
 * task leaves it, and ms_migrate_reservation() moves the reservation
 * then. A task boosted into another class by priority inheritance when
 * the cpuset changes is not seen here: ms_switched_to_resv() moves its
 * reservation when it is back.
 */
void ms_set_cpus_allowed(struct task_struct *p, struct affinity_context *ctx)
{
	struct sched_ms_run *run = &p->ms.run;
	int cpu = task_cpu(p);

	set_cpus_allowed_common(p, ctx);
	if (ctx->flags & (SCA_MIGRATE_ENABLE | SCA_MIGRATE_DISABLE))
		return;
	if (!run->resv_bw || run->resv_shared || run->resv_cpu == cpu ||
	    cpumask_test_cpu(run->resv_cpu, ctx->new_mask) ||
	    !cpumask_test_cpu(cpu, ctx->new_mask) || !cpu_active(cpu))
		return;
	ms_bw_move(run->resv_cpu, cpu, run->resv_bw, run->resv_rm);
	WRITE_ONCE(run->resv_cpu, cpu);
}
#endif

/**
 * ms_check_affinity - may @p take the affinity @mask?
 * @p:		the task
 * @mask:	the affinity asked for
 *
 * From __sched_setaffinity(), beside SCHED_DEADLINE's check: a task with
 * a reservation keeps the CPU it is admitted on.
 *
 * Return: 0, or -EBUSY when @mask leaves out that CPU.
 */
int ms_check_affinity(struct task_struct *p, const struct cpumask *mask)
{
	if (!READ_ONCE(p->ms.run.resv_bw) ||
	    cpumask_test_cpu(READ_ONCE(p->ms.run.resv_cpu), mask))
		return 0;
	return -EBUSY;
}

/**
 * ms_bw_deactivate - may @cpu go offline?
 * @cpu:	the CPU
 *
 * From sched_cpu_deactivate(), before anything changes: a CPU that holds
 * reservations stays, as its tasks would have to be admitted elsewhere.
 * Not for suspend (tasks frozen), which SCHED_DEADLINE's check lets
 * through too: the tasks move off the CPU, their reservations with them
 * (ms_migrate_reservation()).
 *
 * Return: 0, or -EBUSY.
 */
int ms_bw_deactivate(unsigned int cpu)
{
	if (cpuhp_tasks_frozen)
		return 0;
	return READ_ONCE(per_cpu(ms_bw, cpu).used) ? -EBUSY : 0;
}

#ifdef CONFIG_SYSCTL
#define MS_NAME_LEN	16

static int ms_sysctl_normal_class(const struct ctl_table *table, int write,
				  void *buffer, size_t *lenp, loff_t *ppos)
{
	char name[MS_NAME_LEN];
	struct ctl_table t = {
		.data	= name,
		.maxlen	= sizeof(name),
	};
	int ret;

	strscpy(name, ms_normal_name(READ_ONCE(ms_normal)), sizeof(name));
	ret = proc_dostring(&t, write, buffer, lenp, ppos);
	if (ret || !write)
		return ret;

	return ms_set_normal(name);
}

/* The classes that accept tasks, space-separated: what schedctl lists. */
static int ms_sysctl_classes(const struct ctl_table *table, int write,
			     void *buffer, size_t *lenp, loff_t *ppos)
{
	char list[ARRAY_SIZE(ms_classes) * MS_NAME_LEN + 1] = "";
	struct ctl_table t = {
		.data	= list,
		.maxlen	= sizeof(list),
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(ms_classes); i++) {
		if (!ms_classes[i]->ready)
			continue;
		if (list[0])
			strlcat(list, " ", sizeof(list));
		strlcat(list, ms_classes[i]->name, sizeof(list));
	}
	return proc_dostring(&t, write, buffer, lenp, ppos);
}

/*
 * /proc/sys/kernel/sched_ms_bandwidth: "cpuN used_ppm total_ppm" for each
 * possible CPU, the bandwidth admitted there and the limit, in parts per
 * million of the CPU; what schedctl explains an EBUSY with.
 */
static int ms_sysctl_bandwidth(const struct ctl_table *table, int write,
			       void *buffer, size_t *lenp, loff_t *ppos)
{
	size_t size = (size_t)nr_cpu_ids * MS_BW_LINE + 1, len = 0;
	struct ctl_table t = { .maxlen = size };
	u64 limit = ms_bw_to_ppm(ms_bw_limit());
	char *text;
	int cpu, ret;

	text = kvmalloc(size, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	text[0] = '\0';
	for_each_possible_cpu(cpu)
		len += scnprintf(text + len, size - len, "cpu%d %llu %llu\n", cpu,
				 ms_bw_to_ppm(ms_bw_used(cpu)), limit);
	/* proc_dostring() ends the text with a newline of its own */
	if (len)
		text[len - 1] = '\0';
	t.data = text;
	ret = proc_dostring(&t, write, buffer, lenp, ppos);
	kvfree(text);
	return ret;
}

static struct ctl_table ms_sysctls[] = {
	{
		.procname	= "sched_normal_class",
		.mode		= 0644,
		.proc_handler	= ms_sysctl_normal_class,
	},
	{
		.procname	= "sched_ms_classes",
		.mode		= 0444,
		.proc_handler	= ms_sysctl_classes,
	},
	{
		.procname	= "sched_ms_bandwidth",
		.mode		= 0444,
		.proc_handler	= ms_sysctl_bandwidth,
	},
};

static int __init ms_sysctl_init(void)
{
	const struct ms_class *c;
	int i;

	register_sysctl_init("kernel", ms_sysctls);
	for (i = 0; i < ARRAY_SIZE(ms_classes); i++) {
		c = ms_classes[i];
		if (c->nr_sysctls)
			__register_sysctl_init("kernel", c->sysctls, c->name,
					       c->nr_sysctls);
	}
	return 0;
}
late_initcall(ms_sysctl_init);
#endif /* CONFIG_SYSCTL */

/* The /proc/<pid>/sched section; the classes add their own lines here. */
void ms_proc_show_task(struct task_struct *p, struct seq_file *m)
{
	const struct sched_ms_entity *ms = &p->ms;
	const struct ms_class *c;

	if (!ms_policy(p->policy) && !ms_setscheduler_class(p->policy))
		return;

	c = ms_class_of(p->policy) ?: READ_ONCE(ms_normal);
	seq_printf(m, "%-45s:%21s\n", "ms.class",
		   p->sched_class == &fair_sched_class ? "fair" :
		   p->sched_class == &rt_sched_class ? "rt (boosted)" :
		   p->sched_class == &dl_sched_class ? "dl (boosted)" :
		   ms_normal_name(c));
	ms_proc_u64(m, "ms.weight", ms_task_weight(p));
	ms_proc_u64(m, "ms.flags", ms->flags);
	ms_proc_s64(m, "ms.warp", ms->warp);
	ms_proc_u64(m, "ms.warp_limit", ms->warp_limit);
	ms_proc_u64(m, "ms.unwarp", ms->unwarp);
	ms_proc_u64(m, "ms.runtime", ms->runtime);
	ms_proc_u64(m, "ms.period", ms->period);
	if (c && c->proc_show && p->sched_class == c->class)
		c->proc_show(p, m);
}

/**
 * ms_below_runnable - has a class below @class a task to run on @rq?
 * @rq:		the runqueue, locked
 * @class:	a multisched class
 *
 * For a class that gives the CPU away to the classes below it before it
 * reclaims slack: BEBS releases an expired server early only when the CPU
 * would otherwise idle. Counts the multisched classes below @class, fair
 * (its runnable tasks: not those whose dequeue it delays, which it would
 * not run) and sched_ext.
 *
 * Return: whether one of them has a task queued on @rq.
 */
bool ms_below_runnable(struct rq *rq, const struct sched_class *class)
{
	const struct ms_class *c;
	int i;

	lockdep_assert_rq_held(rq);
	if (rq->cfs.h_nr_runnable)
		return true;
#ifdef CONFIG_SCHED_CLASS_EXT
	if (rq->scx.nr_running)
		return true;
#endif
	for (i = 0; i < ARRAY_SIZE(ms_classes); i++) {
		c = ms_classes[i];
		if (!sched_class_above(class, c->class) || !c->nr_running)
			continue;
		if (c->nr_running(rq))
			return true;
	}
	return false;
}

/**
 * ms_pick_next_task - __pick_next_task()'s shortcut to a multisched class
 * @rq:		the runqueue, locked, its clock updated
 *
 * As fair's shortcut there: when every task queued on @rq is of one
 * balanced class (ms_class.balance: BEBS, BVT, VTRR), and the task leaving
 * is of that class, or of fair or below, pick from the class at once. The
 * walk of the classes would call ->balance() from the leaving task's class
 * down to the first that has a task: the class itself, which has one, or
 * fair, which returns at once when the runqueue has a task. A leaving task
 * of another multisched class is left to the walk: its class's
 * ->balance() pulls when it has no task left here (ms_balance()), and a
 * class above may pull too. The walk would then ask each class above for
 * a task: none has one, and no dl_server is queued either, as 6.12 counts
 * a queued server in rq->nr_running (inc_dl_tasks()); dl_nr_running is
 * checked as well, for a kernel that does not. A pick that finds nothing
 * (a BEBS task waiting for its release) falls back to the walk.
 *
 * Return: the task switched to, put_prev_set_next_task() done; or NULL.
 */
struct task_struct *ms_pick_next_task(struct rq *rq)
{
	/* rq->donor: 6.12 has it in a union with rq->curr */
	struct task_struct *prev = ms_rq_curr(rq), *p;
	const struct ms_class *c;
	int i;

	if (!rq->nr_running || rq->dl.dl_nr_running)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(ms_classes); i++) {
		c = ms_classes[i];
		if (!c->balance ||
		    per_cpu_ptr(c->balance, cpu_of(rq))->nr_running !=
		    rq->nr_running)
			continue;
		if (prev->sched_class != c->class &&
		    sched_class_above(prev->sched_class, &fair_sched_class))
			return NULL;
		p = c->class->pick_task(rq);
		if (p)
			put_prev_set_next_task(rq, prev, p);
		return p;
	}
	return NULL;
}

/**
 * ms_can_stop_tick - may a nohz_full CPU stop its tick for the multisched
 * classes?
 * @rq:		the runqueue, locked
 *
 * From sched_can_stop_tick(), which counts only fair's tasks after the
 * real-time classes: left to it, a nohz_full CPU running two BVT or two
 * VTRR tasks would stop its tick and never switch between them. A class
 * that switches at the tick (@tick_switches) needs it while it has two
 * tasks queued there; BEBS ends budgets and slices with hrtimers and
 * needs it for none. add_nr_running() and sub_nr_running() ask again at
 * every change of the CPU's count, after the class has counted the task.
 *
 * Return: false if a class with two or more tasks queued on @rq needs
 * the tick to switch between them.
 */
bool ms_can_stop_tick(struct rq *rq)
{
	const struct ms_class *c;
	int i;

	lockdep_assert_rq_held(rq);
	for (i = 0; i < ARRAY_SIZE(ms_classes); i++) {
		c = ms_classes[i];
		if (c->tick_switches && c->nr_running(rq) > 1)
			return false;
	}
	return true;
}

/**
 * ms_is_class - is @class one of the multisched classes?
 * @class:	a scheduling class
 *
 * For update_other_load_avgs(), whose periodic update of the RT
 * utilisation counts the time since the last one as running when the
 * running task's class is RT or one of these (ms_update_util()). RBS,
 * above RT, counts there too; its reservations might rather count as
 * deadline's (avg_dl), as SCHED_DEADLINE's do, which would need a hook in
 * update_dl_rq_load_avg()'s callers as well.
 */
bool ms_is_class(const struct sched_class *class)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ms_classes); i++)
		if (ms_classes[i]->class == class)
			return true;
	return false;
}

#ifdef CONFIG_SCHED_CORE
/*
 * Core scheduling runs only tasks of one cookie on the CPUs of a core at
 * a time. Each sibling picks as usual; the highest of the picks decides
 * the cookie, and a sibling whose pick has another either finds a task of
 * that cookie in its queue or is forced idle. "Highest" is __task_prio()'s
 * rank of the class, then the class's own order, compared across the
 * siblings (prio_less()). Without the hooks below the classes would rank
 * as fair and be compared by a se.vruntime they never advance, so a task
 * of BVT could lose its sibling to fair's, and of two tasks of one class
 * with different cookies the same one would always win.
 */

/*
 * @p's class, if it is one of ours. Not asked of a task that a class
 * server runs: __task_prio() ranks those as deadline first.
 */
static const struct ms_class *ms_core_class(const struct task_struct *p)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ms_classes); i++)
		if (ms_classes[i]->class == p->sched_class)
			return ms_classes[i];
	return NULL;
}

/**
 * ms_core_prio - the rank of @p's class in core scheduling
 * @p:		a task
 * @prio:	set to the rank (struct ms_class's @core_prio)
 *
 * For __task_prio(), which ranks a task that a class server (a dl_server)
 * runs as deadline before it asks, as it does fair's, and one boosted by
 * priority inheritance, which is in RT or deadline, as such. RBS ranks 0,
 * with RT's highest priority, above which ms_core_less() puts it; BEBS,
 * BVT and VTRR rank between RT and fair. One that runs only because its
 * CPU has nothing else (RBS's background mode) ranks just above idle, so
 * that it does not force a sibling's task idle.
 *
 * Return: whether @p is in one of the classes.
 */
bool ms_core_prio(const struct task_struct *p, int *prio)
{
	const struct ms_class *c = ms_core_class(p);

	if (!c)
		return false;
	if (c->core_background && c->core_background(p))
		*prio = MAX_RT_PRIO + NICE_WIDTH - 1;
	else
		*prio = c->core_prio;
	return true;
}

/**
 * ms_core_less - prio_less() for two tasks of the same rank, 0 or more
 * @a:		a task
 * @b:		another, on @a's CPU or a sibling's
 * @in_fi:	the core has a sibling forced idle
 * @less:	set to whether @a should run after @b
 *
 * Two tasks of one of the classes compare by the class's @core_less. An
 * RBS task shares its rank with an RT task of the highest priority, and
 * goes before it, as the classes are ordered.
 *
 * Return: whether either task is one of ours, so that @less is set.
 */
bool ms_core_less(const struct task_struct *a, const struct task_struct *b,
		  bool in_fi, bool *less)
{
	const struct ms_class *ca = ms_core_class(a), *cb = ms_core_class(b);

	if (!ca && !cb)
		return false;
	if (ca != cb)
		*less = !ca;
	else
		*less = ca->core_less && ca->core_less(a, b, in_fi);
	return true;
}

/* The forced-idle stretch a CPU's points were last noted in; rq lock. */
static DEFINE_PER_CPU(unsigned int, ms_fi_seq);

/**
 * ms_core_fi_update - a core pick chose what @rq runs
 * @rq:		a runqueue of the core, locked
 * @in_fi:	a sibling is forced idle after this pick
 *
 * Beside task_vruntime_update(), which does it for fair: each class notes
 * its point of reference on @rq (struct ms_class's @core_fi), for every
 * CPU of the core, whatever it runs, so that a forced-idle sibling's is
 * taken when the forced idling starts. While a sibling is forced idle
 * only the first pick of the stretch (its core_forceidle_seq) notes it,
 * as se_fi_update() does; ms_fi_seq says which.
 */
void ms_core_fi_update(struct rq *rq, bool in_fi)
{
	unsigned int seq = rq->core->core_forceidle_seq;
	unsigned int *fi_seq = per_cpu_ptr(&ms_fi_seq, cpu_of(rq));
	int i;

	if (in_fi) {
		if (*fi_seq == seq)
			return;
		*fi_seq = seq;
	}
	for (i = 0; i < ARRAY_SIZE(ms_classes); i++)
		if (ms_classes[i]->core_fi)
			ms_classes[i]->core_fi(rq);
}

/**
 * ms_tick_core - the tick of a class that switches at the tick
 * @rq:		the runqueue, locked
 *
 * A task alone in its class on a CPU whose sibling is forced idle never
 * reaches the class's own reason to switch, and the core pick that could
 * give the sibling its turn would not come: ask for one at every tick,
 * as fair's task_tick_core() does once the task has used its slice. The
 * pick keeps the task, without a switch, while it still ranks first.
 */
void ms_tick_core(struct rq *rq)
{
	if (sched_core_enabled(rq) && rq->core->core_forceidle_count)
		resched_curr(rq);
}
#endif /* CONFIG_SCHED_CORE */

/**
 * ms_update_util - count the multisched classes' run time in the CPU's
 * utilisation
 * @rq:		the runqueue, locked, its clock updated
 * @running:	whether a task of a multisched class ran since the last update
 *
 * The classes run above fair, as the RT classes do, and their run time
 * goes into the RT utilisation signal, rq->avg_rt, fed the way rt.c feeds
 * it: running from ->put_prev_task() and ->task_tick(), not running from
 * ->set_next_task() (what ran before was another class's task, or was
 * counted by its ->put_prev_task()). Fair then sees the capacity the
 * classes leave it (scale_rt_capacity(): a fair task alone on a CPU they
 * saturate is moved to a CPU with more, by the active balance of
 * check_cpu_capacity()), and schedutil the frequency they need
 * (effective_cpu_util() adds avg_rt); ms_tick_util() kicks it.
 */
void ms_update_util(struct rq *rq, bool running)
{
	lockdep_assert_rq_held(rq);
	update_rt_rq_load_avg(rq_clock_pelt(rq), rq, running);
}

/**
 * ms_tick_util - ms_update_util() from a class's ->task_tick()
 * @rq:		the runqueue, locked, its clock updated
 *
 * Also tells cpufreq, as fair does from its tick through
 * update_load_avg(): schedutil reads the utilisation at its own rate.
 */
void ms_tick_util(struct rq *rq)
{
	ms_update_util(rq, true);
	cpufreq_update_util(rq, 0);
}

void ms_proc_u64(struct seq_file *m, const char *name, u64 v)
{
	seq_printf(m, "%-45s:%21llu\n", name, v);
}

void ms_proc_s64(struct seq_file *m, const char *name, s64 v)
{
	seq_printf(m, "%-45s:%21lld\n", name, v);
}

#ifdef CONFIG_SMP
/*
 * Proportional-share balancing, for the classes that want it.
 *
 * A class's load on a CPU is the sum of its tasks' weights (BVT weights,
 * VTRR shares) there. A waking or new task moves only to a CPU whose load
 * is lower by at least its own weight, so that small differences do not
 * bounce tasks between caches. Every MS_BALANCE_MS a CPU with two or more
 * tasks of the class checks, from its tick, whether a queued task weighs
 * less than the gap to the lightest CPU; if so, an irq_work on that CPU
 * pushes such tasks, heaviest first, while each move narrows the gap. A
 * CPU whose last task of the class left pulls one the same way from the
 * heaviest CPU. Loads of other CPUs are read without their locks: they
 * are hints, and a move rechecks them under both locks.
 *
 * The work is bounded, as fair's select_idle_sibling() bounds a wakeup's:
 * a waking task looks only within its CPU's last-level cache, and takes
 * an idle CPU there before a lighter busy one. A new task looks further,
 * one sched domain at a time, at the first level that has a lighter CPU.
 * The push and the pull look at the CPU's last-level cache and at
 * MS_BALANCE_FAR CPUs beyond it, the next ones each time, so that every
 * CPU is looked at within a few balancing periods whatever their number.
 */
#define MS_BALANCE_MS		20
#define MS_BALANCE_MOVES	4
#define MS_BALANCE_FAR		8

/*
 * ms_can_move - may @p go from @src to @dst now?
 *
 * Not while it runs, is pinned by migrate_disable(), or is not allowed on
 * @dst. For the classes' ->movable() scans.
 */
bool ms_can_move(struct rq *src, struct rq *dst, struct task_struct *p)
{
	return !task_on_cpu(src, p) && !is_migration_disabled(p) &&
	       cpumask_test_cpu(cpu_of(dst), p->cpus_ptr);
}

static struct ms_balance *ms_bal(const struct ms_balancer *b, struct rq *rq)
{
	return per_cpu_ptr(b->rqs, cpu_of(rq));
}

/* Read without @rq's lock for any CPU but the caller's. */
static u64 ms_load(const struct ms_balancer *b, struct rq *rq)
{
	return READ_ONCE(ms_bal(b, rq)->load);
}

static unsigned int ms_nr_running(const struct ms_balancer *b, struct rq *rq)
{
	return READ_ONCE(ms_bal(b, rq)->nr_running);
}

/*
 * The lightest CPU of @span that @p may run on, other than @cpu, if its
 * load is at most @best_load; an idle one (nothing of any class to run)
 * with none of the class's load at once, if @idle. Returns @best otherwise.
 */
static int ms_lightest_in(const struct ms_balancer *b, struct task_struct *p,
			  const struct cpumask *span, int cpu, bool idle,
			  u64 best_load, int best)
{
	u64 load;
	int i;

	for_each_cpu_wrap(i, span, cpu) {
		if (i == cpu || !cpumask_test_cpu(i, p->cpus_ptr) ||
		    !cpu_active(i))
			continue;
		load = ms_load(b, cpu_rq(i));
		if (idle && !load && available_idle_cpu(i))
			return i;
		if (load <= best_load) {
			best_load = load;
			best = i;
		}
	}
	return best;
}

/**
 * ms_select_task_rq - a class's ->select_task_rq()
 * @b:		the class's balancer
 * @p:		the task, waking (WF_TTWU) or new (WF_FORK)
 * @cpu:	the CPU it last ran on, or its parent's
 * @flags:	WF_*
 * @weight:	what @p weighs in the class
 *
 * @p stays on @cpu unless the class's load there is at least its own
 * weight. Otherwise it goes to an idle CPU of @cpu's last-level cache, or
 * else to the one whose load is lower by at least its weight, so that
 * small differences do not bounce tasks between caches. A new task that
 * finds none there looks further, a sched domain at a time. What a
 * waking task does not find in its cache, the push and the pull even out
 * later. Runs under @p's pi_lock; reads other CPUs' loads as hints.
 *
 * Return: the CPU.
 */
int ms_select_task_rq(const struct ms_balancer *b, struct task_struct *p,
		      int cpu, int flags, u64 weight)
{
	struct sched_domain *sd, *llc;
	u64 best_load;
	int best;

	if (p->nr_cpus_allowed == 1 || !(flags & (WF_TTWU | WF_FORK)))
		return cpu;

	best_load = ms_load(b, cpu_rq(cpu));
	if (best_load < weight)
		return cpu;
	best_load -= weight;

	guard(rcu)();
	llc = rcu_dereference(per_cpu(sd_llc, cpu));
	if (!llc)
		return ms_lightest_in(b, p, cpu_active_mask, cpu, false,
				      best_load, cpu);
	best = ms_lightest_in(b, p, sched_domain_span(llc), cpu, true,
			      best_load, cpu);
	if (best != cpu || !(flags & WF_FORK))
		return best;
	for (sd = rcu_dereference(llc->parent); sd;
	     sd = rcu_dereference(sd->parent)) {
		best = ms_lightest_in(b, p, sched_domain_span(sd), cpu, false,
				      best_load, cpu);
		if (best != cpu)
			break;
	}
	return best;
}

/*
 * ms_balance_scan - the CPUs balancing from @rq looks at
 * @mask:	set to them
 *
 * The active CPUs of @rq's last-level cache, and MS_BALANCE_FAR other
 * active ones from @rq's cursor on, which moves past them. @rq is locked.
 */
static void ms_balance_scan(const struct ms_balancer *b, struct rq *rq,
			    struct cpumask *mask)
{
	struct ms_balance *bal = ms_bal(b, rq);
	int cpu = cpu_of(rq), i, far = 0;
	struct sched_domain *llc;

	cpumask_clear(mask);
	rcu_read_lock();
	llc = rcu_dereference(per_cpu(sd_llc, cpu));
	if (llc)
		cpumask_and(mask, sched_domain_span(llc), cpu_active_mask);
	rcu_read_unlock();
	for_each_cpu_wrap(i, cpu_active_mask, bal->scan_next % nr_cpu_ids) {
		if (cpumask_test_cpu(i, mask) || i == cpu)
			continue;
		if (far++ == MS_BALANCE_FAR) {
			bal->scan_next = i;
			break;
		}
		__cpumask_set_cpu(i, mask);
	}
	__cpumask_clear_cpu(cpu, mask);
}

/*
 * Both runqueues are locked. @noclock: their clocks were updated since
 * they were locked, by an earlier move (fair's detach_tasks() and
 * attach_tasks() update each clock once).
 */
static bool ms_move_one(const struct ms_balancer *b, struct rq *src,
			struct rq *dst, bool noclock)
{
	u64 src_load = ms_load(b, src), dst_load = ms_load(b, dst);
	struct task_struct *p;

	if (ms_nr_running(b, src) < 2 || src_load <= dst_load)
		return false;
	p = b->movable(src, dst, src_load - dst_load);
	if (!p)
		return false;
	deactivate_task(src, p, noclock ? DEQUEUE_NOCLOCK : 0);
	set_task_cpu(p, cpu_of(dst));
	activate_task(dst, p, noclock ? ENQUEUE_NOCLOCK : 0);
	wakeup_preempt(dst, p, 0);
	return true;
}

/* Per CPU, for ms_balance_scan() under the CPU's rq lock. */
static DEFINE_PER_CPU(cpumask_var_t, ms_scan_mask);

/* The CPU with the least load that balancing from @rq looks at. */
static struct rq *ms_lightest(const struct ms_balancer *b, struct rq *rq)
{
	struct cpumask *mask = this_cpu_cpumask_var_ptr(ms_scan_mask);
	u64 best_load = U64_MAX, load;
	struct rq *best = NULL;
	int cpu;

	ms_balance_scan(b, rq, mask);
	for_each_cpu(cpu, mask) {
		load = ms_load(b, cpu_rq(cpu));
		if (load < best_load) {
			best_load = load;
			best = cpu_rq(cpu);
		}
	}
	return best;
}

/*
 * The CPU with two or more tasks of the class and the most load that
 * balancing from @rq looks at.
 */
static struct rq *ms_heaviest(const struct ms_balancer *b, struct rq *rq)
{
	struct cpumask *mask = this_cpu_cpumask_var_ptr(ms_scan_mask);
	u64 best_load = 0, load;
	struct rq *best = NULL;
	int cpu;

	ms_balance_scan(b, rq, mask);
	for_each_cpu(cpu, mask) {
		if (ms_nr_running(b, cpu_rq(cpu)) < 2)
			continue;
		load = ms_load(b, cpu_rq(cpu));
		if (load > best_load) {
			best_load = load;
			best = cpu_rq(cpu);
		}
	}
	return best;
}

/* Push from @rq, locked, to @dst while each move narrows the gap. */
static void ms_push(const struct ms_balancer *b, struct rq *rq, struct rq *dst)
{
	int moved = 0;

	double_lock_balance(rq, dst);
	if (cpu_active(cpu_of(dst)))
		while (moved < MS_BALANCE_MOVES &&
		       ms_move_one(b, rq, dst, moved))
			moved++;
	double_unlock_balance(rq, dst);
}

/*
 * The push ms_trigger_push() found due, on the CPU whose tick found it,
 * to the CPU it found, as RT pushes from rto_push_irq_work_func(). Where
 * the architecture raises an interrupt for irq_work (x86 does), it runs
 * before that CPU switches again, so the task the tick found movable is
 * still queued and not the one running; elsewhere it runs from the next
 * tick, and a push that finds nothing to move is looked for again at a
 * later one. A push left to the next switch, as a balance callback,
 * would find the two tasks of an overloaded CPU swapped: the light one
 * that could move running, the heavy one that cannot queued, at every
 * switch, and the gap would never close.
 */
static void ms_push_work(struct irq_work *work)
{
	struct ms_balance *bal = container_of(work, struct ms_balance,
					      push_work);
	struct rq *rq = this_rq();

	raw_spin_rq_lock(rq);
	if (cpu_active(cpu_of(rq)))
		ms_push(bal->balancer, rq, cpu_rq(bal->push_cpu));
	raw_spin_rq_unlock(rq);
}

/**
 * ms_balance_init - set up a class's balancing state on a runqueue
 * @bal:	the state, in the class's per-CPU runqueue
 * @b:		the class's balancer
 *
 * From the class's ->init_rq().
 */
void ms_balance_init(struct ms_balance *bal, const struct ms_balancer *b)
{
	bal->overloaded = b->overloaded;
	bal->balancer = b;
	bal->push_work = IRQ_WORK_INIT_HARD(ms_push_work);
}

/*
 * From the class's tick, under the rq lock: if a task here could narrow a
 * gap, queue the push to the CPU found on @rq's CPU (ms_push_work()),
 * which sched_tick_remote() may not be running on. The tick cannot push
 * itself: double_lock_balance() may drop the rq lock the tick holds
 * pinned.
 */
void ms_trigger_push(const struct ms_balancer *b, struct rq *rq)
{
	struct ms_balance *bal = ms_bal(b, rq);
	u64 load = ms_load(b, rq), dst_load;
	struct rq *dst;

	if (ms_nr_running(b, rq) < 2 || time_before(jiffies, bal->next_balance))
		return;
	bal->next_balance = jiffies + msecs_to_jiffies(MS_BALANCE_MS);

	dst = ms_lightest(b, rq);
	if (!dst)
		return;
	dst_load = ms_load(b, dst);
	if (dst_load >= load || !b->movable(rq, dst, load - dst_load))
		return;
	bal->push_cpu = cpu_of(dst);
	irq_work_queue_on(&bal->push_work, cpu_of(rq));
}

/* This CPU's last task of the class left: pull one from the heaviest CPU. */
static void ms_pull(const struct ms_balancer *b, struct rq *rq)
{
	struct rq *src;

	src = ms_heaviest(b, rq);
	if (!src)
		return;
	double_lock_balance(rq, src);
	ms_move_one(b, src, rq, false);
	double_unlock_balance(rq, src);
}

/*
 * The class's ->balance(): pull a task if the class has none here, and a
 * CPU has one to give (no CPU with two or more: no scan, no unpinning).
 */
int ms_balance(const struct ms_balancer *b, struct rq *rq,
	       struct task_struct *prev, struct rq_flags *rf)
{
	if (!ms_nr_running(b, rq) && prev->sched_class == b->class &&
	    atomic_read(b->overloaded) && cpu_active(cpu_of(rq))) {
		rq_unpin_lock(rq, rf);
		ms_pull(b, rq);
		rq_repin_lock(rq, rf);
	}
	return ms_nr_running(b, rq) > 0;
}
#endif /* CONFIG_SMP */

/*
 * A class's ->switched_to(): a task that joined it queued, and is not
 * the one running, may preempt what runs by the class's own test.
 */
void ms_switched_to(struct rq *rq, struct task_struct *p)
{
	if (task_on_rq_queued(p) && ms_rq_curr(rq) != p)
		wakeup_preempt(rq, p, 0);
}

/*
 * The class servers
 *
 * Without them the classes are stacked in strict priority: a BVT thread
 * that spins leaves a VTRR thread on its CPU no time at all, and a task
 * preempted inside an RCU read-side section or holding a lock others
 * wait for never runs again. Fair has its dl_server for the same reason
 * against RT; each general class gets one too, set up the way fair's is
 * (deferred: it runs its class only once the class has starved for the
 * rest of its period) and counted in the root domain's DL bandwidth.
 *
 * Mainline 6.12 moves fair's server bandwidth to a new root domain when
 * a CPU attaches to it, but loses it when a root domain is kept and its
 * total_bw recomputed; the class servers' is restored there too, so that
 * admitted bandwidth returns to where it was after hotplug.
 */
void ms_server_init(struct sched_dl_entity *dl_se, struct rq *rq,
		    dl_server_pick_f pick)
{
	init_dl_entity(dl_se);
	dl_server_init(dl_se, rq, pick);
}

/* The server of the @i-th class on @cpu, NULL for a class without one. */
static struct sched_dl_entity *ms_server_of(int i, int cpu)
{
	return ms_classes[i]->server ? ms_classes[i]->server(cpu) : NULL;
}

/*
 * From sched_cpu_dying(), as fair's server is stopped, under the rq lock.
 * Only a server that is active: stopping one twice would take its
 * bandwidth out of the CPU's running_bw twice.
 */
void ms_servers_dying(struct rq *rq)
{
	struct sched_dl_entity *dl_se;
	int i;

	lockdep_assert_rq_held(rq);
	for (i = 0; i < ARRAY_SIZE(ms_classes); i++) {
		dl_se = ms_server_of(i, cpu_of(rq));
		if (dl_se && dl_server_active(dl_se))
			dl_server_stop(dl_se);
	}
}

#ifdef CONFIG_SMP
/*
 * From rq_attach_root(), under the rq lock: @rq joined a root domain,
 * which is to count the bandwidth of its servers that are set up.
 */
void ms_servers_attach_root(struct rq *rq)
{
	struct sched_dl_entity *dl_se;
	int i;

	for (i = 0; i < ARRAY_SIZE(ms_classes); i++) {
		dl_se = ms_server_of(i, cpu_of(rq));
		if (dl_se && dl_se->dl_server)
			__dl_server_attach_root(dl_se, rq);
	}
}

/*
 * From dl_clear_root_domain(): @rd keeps its CPUs and its total_bw was
 * cleared to be recomputed from its tasks, which the servers are not.
 * With interrupts off, as the root domain's dl_bw lock is taken under
 * rq locks, and for the RCU-sched read of each CPU's root domain. The
 * servers' fields are read without the rq lock: a concurrent change
 * through debugfs holds the dl_bw lock too.
 */
void ms_servers_restore_root(struct root_domain *rd)
{
	struct sched_dl_entity *dl_se;
	unsigned long flags;
	int cpu, i;

	local_irq_save(flags);
	for_each_cpu(cpu, rd->span) {
		if (!cpu_active(cpu))
			continue;
		for (i = 0; i < ARRAY_SIZE(ms_classes); i++) {
			dl_se = ms_server_of(i, cpu);
			if (dl_se && dl_se->dl_server)
				__dl_server_attach_root(dl_se, cpu_rq(cpu));
		}
	}
	local_irq_restore(flags);
}
#endif /* CONFIG_SMP */

#ifdef CONFIG_SCHED_DEBUG
/* The bounds fair's server takes in debugfs. */
#define MS_SERVER_PERIOD_MIN	(100 * NSEC_PER_USEC)
#define MS_SERVER_PERIOD_MAX	((1ULL << 22) * NSEC_PER_USEC)

struct ms_server_file {
	const struct ms_class	*class;
	int			cpu;
	bool			period;	/* else runtime */
};

static int ms_server_show(struct seq_file *m, void *v)
{
	const struct ms_server_file *f = m->private;
	struct sched_dl_entity *dl_se = f->class->server(f->cpu);

	seq_printf(m, "%llu\n", f->period ? READ_ONCE(dl_se->dl_period) :
		   READ_ONCE(dl_se->dl_runtime));
	return 0;
}

static int ms_server_open(struct inode *inode, struct file *filp)
{
	return single_open(filp, ms_server_show, inode->i_private);
}

static ssize_t ms_server_write(struct file *filp, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	const struct ms_server_file *f =
		((struct seq_file *)filp->private_data)->private;
	struct sched_dl_entity *dl_se = f->class->server(f->cpu);
	struct rq *rq = cpu_rq(f->cpu);
	u64 value, runtime, period;
	int ret;

	ret = kstrtoull_from_user(ubuf, cnt, 10, &value);
	if (ret)
		return ret;

	scoped_guard (rq_lock_irqsave, rq) {
		if (!cpu_online(f->cpu))
			return -EBUSY;
		update_rq_clock(rq);
		/* set up, if it never started, as at boot */
		if (!dl_se->dl_server)
			dl_server_start(dl_se);
		runtime = f->period ? dl_se->dl_runtime : value;
		period = f->period ? value : dl_se->dl_period;
		if (runtime > period || period < MS_SERVER_PERIOD_MIN ||
		    period > MS_SERVER_PERIOD_MAX)
			return -EINVAL;
		if (dl_server_active(dl_se))
			dl_server_stop(dl_se);
		ret = dl_server_apply_params(dl_se, runtime, period, 0);
		if (!runtime)
			printk_deferred("%s server disabled on CPU %d: the classes above it may starve its tasks\n",
					f->class->name, f->cpu);
		/* with nothing to run, it stops itself when it would run */
		dl_server_start(dl_se);
		if (ret)
			return ret;
	}
	*ppos += cnt;
	return cnt;
}

static const struct file_operations ms_server_fops = {
	.open		= ms_server_open,
	.write		= ms_server_write,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static void __init ms_server_debugfs(const struct ms_class *c)
{
	struct dentry *sched = debugfs_lookup("sched", NULL), *dir, *d_cpu;
	struct ms_server_file *f;
	char name[32];
	int cpu;

	if (IS_ERR_OR_NULL(sched))
		return;
	snprintf(name, sizeof(name), "%s_server", c->name);
	dir = debugfs_create_dir(name, sched);
	for_each_possible_cpu(cpu) {
		f = kcalloc(2, sizeof(*f), GFP_KERNEL);
		if (!f)
			break;
		f[0] = (struct ms_server_file){ .class = c, .cpu = cpu };
		f[1] = (struct ms_server_file){ .class = c, .cpu = cpu, .period = true };
		snprintf(name, sizeof(name), "cpu%d", cpu);
		d_cpu = debugfs_create_dir(name, dir);
		debugfs_create_file("runtime", 0644, d_cpu, &f[0], &ms_server_fops);
		debugfs_create_file("period", 0644, d_cpu, &f[1], &ms_server_fops);
	}
	dput(sched);
}
#else
static inline void ms_server_debugfs(const struct ms_class *c) { }
#endif /* CONFIG_SCHED_DEBUG */

/*
 * Set up every online CPU's servers at boot, as fair's is by its first
 * task, so that the bandwidth they hold does not depend on which classes
 * have run where; a CPU that comes online later sets its up when the
 * class first runs there. A server started with nothing to run stops
 * itself when it would run.
 */
static int __init ms_servers_init(void)
{
	struct sched_dl_entity *dl_se;
	int cpu, i;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		guard(rq_lock_irqsave)(rq);
		update_rq_clock(rq);
		for (i = 0; i < ARRAY_SIZE(ms_classes); i++) {
			dl_se = ms_server_of(i, cpu);
			if (dl_se && !dl_se->dl_server)
				dl_server_start(dl_se);
		}
	}
	cpus_read_unlock();
	for (i = 0; i < ARRAY_SIZE(ms_classes); i++)
		if (ms_classes[i]->server)
			ms_server_debugfs(ms_classes[i]);
	return 0;
}
late_initcall(ms_servers_init);

/* From sched_init(), for each possible CPU, before cpu_of(@rq) is set. */
void init_ms_rq(struct rq *rq, int cpu)
{
	int i;

	raw_spin_lock_init(&per_cpu(ms_bw, cpu).lock);
	for (i = 0; i < ARRAY_SIZE(ms_classes); i++)
		ms_classes[i]->init_rq(rq, cpu);
}

void __init ms_sched_init(void)
{
	int i;

	/*
	 * The table follows the order of include/asm-generic/vmlinux.lds.h,
	 * as sched_init() checks the mainline classes: every class sits above
	 * fair, and the general ones below rt.
	 */
	for (i = 0; i < ARRAY_SIZE(ms_classes); i++) {
		const struct sched_class *class = ms_classes[i]->class;

		WARN_ON(i && !sched_class_above(ms_classes[i - 1]->class, class));
		WARN_ON(!sched_class_above(class, &fair_sched_class));
		WARN_ON(ms_classes[i]->general &&
			!sched_class_above(&rt_sched_class, class));
	}
#ifdef CONFIG_SMP
	for_each_possible_cpu(i)
		zalloc_cpumask_var_node(&per_cpu(ms_scan_mask, i), GFP_KERNEL,
					cpu_to_node(i));
#endif
}

#ifdef CONFIG_SCHED_MULTISCHED_KUNIT_TEST
#include "multisched_test.c"
#endif
