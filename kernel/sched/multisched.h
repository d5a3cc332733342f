/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared declarations of the multisched classes (BVT, VTRR, BEBS, RBS):
 * their per-runqueue state and the hooks core.c, syscalls.c and debug.c
 * call. Included from sched.h.
 */
#ifndef _KERNEL_SCHED_MULTISCHED_H
#define _KERNEL_SCHED_MULTISCHED_H

#include <linux/math64.h>
#include <uapi/linux/sched/multisched.h>
#include <uapi/linux/sched/types.h>

struct rq;
struct rq_flags;
struct balance_callback;
struct seq_file;
struct sched_class;
struct task_struct;

static inline bool ms_policy(int policy)
{
	return policy >= SCHED_BVT && policy <= SCHED_RBS;
}

/* L of a MS_FLAG_WARP_SIGNAL thread that set none, in ns. */
#define MS_SIGNAL_WARP_LIMIT	(10 * NSEC_PER_MSEC)

/*
 * The warp time limit L a BVT thread runs with: its own, or for one that
 * warps in signal handlers and set none, MS_SIGNAL_WARP_LIMIT; a handler
 * left by siglongjmp() or a legacy sigreturn never tells BVT it returned.
 */
static inline u64 ms_warp_limit(u32 flags, u64 limit)
{
	if (!limit && (flags & MS_FLAG_WARP_SIGNAL))
		return MS_SIGNAL_WARP_LIMIT;
	return limit;
}

/* Does @attr carry any of the SCHED_ATTR_SIZE_VER2 class parameters? */
static inline bool ms_attr_has_params(const struct sched_attr *attr)
{
	return attr->sched_weight || attr->sched_ms_flags ||
	       attr->sched_warp || attr->sched_warp_limit ||
	       attr->sched_unwarp;
}

#ifdef CONFIG_SCHED_MULTISCHED

/* Per-runqueue balancing state of a class that uses struct ms_balancer. */
struct ms_balance {
	unsigned long		next_balance;	/* jiffies */
	bool			push;		/* next schedule queues a push */
};

/*
 * struct ms_balancer - how a proportional-share class is balanced
 * @class:	the class
 * @load:	the sum of the weights of its tasks on a runqueue; read
 *		without that runqueue's lock, so written with WRITE_ONCE()
 * @nr_running:	the number of its tasks there, read and written the same way
 * @state:	the runqueue's struct ms_balance of the class
 * @movable:	the heaviest task of @src, among those it scans, that
 *		ms_can_move() to @dst and weighs less than @gap; or NULL
 * @push_head:	per-CPU balance_callback for @push
 * @push:	the balance callback; calls ms_push()
 */
struct ms_balancer {
	const struct sched_class *class;
	u64 (*load)(struct rq *rq);
	unsigned int (*nr_running)(struct rq *rq);
	struct ms_balance *(*state)(struct rq *rq);
	struct task_struct *(*movable)(struct rq *src, struct rq *dst, u64 gap);
	struct balance_callback __percpu *push_head;
	void (*push)(struct rq *rq);
};

bool ms_can_move(struct rq *src, struct rq *dst, struct task_struct *p);
int ms_select_task_rq(const struct ms_balancer *b, struct task_struct *p,
		      int cpu, int flags, u64 weight);
void ms_push(const struct ms_balancer *b, struct rq *rq);
void ms_trigger_push(const struct ms_balancer *b, struct rq *rq);
int ms_balance(const struct ms_balancer *b, struct rq *rq,
	       struct task_struct *prev, struct rq_flags *rf);

/* Per-runqueue state of each class; every class owns its own member. */

/* One level of BVT: a scheduler with its own threads and SVT. */
struct bvt_sched {
	struct rb_root_cached	evt_tree;	/* runnable entities by E */
	struct rb_root_cached	avt_tree;	/* runnable entities by A, for SVT */
	unsigned int		nr_running;
	u64			svt;		/* scheduler virtual time */
};

#define BVT_LEVEL_RE	0	/* reserved effort: CAP_SYS_NICE threads, @be */
#define BVT_LEVEL_BE	1	/* best effort: every other thread */

struct bvt_rq {
	struct bvt_sched	level[2];
	struct sched_bvt_entity	be;		/* level 1 as an entity of level 0 */
	unsigned int		nr_running;	/* tasks, both levels */
	unsigned long		load;		/* their weights, for balancing */
	struct ms_balance	balance;
	bool			skip_c;		/* next pick ignores C */
	struct hrtimer		warp_timer;	/* ends a warped stretch at L */
	struct task_struct	*warp_task;	/* the task warp_timer is armed for */
};

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

void init_bvt_rq(struct rq *rq);

/* Slots of the table of queued clients that validates last-prev/last-next. */
#define VTRR_ID_SLOTS		64

/*
 * Why vtrr_decide() chose its client (section 3.1): the time-counter
 * invariant, the VFT inequality, or a return to the head of the queue,
 * which may end the scheduling cycle.
 */
enum vtrr_why {
	VTRR_INVARIANT,
	VTRR_VFT,
	VTRR_HEAD,
	VTRR_RESET,
};

struct vtrr_rq {
	struct list_head	queue;		/* runnable clients, largest share first */
	struct rb_root		shares;		/* first client of each share, by share */
	struct sched_vtrr_entity *curr;		/* the current client */
	struct sched_vtrr_entity *next;		/* the next one the scan looks at, NULL = head */
	u64			qvt;		/* queue virtual time */
	u64			total_shares;	/* sum of S */
	u64			counter_sum;	/* sum of the time counters */
	u64			cycle;		/* scheduling cycle, counts from 1 */
	u64			last_id;	/* last id handed out */
	u64			quantum;	/* Q in ns, read from the sysctl per decision */
	u64			nr_resets;	/* scheduling cycles ended */
	u32			last_counter;	/* the current client's counter */
	unsigned int		nr_running;
	bool			quantum_done;	/* the current client is done for now */
	struct ms_balance	balance;
	struct sched_vtrr_entity *ids[VTRR_ID_SLOTS];	/* queued clients by id */
};

void vtrr_init_rq(struct vtrr_rq *vrq);
u32 vtrr_counter(struct vtrr_rq *vrq, struct sched_vtrr_entity *se);
void vtrr_insert(struct vtrr_rq *vrq, struct sched_vtrr_entity *se);
void vtrr_remove(struct vtrr_rq *vrq, struct sched_vtrr_entity *se);
struct sched_vtrr_entity *vtrr_decide(struct vtrr_rq *vrq, enum vtrr_why *why);
bool vtrr_charge(struct vtrr_rq *vrq, struct sched_vtrr_entity *se, u64 delta);
void init_vtrr_rq(struct rq *rq);

struct bebs_rq {
	unsigned int		nr_running;
};

struct rbs_rq {
	unsigned int		nr_running;
};

struct ms_rq {
#ifdef CONFIG_SCHED_BVT
	struct bvt_rq		bvt;
#endif
#ifdef CONFIG_SCHED_VTRR
	struct vtrr_rq		vtrr;
#endif
#ifdef CONFIG_SCHED_BEBS
	struct bebs_rq		bebs;
#endif
#ifdef CONFIG_SCHED_RBS
	struct rbs_rq		rbs;
#endif
};

extern const struct sched_class bvt_sched_class;
extern const struct sched_class vtrr_sched_class;
extern const struct sched_class bebs_sched_class;
extern const struct sched_class rbs_sched_class;

void ms_sched_init(void);
void init_ms_rq(struct rq *rq);
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

#else /* !CONFIG_SCHED_MULTISCHED */

struct ms_rq { };

static inline void ms_sched_init(void) { }
static inline void init_ms_rq(struct rq *rq) { }

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
static inline void ms_post_fork(struct task_struct *p) { }
static inline void ms_proc_show_task(struct task_struct *p,
				     struct seq_file *m) { }

#endif /* CONFIG_SCHED_MULTISCHED */

#endif /* _KERNEL_SCHED_MULTISCHED_H */
