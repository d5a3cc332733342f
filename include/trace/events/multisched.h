/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the multisched classes. The common events come first;
 * each class adds its own section (BVT warps and dispatch decisions, VTRR
 * decisions and counter resets, BEBS releases and server adaptation, RBS
 * replenishments and controller steps) when its algorithm lands.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM multisched

#if !defined(_TRACE_MULTISCHED_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MULTISCHED_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

/*
 * ms_setattr - a task's multisched parameters were set
 */
TRACE_EVENT(ms_setattr,
	    TP_PROTO(struct task_struct *p, int policy),
	    TP_ARGS(p, policy),
	    TP_STRUCT__entry(__array(char, comm, TASK_COMM_LEN)
			     __field(pid_t, pid)
			     __field(int, policy)
			     __field(u32, weight)
			     __field(u32, flags)
			     __field(s64, warp)
			     __field(u64, warp_limit)
			     __field(u64, unwarp)
			     __field(u64, runtime)
			     __field(u64, period)),
	    TP_fast_assign(memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
			   __entry->pid = p->pid;
			   __entry->policy = policy;
			   __entry->weight = p->ms.weight;
			   __entry->flags = p->ms.flags;
			   __entry->warp = p->ms.warp;
			   __entry->warp_limit = p->ms.warp_limit;
			   __entry->unwarp = p->ms.unwarp;
			   __entry->runtime = p->ms.runtime;
			   __entry->period = p->ms.period),
	    TP_printk("comm=%s pid=%d policy=%d weight=%u flags=0x%x warp=%lld L=%llu U=%llu runtime=%llu period=%llu",
		      __entry->comm, __entry->pid, __entry->policy,
		      __entry->weight, __entry->flags, __entry->warp,
		      __entry->warp_limit, __entry->unwarp, __entry->runtime,
		      __entry->period)
);

/*
 * ms_normal_class - SCHED_NORMAL tasks moved to another class
 */
TRACE_EVENT(ms_normal_class,
	    TP_PROTO(const char *from, const char *to, unsigned int moved),
	    TP_ARGS(from, to, moved),
	    TP_STRUCT__entry(__string(from, from)
			     __string(to, to)
			     __field(unsigned int, moved)),
	    TP_fast_assign(__assign_str(from);
			   __assign_str(to);
			   __entry->moved = moved),
	    TP_printk("from=%s to=%s moved=%u",
		      __get_str(from), __get_str(to), __entry->moved)
);

#ifdef CONFIG_SCHED_BVT
/* BVT ------------------------------------------------------------------ */

/*
 * bvt_warp - a BVT entity started or stopped warping, and why: "allowed"
 * (it asks to and L and U permit it), "U" (it asks to, but U has not
 * passed since its last warped stretch: a U hit), "L" (it ran its warp
 * time limit: an L hit), "sleep" (it blocked) or "off" (it stopped asking:
 * its signal handler returned, MS_FLAG_WARP_OFF, or for the best-effort
 * aggregate, pid -1, its next thread is not warped)
 */
TRACE_EVENT(bvt_warp,
	    TP_PROTO(pid_t pid, int level, bool warped, const char *why,
		     u64 avt, u64 warp_used),
	    TP_ARGS(pid, level, warped, why, avt, warp_used),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(int, level)
			     __field(bool, warped)
			     __string(why, why)
			     __field(u64, avt)
			     __field(u64, warp_used)),
	    TP_fast_assign(__entry->pid = pid;
			   __entry->level = level;
			   __entry->warped = warped;
			   __assign_str(why);
			   __entry->avt = avt;
			   __entry->warp_used = warp_used),
	    TP_printk("pid=%d level=%d %s why=%s A=%llu warped_ns=%llu",
		      __entry->pid, __entry->level,
		      __entry->warped ? "warp" : "unwarp",
		      __get_str(why), __entry->avt, __entry->warp_used)
);

/*
 * bvt_pick - the BVT class chose @p to run: "E" (lowest effective virtual
 * time at each level) or "stay" (the running thread, within C)
 */
TRACE_EVENT(bvt_pick,
	    TP_PROTO(struct task_struct *p, u64 evt, u64 svt, const char *why),
	    TP_ARGS(p, evt, svt, why),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(int, level)
			     __field(u64, evt)
			     __field(u64, avt)
			     __field(u64, svt)
			     __string(why, why)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->level = p->ms.run.state.bvt.level;
			   __entry->evt = evt;
			   __entry->avt = p->ms.run.state.bvt.avt;
			   __entry->svt = svt;
			   __assign_str(why)),
	    TP_printk("pid=%d level=%d E=%llu A=%llu SVT=%llu why=%s",
		      __entry->pid, __entry->level, __entry->evt,
		      __entry->avt, __entry->svt, __get_str(why))
);
#endif /* CONFIG_SCHED_BVT */

#ifdef CONFIG_SCHED_VTRR
/*
 * vtrr_pick - the VTRR class chose @p for the next quantum: by the time-
 * counter "invariant", the "vft" inequality, a return to the "head", or a
 * "reset" (a return to the head that ended the scheduling cycle)
 */
TRACE_EVENT(vtrr_pick,
	    TP_PROTO(struct task_struct *p, u32 share, u32 counter, u64 vft,
		     u64 qvt, const char *why),
	    TP_ARGS(p, share, counter, vft, qvt, why),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u32, share)
			     __field(u32, counter)
			     __field(u64, vft)
			     __field(u64, qvt)
			     __string(why, why)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->share = share;
			   __entry->counter = counter;
			   __entry->vft = vft;
			   __entry->qvt = qvt;
			   __assign_str(why)),
	    TP_printk("pid=%d share=%u counter=%u VFT=%llu QVT=%llu why=%s",
		      __entry->pid, __entry->share, __entry->counter,
		      __entry->vft, __entry->qvt, __get_str(why))
);

/*
 * vtrr_reset - a VTRR scheduling cycle ended on @cpu: the time counters of
 * its @nr clients are their shares again (done lazily, by cycle number)
 */
TRACE_EVENT(vtrr_reset,
	    TP_PROTO(int cpu, u64 cycle, unsigned int nr, u64 total_shares),
	    TP_ARGS(cpu, cycle, nr, total_shares),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(u64, cycle)
			     __field(unsigned int, nr)
			     __field(u64, total_shares)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->cycle = cycle;
			   __entry->nr = nr;
			   __entry->total_shares = total_shares),
	    TP_printk("cpu=%d cycle=%llu clients=%u total_shares=%llu",
		      __entry->cpu, __entry->cycle, __entry->nr,
		      __entry->total_shares)
);
#endif /* CONFIG_SCHED_VTRR */

#ifdef CONFIG_SCHED_BEBS
/*
 * bebs_release - a BEBS server was released at @now with deadline
 * @deadline, budget @budget and period @period (ns): when first queued
 * ("new"), by the wakeup rule ("wakeup"), at its release time ("period"),
 * or early, by slack reclamation ("slack")
 */
TRACE_EVENT(bebs_release,
	    TP_PROTO(struct task_struct *p, u64 now, u64 deadline, u64 budget,
		     u64 period, const char *why),
	    TP_ARGS(p, now, deadline, budget, period, why),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u64, now)
			     __field(u64, deadline)
			     __field(u64, budget)
			     __field(u64, period)
			     __string(why, why)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->now = now;
			   __entry->deadline = deadline;
			   __entry->budget = budget;
			   __entry->period = period;
			   __assign_str(why)),
	    TP_printk("pid=%d now=%llu deadline=%llu budget=%llu period=%llu why=%s",
		      __entry->pid, __entry->now, __entry->deadline,
		      __entry->budget, __entry->period, __get_str(why))
);

/*
 * bebs_expire - a BEBS server used its budget; it waits for @release
 */
TRACE_EVENT(bebs_expire,
	    TP_PROTO(struct task_struct *p, u64 e_avg, u64 release),
	    TP_ARGS(p, e_avg, release),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u64, e_avg)
			     __field(u64, release)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->e_avg = e_avg;
			   __entry->release = release),
	    TP_printk("pid=%d e_avg=%llu release=%llu",
		      __entry->pid, __entry->e_avg, __entry->release)
);

/*
 * bebs_adapt - a BEBS server's budget or period changed (section 4.3):
 * from @e_avg, the CPU's load @load (sum of weights) and @u_be (BW_UNIT
 * parts of 2^20); at a release, or, its period alone (@cut), when U_BE
 * shrank or L grew beside periodic tasks (section 4.4, bebs_shrink())
 */
TRACE_EVENT(bebs_adapt,
	    TP_PROTO(struct task_struct *p, u64 e_avg, u64 budget, u64 period,
		     u64 load, u64 u_be, bool cut),
	    TP_ARGS(p, e_avg, budget, period, load, u_be, cut),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u64, e_avg)
			     __field(u64, budget)
			     __field(u64, period)
			     __field(u64, load)
			     __field(u64, u_be)
			     __field(bool, cut)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->e_avg = e_avg;
			   __entry->budget = budget;
			   __entry->period = period;
			   __entry->load = load;
			   __entry->u_be = u_be;
			   __entry->cut = cut),
	    TP_printk("pid=%d e_avg=%llu budget=%llu period=%llu L=%llu U_BE=%llu why=%s",
		      __entry->pid, __entry->e_avg, __entry->budget,
		      __entry->period, __entry->load, __entry->u_be,
		      __entry->cut ? "cut" : "release")
);
/*
 * bebs_miss - a periodic BEBS task's job due at @deadline missed it: it
 * used its budget ("overrun") or ended at @now, past it ("late")
 */
TRACE_EVENT(bebs_miss,
	    TP_PROTO(struct task_struct *p, u64 deadline, u64 now, const char *why),
	    TP_ARGS(p, deadline, now, why),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u64, deadline)
			     __field(u64, now)
			     __string(why, why)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->deadline = deadline;
			   __entry->now = now;
			   __assign_str(why)),
	    TP_printk("pid=%d deadline=%llu now=%llu why=%s",
		      __entry->pid, __entry->deadline, __entry->now,
		      __get_str(why))
);
#endif /* CONFIG_SCHED_BEBS */

#ifdef CONFIG_SCHED_RBS
/*
 * rbs_throttle - an RBS reservation ran out of capacity at @now; it waits
 * for its head chunk, usable at @head_time
 */
TRACE_EVENT(rbs_throttle,
	    TP_PROTO(struct task_struct *p, u64 now, u64 head_time),
	    TP_ARGS(p, now, head_time),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u64, now)
			     __field(u64, head_time)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->now = now;
			   __entry->head_time = head_time),
	    TP_printk("pid=%d now=%llu head_time=%llu",
		      __entry->pid, __entry->now, __entry->head_time)
);

/*
 * rbs_replenish - a throttled RBS reservation's head chunk of @budget ns
 * came due, at @head_time; it was replenished at @now (up to 10 us before
 * @head_time if rbs_replenish_early() brought it forward)
 */
TRACE_EVENT(rbs_replenish,
	    TP_PROTO(struct task_struct *p, u64 now, u64 head_time, u64 budget),
	    TP_ARGS(p, now, head_time, budget),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u64, now)
			     __field(u64, head_time)
			     __field(u64, budget)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->now = now;
			   __entry->head_time = head_time;
			   __entry->budget = budget),
	    TP_printk("pid=%d now=%llu head_time=%llu budget=%llu",
		      __entry->pid, __entry->now, __entry->head_time,
		      __entry->budget)
);

/*
 * rbs_change - an RBS reservation's budget and period became @budget and
 * @period (ns), from @old_budget and @old_period (0 for a new server)
 */
TRACE_EVENT(rbs_change,
	    TP_PROTO(struct task_struct *p, u64 old_budget, u64 old_period,
		     u64 budget, u64 period),
	    TP_ARGS(p, old_budget, old_period, budget, period),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u64, old_budget)
			     __field(u64, old_period)
			     __field(u64, budget)
			     __field(u64, period)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->old_budget = old_budget;
			   __entry->old_period = old_period;
			   __entry->budget = budget;
			   __entry->period = period),
	    TP_printk("pid=%d old_budget=%llu old_period=%llu budget=%llu period=%llu",
		      __entry->pid, __entry->old_budget, __entry->old_period,
		      __entry->budget, __entry->period)
);

/*
 * rbs_ctl - the feedback controller's decision for thread @p at a step:
 * its kind (0 real-time, 1 aperiodic real-time, 2 real-rate, 3
 * miscellaneous), its pressure F and the PID's output Q (ppm, of a full
 * buffer and of the CPU), the allocation it wants and the one it gets
 * after squishing (ppm of the CPU), the period (ns), and the result of
 * the change (0, or -EBUSY when the CPU had no room for it)
 */
TRACE_EVENT(rbs_ctl,
	    TP_PROTO(struct task_struct *p, int kind, s64 pressure, s64 q,
		     s64 want, s64 alloc, u64 period, int ret),
	    TP_ARGS(p, kind, pressure, q, want, alloc, period, ret),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(int, kind)
			     __field(s64, pressure)
			     __field(s64, q)
			     __field(s64, want)
			     __field(s64, alloc)
			     __field(u64, period)
			     __field(int, ret)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->kind = kind;
			   __entry->pressure = pressure;
			   __entry->q = q;
			   __entry->want = want;
			   __entry->alloc = alloc;
			   __entry->period = period;
			   __entry->ret = ret),
	    TP_printk("pid=%d kind=%d pressure=%lld q=%lld want=%lld alloc=%lld period=%llu ret=%d",
		      __entry->pid, __entry->kind, __entry->pressure,
		      __entry->q, __entry->want, __entry->alloc,
		      __entry->period, __entry->ret)
);

/*
 * rbs_background - a throttled RBS reservation with MS_FLAG_RBS_BACKGROUND
 * starts (@on) or stops running on an otherwise idle CPU
 */
TRACE_EVENT(rbs_background,
	    TP_PROTO(struct task_struct *p, bool on),
	    TP_ARGS(p, on),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(bool, on)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->on = on),
	    TP_printk("pid=%d on=%d", __entry->pid, __entry->on)
);

/*
 * rbs_split - an RBS reservation blocked or was preempted at @now with
 * budget left (Quest's algorithm 12): the @used ns it ran of its head
 * chunk come back as a chunk of their own at @back; @full if its queue
 * was full, and they joined its last chunk, usable at the later of its
 * time and @back
 */
TRACE_EVENT(rbs_split,
	    TP_PROTO(struct task_struct *p, u64 now, u64 used, u64 back,
		     bool full),
	    TP_ARGS(p, now, used, back, full),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u64, now)
			     __field(u64, used)
			     __field(u64, back)
			     __field(bool, full)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->now = now;
			   __entry->used = used;
			   __entry->back = back;
			   __entry->full = full),
	    TP_printk("pid=%d now=%llu used=%llu back=%llu full=%d",
		      __entry->pid, __entry->now, __entry->used,
		      __entry->back, __entry->full)
);

/*
 * rbs_merge - @merged chunks of an RBS reservation that came due before
 * its head chunk, used from @now, would run out joined it (Quest's
 * algorithm 13, at a wakeup or when a chunk is begun late): the head now
 * holds @budget ns
 */
TRACE_EVENT(rbs_merge,
	    TP_PROTO(struct task_struct *p, u64 now, unsigned int merged,
		     u64 budget),
	    TP_ARGS(p, now, merged, budget),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u64, now)
			     __field(unsigned int, merged)
			     __field(u64, budget)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->now = now;
			   __entry->merged = merged;
			   __entry->budget = budget),
	    TP_printk("pid=%d now=%llu merged=%u budget=%llu",
		      __entry->pid, __entry->now, __entry->merged,
		      __entry->budget)
);

/*
 * rbs_io_request - an RBS I/O server (MS_FLAG_RBS_IO) was asked for work
 * at @asked (ns, the shortest period of the reservations whose threads
 * woke it); it runs at @period from now on, with @budget ns left now and
 * its eligibility time at @eligible
 */
TRACE_EVENT(rbs_io_request,
	    TP_PROTO(struct task_struct *p, u64 now, u64 asked, u64 period,
		     u64 eligible, u64 budget),
	    TP_ARGS(p, now, asked, period, eligible, budget),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u64, now)
			     __field(u64, asked)
			     __field(u64, period)
			     __field(u64, eligible)
			     __field(u64, budget)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->now = now;
			   __entry->asked = asked;
			   __entry->period = period;
			   __entry->eligible = eligible;
			   __entry->budget = budget),
	    TP_printk("pid=%d now=%llu asked=%llu period=%llu eligible=%llu budget=%llu",
		      __entry->pid, __entry->now, __entry->asked,
		      __entry->period, __entry->eligible, __entry->budget)
);
#endif /* CONFIG_SCHED_RBS */

#endif /* _TRACE_MULTISCHED_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
