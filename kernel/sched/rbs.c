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
 * place) with its runqueue state, but it accepts no tasks yet: until the
 * algorithm above lands here, ms_check_attr() refuses SCHED_RBS with EINVAL
 * and it cannot be chosen as the class of SCHED_NORMAL tasks, so
 * pick_task_rbs() can never find a task.
 */
#include <linux/mmu_context.h>

#include "sched.h"

static struct task_struct *pick_task_rbs(struct rq *rq)
{
	WARN_ON_ONCE(rq->ms.rbs.nr_running);
	return NULL;
}

DEFINE_SCHED_CLASS(rbs) = {
	.pick_task	= pick_task_rbs,
};
