// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual-Time Round-Robin (VTRR) scheduling class
 *
 * Clients sit in a run queue sorted by share and are served round-robin,
 * one time quantum Q at a time. A time counter bounds how many quanta each
 * client may receive per scheduling cycle and the virtual finishing time
 * VFT decides, through the VFT inequality against the queue virtual time
 * QVT, whether the next client runs or the scan returns to the head. Every
 * decision is O(1) while the service error stays within a few quanta.
 *
 * Paper: J. Nieh, C. Vaill and H. Zhong, "Virtual-Time Round-Robin: an O(1)
 * proportional share scheduler", USENIX Annual Technical Conference 2001.
 *
 * Status: the class is linked into the hierarchy (see multisched.c for its
 * place) with its runqueue state, but it accepts no tasks yet: until the
 * algorithm above lands here, ms_check_attr() refuses SCHED_VTRR with EINVAL
 * and it cannot be chosen as the class of SCHED_NORMAL tasks, so
 * pick_task_vtrr() can never find a task.
 */
#include <linux/mmu_context.h>

#include "sched.h"

static struct task_struct *pick_task_vtrr(struct rq *rq)
{
	WARN_ON_ONCE(rq->ms.vtrr.nr_running);
	return NULL;
}

DEFINE_SCHED_CLASS(vtrr) = {
	.pick_task	= pick_task_vtrr,
};
