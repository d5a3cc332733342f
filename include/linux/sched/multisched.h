/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_MULTISCHED_H
#define _LINUX_SCHED_MULTISCHED_H

#include <linux/types.h>

/*
 * struct sched_ms_entity - a task's multisched parameters
 *
 * What sched_setattr(2) stored for a task in one of the multisched
 * policies, in the units of <uapi/linux/sched/multisched.h>; all zero for
 * the other policies. Written under the task's rq lock and pi_lock (from
 * __sched_setscheduler()); a class reads it under the rq lock.
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
};

#endif /* _LINUX_SCHED_MULTISCHED_H */
