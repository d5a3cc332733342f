/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The common layer of the multisched classes: the interface each class
 * implements (struct ms_class), the proportional-share balancer they may
 * share, and the hooks core.c, syscalls.c and debug.c call. Included from
 * sched.h; each class's own state and helpers stay in its file.
 */
#ifndef _KERNEL_SCHED_MULTISCHED_H
#define _KERNEL_SCHED_MULTISCHED_H

#include <linux/irq_work.h>
#include <linux/math64.h>
#include <uapi/linux/sched/multisched.h>
#include <uapi/linux/sched/types.h>

struct rq;
struct rq_flags;
struct cpumask;
struct ctl_table;
struct seq_file;
struct sched_class;
struct task_struct;

static inline bool ms_policy(int policy)
{
	return policy >= SCHED_BVT && policy <= SCHED_RBS;
}

/* Does @attr carry any of the SCHED_ATTR_SIZE_VER2 class parameters? */
static inline bool ms_attr_has_params(const struct sched_attr *attr)
{
	return attr->sched_weight || attr->sched_ms_flags ||
	       attr->sched_warp || attr->sched_warp_limit ||
	       attr->sched_unwarp || attr->sched_join_tid;
}

/* ms_admit(): the pool of shared reservations ran dry; unlock, try again */
#define MS_ADMIT_RETRY	1

#ifdef CONFIG_SCHED_MULTISCHED

/*
 * struct ms_balance - a class's balancing state on one runqueue
 * @load:	the sum of the weights of its tasks there (BVT weights, VTRR
 *		shares)
 * @nr_running:	the number of its tasks there
 * @push_work:	the push the tick found due (ms_trigger_push()), run on
 *		this CPU by ms_push_work()
 * @push_cpu:	the CPU it pushes to
 * @next_balance: jiffies before which its tick does not look for a push
 * @scan_next:	the CPU outside its last-level cache that balancing from
 *		this runqueue looks at first (ms_balance_scan())
 * @overloaded:	the class's count of CPUs where it has two tasks or more
 *		(struct ms_balancer), or NULL where nothing pulls; set once
 *		by ->init_rq(), the count an atomic_t that pulls read
 *		without a lock, as a hint
 * @balancer:	the class's struct ms_balancer, for @push_work; set once
 *
 * ms_balance_init() sets up @overloaded, @balancer and @push_work.
 * Protected by the runqueue's lock. Other CPUs read @load and @nr_running
 * without it (placement, pulls), so they change only through
 * ms_balance_account().
 */
struct ms_balance {
	u64		load;
	unsigned int	nr_running;
	struct irq_work	push_work;
	int		push_cpu;
	unsigned long	next_balance;
	int		scan_next;
	atomic_t	*overloaded;
	const struct ms_balancer *balancer;
};

static inline void ms_balance_account(struct ms_balance *bal, s64 load,
				      int nr)
{
	unsigned int old = bal->nr_running, new = old + nr;
	bool was = old >= 2, is = new >= 2;

	WRITE_ONCE(bal->load, bal->load + load);
	WRITE_ONCE(bal->nr_running, new);
	/* as RT counts its overloaded CPUs (rto_count), for the pull */
	if (bal->overloaded && was != is)
		atomic_add(is ? 1 : -1, bal->overloaded);
}

/*
 * struct ms_balancer - how a proportional-share class is balanced
 * @class:	the class
 * @rqs:	its per-CPU struct ms_balance
 * @movable:	the heaviest task of @src, among those it scans, that
 *		ms_can_move() to @dst and weighs less than @gap; or NULL
 * @overloaded:	how many CPUs have two tasks of the class or more: a pull
 *		scans other CPUs only when some have one to give. Each CPU's
 *		struct ms_balance points to it (ms_balance_init() from the
 *		class's ->init_rq()).
 *
 * DEFINE_MS_BALANCER() defines one with the class's ->select_task_rq()
 * and ->balance().
 */
struct ms_balancer {
	const struct sched_class	*class;
	struct ms_balance __percpu	*rqs;
	struct task_struct *(*movable)(struct rq *src, struct rq *dst, u64 gap);
	atomic_t			*overloaded;
};

bool ms_can_move(struct rq *src, struct rq *dst, struct task_struct *p);
int ms_select_task_rq(const struct ms_balancer *b, struct task_struct *p,
		      int cpu, int flags, u64 weight);
void ms_balance_init(struct ms_balance *bal, const struct ms_balancer *b);
void ms_trigger_push(const struct ms_balancer *b, struct rq *rq);
int ms_balance(const struct ms_balancer *b, struct rq *rq,
	       struct task_struct *prev, struct rq_flags *rf);

/*
 * DEFINE_MS_BALANCER - the balancer @name##_balancer of class @name
 * @rqs_var:	the class's per-CPU state, with a struct ms_balance balance
 * @weight:	what a task of the class weighs, from its task_struct
 * @movable_fn:	the class's ->movable() scan
 *
 * Also defines the class's select_task_rq_@name() and balance_@name() for
 * DEFINE_SCHED_CLASS(@name).
 */
#define DEFINE_MS_BALANCER(name, rqs_var, weight, movable_fn)		\
static const struct ms_balancer name##_balancer;			\
static atomic_t name##_overloaded;					\
static int select_task_rq_##name(struct task_struct *p, int cpu,	\
				 int flags)				\
{									\
	return ms_select_task_rq(&name##_balancer, p, cpu, flags,	\
				 weight(p));				\
}									\
static int balance_##name(struct rq *rq, struct task_struct *prev,	\
			  struct rq_flags *rf)				\
{									\
	return ms_balance(&name##_balancer, rq, prev, rf);		\
}									\
static const struct ms_balancer name##_balancer = {			\
	.class		= &name##_sched_class,				\
	.rqs		= &(rqs_var).balance,				\
	.movable	= movable_fn,					\
	.overloaded	= &name##_overloaded,				\
}

/*
 * rq->curr, which is __rcu for lockless readers, for a class that holds
 * the rq lock. A macro: struct rq is not yet defined where sched.h
 * includes this file.
 */
#define ms_rq_curr(r) ({						\
	struct rq *__rq = (r);						\
									\
	rcu_dereference_protected(__rq->curr,				\
				  lockdep_is_held(__rq_lockp(__rq)));	\
})

/* Wrap-safe comparison of virtual times. */
static inline bool ms_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/*
 * ms_recip - the reciprocal of a divisor @d (at least 1) for ms_div():
 * floor((2^64 - 1) / @d). One division, made when @d changes.
 */
static inline u64 ms_recip(u64 d)
{
	return div64_u64(U64_MAX, d);
}

/*
 * ms_div - @x / @d rounded down, exactly, by multiplying with @inv, @d's
 * ms_recip(), as fair's __calc_delta() charges by a multiply
 *
 * 2^64 / @d - 1 <= @inv < 2^64 / @d, so @x * @inv / 2^64 lies between
 * @x / @d - 1 and @x / @d: the high half of the product is the quotient
 * or one less, and the remainder, from a multiply back, says which.
 */
static inline u64 ms_div(u64 x, u64 d, u64 inv)
{
	u64 q = mul_u64_u64_shr(x, inv, 64);

	if (x - q * d >= d)
		q++;
	return q;
}

void ms_switched_to(struct rq *rq, struct task_struct *p);

/*
 * ms_own_state - make @p's class state (the union) that of the class of
 * @policy
 *
 * For a class about to use the state of a task that joins it, from its
 * ->switching_to() (under the rq lock) and ->task_fork() (before the task
 * can run). If the union held another class's state, or none, it is
 * cleared and false returned; true if it is still this class's state from
 * an earlier stay, as after a priority-inheritance boost.
 */
static inline bool ms_own_state(struct task_struct *p, int policy)
{
	if (p->ms.run.state_policy == policy)
		return true;
	memset(&p->ms.run.state, 0, sizeof(p->ms.run.state));
	p->ms.run.state_policy = policy;
	return false;
}

/**
 * struct ms_class - what the common layer needs of a multisched class
 * @name:	the name sched_normal_class= and the sysctls use
 * @policy:	its SCHED_* policy
 * @class:	its sched_class
 * @ready:	whether it accepts tasks; a class is linked into the hierarchy
 *		before its algorithm lands, and until then its policy fails
 *		with EINVAL rather than run half-built
 * @general:	whether it may run every SCHED_NORMAL task (not one whose
 *		tasks need admission)
 * @flags:	the MS_FLAG_* it accepts
 * @validate:	range checks of the fields of struct sched_attr it uses,
 *		after the common ones (flags within @flags, weight range);
 *		-EINVAL for a field it does not use that is set
 * @asks_for_more: whether @attr asks for more than @p has in ways only the
 *		class knows (the common layer checks class entry, nice and
 *		weight); @same: @p is already in this policy. Optional
 * @init_rq:	initialise the class's state of CPU @cpu's runqueue @rq, at
 *		boot, before cpu_of(@rq) is set
 * @proc_show:	print its "ms.<name>." lines of /proc/<pid>/sched for a task
 *		in the class; optional
 * @sysctls:	its @nr_sysctls entries of /proc/sys/kernel, which the
 *		common layer registers at boot; optional
 * @server:	CPU @cpu's dl_server of the class (ms_server_init()), which
 *		runs its tasks when the classes above it would starve them;
 *		a general class has one, optional for the others
 * @nr_running:	how many of its tasks are queued on @rq, under @rq's lock;
 *		a general class has it, for ms_below_runnable()
 * @balance:	its per-CPU struct ms_balance, for a class balanced by
 *		DEFINE_MS_BALANCER(); the same count as @nr_running, read
 *		without a call by ms_pick_next_task()
 * @tick_switches: whether the class switches between its tasks from the
 *		scheduler tick (BVT's C, VTRR's quantum), so that a nohz_full
 *		CPU with two of its tasks queued must keep its tick
 *		(ms_can_stop_tick()); a class that does it with hrtimers (BEBS)
 *		leaves it false
 * @bandwidth:	the bandwidth @attr reserves for task @p, in BW_UNIT parts,
 *		0 for none; for a class whose tasks may hold reservations
 *		(ms_admit()); RBS's feedback threads keep what the
 *		controller gave them
 * @reservation_flags: the flags that ask for a reservation or go with one,
 *		which a child does not inherit
 * @bw_free:	the bandwidth a new or growing reservation of the class must
 *		leave free on its CPU (BEBS: U_BE,min); optional
 * @rm_bound:	for a class that runs its reservations by rate-monotonic
 *		priority (RBS): the utilisation, in BW_UNIT parts, that @n
 *		tasks may have on one CPU (Liu and Layland's bound), which
 *		its reservations and all others admitted on the CPU must
 *		stay within (ms_bw_admit()); optional
 * @task_work:	the class's part of the task work (ms_queue_work()): the
 *		bits of @what from MS_WORK_CLASS on, for @p, current, in
 *		process context on its way to user mode; optional
 * @core_prio:	the class's rank in core scheduling (__task_prio(), less is
 *		more): 0 for RBS, that of RT's highest priority, which
 *		ms_core_less() puts it above; between RT's 99 and fair's 119
 *		for the others, in the order of the class hierarchy
 * @core_less:	with SCHED_CORE, whether @a, of the class, should run after
 *		@b, of the class too, possibly queued on a sibling CPU: the
 *		class's order made comparable across the CPUs of a core,
 *		for prio_less(); @in_fi: the core has a sibling forced idle;
 *		all the core's runqueues are locked; optional (false: no order)
 * @core_fi:	with SCHED_CORE, note the point from which @core_less
 *		measures progress on @rq, as fair's se_fi_update() does;
 *		called by ms_core_fi_update() at every pick of the core, and
 *		once per forced-idle stretch while a sibling is forced idle;
 *		optional
 * @core_background: with SCHED_CORE, whether @p runs only because nothing
 *		else on its CPU is runnable (RBS's background mode); it then
 *		ranks just above idle; optional
 *
 * One per class, defined in the class's file; multisched.c collects them
 * in ms_classes[], in the order of the class hierarchy. The class keeps
 * its own per-CPU state and its balancer (DEFINE_MS_BALANCER()), and
 * admits reservations with ms_bw_admit().
 */
struct ms_class {
	const char			*name;
	int				policy;
	const struct sched_class	*class;
	bool				ready;
	bool				general;
	u32				flags;
	int	(*validate)(const struct sched_attr *attr);
	bool	(*asks_for_more)(struct task_struct *p,
				 const struct sched_attr *attr, bool same);
	void	(*init_rq)(struct rq *rq, int cpu);
	void	(*proc_show)(struct task_struct *p, struct seq_file *m);
	struct ctl_table		*sysctls;
	size_t				nr_sysctls;
	struct sched_dl_entity *(*server)(int cpu);
	unsigned int (*nr_running)(struct rq *rq);
	struct ms_balance __percpu	*balance;
	bool				tick_switches;
	u64	(*bandwidth)(struct task_struct *p,
			     const struct sched_attr *attr);
	u32				reservation_flags;
	u64	(*bw_free)(void);
	u64	(*rm_bound)(unsigned int n);
	void	(*task_work)(struct task_struct *p, unsigned long what);
#ifdef CONFIG_SCHED_CORE
	int				core_prio;
	bool	(*core_less)(const struct task_struct *a,
			     const struct task_struct *b, bool in_fi);
	void	(*core_fi)(struct rq *rq);
	bool	(*core_background)(const struct task_struct *p);
#endif
};

/*
 * What a task's work (ms_queue_work()) is to do, bits of struct
 * sched_ms_run's @work_pending: whether it is queued; move the task to
 * its reservation's CPU (ms_place()); and, from MS_WORK_CLASS on, what
 * the classes' ->task_work() do, a bit of its own for each, so that one
 * left pending by a class the task has left means nothing to its new one.
 */
enum {
	MS_WORK_QUEUED,
	MS_WORK_PLACE,
	MS_WORK_CLASS,
	MS_WORK_BEBS_OVERRUN = MS_WORK_CLASS,	/* SIGXCPU (bebs.c) */
};

struct root_domain;

/*
 * The server of a general class: a deferred dl_server like fair's, of
 * 50 ms every second as dl_server_start() sets it up, tunable per CPU in
 * debugfs (sched/<class>_server/cpuN/{runtime,period}). The class
 * starts it when a task joins its queue of a CPU and charges it what its
 * tasks run, served or not, so that it only runs them when they starved
 * for the rest of its period; it stops itself when the class has nothing
 * to run. All of it under the rq lock.
 */
void ms_server_init(struct sched_dl_entity *dl_se, struct rq *rq,
		    dl_server_pick_f pick);

/*
 * ms_server_start(dl_se): a task joined the class's queue on the server's
 * CPU. ms_server_update(dl_se, delta): the class's running task ran @delta
 * ns. Macros, as sched.h defines the dl_server helpers after including
 * this file.
 */
#define ms_server_start(dl_se)					\
do {								\
	struct sched_dl_entity *__se = (dl_se);			\
								\
	if (!dl_server_active(__se))				\
		dl_server_start(__se);				\
} while (0)

#define ms_server_update(dl_se, delta)				\
do {								\
	struct sched_dl_entity *__se = (dl_se);			\
								\
	if (dl_server_active(__se))				\
		dl_server_update(__se, delta);			\
} while (0)

/*
 * The runqueue's hrtick, for a class that ends a turn with it when
 * hrtick_enabled_fair() (the HRTICK feature) says so: ms_hrtick_start()
 * arms it, ms_hrtick_armed() tells whether it is armed. Without
 * CONFIG_SCHED_HRTICK there is none, and the tick ends the turn. Macros,
 * since struct rq is not complete here.
 */
#ifdef CONFIG_SCHED_HRTICK
#define ms_hrtick_start(rq, delay)	hrtick_start(rq, delay)
#define ms_hrtick_armed(rq)		hrtimer_active(&(rq)->hrtick_timer)
#else
#define ms_hrtick_start(rq, delay)	do { (void)(rq); (void)(delay); } while (0)
#define ms_hrtick_armed(rq)		({ (void)(rq); false; })
#endif

/* The classes: the table's entries, highest first. */
#ifdef CONFIG_SCHED_RBS
extern const struct sched_class rbs_sched_class;
extern const struct ms_class ms_rbs_class;
void ms_wakeup_below(struct rq *rq);
void rbs_io_waking(struct task_struct *p);
int rbs_resv_reserve(void);
int rbs_admit_shared(struct task_struct *p, int policy,
		     const struct sched_attr *attr);
void rbs_leave(struct task_struct *p);
void rbs_getparams(struct task_struct *p, struct sched_attr *attr);
int rbs_ctl_set(struct rq *rq, struct task_struct *p, u64 C, u64 T);

/* The feedback controller (rbs_ctl.c) */
int rbs_ctl_validate(const struct sched_attr *attr);
void rbs_ctl_initial(struct task_struct *p, const struct sched_attr *attr,
		     u64 *C, u64 *T);
int rbs_ctl_prepare(struct task_struct *p);
void rbs_ctl_proc_show(struct task_struct *p, struct seq_file *m);
void rbs_ctl_setparams(struct task_struct *p, const struct sched_attr *attr);

/*
 * try_to_wake_up() wakes @p, in the waker's context, under @p's pi_lock:
 * an RBS I/O server takes the waker's period (rbs_io_waking()).
 */
static inline void ms_task_waking(struct task_struct *p)
{
	/* p->policy shares a cache line with what the wakeup reads anyway */
	if (unlikely(p->policy == SCHED_RBS) &&
	    (p->ms.flags & (MS_FLAG_RBS_IO | MS_FLAG_RBS_SHARED |
			    MS_FLAG_RBS_JOIN)))
		rbs_io_waking(p);
}
#else
static inline void ms_wakeup_below(struct rq *rq) { }
static inline void ms_task_waking(struct task_struct *p) { }
#endif
#ifdef CONFIG_SCHED_BEBS
extern const struct sched_class bebs_sched_class;
extern const struct ms_class ms_bebs_class;
#endif
#ifdef CONFIG_SCHED_BVT
extern const struct sched_class bvt_sched_class;
extern const struct ms_class ms_bvt_class;
#endif
#ifdef CONFIG_SCHED_VTRR
extern const struct sched_class vtrr_sched_class;
extern const struct ms_class ms_vtrr_class;
#endif

bool ms_period_valid(u64 runtime, u64 period);
u64 ms_bw_limit(void);
u64 ms_bw_used(int cpu);
u64 ms_bw_used_hint(int cpu);
u64 ms_bw_room(int cpu, u64 mine);
bool ms_cpu_reserved(int cpu);
bool ms_cpu_reserved_edf(int cpu);
int ms_bw_admit(int cpu, u64 old_bw, u64 new_bw, u64 free_bw);
void ms_bw_move(int from, int to, u64 bw, bool rm);
void ms_bw_add(int cpu, u64 bw, bool rm);
int __ms_bw_admit(int cpu, u64 old_bw, u64 new_bw, u64 free_bw,
		  bool old_rm, bool new_rm);
int ms_admit_own(struct task_struct *p, int policy,
		 const struct sched_attr *attr);
bool ms_below_runnable(struct rq *rq, const struct sched_class *class);
struct task_struct *ms_pick_next_task(struct rq *rq);
bool ms_can_stop_tick(struct rq *rq);
bool ms_is_class(const struct sched_class *class);
void ms_update_util(struct rq *rq, bool running);
void ms_tick_util(struct rq *rq);
int ms_admit(struct task_struct *p, int policy, const struct sched_attr *attr);
void ms_place(struct task_struct *p);
bool ms_away(struct task_struct *p, int cpu);
void ms_queue_work(struct task_struct *p, int what);
void ms_release(struct task_struct *p);
void ms_migrate_reservation(struct task_struct *p, int cpu);
void ms_switched_to_resv(struct rq *rq, struct task_struct *p);
int ms_check_affinity(struct task_struct *p, const struct cpumask *mask);
int ms_bw_deactivate(unsigned int cpu);
struct dl_bw;
u64 ms_bw_reserved(struct dl_bw *dl_b);
void ms_proc_u64(struct seq_file *m, const char *name, u64 v);
void ms_proc_s64(struct seq_file *m, const char *name, s64 v);

void ms_sched_init(void);
void init_ms_rq(struct rq *rq, int cpu);
int ms_check_attr(struct task_struct *p, const struct sched_attr *attr,
		  int policy, bool user);
const struct sched_attr *ms_keep_params(struct task_struct *p,
					const struct sched_attr *attr,
					int policy, struct sched_attr *buf);
void ms_setparams(struct task_struct *p, int policy,
		  const struct sched_attr *attr);
void ms_getparams(struct task_struct *p, struct sched_attr *attr);
bool ms_params_changed(struct task_struct *p, const struct sched_attr *attr);
const struct sched_class *ms_setscheduler_class(int policy);
u32 ms_task_weight(struct task_struct *p);
void ms_fork(struct task_struct *p);
void ms_post_fork(struct task_struct *p);
void ms_proc_show_task(struct task_struct *p, struct seq_file *m);
void ms_servers_dying(struct rq *rq);
#ifdef CONFIG_SMP
void ms_servers_attach_root(struct rq *rq);
void ms_servers_restore_root(struct root_domain *rd);
struct affinity_context;
void ms_set_cpus_allowed(struct task_struct *p, struct affinity_context *ctx);
#endif
#ifdef CONFIG_SCHED_CORE
bool ms_core_prio(const struct task_struct *p, int *prio);
bool ms_core_less(const struct task_struct *a, const struct task_struct *b,
		  bool in_fi, bool *less);
void ms_core_fi_update(struct rq *rq, bool in_fi);
void ms_tick_core(struct rq *rq);
#else
static inline void ms_tick_core(struct rq *rq) { }
#endif

#else /* !CONFIG_SCHED_MULTISCHED */

static inline void ms_sched_init(void) { }
static inline void init_ms_rq(struct rq *rq, int cpu) { }

static inline int ms_check_attr(struct task_struct *p,
				const struct sched_attr *attr,
				int policy, bool user)
{
	return ms_attr_has_params(attr) ? -EINVAL : 0;
}

static inline const struct sched_attr *
ms_keep_params(struct task_struct *p, const struct sched_attr *attr,
	       int policy, struct sched_attr *buf)
{
	return attr;
}

static inline void ms_setparams(struct task_struct *p, int policy,
				const struct sched_attr *attr) { }
static inline void ms_getparams(struct task_struct *p,
				struct sched_attr *attr) { }

static inline bool ms_params_changed(struct task_struct *p,
				     const struct sched_attr *attr)
{
	return false;
}

static inline const struct sched_class *ms_setscheduler_class(int policy)
{
	return NULL;
}

static inline void ms_fork(struct task_struct *p) { }

static inline int ms_admit(struct task_struct *p, int policy,
			   const struct sched_attr *attr)
{
	return 0;
}

static inline void ms_place(struct task_struct *p) { }
static inline void ms_wakeup_below(struct rq *rq) { }
static inline void ms_task_waking(struct task_struct *p) { }
static inline bool ms_can_stop_tick(struct rq *rq) { return true; }
static inline struct task_struct *ms_pick_next_task(struct rq *rq)
{
	return NULL;
}

static inline bool ms_is_class(const struct sched_class *class)
{
	return false;
}

static inline int ms_check_affinity(struct task_struct *p,
				    const struct cpumask *mask)
{
	return 0;
}

static inline int ms_bw_deactivate(unsigned int cpu)
{
	return 0;
}

struct dl_bw;
static inline u64 ms_bw_reserved(struct dl_bw *dl_b)
{
	return 0;
}

static inline void ms_post_fork(struct task_struct *p) { }
static inline void ms_proc_show_task(struct task_struct *p,
				     struct seq_file *m) { }
static inline void ms_servers_dying(struct rq *rq) { }
#ifdef CONFIG_SMP
static inline void ms_servers_attach_root(struct rq *rq) { }
static inline void ms_servers_restore_root(struct root_domain *rd) { }
#endif
#ifdef CONFIG_SCHED_CORE
static inline bool ms_core_prio(const struct task_struct *p, int *prio)
{
	return false;
}

static inline bool ms_core_less(const struct task_struct *a,
				const struct task_struct *b, bool in_fi,
				bool *less)
{
	return false;
}

static inline void ms_core_fi_update(struct rq *rq, bool in_fi) { }
#endif

#endif /* CONFIG_SCHED_MULTISCHED */

#endif /* _KERNEL_SCHED_MULTISCHED_H */
