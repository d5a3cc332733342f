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
 * place) with its runqueue state, but it accepts no tasks yet: until the
 * algorithm above lands here, ms_check_attr() refuses SCHED_BEBS with EINVAL
 * and it cannot be chosen as the class of SCHED_NORMAL tasks, so
 * pick_task_bebs() can never find a task.
 */
#include <linux/mmu_context.h>

#include "sched.h"

static struct task_struct *pick_task_bebs(struct rq *rq)
{
	WARN_ON_ONCE(rq->ms.bebs.nr_running);
	return NULL;
}

DEFINE_SCHED_CLASS(bebs) = {
	.pick_task	= pick_task_bebs,
};
