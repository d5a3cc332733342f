// SPDX-License-Identifier: GPL-2.0
/*
 * rbs_ctl: the feedback controller of the RBS class
 *
 * Sets the proportion and period of RBS reservations from the progress
 * their threads make, in the kernel, at a fixed rate (100 Hz by default).
 *
 * Paper: D. C. Steere, A. Goel, J. Gruenberg, D. McNamee, C. Pu and
 * J. Walpole, "A feedback-driven proportion allocator for real-rate
 * scheduling", OSDI 1999, sections 3.2 to 4.5. Its controller was a user
 * program that read the progress metrics from the kernel and wrote the
 * allocations back at every step; here the step is a soft hrtimer that
 * reads them where they are.
 *
 * The kinds (section 3.3), from what a thread gives when it enters SCHED_RBS
 * with MS_FLAG_RBS_FEEDBACK:
 *
 *   real-time            a budget C and a period T: held as given, never
 *                        squished (admission already refused what did
 *                        not fit);
 *   aperiodic real-time  a budget C, period 0: the proportion C over the
 *                        default period (kernel.sched_rbs_ctl_period_us,
 *                        30 ms), held as given;
 *   real-rate            neither, and progress metrics registered with
 *                        prctl(PR_SCHED_RBS_CTL): the controller sets both;
 *   miscellaneous        neither, and no metric: constant positive
 *                        pressure, and what it leaves unused reclaimed.
 *
 * A metric is a pipe, FIFO or socket the thread reads (consumer) or
 * writes (producer). Its fill level f, in [0, 1], is the pipe's occupied
 * slots over its slots, or a socket's queued bytes over its buffer (the
 * fuller of its receive and send queues). The thread's pressure (figure
 * 3) is F = sum of R (f - 1/2), R = 1 for a consumer and -1 for a
 * producer: positive when it falls behind. A PID control of F gives Q,
 * the change of its allocation P (figure 4's "on target" case), in the
 * velocity form, so that the allocation itself is the integral of the
 * pressure:
 *
 *   Q = (Kp (F - F') + Ki F + Kd (F - 2 F' + F'')) / 1000
 *   P = P + Q
 *
 * where F' and F'' are the pressures of the two steps before, and the
 * gains thousandths (kernel.sched_rbs_ctl_{kp,ki,kd}, 1000, 100 and 0).
 * When the thread used less than three quarters of what it held over a
 * window of two of its periods (a shorter one would see the sporadic
 * server's bursts, not its use) and slept in it, the allocation was too
 * generous (figure 4's other case): at the end of the window P falls by an eighth, if the
 * PID asks for less than that. A miscellaneous thread's F is the
 * constant 1/8.
 *
 * Overload (section 3.3): the allocations the controller sets on a CPU
 * may hold what the other reservations there leave under the limit of
 * all reservations and the CPU's rate-monotonic bound (ms_bw_room()).
 * When what they want exceeds it by E, each gives up E (P_i / w_i) /
 * sum (P_j / w_j), where w is its importance (sched_weight, or its nice
 * weight): a more important thread keeps more, and none starves another.
 * A real-rate thread squished while it is at least 3/8 behind for 50
 * steps in a row gets a quality exception, the signal it asked for with
 * PR_RBS_CTL_SIGNAL, if any.
 *
 * The period of a real-rate or miscellaneous thread is the default one,
 * halved (down to a sixteenth) while the fill level of a real-rate
 * thread's metrics moves by more than 1/16 of the buffer a step, averaged
 * over about eight steps, and doubled back below 1/64
 * (kernel.sched_rbs_ctl_adapt_period); and longer for a small proportion,
 * so that the budget stays at least 200 us (quantisation, section 3.3; and
 * a budget that the budget timer's latency overruns by whole budgets
 * sends the server's chunks back as many periods, rbs_ss_budget_check()).
 * The least allocation is 0.5%, 200 us every 40 ms.
 *
 * SMP and locking. One controller for the system: a soft hrtimer, armed
 * while a thread is controlled and never otherwise, walks the list of
 * controlled threads under RCU. Each thread's state, struct rbs_ctl, is
 * made before the thread enters (rbs_ctl_prepare(), from
 * sched_setattr(2) before it takes its locks), attached to it under its
 * pi_lock, and dropped by the step that finds it gone from the class or
 * exiting; only the step writes the control state, and only the thread
 * itself, with prctl(2), adds metrics (under struct rbs_ctl's lock).
 * Allocations are per CPU, as reservations are: the step sums what the
 * threads want by the CPU of their reservation, squishes per CPU, and
 * changes each reservation with rbs_ctl_set() under the thread's pi_lock
 * and rq lock, smaller ones first. The step allocates nothing and sleeps
 * nowhere; its cost is O(controlled threads), shown in
 * /sys/kernel/debug/sched/rbs_ctl.
 */
#include <linux/debugfs.h>
#include <linux/file.h>
#include <linux/mmu_context.h>
#include <linux/net.h>
#include <linux/pipe_fs_i.h>
#include <linux/prctl.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/sysctl.h>
#include <net/sock.h>

#include "sched.h"

#include <trace/events/multisched.h>

#define RBS_CTL_PPM		1000000LL
#define RBS_CTL_METRICS		4	/* metrics a thread may register */
#define RBS_CTL_MIN_PPM		5000	/* 0.5%: the least allocation */
#define RBS_CTL_STILL_PPM	100	/* 0.01%: a change too small to make */
#define RBS_CTL_INITIAL_PPM	10000	/* 1%: a new real-rate or misc. thread's */
#define RBS_CTL_MISC_F		125000	/* 1/8: a miscellaneous thread's F */
#define RBS_CTL_BEHIND		375000	/* 3/8: behind, for a quality exception */
#define RBS_CTL_EXC_STEPS	50	/* steps squished and behind before one */
#define RBS_CTL_OSC_HIGH	62500	/* 1/16 of the buffer a step: period halves */
#define RBS_CTL_OSC_LOW		15625	/* 1/64: it doubles back */
#define RBS_CTL_SHIFT_MAX	4	/* the period down to 1/16 of the default */
#define RBS_CTL_C_MIN		(200 * NSEC_PER_USEC)	/* budgets below: period grows */
#define RBS_CTL_FILTER		3	/* the swing's filter weighs a step 1/8 */

enum rbs_ctl_kind {
	RBS_CTL_RT,
	RBS_CTL_APERIODIC,
	RBS_CTL_REAL_RATE,
	RBS_CTL_MISC,
};

static const char * const rbs_ctl_kinds[] = {
	"real-time", "aperiodic real-time", "real-rate", "miscellaneous",
};

struct rbs_ctl_metric {
	struct file	*file;		/* a reference of ours */
	bool		producer;
	s64		fill;		/* at the last step, ppm of the buffer */
};

/*
 * struct rbs_ctl - the controller's state of one thread
 * @node:	in rbs_ctl_list: added under rbs_ctl_lock, removed by the step
 *		under it too, walked by the step under RCU
 * @rcu:	frees it after the step that dropped it
 * @task:	the thread, a reference of ours
 * @lock:	protects @m, @nr_metrics and @signo, which prctl(2) writes
 * @m:		the progress metrics, @nr_metrics of them
 * @signo:	the signal of a quality exception, 0 for none
 *
 * The rest is the control state, written by the step alone (one step runs
 * at a time) and read locklessly by /proc/<pid>/sched: the kind, the
 * pressure of this step and the two before (ppm of a full buffer), the
 * PID's output, what the thread wanted and holds (ppm of the CPU), its
 * run time at the last step, its use over the window of rbs_ctl_window(),
 * the filtered change of its fill levels, how many steps it has been squished and
 * behind, the period's shift, and a summary of its history.
 */
struct rbs_ctl {
	struct list_head	node;
	struct rcu_head		rcu;
	struct task_struct	*task;
	raw_spinlock_t		lock;
	struct rbs_ctl_metric	m[RBS_CTL_METRICS];
	unsigned int		nr_metrics;
	int			signo;

	u8			kind;
	u8			fresh;		/* not yet seen by a step */
	u8			active;		/* set by this step */
	int			cpu;		/* its reservation's, this step */
	u64			w;		/* its importance, this step */
	u8			shift;
	s64			F, F1, F2;
	s64			Q;
	s64			want;
	s64			P;
	s64			next;		/* after squishing, this step */
	u64			exec;
	u64			win_exec;	/* run time in this window */
	u64			win_alloc;	/* allocation over it, ns */
	u64			win_len;	/* its length so far, ns */
	unsigned long		win_nvcsw;	/* its sleeps when it began */
	s64			used;		/* of the last window, ppm */
	bool			generous;	/* the last window's verdict */
	s64			osc;
	unsigned int		behind;
	u64			nr_steps;
	u64			nr_changes;
	u64			nr_squished;
	u64			nr_refused;
	u64			nr_exceptions;
	s64			P_min;
	s64			P_max;
};

/* What the step sums per CPU; the step's own. */
struct rbs_ctl_cpu {
	s64	want;		/* what its squishable threads want, ppm */
	u64	held;		/* the bandwidth they hold, BW_UNIT parts */
	u64	weighted;	/* sum of want / importance, scaled */
	s64	excess;		/* what they want beyond the room, ppm */
};

static LIST_HEAD(rbs_ctl_list);
static DEFINE_RAW_SPINLOCK(rbs_ctl_lock);
static unsigned int rbs_ctl_nr;		/* on the list, under rbs_ctl_lock */
static bool rbs_ctl_armed;		/* the timer, under rbs_ctl_lock */
static struct hrtimer rbs_ctl_timer;
static DEFINE_PER_CPU(struct rbs_ctl_cpu, rbs_ctl_cpus);
static struct cpumask rbs_ctl_cpumask;	/* the step's: CPUs it summed */
static atomic_t rbs_ctl_files = ATOMIC_INIT(0);	/* references held */

/*
 * The step's cost, and the steps a late timer skipped (a step is never
 * made up for), written by the step, read by debugfs
 */
static u64 rbs_ctl_steps, rbs_ctl_ns, rbs_ctl_max_ns, rbs_ctl_missed;
static u64 rbs_ctl_last;	/* when the last step began, the step's */

/* Tunables; a step reads each once */
static unsigned int sysctl_sched_rbs_ctl_hz = 100;
static unsigned int sysctl_sched_rbs_ctl_kp = 1000;
static unsigned int sysctl_sched_rbs_ctl_ki = 100;
static unsigned int sysctl_sched_rbs_ctl_kd;
static unsigned int sysctl_sched_rbs_ctl_period_us = 30000;
static unsigned int sysctl_sched_rbs_ctl_adapt_period = 1;

static unsigned int rbs_ctl_hz_max = 1000;
static unsigned int rbs_ctl_gain_max = 10000;
static unsigned int rbs_ctl_period_min = 1000;
static unsigned int rbs_ctl_period_max = 1000000;

static u64 rbs_ctl_default_period(void)
{
	return (u64)READ_ONCE(sysctl_sched_rbs_ctl_period_us) * NSEC_PER_USEC;
}

static inline s64 rbs_ctl_bw_to_ppm(u64 bw)
{
	return (s64)((bw * RBS_CTL_PPM) >> BW_SHIFT);
}

/* Is @p still one the controller sets? Lockless: the step rechecks under the locks. */
static bool rbs_ctl_controlled(struct task_struct *p)
{
	return READ_ONCE(p->policy) == SCHED_RBS &&
	       (READ_ONCE(p->ms.flags) & MS_FLAG_RBS_FEEDBACK) &&
	       !(READ_ONCE(p->flags) & PF_EXITING);
}

/**
 * rbs_ctl_validate - check a request for MS_FLAG_RBS_FEEDBACK
 * @attr:	the request
 *
 * Return: 0, or -EINVAL: with an I/O server or a shared reservation,
 * which the controller does not set; a period without a budget; a budget
 * and a period out of RBS's bounds; or an aperiodic budget over the
 * default period.
 */
int rbs_ctl_validate(const struct sched_attr *attr)
{
	u64 C = attr->sched_runtime, T = attr->sched_period;

	if (attr->sched_ms_flags & (MS_FLAG_RBS_IO | MS_FLAG_RBS_SHARED))
		return -EINVAL;
	if (C && T)
		return ms_period_valid(C, T) ? 0 : -EINVAL;
	if (T)
		return -EINVAL;
	if (C && (C < MS_RUNTIME_MIN || C > rbs_ctl_default_period()))
		return -EINVAL;
	return 0;
}

/**
 * rbs_ctl_initial - the reservation a request for MS_FLAG_RBS_FEEDBACK gets
 * @p:		the thread, its rq locked and its pi_lock held
 * @attr:	the request, valid (rbs_ctl_validate())
 * @C:		its budget
 * @T:		its period
 *
 * A real-time thread's own C and T; an aperiodic one's C over the default
 * period; a real-rate or miscellaneous thread 1% of the CPU over the
 * default period, or what the controller gave it, if it was one already
 * (a caller that writes back what it read). Called before @p's
 * parameters change (rbs_bandwidth(), rbs_ctl_setparams()).
 */
void rbs_ctl_initial(struct task_struct *p, const struct sched_attr *attr,
		     u64 *C, u64 *T)
{
	u64 def = rbs_ctl_default_period();

	*C = attr->sched_runtime;
	*T = attr->sched_period;
	if (*C && *T)
		return;
	if (*C) {
		*T = max(def, *C);
		return;
	}
	/* only RBS takes the flag: with it, @p was a thread of ours */
	if ((p->ms.flags & MS_FLAG_RBS_FEEDBACK) && !p->ms.runtime &&
	    !p->ms.period && p->ms.run.ctl_period) {
		*C = p->ms.run.ctl_budget;
		*T = p->ms.run.ctl_period;
		return;
	}
	*T = def;
	*C = max_t(u64, div_u64(def * RBS_CTL_INITIAL_PPM, RBS_CTL_PPM),
		   MS_RUNTIME_MIN);
}

/* sched_setattr(2) stores @attr in @p (ms_setparams()), before it changes */
void rbs_ctl_setparams(struct task_struct *p, const struct sched_attr *attr)
{
	u64 C, T;

	rbs_ctl_initial(p, attr, &C, &T);
	WRITE_ONCE(p->ms.run.ctl_budget, C);
	WRITE_ONCE(p->ms.run.ctl_period, T);
}

static void rbs_ctl_arm(void)
{
	u64 hz = READ_ONCE(sysctl_sched_rbs_ctl_hz);

	lockdep_assert_held(&rbs_ctl_lock);
	if (rbs_ctl_armed)
		return;
	rbs_ctl_armed = true;
	hrtimer_start(&rbs_ctl_timer, ns_to_ktime(div64_u64(NSEC_PER_SEC, hz)),
		      HRTIMER_MODE_REL_SOFT);
}

/**
 * rbs_ctl_prepare - make @p's controller state before it enters
 * @p:		the thread, no lock held
 *
 * From sched_setattr(2) (ms_check_attr()), which may sleep there. The
 * state is attached to @p and put on the controller's list at once; a
 * step drops it again if @p has not entered by the step after next, and
 * ms_admit() then has sched_setattr(2) start over.
 *
 * Return: 0, -ENOMEM, or -ESRCH for a thread that is exiting.
 */
int rbs_ctl_prepare(struct task_struct *p)
{
	struct rbs_ctl *c;
	unsigned long flags;
	int ret = 0;

	if (READ_ONCE(p->ms.run.rbs_ctl))
		return 0;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	raw_spin_lock_init(&c->lock);
	c->task = get_task_struct(p);
	c->fresh = 1;
	c->P_min = RBS_CTL_PPM;
	raw_spin_lock_irqsave(&p->pi_lock, flags);
	if (p->ms.run.rbs_ctl || (p->flags & PF_EXITING)) {
		ret = p->ms.run.rbs_ctl ? 0 : -ESRCH;
		raw_spin_unlock_irqrestore(&p->pi_lock, flags);
		put_task_struct(p);
		kfree(c);
		return ret;
	}
	WRITE_ONCE(p->ms.run.rbs_ctl, c);
	raw_spin_lock(&rbs_ctl_lock);
	list_add_tail_rcu(&c->node, &rbs_ctl_list);
	rbs_ctl_nr++;
	rbs_ctl_arm();
	raw_spin_unlock(&rbs_ctl_lock);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	return 0;
}

/* Drop @c's metrics from @from on: the thread's, or all of a dropped one */
static void rbs_ctl_put_metrics(struct rbs_ctl *c, unsigned int from)
{
	struct file *files[RBS_CTL_METRICS];
	unsigned long flags;
	unsigned int i, n = 0;

	raw_spin_lock_irqsave(&c->lock, flags);
	for (i = from; i < c->nr_metrics; i++)
		files[n++] = c->m[i].file;
	c->nr_metrics = min(c->nr_metrics, from);
	raw_spin_unlock_irqrestore(&c->lock, flags);
	for (i = 0; i < n; i++) {
		atomic_dec(&rbs_ctl_files);
		fput(files[i]);
	}
}

/*
 * Drop @c if its thread left the controller, or is exiting: detached
 * under the thread's pi_lock, so that a sched_setattr(2) that would have
 * it enter sees it gone (ms_admit()) and starts over.
 */
static bool rbs_ctl_reap(struct rbs_ctl *c)
{
	struct task_struct *p = c->task;
	unsigned long flags;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	if (rbs_ctl_controlled(p)) {
		raw_spin_unlock_irqrestore(&p->pi_lock, flags);
		return false;
	}
	if (p->ms.run.rbs_ctl == c)
		WRITE_ONCE(p->ms.run.rbs_ctl, NULL);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);

	raw_spin_lock_irqsave(&rbs_ctl_lock, flags);
	list_del_rcu(&c->node);
	rbs_ctl_nr--;
	raw_spin_unlock_irqrestore(&rbs_ctl_lock, flags);
	rbs_ctl_put_metrics(c, 0);
	put_task_struct(p);
	kfree_rcu(c, rcu);
	return true;
}

/*
 * The fill level of @f in ppm: a pipe's or FIFO's occupied slots over its
 * slots, read without its mutex (a moment old); a socket's
 * fuller queue over its buffer. -1 for a file that is neither.
 */
static s64 rbs_ctl_fill(struct file *f)
{
	struct pipe_inode_info *pipe = get_pipe_info(f, false);
	struct socket *sock;
	unsigned int head, tail, slots;
	s64 r, w, rb, wb;

	if (pipe) {
		tail = READ_ONCE(pipe->tail);
		/*
		 * The tail before the head: the head only grows past it, so
		 * a read and a write between the two loads cannot make the
		 * tail pass the head (a wrapped, "full" occupancy).
		 */
		smp_rmb();
		head = READ_ONCE(pipe->head);
		slots = READ_ONCE(pipe->max_usage);
		if (!slots)
			return 0;
		return min_t(s64, div_u64((u64)pipe_occupancy(head, tail) *
					  RBS_CTL_PPM, slots), RBS_CTL_PPM);
	}
	sock = sock_from_file(f);
	if (!sock || !sock->sk)
		return -1;
	r = sk_rmem_alloc_get(sock->sk);
	w = sk_wmem_alloc_get(sock->sk);
	rb = max(READ_ONCE(sock->sk->sk_rcvbuf), 1);
	wb = max(READ_ONCE(sock->sk->sk_sndbuf), 1);
	r = div64_s64(max(r, 0LL) * RBS_CTL_PPM, rb);
	w = div64_s64(max(w, 0LL) * RBS_CTL_PPM, wb);
	return min(max(r, w), RBS_CTL_PPM);
}

/* Drop the metrics of @c whose file only we hold: the thread closed it. */
static void rbs_ctl_drop_closed(struct rbs_ctl *c)
{
	struct file *files[RBS_CTL_METRICS];
	unsigned int i, j = 0, n = 0;
	unsigned long flags;

	raw_spin_lock_irqsave(&c->lock, flags);
	for (i = 0; i < c->nr_metrics; i++) {
		if (file_count(c->m[i].file) == 1)
			files[n++] = c->m[i].file;
		else
			c->m[j++] = c->m[i];
	}
	c->nr_metrics = j;
	raw_spin_unlock_irqrestore(&c->lock, flags);
	for (i = 0; i < n; i++) {
		atomic_dec(&rbs_ctl_files);
		fput(files[i]);
	}
}

/*
 * Figure 3: @c's pressure, summed over its metrics, and the filtered
 * change of their fill levels. A metric whose file no one else holds any
 * more (the thread closed it) is dropped.
 */
static s64 rbs_ctl_pressure(struct rbs_ctl *c)
{
	struct rbs_ctl_metric *m;
	unsigned long flags;
	unsigned int i;
	s64 F = 0, moved = 0, fill;
	bool closed = false;

	raw_spin_lock_irqsave(&c->lock, flags);
	for (i = 0; i < c->nr_metrics; i++) {
		m = &c->m[i];
		if (file_count(m->file) == 1) {
			closed = true;
			continue;
		}
		fill = rbs_ctl_fill(m->file);
		if (fill < 0)
			continue;
		moved += abs(fill - m->fill);
		m->fill = fill;
		F += m->producer ? RBS_CTL_PPM / 2 - fill :
				   fill - RBS_CTL_PPM / 2;
	}
	raw_spin_unlock_irqrestore(&c->lock, flags);
	if (closed)
		rbs_ctl_drop_closed(c);
	c->osc += (moved - c->osc) >> RBS_CTL_FILTER;
	return clamp(F, -RBS_CTL_PPM, RBS_CTL_PPM);
}

/* What @p's importance weighs: sched_weight, or its nice weight. */
static u64 rbs_ctl_importance(struct task_struct *p)
{
	int nice = PRIO_TO_NICE(READ_ONCE(p->static_prio));
	u32 w = READ_ONCE(p->ms.weight);

	return w ?: sched_prio_to_weight[nice + 20];
}

/* What @want of importance @w weighs in its CPU's squish */
static inline u64 rbs_ctl_part(s64 want, u64 w)
{
	return div64_u64((u64)want << 10, w);
}

static inline bool rbs_ctl_squishable(const struct rbs_ctl *c)
{
	return c->kind == RBS_CTL_REAL_RATE || c->kind == RBS_CTL_MISC;
}

/*
 * rbs_ctl_decide - what @c wants for the next step (figure 4)
 * @c:		a real-rate or miscellaneous thread's state, its pressure and
 *		use measured
 * @kp, @ki, @kd: the gains, in thousandths
 *
 * The velocity form of a PID control of the pressure: the allocation
 * moves by Q. One that held much more than it used over the window that
 * just ended (rbs_ctl_window()) falls by an eighth instead, if that is
 * less.
 */
static s64 rbs_ctl_decide(struct rbs_ctl *c, s64 kp, s64 ki, s64 kd)
{
	s64 want;

	c->Q = div64_s64(kp * (c->F - c->F1) + ki * c->F +
			 kd * (c->F - 2 * c->F1 + c->F2), 1000);
	want = c->P + c->Q;
	if (c->generous)
		want = min(want, c->P - c->P / 8);
	/*
	 * At most halved in a step: budget a server ran beyond a smaller
	 * one is owed (rbs_ss_change()), and a deep cut delays the
	 * thread's next budget by as much.
	 */
	return clamp_t(s64, want, max(c->P / 2, RBS_CTL_MIN_PPM), RBS_CTL_PPM);
}

/*
 * The period for an allocation of @ppm: the default one, shorter while
 * a real-rate thread's fill level swings, and long enough for a budget
 * of RBS_CTL_C_MIN.
 */
static u64 rbs_ctl_period(struct rbs_ctl *c, s64 ppm, bool adapt)
{
	u64 T = rbs_ctl_default_period();

	if (adapt && c->kind == RBS_CTL_REAL_RATE) {
		if (c->osc > RBS_CTL_OSC_HIGH && c->shift < RBS_CTL_SHIFT_MAX)
			c->shift++;
		else if (c->osc < RBS_CTL_OSC_LOW && c->shift)
			c->shift--;
	} else {
		c->shift = 0;
	}
	T >>= c->shift;
	if (div64_u64(T * ppm, RBS_CTL_PPM) < RBS_CTL_C_MIN)
		T = div64_u64(RBS_CTL_C_MIN * RBS_CTL_PPM, ppm);
	return clamp_t(u64, T, MS_PERIOD_MIN, MS_PERIOD_MAX);
}

/*
 * Account a step of @h in which @c's thread ran @ran, and, at the end of
 * a window of two of its periods, tell whether it used less than three
 * quarters of what it held there.
 */
static void rbs_ctl_window(struct rbs_ctl *c, u64 ran, u64 h)
{
	u64 T = READ_ONCE(c->task->ms.run.ctl_period);
	unsigned long nvcsw = READ_ONCE(c->task->nvcsw);

	c->generous = false;
	c->win_exec += min(ran, h);
	c->win_alloc += div64_u64(h * c->P, RBS_CTL_PPM);
	c->win_len += h;
	if (c->win_len < 2 * T)
		return;
	c->used = div64_u64(c->win_exec * RBS_CTL_PPM, c->win_len);
	/*
	 * Only a thread that slept left its allocation unused: one that
	 * never did was held back by its server, which a change of budget
	 * delays (rbs_ss_change()), not by what it needs.
	 */
	c->generous = c->win_exec * 4 < c->win_alloc * 3 &&
		      nvcsw != c->win_nvcsw;
	c->win_exec = 0;
	c->win_alloc = 0;
	c->win_len = 0;
	c->win_nvcsw = nvcsw;
}

/* Measure @c's thread and have it want its next allocation; false to skip it */
static bool rbs_ctl_measure(struct rbs_ctl *c, u64 h, s64 kp, s64 ki, s64 kd)
{
	struct task_struct *p = c->task;
	struct rbs_ctl_cpu *pc;
	u64 exec, bw = READ_ONCE(p->ms.run.resv_bw);
	int cpu;

	if (!bw || READ_ONCE(p->ms.run.rbs_ctl) != c)
		return false;
	if (READ_ONCE(p->ms.runtime))
		c->kind = READ_ONCE(p->ms.period) ? RBS_CTL_RT :
						    RBS_CTL_APERIODIC;
	else
		c->kind = READ_ONCE(c->nr_metrics) ? RBS_CTL_REAL_RATE :
						     RBS_CTL_MISC;
	c->P = rbs_ctl_bw_to_ppm(bw);
	exec = READ_ONCE(p->se.sum_exec_runtime);
	rbs_ctl_window(c, c->nr_steps ? exec - c->exec : 0, h);
	c->exec = exec;
	c->nr_steps++;
	c->P_min = min(c->P_min, c->P);
	c->P_max = max(c->P_max, c->P);
	if (!rbs_ctl_squishable(c)) {
		/* metrics it registered as a real-rate thread, closed since */
		if (READ_ONCE(c->nr_metrics))
			rbs_ctl_drop_closed(c);
		c->F = 0;
		c->Q = 0;
		c->want = c->P;
		c->next = c->P;
		return false;
	}
	c->F2 = c->F1;
	c->F1 = c->F;
	c->F = c->kind == RBS_CTL_MISC ? RBS_CTL_MISC_F : rbs_ctl_pressure(c);
	c->want = rbs_ctl_decide(c, kp, ki, kd);

	cpu = READ_ONCE(p->ms.run.resv_cpu);
	c->cpu = cpu;
	c->w = rbs_ctl_importance(p);
	pc = per_cpu_ptr(&rbs_ctl_cpus, cpu);
	if (!cpumask_test_and_set_cpu(cpu, &rbs_ctl_cpumask))
		*pc = (struct rbs_ctl_cpu){ };
	pc->want += c->want;
	pc->held += bw;
	pc->weighted += rbs_ctl_part(c->want, c->w);
	return true;
}

/*
 * What is left of @want, of importance @w, once its CPU's excess is
 * shared out in proportion to what each wants over its importance.
 */
static s64 rbs_ctl_squished(s64 want, u64 w, const struct rbs_ctl_cpu *pc)
{
	u64 cut;

	if (pc->excess <= 0 || !pc->weighted)
		return want;
	cut = div64_u64((u64)pc->excess * rbs_ctl_part(want, w), pc->weighted);
	return max_t(s64, want - (s64)cut, RBS_CTL_MIN_PPM);
}

/*
 * Squish @c's wish on its CPU; and count a real-rate thread that stays
 * behind while squished towards a quality exception.
 */
static void rbs_ctl_squish(struct rbs_ctl *c)
{
	struct rbs_ctl_cpu *pc = per_cpu_ptr(&rbs_ctl_cpus, c->cpu);

	c->next = rbs_ctl_squished(c->want, c->w, pc);
	if (c->next < c->want)
		c->nr_squished++;
	if (c->kind == RBS_CTL_REAL_RATE && c->next < c->want &&
	    c->F >= RBS_CTL_BEHIND)
		c->behind++;
	else
		c->behind = 0;
}

/* rbs_ctl_set() under @p's locks */
static int rbs_ctl_change(struct task_struct *p, u64 budget, u64 period)
{
	struct rq_flags rf;
	struct rq *rq;
	int ret;

	rq = task_rq_lock(p, &rf);
	ret = rbs_ctl_set(rq, p, budget, period);
	task_rq_unlock(rq, p, &rf);
	return ret;
}

/*
 * Give @c's thread its allocation of this step, unless it moved by less
 * than RBS_CTL_STILL_PPM and its period stays. A threshold relative to
 * the allocation would stall a squish: its last steps are small.
 */
static void rbs_ctl_apply(struct rbs_ctl *c, bool adapt)
{
	struct task_struct *p = c->task;
	u64 budget, period, old = READ_ONCE(p->ms.run.ctl_period);
	int ret = 0;

	period = rbs_ctl_period(c, c->next, adapt);
	if (period != old || abs(c->next - c->P) >= RBS_CTL_STILL_PPM) {
		budget = clamp_t(u64, div64_u64(period * c->next, RBS_CTL_PPM),
				 MS_RUNTIME_MIN, period);
		ret = rbs_ctl_change(p, budget, period);
		if (!ret)
			c->nr_changes++;
		else if (ret == -EBUSY)
			c->nr_refused++;
	}
	trace_rbs_ctl(p, c->kind, c->F, c->Q, c->want, c->next, period, ret);
}

static void rbs_ctl_exception(struct rbs_ctl *c)
{
	int signo = READ_ONCE(c->signo);

	if (c->behind < RBS_CTL_EXC_STEPS)
		return;
	c->behind = 0;
	c->nr_exceptions++;
	if (signo)
		send_sig(signo, c->task, 1);
}

static inline bool rbs_ctl_shrinks(const struct rbs_ctl *c)
{
	return c->next < c->P;
}

/*
 * One step of the controller: measure every thread, sum what the
 * squishable ones want per CPU, squish where that exceeds the room, and
 * change the reservations, those that shrink first so that the room they
 * leave is there for those that grow.
 */
static void rbs_ctl_step(u64 h)
{
	s64 kp = READ_ONCE(sysctl_sched_rbs_ctl_kp);
	s64 ki = READ_ONCE(sysctl_sched_rbs_ctl_ki);
	s64 kd = READ_ONCE(sysctl_sched_rbs_ctl_kd);
	bool adapt = READ_ONCE(sysctl_sched_rbs_ctl_adapt_period);
	struct rbs_ctl_cpu *pc;
	struct rbs_ctl *c;
	int cpu, pass;

	cpumask_clear(&rbs_ctl_cpumask);
	rcu_read_lock();
	list_for_each_entry_rcu(c, &rbs_ctl_list, node) {
		c->active = 0;
		if (!rbs_ctl_controlled(c->task)) {
			/* one that has yet to enter gets a step more */
			if (c->fresh)
				c->fresh = 0;
			else
				rbs_ctl_reap(c);
			continue;
		}
		c->fresh = 0;
		c->active = rbs_ctl_measure(c, h, kp, ki, kd);
	}
	for_each_cpu(cpu, &rbs_ctl_cpumask) {
		pc = per_cpu_ptr(&rbs_ctl_cpus, cpu);
		pc->excess = pc->want -
			     rbs_ctl_bw_to_ppm(ms_bw_room(cpu, pc->held));
	}
	list_for_each_entry_rcu(c, &rbs_ctl_list, node)
		if (c->active)
			rbs_ctl_squish(c);
	/* pass 0 shrinks, pass 1 grows */
	for (pass = 0; pass < 2; pass++)
		list_for_each_entry_rcu(c, &rbs_ctl_list, node)
			if (c->active && rbs_ctl_shrinks(c) == !pass)
				rbs_ctl_apply(c, adapt);
	list_for_each_entry_rcu(c, &rbs_ctl_list, node)
		if (c->active)
			rbs_ctl_exception(c);
	rcu_read_unlock();
}

static enum hrtimer_restart rbs_ctl_timer_fn(struct hrtimer *timer)
{
	u64 hz = clamp(READ_ONCE(sysctl_sched_rbs_ctl_hz), 1U, rbs_ctl_hz_max);
	u64 nominal = div64_u64(NSEC_PER_SEC, hz), t0 = local_clock(), dt, h;
	unsigned long flags;
	u64 missed;

	/* the step measures what ran since the last one, late or not */
	h = rbs_ctl_last ? clamp(t0 - rbs_ctl_last, nominal / 2, 4 * nominal) :
			   nominal;
	rbs_ctl_last = t0;
	rbs_ctl_step(h);
	dt = local_clock() - t0;
	WRITE_ONCE(rbs_ctl_steps, rbs_ctl_steps + 1);
	WRITE_ONCE(rbs_ctl_ns, rbs_ctl_ns + dt);
	if (dt > rbs_ctl_max_ns)
		WRITE_ONCE(rbs_ctl_max_ns, dt);

	raw_spin_lock_irqsave(&rbs_ctl_lock, flags);
	if (list_empty(&rbs_ctl_list)) {
		rbs_ctl_armed = false;
		rbs_ctl_last = 0;
		raw_spin_unlock_irqrestore(&rbs_ctl_lock, flags);
		return HRTIMER_NORESTART;
	}
	raw_spin_unlock_irqrestore(&rbs_ctl_lock, flags);
	/* on the nominal grid: a late step does not push the next ones */
	missed = hrtimer_forward_now(timer, ns_to_ktime(nominal));
	if (missed > 1)
		WRITE_ONCE(rbs_ctl_missed, rbs_ctl_missed + missed - 1);
	return HRTIMER_RESTART;
}

/* PR_RBS_CTL_ADD: register @fd of the caller as a metric of @role */
static int rbs_ctl_add(struct rbs_ctl *c, struct file *f, bool producer)
{
	unsigned int i;

	lockdep_assert_held(&c->lock);
	for (i = 0; i < c->nr_metrics; i++)
		if (c->m[i].file == f)
			return -EEXIST;
	if (c->nr_metrics == RBS_CTL_METRICS)
		return -ENOSPC;
	c->m[c->nr_metrics++] = (struct rbs_ctl_metric){
		.file = f, .producer = producer, .fill = RBS_CTL_PPM / 2,
	};
	atomic_inc(&rbs_ctl_files);
	return 0;
}

/**
 * rbs_ctl_prctl - prctl(PR_SCHED_RBS_CTL, @op, @arg3, @arg4, @arg5)
 * @op:		PR_RBS_CTL_ADD, PR_RBS_CTL_CLEAR or PR_RBS_CTL_SIGNAL
 * @arg3:	the file descriptor to add, or the signal, or 0
 * @arg4:	the role of the one to add, PR_RBS_CTL_CONSUMER or
 *		PR_RBS_CTL_PRODUCER, or 0
 * @arg5:	0
 *
 * For the calling thread, which must be one the controller sets (SCHED_RBS
 * with MS_FLAG_RBS_FEEDBACK and no budget of its own). The metrics are references to the open
 * files, dropped when the thread leaves the controller or exits, or when
 * no one else holds the file any more.
 *
 * Return: 0; -EINVAL for an unknown @op, a bad role, a signal out of
 * range, an argument that should be 0, a file that is not a pipe, FIFO or
 * socket, or a caller the controller does not set; -EBADF for a
 * descriptor that is not open; -EEXIST for a file registered already;
 * -ENOSPC past four metrics.
 */
int rbs_ctl_prctl(unsigned long op, unsigned long arg3, unsigned long arg4,
		  unsigned long arg5)
{
	struct task_struct *p = current;
	struct file *f = NULL;
	unsigned long flags;
	struct rbs_ctl *c;
	int ret = 0;

	if (arg5)
		return -EINVAL;
	switch (op) {
	case PR_RBS_CTL_ADD:
		if (arg4 > PR_RBS_CTL_PRODUCER || arg3 > INT_MAX)
			return -EINVAL;
		f = fget(arg3);
		if (!f)
			return -EBADF;
		if (!get_pipe_info(f, false) && !sock_from_file(f)) {
			fput(f);
			return -EINVAL;
		}
		break;
	case PR_RBS_CTL_CLEAR:
		if (arg3 || arg4)
			return -EINVAL;
		break;
	case PR_RBS_CTL_SIGNAL:
		if (arg4 || !(arg3 == 0 || valid_signal(arg3)))
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}

	if (op == PR_RBS_CTL_CLEAR) {
		/* a step that drops it meanwhile puts each file once too */
		rcu_read_lock();
		c = READ_ONCE(p->ms.run.rbs_ctl);
		if (c && rbs_ctl_controlled(p))
			rbs_ctl_put_metrics(c, 0);
		else
			ret = -EINVAL;
		rcu_read_unlock();
		return ret;
	}
	raw_spin_lock_irqsave(&p->pi_lock, flags);
	c = p->ms.run.rbs_ctl;
	/* metrics are for a thread whose budget the controller sets */
	if (!c || !rbs_ctl_controlled(p) || p->ms.runtime) {
		ret = -EINVAL;
	} else if (op == PR_RBS_CTL_ADD) {
		raw_spin_lock(&c->lock);
		ret = rbs_ctl_add(c, f, arg4 == PR_RBS_CTL_PRODUCER);
		raw_spin_unlock(&c->lock);
		if (!ret)
			f = NULL;
	} else if (op == PR_RBS_CTL_SIGNAL) {
		WRITE_ONCE(c->signo, arg3);
	}
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	if (f)
		fput(f);
	return ret;
}

/* /proc/<pid>/sched of a thread the controller sets: a snapshot */
void rbs_ctl_proc_show(struct task_struct *p, struct seq_file *m)
{
	struct rbs_ctl *c;

	rcu_read_lock();
	c = READ_ONCE(p->ms.run.rbs_ctl);
	if (c) {
		seq_printf(m, "%-45s: %s\n", "ms.rbs_ctl.kind",
			   rbs_ctl_kinds[READ_ONCE(c->kind)]);
		ms_proc_u64(m, "ms.rbs_ctl.metrics", READ_ONCE(c->nr_metrics));
		ms_proc_s64(m, "ms.rbs_ctl.pressure_ppm", READ_ONCE(c->F));
		ms_proc_s64(m, "ms.rbs_ctl.q_ppm", READ_ONCE(c->Q));
		ms_proc_s64(m, "ms.rbs_ctl.want_ppm", READ_ONCE(c->want));
		ms_proc_s64(m, "ms.rbs_ctl.alloc_ppm", READ_ONCE(c->P));
		ms_proc_s64(m, "ms.rbs_ctl.used_ppm", READ_ONCE(c->used));
		ms_proc_s64(m, "ms.rbs_ctl.alloc_min_ppm", READ_ONCE(c->P_min));
		ms_proc_s64(m, "ms.rbs_ctl.alloc_max_ppm", READ_ONCE(c->P_max));
		ms_proc_u64(m, "ms.rbs_ctl.nr_steps", READ_ONCE(c->nr_steps));
		ms_proc_u64(m, "ms.rbs_ctl.nr_changes", READ_ONCE(c->nr_changes));
		ms_proc_u64(m, "ms.rbs_ctl.nr_squished", READ_ONCE(c->nr_squished));
		ms_proc_u64(m, "ms.rbs_ctl.nr_refused", READ_ONCE(c->nr_refused));
		ms_proc_u64(m, "ms.rbs_ctl.nr_exceptions",
			    READ_ONCE(c->nr_exceptions));
	}
	rcu_read_unlock();
}

static int rbs_ctl_stats_show(struct seq_file *m, void *v)
{
	unsigned int nr;

	raw_spin_lock_irq(&rbs_ctl_lock);
	nr = rbs_ctl_nr;
	raw_spin_unlock_irq(&rbs_ctl_lock);
	seq_printf(m, "threads %u\n", nr);
	seq_printf(m, "files %d\n", atomic_read(&rbs_ctl_files));
	seq_printf(m, "steps %llu\n", READ_ONCE(rbs_ctl_steps));
	seq_printf(m, "step_ns %llu\n", READ_ONCE(rbs_ctl_ns));
	seq_printf(m, "step_max_ns %llu\n", READ_ONCE(rbs_ctl_max_ns));
	seq_printf(m, "missed %llu\n", READ_ONCE(rbs_ctl_missed));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rbs_ctl_stats);

#ifdef CONFIG_SYSCTL
static struct ctl_table rbs_ctl_sysctls[] = {
	{
		.procname	= "sched_rbs_ctl_hz",
		.data		= &sysctl_sched_rbs_ctl_hz,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= &rbs_ctl_hz_max,
	},
	{
		.procname	= "sched_rbs_ctl_kp",
		.data		= &sysctl_sched_rbs_ctl_kp,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &rbs_ctl_gain_max,
	},
	{
		.procname	= "sched_rbs_ctl_ki",
		.data		= &sysctl_sched_rbs_ctl_ki,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &rbs_ctl_gain_max,
	},
	{
		.procname	= "sched_rbs_ctl_kd",
		.data		= &sysctl_sched_rbs_ctl_kd,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &rbs_ctl_gain_max,
	},
	{
		.procname	= "sched_rbs_ctl_period_us",
		.data		= &sysctl_sched_rbs_ctl_period_us,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &rbs_ctl_period_min,
		.extra2		= &rbs_ctl_period_max,
	},
	{
		.procname	= "sched_rbs_ctl_adapt_period",
		.data		= &sysctl_sched_rbs_ctl_adapt_period,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};
#endif

static int __init rbs_ctl_timer_init(void)
{
	hrtimer_init(&rbs_ctl_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	rbs_ctl_timer.function = rbs_ctl_timer_fn;
	return 0;
}
early_initcall(rbs_ctl_timer_init);

static int __init rbs_ctl_init(void)
{
	struct dentry *sched = debugfs_lookup("sched", NULL);

#ifdef CONFIG_SYSCTL
	register_sysctl_init("kernel", rbs_ctl_sysctls);
#endif
	if (!IS_ERR_OR_NULL(sched)) {
		debugfs_create_file("rbs_ctl", 0444, sched, NULL,
				    &rbs_ctl_stats_fops);
		dput(sched);
	}
	return 0;
}
late_initcall(rbs_ctl_init);

#ifdef CONFIG_SCHED_MULTISCHED_KUNIT_TEST
#include "rbs_ctl_test.c"
#endif
