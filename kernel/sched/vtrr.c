// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual-Time Round-Robin (VTRR) scheduling class
 *
 * Every client (task) has a share S. The runnable clients of a CPU sit in
 * one run queue sorted from the largest share to the smallest, and are
 * served one time quantum Q at a time, all quanta the same size. The
 * scheduler keeps its place in the queue and, each time a quantum ends,
 * looks only at the next client:
 *
 *  - the time-counter invariant: each client has a time counter, the
 *    quanta it is still owed in this scheduling cycle, and counters never
 *    increase along the queue. If the next client's counter is greater
 *    than the current client's, it runs, without question;
 *
 *  - the VFT inequality: otherwise it runs if its virtual finishing time
 *    VFT is less than one of its quanta (Q/S) ahead of the queue virtual
 *    time QVT after the next quantum. QVT advances by Q/sum(S) per quantum
 *    served; a client's VFT advances by Q/S per quantum it receives;
 *
 *  - the return to the head: if neither holds, or the scan ran off the end
 *    of the queue, the first client (the largest share) runs. If its
 *    counter is zero, every counter is, and the scheduling cycle ends:
 *    the counters go back to the shares. This reset is done lazily, by
 *    starting a new cycle number, so that no decision is O(n).
 *
 * The order of the queue only changes when clients come and go. A client
 * that becomes runnable gets VFT = max(QVT + Q/S, its old VFT) (equations
 * 7 and 8) and the share of the quanta left in the cycle (equation 9), no
 * more than it had if it left in this same cycle, clamped between the
 * counters of its neighbours to keep the invariant (one put back without
 * a change keeps its counter as it was). It goes back between its
 * last-previous and last-next clients when they are still queued and
 * adjacent, looked up by identifier in a small table of queued clients so
 * that a neighbour that exited is never dereferenced; otherwise an index
 * of the first client of each share finds its place in O(log D) for D
 * distinct shares. Picking, charging and the tick never scan clients.
 *
 * Real time is charged as it is used: a quantum is Q ns of run time (a
 * client that blocks early keeps what it used towards its next one), and
 * virtual time is kept in ns << VTRR_VT_SHIFT per unit of share, compared
 * wrap-safely. Waking clients do not preempt: they wait for the scan.
 *
 * SMP: each CPU has its own run queue. A waking client goes to an idle
 * CPU of its last-level cache or to the one there with the fewest shares,
 * a CPU pulls a client when its last one leaves, and the tick pushes
 * clients to a lighter CPU while that narrows the gap in total shares;
 * see Documentation/scheduler/sched-vtrr.rst for the error this adds.
 * Each CPU also has a VTRR dl_server (ms_server_init()), charged with
 * what VTRR runs, which runs VTRR when the classes above it would starve
 * it.
 *
 * Paper: J. Nieh, C. Vaill and H. Zhong, "Virtual-Time Round-Robin: an O(1)
 * proportional share scheduler", USENIX Annual Technical Conference 2001.
 */
#include <linux/hash.h>
#include <linux/mmu_context.h>
#include <linux/sysctl.h>

#include "sched.h"

#include <trace/events/multisched.h>

/* Virtual time: ns << VTRR_VT_SHIFT per unit of share. */
#define VTRR_VT_SHIFT		20
/* Charges are capped so that the shift cannot overflow (~18 minutes). */
#define VTRR_DELTA_MAX		BIT_ULL(40)

/*
 * VFTs are compared with QVT by signed differences, exact while they are
 * less than 2^63 apart. QVT moves at most 2^VTRR_VT_SHIFT per ns (a total
 * share of 1), 2^63 in about 2.4 hours: a client that slept 10 minutes or
 * more arrives afresh (equation 7) rather than compare its old VFT.
 */
#define VTRR_STALE_SLEEP	(10 * 60 * HZ)

/* How many clients, from the tail, balancing looks at. */
#define VTRR_BALANCE_SCAN	32

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

/*
 * A CPU's VTRR run queue, protected by the runqueue's lock. Its number of
 * clients and their total shares are @balance.nr_running and
 * @balance.load, which the balancer also reads without the lock.
 */
struct vtrr_rq {
	struct list_head	queue;		/* runnable clients, largest share first */
	struct rb_root		shares;		/* first client of each share, by share */
	struct sched_vtrr_entity *curr;		/* the current client */
	struct sched_vtrr_entity *next;		/* the next one the scan looks at, NULL = head */
	u64			qvt;		/* queue virtual time */
	u64			counter_sum;	/* sum of the time counters */
	u64			cycle;		/* scheduling cycle, counts from 1 */
	u64			last_id;	/* last id handed out */
	u64			quantum;	/* Q in ns, read from the sysctl per decision */
	u64			nr_resets;	/* scheduling cycles ended */
	u32			last_counter;	/* the current client's counter */
	bool			quantum_done;	/* the current client is done for now */
	struct ms_balance	balance;	/* N and the sum of S (load) */
	u64			inv_load;	/* vtrr_div()'s reciprocal of @inv_load_of */
	u64			inv_load_of;	/* the load it was computed for */
#ifdef CONFIG_SCHED_CORE
	u64			qvt_fi;		/* @qvt at the core's last pick */
#endif
	struct sched_vtrr_entity *ids[VTRR_ID_SLOTS];	/* queued clients by id */
	struct sched_dl_entity	server;		/* runs VTRR when above starves it */
};

/* Each CPU's VTRR state, beside its struct rq. */
static DEFINE_PER_CPU(struct vtrr_rq, vtrr_rqs);

static inline struct vtrr_rq *vtrr_rq_of(struct rq *rq)
{
	return per_cpu_ptr(&vtrr_rqs, cpu_of(rq));
}

/*
 * Q, the time quantum, in ns: 100 us to 1 s. The tick ends a quantum,
 * or the hrtick with the HRTICK scheduler feature (vtrr_hrtick()): a
 * quantum shorter than the tick is that long only with it.
 */
static unsigned int sysctl_sched_vtrr_quantum = 4 * NSEC_PER_MSEC;
static unsigned int vtrr_quantum_min = 100 * NSEC_PER_USEC;
static unsigned int vtrr_quantum_max = NSEC_PER_SEC;

#ifdef CONFIG_SYSCTL
static struct ctl_table vtrr_sysctls[] = {
	{
		.procname	= "sched_vtrr_quantum_ns",
		.data		= &sysctl_sched_vtrr_quantum,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &vtrr_quantum_min,
		.extra2		= &vtrr_quantum_max,
	},
};
#endif /* CONFIG_SYSCTL */

/*
 * The algorithm. The functions down to vtrr_charge() work on a struct
 * vtrr_rq and its clients alone, with no task or rq behind them, so that
 * the KUnit simulation (multisched_test.c) runs exactly this code.
 */

/* @delta ns as the dividend of virtual time: scaled, and capped. */
static inline u64 vtrr_vt_ns(u64 delta)
{
	return min(delta, VTRR_DELTA_MAX) << VTRR_VT_SHIFT;
}

/*
 * vtrr_div - @x / @d by ms_div(), with @d's reciprocal in @inv, computed
 * again when @d is no longer @*of, the divisor it was computed for: a
 * client's share changed, or the queue's total share, which changes at
 * every enqueue and dequeue. Charging and deciding then cost multiplies,
 * and a division at most once per enqueue or dequeue.
 */
static inline u64 vtrr_div(u64 x, u64 d, u64 *inv, u64 *of)
{
	if (*of != d) {
		*inv = ms_recip(d);
		*of = d;
	}
	return ms_div(x, d, *inv);
}

/* Virtual time of @delta ns at @se's share: delta / S, scaled. */
static inline u64 vtrr_vt_share(struct sched_vtrr_entity *se, u64 delta)
{
	u64 of = se->inv_share_of;
	u64 q = vtrr_div(vtrr_vt_ns(delta), se->share, &se->inv_share, &of);

	se->inv_share_of = of;
	return q;
}

/* Virtual time of @delta ns at the run queue's load: delta / sum(S). */
static inline u64 vtrr_vt_load(struct vtrr_rq *vrq, u64 delta)
{
	return vtrr_div(vtrr_vt_ns(delta), vrq->balance.load, &vrq->inv_load,
			&vrq->inv_load_of);
}

static struct sched_vtrr_entity *vtrr_first(struct vtrr_rq *vrq)
{
	return list_first_entry_or_null(&vrq->queue, struct sched_vtrr_entity,
					run_node);
}

static struct sched_vtrr_entity *vtrr_last(struct vtrr_rq *vrq)
{
	if (list_empty(&vrq->queue))
		return NULL;
	return list_last_entry(&vrq->queue, struct sched_vtrr_entity, run_node);
}

static struct sched_vtrr_entity *vtrr_next_of(struct vtrr_rq *vrq,
					      struct sched_vtrr_entity *se)
{
	if (list_is_last(&se->run_node, &vrq->queue))
		return NULL;
	return list_next_entry(se, run_node);
}

static struct sched_vtrr_entity *vtrr_prev_of(struct vtrr_rq *vrq,
					      struct sched_vtrr_entity *se)
{
	if (list_is_first(&se->run_node, &vrq->queue))
		return NULL;
	return list_prev_entry(se, run_node);
}

/**
 * vtrr_counter - a client's time counter
 * @vrq:	its run queue
 * @se:		the client
 *
 * The counters reset to the shares when a cycle ends; a counter written in
 * an earlier cycle than the current one therefore reads as the share.
 */
static u32 vtrr_counter(struct vtrr_rq *vrq, struct sched_vtrr_entity *se)
{
	return se->cycle == vrq->cycle ? se->counter : se->share;
}

static void vtrr_set_counter(struct vtrr_rq *vrq, struct sched_vtrr_entity *se,
			     u32 counter)
{
	se->counter = counter;
	se->cycle = vrq->cycle;
}

/* The table of queued clients by id that validates the hints. */
static inline unsigned int vtrr_slot(u64 id)
{
	return hash_64(id, ilog2(VTRR_ID_SLOTS));
}

/*
 * The queued client with @id, or NULL. Every pointer in the table is to a
 * queued client (vtrr_remove() clears its slot), so it is alive; a slot
 * taken over by a later client simply fails the id check.
 */
static struct sched_vtrr_entity *vtrr_lookup(struct vtrr_rq *vrq, u64 id)
{
	struct sched_vtrr_entity *se;

	if (!id)
		return NULL;
	se = vrq->ids[vtrr_slot(id)];
	return se && se->id == id ? se : NULL;
}

/*
 * vtrr_hint_pos - where last-previous and last-next put @se, if still valid
 * @prev:	set to the client @se goes after, NULL for the head
 *
 * Valid (section 3.2) if both are still queued, nothing came between them,
 * and @se's share is no more than the previous one's and no less than the
 * next one's. Ids are handed out afresh each time a client is queued, so
 * a client that left and came back in between no longer matches.
 */
static bool vtrr_hint_pos(struct vtrr_rq *vrq, struct sched_vtrr_entity *se,
			  struct sched_vtrr_entity **prev)
{
	struct sched_vtrr_entity *p, *n;

	if (!se->hinted)
		return false;
	p = vtrr_lookup(vrq, se->last_prev);
	n = vtrr_lookup(vrq, se->last_next);
	/* an id that is no longer queued here; 0 is the head or the tail */
	if ((se->last_prev && !p) || (se->last_next && !n))
		return false;
	if ((p ? vtrr_next_of(vrq, p) : vtrr_first(vrq)) != n)
		return false;
	if ((p && p->share < se->share) || (n && n->share > se->share))
		return false;
	*prev = p;
	return true;
}

/*
 * The share index: the first client of each distinct share, largest share
 * leftmost. Return the first client with a share below @share, which a
 * client of @share goes just before (NULL: at the tail).
 */
static struct sched_vtrr_entity *vtrr_index_pos(struct vtrr_rq *vrq, u32 share)
{
	struct rb_node *n = vrq->shares.rb_node;
	struct sched_vtrr_entity *next = NULL, *e;

	while (n) {
		e = rb_entry(n, struct sched_vtrr_entity, share_node);
		if (e->share < share) {
			next = e;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return next;
}

static void vtrr_index_add(struct vtrr_rq *vrq, struct sched_vtrr_entity *se)
{
	struct rb_node **link = &vrq->shares.rb_node, *parent = NULL;
	struct sched_vtrr_entity *e;

	while (*link) {
		parent = *link;
		e = rb_entry(parent, struct sched_vtrr_entity, share_node);
		link = se->share > e->share ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&se->share_node, parent, link);
	rb_insert_color(&se->share_node, &vrq->shares);
}

/* Put @se in the queue after @prev (NULL: at the head); keep the index. */
static void vtrr_link(struct vtrr_rq *vrq, struct sched_vtrr_entity *se,
		      struct sched_vtrr_entity *prev)
{
	struct sched_vtrr_entity *next;

	list_add(&se->run_node, prev ? &prev->run_node : &vrq->queue);
	if (prev && prev->share == se->share)
		return;
	/* the first of its share now */
	se->leader = 1;
	next = vtrr_next_of(vrq, se);
	if (next && next->share == se->share) {
		rb_replace_node(&next->share_node, &se->share_node, &vrq->shares);
		next->leader = 0;
	} else {
		vtrr_index_add(vrq, se);
	}
}

static void vtrr_unlink(struct vtrr_rq *vrq, struct sched_vtrr_entity *se)
{
	struct sched_vtrr_entity *next = vtrr_next_of(vrq, se);

	if (se->leader) {
		if (next && next->share == se->share) {
			rb_replace_node(&se->share_node, &next->share_node,
					&vrq->shares);
			next->leader = 1;
		} else {
			rb_erase(&se->share_node, &vrq->shares);
		}
		se->leader = 0;
	}
	list_del_init(&se->run_node);
}

/* @c, between the counters of @se's neighbours, to keep the invariant. */
static u32 vtrr_clamp_counter(struct vtrr_rq *vrq, struct sched_vtrr_entity *se,
			      u64 c)
{
	struct sched_vtrr_entity *prev = vtrr_prev_of(vrq, se);
	struct sched_vtrr_entity *next = vtrr_next_of(vrq, se);

	if (prev)
		c = min_t(u64, c, vtrr_counter(vrq, prev));
	if (next)
		c = max_t(u64, c, vtrr_counter(vrq, next));
	return c;
}

/*
 * vtrr_join_counter - the time counter of a client joining the queue
 * @same_cycle:	it left in the cycle still running, with se->counter
 *
 * Equation 9: its share of the quanta left in the cycle, computed before
 * it counts in the totals; no more than it had when it left in this same
 * cycle; and between its neighbours' counters, to keep the invariant.
 */
static u32 vtrr_join_counter(struct vtrr_rq *vrq, struct sched_vtrr_entity *se,
			     bool same_cycle)
{
	u64 c = div64_u64((u64)se->share * vrq->counter_sum, vrq->balance.load);

	if (same_cycle)
		c = min_t(u64, c, se->counter);
	return vtrr_clamp_counter(vrq, se, c);
}

/*
 * __vtrr_insert - queue @se
 * @restore:	it was dequeued only to change something about it that left
 *		its share alone (affinity, nice with an explicit share, a
 *		migrate_disable(), another parameter): put it back as it was
 *
 * The paper moves a client only when its share changes. A client put back
 * in the cycle it left keeps its id, its VFT and its counter, and goes
 * back between the same neighbours if nothing came between them; anything
 * else is a new arrival (equations 7 to 9).
 */
static void __vtrr_insert(struct vtrr_rq *vrq, struct sched_vtrr_entity *se,
			  bool restore)
{
	bool same_cycle = !se->fresh && se->cycle == vrq->cycle;
	struct sched_vtrr_entity *prev, *next;
	bool back;
	u64 vft;
	u32 c;

	back = vtrr_hint_pos(vrq, se, &prev);
	if (!back) {
		next = vtrr_index_pos(vrq, se->share);
		prev = next ? vtrr_prev_of(vrq, next) : vtrr_last(vrq);
	}
	restore = restore && back && same_cycle && se->id;
	vtrr_link(vrq, se, prev);

	if (!vrq->balance.nr_running) {
		/* the first client starts a cycle of its own */
		vrq->cycle++;
		c = se->share;
	} else if (restore) {
		/*
		 * Same cycle, same neighbours: exactly as it was. A counter
		 * may be below its successor's for a turn (the successor then
		 * runs "without question"); clamping it up here would give it
		 * a turn beyond its share.
		 */
		c = se->counter;
	} else {
		c = vtrr_join_counter(vrq, se, same_cycle);
	}
	vtrr_set_counter(vrq, se, c);

	/* equation 7 for a new client, 8 for one that ran before */
	vft = vrq->qvt + vtrr_vt_share(se, vrq->quantum);
	if (!restore && (se->fresh || ms_before(se->vft, vft)))
		se->vft = vft;
	se->fresh = 0;
	se->hinted = 0;

	if (restore) {
		/* and the scan goes on as it would have */
		if (se->scan_curr && !vrq->curr)
			vrq->curr = se;
		if (se->scan_next && vrq->next == vtrr_next_of(vrq, se))
			vrq->next = se;
	} else {
		se->id = ++vrq->last_id;
	}
	se->scan_curr = 0;
	se->scan_next = 0;
	vrq->ids[vtrr_slot(se->id)] = se;
	se->on_rq = 1;
	ms_balance_account(&vrq->balance, se->share, 1);
	vrq->counter_sum += c;
}

/**
 * vtrr_remove - a client stops being runnable
 * @vrq:	its run queue
 * @se:		the client
 *
 * It remembers its neighbours and its counter; its VFT stays as it is.
 */
static void vtrr_remove(struct vtrr_rq *vrq, struct sched_vtrr_entity *se)
{
	struct sched_vtrr_entity *prev = vtrr_prev_of(vrq, se);
	struct sched_vtrr_entity *next = vtrr_next_of(vrq, se);
	u32 c = vtrr_counter(vrq, se);

	se->last_prev = prev ? prev->id : 0;
	se->last_next = next ? next->id : 0;
	se->hinted = 1;
	vtrr_set_counter(vrq, se, c);

	vtrr_unlink(vrq, se);
	if (vrq->ids[vtrr_slot(se->id)] == se)
		vrq->ids[vtrr_slot(se->id)] = NULL;
	se->scan_next = vrq->next == se;
	if (se->scan_next)
		vrq->next = next;
	se->scan_curr = vrq->curr == se;
	if (se->scan_curr)
		vrq->curr = NULL;

	se->on_rq = 0;
	ms_balance_account(&vrq->balance, -(s64)se->share, -1);
	vrq->counter_sum -= c;
}

/* Make @se the current client: the scan goes on from it. */
static void vtrr_set_curr(struct vtrr_rq *vrq, struct sched_vtrr_entity *se)
{
	vrq->curr = se;
	vrq->next = vtrr_next_of(vrq, se);
	vrq->last_counter = vtrr_counter(vrq, se);
	vrq->quantum_done = false;
}

/* Equation 6: VFT - QVT(t + Q) < Q/S. */
static bool vtrr_vft_ok(struct vtrr_rq *vrq, struct sched_vtrr_entity *se)
{
	u64 qvt_next = vrq->qvt + vtrr_vt_load(vrq, vrq->quantum);

	return (s64)(se->vft - qvt_next) <
	       (s64)vtrr_vt_share(se, vrq->quantum);
}

/**
 * vtrr_decide - the client to serve for the next quantum (section 3.1)
 * @vrq:	the run queue
 * @why:	set to the rule that chose it
 *
 * Return: the client, now the current one, or NULL if the queue is empty.
 */
static struct sched_vtrr_entity *vtrr_decide(struct vtrr_rq *vrq, enum vtrr_why *why)
{
	struct sched_vtrr_entity *se = vrq->next;
	u32 c;

	if (se) {
		c = vtrr_counter(vrq, se);
		if (c > vrq->last_counter)
			*why = VTRR_INVARIANT;
		else if (c && vtrr_vft_ok(vrq, se))
			*why = VTRR_VFT;
		else
			se = NULL;
	}
	if (!se) {
		se = vtrr_first(vrq);
		if (!se)
			return NULL;
		*why = VTRR_HEAD;
		if (!vtrr_counter(vrq, se)) {
			/* the largest counter is zero: the cycle is over */
			vrq->cycle++;
			vrq->counter_sum = vrq->balance.load;
			vrq->nr_resets++;
			*why = VTRR_RESET;
		}
	}
	vtrr_set_curr(vrq, se);
	return se;
}

/**
 * vtrr_charge - charge @delta ns of run time to the queued client @se
 * @vrq:	its run queue
 * @se:		the client
 * @delta:	ns it ran
 *
 * Its VFT advances by delta/S and QVT by delta/sum(S) (equations 4 and 5);
 * each whole quantum it completes takes one off its counter.
 *
 * Return: whether it completed a quantum.
 */
static bool vtrr_charge(struct vtrr_rq *vrq, struct sched_vtrr_entity *se, u64 delta)
{
	u64 n;
	u32 c;

	se->vft += vtrr_vt_share(se, delta);
	if (vrq->balance.load)
		WRITE_ONCE(vrq->qvt, vrq->qvt + vtrr_vt_load(vrq, delta));
	se->service += delta;
	se->quantum_used += delta;
	if (se->quantum_used < vrq->quantum)
		return false;

	n = div64_u64_rem(se->quantum_used, vrq->quantum, &se->quantum_used);
	c = vtrr_counter(vrq, se);
	n = min_t(u64, n, c);
	vtrr_set_counter(vrq, se, c - n);
	vrq->counter_sum -= n;
	if (se == vrq->curr) {
		vrq->last_counter = se->counter;
		vrq->quantum_done = true;
	}
	return true;
}

static void vtrr_init_rq(struct vtrr_rq *vrq)
{
	memset(vrq, 0, sizeof(*vrq));
	INIT_LIST_HEAD(&vrq->queue);
	vrq->shares = RB_ROOT;
	vrq->cycle = 1;
	vrq->quantum = READ_ONCE(sysctl_sched_vtrr_quantum);
}

/* The class. */

static inline struct sched_vtrr_entity *vtrr_se(struct task_struct *p)
{
	return &p->ms.run.state.vtrr;
}

static inline struct task_struct *vtrr_task_of(struct sched_vtrr_entity *se)
{
	return container_of(se, struct task_struct, ms.run.state.vtrr);
}

/* S: the share asked for, or the weight of the nice value. */
static u32 vtrr_share(struct task_struct *p)
{
	return ms_task_weight(p);
}

static const char *const vtrr_why_name[] = {
	[VTRR_INVARIANT]	= "invariant",
	[VTRR_VFT]		= "vft",
	[VTRR_HEAD]		= "head",
	[VTRR_RESET]		= "reset",
};

static void update_curr_vtrr(struct rq *rq)
{
	struct task_struct *curr = ms_rq_curr(rq);
	s64 delta;

	if (curr->sched_class != &vtrr_sched_class || !vtrr_se(curr)->on_rq)
		return;
	delta = update_curr_common(rq);
	if (delta > 0) {
		ms_server_update(&vtrr_rq_of(rq)->server, delta);
		vtrr_charge(vtrr_rq_of(rq), vtrr_se(curr), delta);
	}
}

/*
 * With the HRTICK feature, end @p's quantum on time rather than at the
 * tick after it: arm the rq's hrtick for what is left of it, when @p is
 * the current client and another could take its place. The hrtick calls
 * task_tick_vtrr(), which charges the quantum and reschedules.
 */
static void vtrr_hrtick(struct rq *rq, struct task_struct *p)
{
	struct vtrr_rq *vrq = vtrr_rq_of(rq);
	struct sched_vtrr_entity *se = vtrr_se(p);

	if (!hrtick_enabled_fair(rq) || vrq->balance.nr_running < 2 ||
	    vrq->curr != se || vrq->quantum_done)
		return;
	ms_hrtick_start(rq, se->quantum_used < vrq->quantum ?
			vrq->quantum - se->quantum_used : 0);
}

static void enqueue_task_vtrr(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_vtrr_entity *se = vtrr_se(p);
	struct vtrr_rq *vrq = vtrr_rq_of(rq);
	u32 share = vtrr_share(p);
	bool restore = (flags & ENQUEUE_RESTORE) && se->share == share;

	/* a VFT from before QVT could have moved 2^63 is not compared */
	if ((flags & ENQUEUE_WAKEUP) &&
	    time_after(jiffies, se->slept_at + VTRR_STALE_SLEEP))
		se->fresh = 1;
	se->share = share;
	vrq->quantum = READ_ONCE(sysctl_sched_vtrr_quantum);
	__vtrr_insert(vrq, se, restore);
	add_nr_running(rq, 1);
	ms_server_start(&vrq->server);
	/* the running client is no longer alone: its quantum counts */
	if (vrq->balance.nr_running == 2 && hrtick_enabled_fair(rq) &&
	    ms_rq_curr(rq)->sched_class == &vtrr_sched_class) {
		update_curr_vtrr(rq);
		vtrr_hrtick(rq, ms_rq_curr(rq));
	}
}

static bool dequeue_task_vtrr(struct rq *rq, struct task_struct *p, int flags)
{
	update_curr_vtrr(rq);
	vtrr_remove(vtrr_rq_of(rq), vtrr_se(p));
	if (flags & DEQUEUE_SLEEP)
		vtrr_se(p)->slept_at = jiffies;
	sub_nr_running(rq, 1);
	return true;
}

/*
 * vtrr_movable - the client to move from @src to @dst
 * @gap:	@src's total shares minus @dst's
 *
 * The largest-share queued, not running, client that may run on @dst and
 * has a share below @gap, so that moving it narrows the gap; scans at
 * most VTRR_BALANCE_SCAN clients from the tail, the smallest shares.
 */
static struct task_struct *vtrr_movable(struct rq *src, struct rq *dst, u64 gap)
{
	struct vtrr_rq *vrq = vtrr_rq_of(src);
	struct task_struct *best = NULL, *p;
	struct sched_vtrr_entity *se;
	int scan = 0;

	list_for_each_entry_reverse(se, &vrq->queue, run_node) {
		if (++scan > VTRR_BALANCE_SCAN)
			break;
		p = vtrr_task_of(se);
		if (!ms_can_move(src, dst, p))
			continue;
		if (se->share < gap && (!best || se->share > vtrr_se(best)->share))
			best = p;
	}
	return best;
}

/* Balancing by total shares, common with BVT (multisched.c). */
DEFINE_MS_BALANCER(vtrr, vtrr_rqs, vtrr_share, vtrr_movable);

static struct task_struct *pick_task_vtrr(struct rq *rq)
{
	struct vtrr_rq *vrq = vtrr_rq_of(rq);
	struct sched_vtrr_entity *se = vrq->curr;
	enum vtrr_why why;
	u64 cycle;

	/* every pick of a lower class's task asks; nothing to charge then */
	if (!vrq->balance.nr_running)
		return NULL;
	update_curr_vtrr(rq);
	/* a client preempted by a higher class finishes its quantum */
	if (se && se->on_rq && !vrq->quantum_done)
		return vtrr_task_of(se);

	vrq->quantum = READ_ONCE(sysctl_sched_vtrr_quantum);
	cycle = vrq->cycle;
	se = vtrr_decide(vrq, &why);
	if (!se)
		return NULL;
	if (vrq->cycle != cycle)
		trace_vtrr_reset(cpu_of(rq), vrq->cycle, vrq->balance.nr_running,
				 vrq->balance.load);
	trace_vtrr_pick(vtrr_task_of(se), se->share, vrq->last_counter,
			se->vft, vrq->qvt, vtrr_why_name[why]);
	return vtrr_task_of(se);
}

static void put_prev_task_vtrr(struct rq *rq, struct task_struct *p,
			       struct task_struct *next)
{
	update_curr_vtrr(rq);
	ms_update_util(rq, true);
}

static void set_next_task_vtrr(struct rq *rq, struct task_struct *p, bool first)
{
	struct vtrr_rq *vrq = vtrr_rq_of(rq);

	p->se.exec_start = rq_clock_task(rq);
	ms_update_util(rq, false);
	/*
	 * Picked, or put back after a change: the scan goes on from it. Not
	 * if it is off the queue: the core puts back a task that is blocking
	 * in __schedule() when another CPU changes it while this one dropped
	 * the rq lock, and the scan must not start from a sleeping client.
	 */
	if (vtrr_se(p)->on_rq && vrq->curr != vtrr_se(p))
		vtrr_set_curr(vrq, vtrr_se(p));
	vtrr_hrtick(rq, p);
}

/*
 * @queued: the hrtick. The tick re-arms it for a client picked again
 * without a switch, which calls no ->set_next_task(); an hrtick that
 * fired before the task clock reached the quantum's end is re-armed.
 */
static void task_tick_vtrr(struct rq *rq, struct task_struct *p, int queued)
{
	update_curr_vtrr(rq);
	ms_tick_util(rq);
	if (vtrr_rq_of(rq)->quantum_done)
		resched_curr(rq);
	else if (queued || !ms_hrtick_armed(rq))
		vtrr_hrtick(rq, p);
	if (!queued)
		ms_trigger_push(&vtrr_balancer, rq);
}

/*
 * A waking client waits for the scan to reach it, as in the paper: it is
 * in the queue with its counter and VFT, and the running client finishes
 * its quantum. Preemption across classes is the core's business.
 */
static void wakeup_preempt_vtrr(struct rq *rq, struct task_struct *p, int flags)
{
}

static void yield_task_vtrr(struct rq *rq)
{
	vtrr_rq_of(rq)->quantum_done = true;
}

static void task_fork_vtrr(struct task_struct *p)
{
	ms_own_state(p, SCHED_VTRR);
	vtrr_se(p)->fresh = 1;
	vtrr_se(p)->slept_at = jiffies;
}

/*
 * A client that joins VTRR, or comes back to it after a priority-
 * inheritance boost, is new to this queue (equation 7), unless it left
 * with a VFT ahead of QVT: it keeps that lead, so that a boost does not
 * wipe what it owes.
 */
static void switching_to_vtrr(struct rq *rq, struct task_struct *p)
{
	struct sched_vtrr_entity *se = vtrr_se(p);

	ms_own_state(p, SCHED_VTRR);	/* a lag is its own only if VTRR's */
	se->fresh = se->lag <= 0;
	if (se->lag > 0)
		se->vft = vtrr_rq_of(rq)->qvt + se->lag;
	se->lag = 0;
	se->hinted = 0;
	se->quantum_used = 0;
	se->slept_at = jiffies;
}

/*
 * Called after the task's new class took it: the state is left alone
 * once another multisched class owns it (ms_own_state()).
 */
static void switched_from_vtrr(struct rq *rq, struct task_struct *p)
{
	struct sched_vtrr_entity *se = vtrr_se(p);

	if (p->ms.run.state_policy != SCHED_VTRR)
		return;
	se->lag = se->vft - vtrr_rq_of(rq)->qvt;
	/* a lead measured against a QVT 10 minutes on is no lead at all */
	if (!task_on_rq_queued(p) &&
	    time_after(jiffies, se->slept_at + VTRR_STALE_SLEEP))
		se->lag = 0;
}

static void prio_changed_vtrr(struct rq *rq, struct task_struct *p, int oldprio)
{
	/* set_user_nice() dequeued and enqueued it: the share is re-read. */
}

static unsigned int get_rr_interval_vtrr(struct rq *rq, struct task_struct *p)
{
	return nsecs_to_jiffies(READ_ONCE(sysctl_sched_vtrr_quantum));
}

#ifdef CONFIG_SMP
/*
 * VFT is relative to the QVT of the CPU a client runs on: carry its lead
 * over. Its hints and its counter belong to the old queue.
 */
static void migrate_task_rq_vtrr(struct task_struct *p, int new_cpu)
{
	struct sched_vtrr_entity *se = vtrr_se(p);
	u64 old_qvt = READ_ONCE(vtrr_rq_of(task_rq(p))->qvt);
	u64 new_qvt = READ_ONCE(vtrr_rq_of(cpu_rq(new_cpu))->qvt);

	se->vft = se->vft - old_qvt + new_qvt;
	se->hinted = 0;
	se->cycle = 0;
}

#endif /* CONFIG_SMP */

/* The VTRR server's pick: what VTRR would run. */
static struct task_struct *vtrr_server_pick(struct sched_dl_entity *dl_se)
{
	return pick_task_vtrr(dl_se->rq);
}

static void init_vtrr_rq(struct rq *rq, int cpu)
{
	struct vtrr_rq *vrq = per_cpu_ptr(&vtrr_rqs, cpu);

	vtrr_init_rq(vrq);
	ms_balance_init(&vrq->balance, &vtrr_balancer);
	ms_server_init(&vrq->server, rq, vtrr_server_pick);
}

static struct sched_dl_entity *vtrr_server(int cpu)
{
	return &per_cpu(vtrr_rqs, cpu).server;
}

static unsigned int vtrr_nr_running(struct rq *rq)
{
	return vtrr_rq_of(rq)->balance.nr_running;
}

DEFINE_SCHED_CLASS(vtrr) = {
	.enqueue_task		= enqueue_task_vtrr,
	.dequeue_task		= dequeue_task_vtrr,
	.yield_task		= yield_task_vtrr,
	.wakeup_preempt		= wakeup_preempt_vtrr,
	.pick_task		= pick_task_vtrr,
	.put_prev_task		= put_prev_task_vtrr,
	.set_next_task		= set_next_task_vtrr,
#ifdef CONFIG_SMP
	.balance		= balance_vtrr,
	.select_task_rq		= select_task_rq_vtrr,
	.migrate_task_rq	= migrate_task_rq_vtrr,
	.set_cpus_allowed	= set_cpus_allowed_common,
#endif
	.task_tick		= task_tick_vtrr,
	.task_fork		= task_fork_vtrr,
	.switching_to		= switching_to_vtrr,
	.switched_from		= switched_from_vtrr,
	.switched_to		= ms_switched_to,
	.prio_changed		= prio_changed_vtrr,
	.get_rr_interval	= get_rr_interval_vtrr,
	.update_curr		= update_curr_vtrr,
};

/* A share is all VTRR takes: no flags, no warp, no budget or period. */
static int vtrr_validate(const struct sched_attr *attr)
{
	if (attr->sched_warp || attr->sched_warp_limit || attr->sched_unwarp ||
	    attr->sched_runtime || attr->sched_deadline || attr->sched_period)
		return -EINVAL;
	return 0;
}

/* Read without the rq lock: a snapshot, as the rest of /proc/<pid>/sched. */
static void vtrr_proc_show(struct task_struct *p, struct seq_file *m)
{
	const struct sched_vtrr_entity *se = vtrr_se(p);

	/*
	 * S is re-read from the parameters at every enqueue, and every
	 * change of them dequeues a queued task: show the S a sleeping task
	 * will wake with, not the one it last ran with.
	 */
	ms_proc_u64(m, "ms.vtrr.share", vtrr_share(p));
	ms_proc_u64(m, "ms.vtrr.VFT", se->vft);
	ms_proc_u64(m, "ms.vtrr.counter", se->counter);
	ms_proc_u64(m, "ms.vtrr.service_ns", se->service);
}

#ifdef CONFIG_SCHED_CORE
/*
 * Core scheduling compares clients queued on sibling CPUs, whose QVTs
 * are unrelated. As fair does with its vruntime, each queue notes its
 * QVT at every pick of the core, and only once while a sibling is forced
 * idle; two clients compare by how far their VFT is past that point, so
 * the one that received less service for its share since goes first. A
 * client that runs on while its sibling is forced idle moves away from
 * its point, by Q/S a quantum, and at the end of a quantum the core pick
 * gives the sibling its turn once it is behind: two clients of different
 * cookies share the core by share, a quantum at a time. Between clients
 * of one queue (the core's tree of a cookie's tasks) this is the order of
 * the VFT inequality, not the round-robin scan, which only VTRR's own
 * pick follows.
 */
static bool vtrr_core_less(const struct task_struct *a,
			   const struct task_struct *b, bool in_fi)
{
	s64 ka = a->ms.run.state.vtrr.vft - vtrr_rq_of(task_rq(a))->qvt_fi;
	s64 kb = b->ms.run.state.vtrr.vft - vtrr_rq_of(task_rq(b))->qvt_fi;

	return ka > kb;
}

static void vtrr_core_fi(struct rq *rq)
{
	struct vtrr_rq *vrq = vtrr_rq_of(rq);

	vrq->qvt_fi = vrq->qvt;
}
#endif

const struct ms_class ms_vtrr_class = {
	.name		= "vtrr",
	.policy		= SCHED_VTRR,
	.class		= &vtrr_sched_class,
	.ready		= true,
	.general	= true,
	.flags		= 0,
	.validate	= vtrr_validate,
	.init_rq	= init_vtrr_rq,
	.proc_show	= vtrr_proc_show,
	.server		= vtrr_server,
	.nr_running	= vtrr_nr_running,
	.balance	= &vtrr_rqs.balance,
	.tick_switches	= true,
#ifdef CONFIG_SCHED_CORE
	.core_prio	= MAX_RT_PRIO + 2,
	.core_less	= vtrr_core_less,
	.core_fi	= vtrr_core_fi,
#endif
#ifdef CONFIG_SYSCTL
	.sysctls	= vtrr_sysctls,
	.nr_sysctls	= ARRAY_SIZE(vtrr_sysctls),
#endif
};

#ifdef CONFIG_SCHED_MULTISCHED_KUNIT_TEST
#include "vtrr_test.c"
#endif
