/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_MULTISCHED_H
#define _LINUX_SCHED_MULTISCHED_H

#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/types.h>

struct rbs_resv;
struct rbs_ctl;

#ifdef CONFIG_SCHED_BVT
/*
 * struct sched_bvt_entity - a task's Borrowed Virtual Time state
 *
 * Protected by the task's rq lock; while the task is not queued,
 * migrate_task_rq_bvt() adjusts @avt holding only its pi_lock, as
 * set_task_cpu() allows. /proc/<pid>/sched reads it without locks.
 */
struct sched_bvt_entity {
	struct rb_node	evt_node;	/* in its level's evt_tree, unless running */
	u64		avt;		/* A: actual virtual time */
	u64		min_avt;	/* lowest A of its subtree of evt_tree */
	u64		evt;		/* E: the key while queued */
	s64		warp;		/* W it warps by when L and U allow, 0 = none */
	u64		warp_used;	/* ns run warped in this warped stretch */
	u64		unwarp_until;	/* rq clock before which it may not warp */
	u64		uncharged;	/* run time not yet charged to A, < 1 mcu */
	s64		lag;		/* lead over SVT to start with (fork, class change) */
	unsigned long	slept_at;	/* jiffies when it last blocked */
	u64		nr_limit_hits;	/* times it ran L warped and was unwarped */
	u64		nr_unwarp_hits;	/* times U kept it from warping */
	u64		inv_weight;	/* ms_recip(@weight), for charging */
	u32		weight;		/* effective weight */
	unsigned int	on_rq:1;
	unsigned int	warped:1;	/* E includes W */
	unsigned int	limit_hit:1;	/* unwarped by L until it sleeps */
	unsigned int	migrated:1;	/* pays M until it next runs */
	unsigned int	level:1;	/* the level A counts in: 0 RE, 1 BE */
	unsigned int	group:1;	/* the best-effort aggregate, not a task */
};
#endif

#ifdef CONFIG_SCHED_VTRR
/*
 * struct sched_vtrr_entity - a task's Virtual-Time Round-Robin state
 *
 * Protected by the task's rq lock; migrate_task_rq_vtrr() rebases @vft
 * holding only the pi_lock while the task is not queued, as set_task_cpu()
 * allows. @last_prev and @last_next are identifiers, never pointers: the
 * run queue looks them up in its table of queued clients before it trusts
 * them, so a neighbour that has since exited is never dereferenced.
 */
struct sched_vtrr_entity {
	struct list_head run_node;	/* in the run queue, largest share first */
	struct rb_node	share_node;	/* in the share index while first of its share */
	u64		vft;		/* virtual finishing time */
	u64		id;		/* identifies this stay on the run queue */
	u64		last_prev;	/* id of the client before it when removed */
	u64		last_next;	/* id of the client after it when removed */
	u64		cycle;		/* scheduling cycle @counter belongs to */
	u64		quantum_used;	/* ns run towards its next quantum */
	u64		service;	/* ns received in VTRR */
	s64		lag;		/* VFT lead over QVT to start with (class change) */
	unsigned long	slept_at;	/* jiffies when it last blocked */
	u64		inv_share;	/* vtrr_div()'s reciprocal of @inv_share_of */
	u32		inv_share_of;	/* the share it was computed for */
	u32		share;		/* S, the effective share */
	u32		counter;	/* time counter, valid while @cycle is current */
	unsigned int	on_rq:1;
	unsigned int	leader:1;	/* first client of its share: in the share index */
	unsigned int	hinted:1;	/* @last_prev and @last_next are worth a look */
	unsigned int	fresh:1;	/* no VFT of its own yet: equation 7, not 8 */
	unsigned int	scan_curr:1;	/* was the current client when removed */
	unsigned int	scan_next:1;	/* was the next one the scan looks at */
};
#endif

#ifdef CONFIG_SCHED_BEBS
/*
 * struct sched_bebs_entity - a task's best-effort bandwidth server
 *
 * Protected by the task's rq lock. While the task is not queued nothing
 * in it is relative to a CPU (times are absolute rq clock readings), so
 * migration needs no rebasing. /proc/<pid>/sched reads it without locks.
 */
struct sched_bebs_entity {
	struct rb_node	node;		/* on a tree of its CPU's (bebs.c) */
	u64		deadline;	/* d: its EDF deadline */
	u64		release;	/* r: when its current period began */
	u64		release_orig;	/* r_orig: while expired, the release it waits for */
	u64		release_key;	/* while expired and queued: r_i + the rq's slack shift */
	u64		release_at;	/* while expired and not queued: r_i */
	s64		left;		/* c: budget left in this period */
	u64		budget;		/* b */
	u64		period;		/* p */
	u64		e_avg;		/* average CPU burst, with hysteresis w = 3 */
	u64		burst;		/* e: CPU run since its task last woke */
	u64		nr_expired;	/* times its budget ran out */
	u64		nr_slack;	/* times slack released it early */
	u64		nr_missed;	/* periodic: jobs late or overrun */
	u64		nr_late;	/* of them, late with budget left */
	u32		weight;		/* q, as counted in its CPU's load L; 0 if periodic */
	u32		shrink_seq;	/* the last bebs_shrink() walk that saw it */
	u8		on_rq;
	u8		state;		/* enum bebs_state (bebs.c) */
	u8		periodic;	/* a periodic task's server: fixed b, p, no slack */
};
#endif

#ifdef CONFIG_SCHED_RBS
/* room in a reservation's replenishment queue (sysctl_sched_rbs_repl_max) */
#define RBS_REPL_MAX	32

/* A chunk of a sporadic server's budget: @b, usable from time @t on. */
struct rbs_repl {
	u64	t;
	u64	b;
};

/*
 * struct rbs_ss - a corrected sporadic server (kernel/sched/rbs.c): its
 * budget C in @len chunks of @q, by time, that add up to C, of which it
 * ran @usage of the head; @max is the room it may use in @q. @debt is
 * budget it ran in the last period that a smaller C took from its queue,
 * owed until @debt_t (rbs_ss_change()).
 */
struct rbs_ss {
	u64		C;
	u64		T;
	u64		usage;
	u64		debt;
	u64		debt_t;
	unsigned int	len;
	unsigned int	max;
	struct rbs_repl	*q;
};

/*
 * struct rbs_pibs - an I/O reservation, a priority-inheritance
 * bandwidth-preserving server (Quest, algorithms 7-10; kernel/sched/rbs.c):
 * a utilisation U and the period T of the Main reservation it works
 * for, so a budget of Cmax = U T. What it runs, u, moves its eligibility
 * time e on by u / U, and it holds one replenishment, of Cmax at e.
 */
struct rbs_pibs {
	u64	U;		/* utilisation, in BW_UNIT parts */
	u64	T;		/* the period it inherited */
	u64	T_min;		/* the shortest it may: U T_min >= MS_RUNTIME_MIN */
	u64	b;		/* budget left */
	u64	usage;		/* run since e last moved */
	u64	e;		/* eligibility time */
	u64	r_t;		/* its replenishment: when, */
	u64	r_b;		/* and how much */
	bool	r_valid;
	bool	budgeted;	/* replenished since it last blocked */
};

/*
 * struct sched_rbs_entity - a task's RBS reservation
 *
 * Protected by the task's rq lock. Times are absolute rq clock readings,
 * so migration needs no rebasing. /proc/<pid>/sched reads it without
 * locks. @ss.q points into @q, this entity's own queue. An I/O server
 * (@io_server) keeps its parameters in @ss.C (its budget at its own
 * period) and @ss.T (that period), and its server in @io.
 */
struct sched_rbs_entity {
	struct rb_node	node;		/* in its CPU's ready or throttled tree */
	u64		seq;		/* ties of equal periods: first queued first */
	struct rbs_ss	ss;
	u64		nr_exhausted;	/* times it ran out of capacity */
	u64		nr_split;	/* blocks with capacity left (algorithm 12) */
	u64		nr_full;	/* replenishments merged into a full queue */
	u64		nr_merge;	/* chunks merged into the head (algorithm 13) */
	u64		nr_change;	/* budget or period changed (rbs_ss_change()) */
	u64		bg_time;	/* ns run in the background, uncharged */
	u64		bg_start;	/* task clock when it last began to */
	u8		on_rq;
	u8		throttled;	/* queued without capacity: in the throttled tree */
	u8		started;	/* @ss holds its server */
	u8		bg;		/* counted in its CPU's nr_bg (MS_FLAG_RBS_BACKGROUND) */
	u8		bg_running;	/* the current task, throttled, in the background */
	u8		io_server;	/* @io is its server (MS_FLAG_RBS_IO), not @ss */
	struct rbs_pibs	io;
	u64		nr_request;	/* I/O server: wakeups, each a request */
	/*
	 * A task queued on a shared reservation's server (kernel/sched/rbs.c)
	 * is one of its @members, in turn order; @server is the server a
	 * queued task is on, this entity itself when it is not shared.
	 */
	struct sched_rbs_entity	*server;
	struct list_head	member;		/* a task's place in @server's @members */
	struct list_head	members;	/* a shared server's queued tasks */
	unsigned int		nr_queued;	/* a shared server's: of @members */
	u8			shared;		/* the server of a struct rbs_resv */
	struct rbs_repl	q[RBS_REPL_MAX];
};
#endif

/*
 * The classes' run-time state of a task. A task is in one class at a
 * time, so the classes share one union; struct sched_ms_run's
 * @state_policy says whose state it holds (ms_own_state()).
 */
union sched_ms_state {
#ifdef CONFIG_SCHED_BVT
	struct sched_bvt_entity		bvt;
#endif
#ifdef CONFIG_SCHED_VTRR
	struct sched_vtrr_entity	vtrr;
#endif
#ifdef CONFIG_SCHED_BEBS
	struct sched_bebs_entity	bebs;
#endif
#ifdef CONFIG_SCHED_RBS
	struct sched_rbs_entity		rbs;
#endif
};

/*
 * struct sched_ms_entity - a task's multisched parameters and state
 *
 * What sched_setattr(2) stored for a task in one of the multisched
 * policies, in the units of <uapi/linux/sched/multisched.h>; the
 * parameters are all zero for the other policies. Written under the
 * task's rq lock and pi_lock (from __sched_setscheduler()); a class reads
 * them under the rq lock.
 *
 * @run is run-time state, not parameters, protected by the rq lock: it
 * survives policy changes, because SCHED_NORMAL tasks run in BVT or VTRR
 * when that is the normal class, and is cleared as a whole on fork,
 * without naming a class. @run.state_policy is the policy of the class
 * whose state @run.state holds, 0 for none; @run.sig_depth counts the
 * signal handlers the task is in, for MS_FLAG_WARP_SIGNAL, whatever its
 * class. @run.resv_bw is the bandwidth admitted for the task's
 * reservation (a periodic BEBS task, an RBS reservation), 0 for none, on
 * CPU @run.resv_cpu, and @run.resv_rm whether it counts in the CPU's
 * rate-monotonic bound (RBS):
 * written under the rq lock and pi_lock (ms_admit()) or the pi_lock
 * alone while the task is not queued (migration); readers without them
 * use READ_ONCE().
 */
struct sched_ms_entity {
	u32		weight;		/* requested weight, 0 = from nice */
	u32		flags;		/* MS_FLAG_* */
	s64		warp;		/* BVT W, ns of virtual time */
	u64		warp_limit;	/* BVT L, ns */
	u64		unwarp;		/* BVT U, ns */
	u64		runtime;	/* BEBS/RBS budget, ns */
	u64		deadline;	/* BEBS relative deadline, ns */
	u64		period;		/* BEBS/RBS period, ns */

	struct sched_ms_run {
		u8			sig_depth;
		u8			state_policy;
		u8			resv_rm;
		s32			resv_cpu;
		u64			resv_bw;
		/*
		 * RBS I/O server: the shortest period of the reservations
		 * whose threads woke it since it last took their requests,
		 * 0 for none; set by the wakers under the pi_lock, taken
		 * with xchg() under the rq lock (rbs_io_waking()).
		 */
		u32			io_request;
		/*
		 * RBS: the shared reservation the task is a member of, or
		 * NULL; @resv_bw and @resv_cpu are then the reservation's and
		 * @resv_shared is set: the bandwidth is not the task's own.
		 * Written under the rq lock and pi_lock with WRITE_ONCE(),
		 * read locklessly under RCU (the reservations are never
		 * freed, only used again: kernel/sched/rbs.c).
		 */
		struct rbs_resv		*rbs_resv;
		u8			resv_shared;
		/* RBS: its next server's first budget, no sooner (rbs_drop()) */
		u64			rbs_not_before;
		/*
		 * RBS: a member that the kernel moved off its shared
		 * reservation's CPU (a cpuset change) runs on a server of its
		 * own there, counted on @rbs_away_cpu as @rbs_away_bw until it
		 * is back or leaves (rbs_away_move()). Written where
		 * set_task_cpu() may be, under the pi_lock or the task's rq
		 * lock, and under both by rbs_drop(); taken with xchg().
		 */
		u64			rbs_away_bw;
		s32			rbs_away_cpu;
		/*
		 * RBS, a thread the feedback controller sets
		 * (MS_FLAG_RBS_FEEDBACK): its controller state
		 * (kernel/sched/rbs_ctl.c), attached before it enters and
		 * detached by the controller, under the pi_lock; and the
		 * budget and period it holds, under the rq lock and
		 * pi_lock, read locklessly by the controller.
		 */
		struct rbs_ctl		*rbs_ctl;
		u64			ctl_budget;
		u64			ctl_period;
		union sched_ms_state	state;
		/*
		 * The task work (ms_queue_work()) that moves a task to its
		 * reservation's CPU and sends BEBS's SIGXCPU at an overrun,
		 * outside @state, which another class may clear while the
		 * work is queued; @work_pending holds what it is to do and
		 * whether it is queued (bits set under the rq lock, cleared
		 * by the work).
		 */
		struct callback_head	work;
		unsigned long		work_pending;
	} run;
};

#ifdef CONFIG_SCHED_BVT
void ms_signal_handler(bool enter);
#else
static inline void ms_signal_handler(bool enter) { }
#endif

/* prctl(PR_SCHED_RBS_CTL): the RBS feedback controller's metrics */
#ifdef CONFIG_SCHED_RBS
int rbs_ctl_prctl(unsigned long op, unsigned long arg3, unsigned long arg4,
		  unsigned long arg5);
#else
static inline int rbs_ctl_prctl(unsigned long op, unsigned long arg3,
				unsigned long arg4, unsigned long arg5)
{
	return -EINVAL;
}
#endif

#endif /* _LINUX_SCHED_MULTISCHED_H */
