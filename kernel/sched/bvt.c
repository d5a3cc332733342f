// SPDX-License-Identifier: GPL-2.0
/*
 * Borrowed Virtual Time (BVT) scheduling class
 *
 * Every thread advances an actual virtual time A at a rate inversely
 * proportional to its weight while it runs; the runnable thread with the
 * lowest effective virtual time E = A - (warping ? W : 0) runs next. A
 * latency-sensitive thread borrows against its future share by warping
 * back W, bounded by the warp time limit L and the unwarp time requirement
 * U. Switches between threads of equal claim are held off by the context
 * switch allowance C, and a thread waking from a voluntary sleep has its A
 * raised to the scheduler virtual time SVT so that sleeping earns no credit.
 *
 * Paper: K. J. Duda and D. R. Cheriton, "Borrowed-Virtual-Time (BVT)
 * scheduling: supporting latency-sensitive threads in a general-purpose
 * scheduler", SOSP 1999.
 *
 * Status: the class is linked into the hierarchy (see multisched.c for its
 * place) with its runqueue state, but it accepts no tasks yet: until the
 * algorithm above lands here, ms_check_attr() refuses SCHED_BVT with EINVAL
 * and it cannot be chosen as the class of SCHED_NORMAL tasks, so
 * pick_task_bvt() can never find a task.
 */
#include <linux/mmu_context.h>

#include "sched.h"

static struct task_struct *pick_task_bvt(struct rq *rq)
{
	WARN_ON_ONCE(rq->ms.bvt.nr_running);
	return NULL;
}

DEFINE_SCHED_CLASS(bvt) = {
	.pick_task	= pick_task_bvt,
};
