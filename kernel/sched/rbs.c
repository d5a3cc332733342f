// SPDX-License-Identifier: GPL-2.0
/*
 * Reservation-based (RBS) scheduling class
 *
 * A thread holds a reservation of a proportion of the CPU per period,
 * admission-controlled and enforced as a sporadic server: budget consumed
 * in a period is replenished one period after it was used. Threads doing
 * I/O are served by priority-inheritance bandwidth-preserving servers, and
 * the rbs_ctl feedback controller sets proportion and period from each
 * thread's measured progress.
 *
 * Paper: D. C. Steere et al., "A feedback-driven proportion allocator for
 * real-rate scheduling", OSDI 1999, with the sporadic and
 * priority-inheritance bandwidth-preserving servers of the Quest paper
 * (M. Danish, Y. Li and R. West, "Virtual-CPU scheduling in the Quest
 * operating system").
 *
 * Status: the class is linked into the hierarchy (see multisched.c for its
 * place), but it accepts no tasks yet (ms_rbs_class.ready): until the
 * algorithm above lands here, ms_check_attr() refuses SCHED_RBS with EINVAL
 * and it cannot be chosen as the class of SCHED_NORMAL tasks, so
 * pick_task_rbs() can never find a task.
 */
#include <linux/mmu_context.h>

#include "sched.h"

static struct task_struct *pick_task_rbs(struct rq *rq)
{
	return NULL;
}

DEFINE_SCHED_CLASS(rbs) = {
	.pick_task	= pick_task_rbs,
};

static void rbs_init_rq(struct rq *rq, int cpu)
{
}

/*
 * A reservation gives a budget and a period; with MS_FLAG_RBS_FEEDBACK
 * the controller may choose both. No warp, no separate deadline.
 */
static int rbs_validate(const struct sched_attr *attr)
{
	if (attr->sched_warp || attr->sched_warp_limit || attr->sched_unwarp ||
	    attr->sched_deadline)
		return -EINVAL;
	if ((attr->sched_ms_flags & MS_FLAG_RBS_FEEDBACK) &&
	    !attr->sched_runtime && !attr->sched_period)
		return 0;
	if (!ms_period_valid(attr->sched_runtime, attr->sched_period))
		return -EINVAL;
	return 0;
}

/* Every RBS task holds a reservation: CAP_SYS_NICE, as SCHED_DEADLINE. */
static bool rbs_asks_for_more(struct task_struct *p,
			      const struct sched_attr *attr, bool same)
{
	return true;
}

const struct ms_class ms_rbs_class = {
	.name		= "rbs",
	.policy		= SCHED_RBS,
	.class		= &rbs_sched_class,
	.ready		= false,
	.general	= false,
	.flags		= MS_FLAGS_RBS,
	.validate	= rbs_validate,
	.asks_for_more	= rbs_asks_for_more,
	.init_rq	= rbs_init_rq,
};
