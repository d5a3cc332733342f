// SPDX-License-Identifier: GPL-2.0
/*
 * EDF with best-effort bandwidth servers (BEBS) scheduling class
 *
 * Periodic real-time tasks are admitted against the CPU's bandwidth and run
 * earliest deadline first. Every other task is served by a best-effort
 * bandwidth server of its own, a budget per period scheduled by EDF with
 * the real-time tasks, whose budget and period adapt to how the task
 * behaves; bandwidth a server or task leaves unused is reclaimed as slack.
 *
 * Paper: S. Banachowski, T. Bisson and S. A. Brandt, "Integrating
 * best-effort scheduling into a real-time system".
 *
 * Status: the class is linked into the hierarchy (see multisched.c for its
 * place), but it accepts no tasks yet (ms_bebs_class.ready): until the
 * algorithm above lands here, ms_check_attr() refuses SCHED_BEBS with EINVAL
 * and it cannot be chosen as the class of SCHED_NORMAL tasks, so
 * pick_task_bebs() can never find a task.
 */
#include <linux/mmu_context.h>

#include "sched.h"

static struct task_struct *pick_task_bebs(struct rq *rq)
{
	return NULL;
}

DEFINE_SCHED_CLASS(bebs) = {
	.pick_task	= pick_task_bebs,
};

static void bebs_init_rq(struct rq *rq, int cpu)
{
}

/*
 * A periodic task gives a budget and period (and a deadline within them);
 * a best-effort server may leave both to adapt. No warp.
 */
static int bebs_validate(const struct sched_attr *attr)
{
	u32 flags = attr->sched_ms_flags;

	if (attr->sched_warp || attr->sched_warp_limit || attr->sched_unwarp)
		return -EINVAL;
	if (!(flags & MS_FLAG_BEBS_PERIODIC) && !attr->sched_runtime &&
	    !attr->sched_deadline && !attr->sched_period)
		return 0;
	if (!ms_period_valid(attr->sched_runtime, attr->sched_period))
		return -EINVAL;
	if (attr->sched_deadline &&
	    (attr->sched_deadline < attr->sched_runtime ||
	     attr->sched_deadline > attr->sched_period))
		return -EINVAL;
	return 0;
}

/* A periodic task holds a reservation: CAP_SYS_NICE, as SCHED_DEADLINE. */
static bool bebs_asks_for_more(struct task_struct *p,
			       const struct sched_attr *attr, bool same)
{
	return attr->sched_ms_flags & MS_FLAG_BEBS_PERIODIC;
}

const struct ms_class ms_bebs_class = {
	.name		= "bebs",
	.policy		= SCHED_BEBS,
	.class		= &bebs_sched_class,
	.ready		= false,
	.general	= true,
	.flags		= MS_FLAGS_BEBS,
	.validate	= bebs_validate,
	.asks_for_more	= bebs_asks_for_more,
	.init_rq	= bebs_init_rq,
};
