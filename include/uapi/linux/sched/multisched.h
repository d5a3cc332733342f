/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * multisched: the BVT, VTRR, BEBS and RBS scheduling classes.
 *
 * Threads enter a class with sched_setattr(2) and the policies below. The
 * class parameters travel in the SCHED_ATTR_SIZE_VER2 tail of struct
 * sched_attr (<linux/sched/types.h>):
 *
 *   sched_weight      BVT/VTRR share, BEBS/RBS importance; 0 derives the
 *                     weight from sched_nice (nice 0 = 1024, as CFS).
 *   sched_ms_flags    MS_FLAG_* below.
 *   sched_warp        BVT warp W, in nanoseconds of virtual time.
 *   sched_warp_limit  BVT warp time limit L, in nanoseconds; 0 = no limit.
 *   sched_unwarp      BVT unwarp time requirement U, in nanoseconds.
 *
 * BEBS and RBS take their budget and period from sched_runtime and
 * sched_period, in nanoseconds, as SCHED_DEADLINE does.
 *
 * An RBS thread with MS_FLAG_RBS_FEEDBACK has its budget and period set by
 * the feedback controller rbs_ctl from its progress, which it reports by
 * registering pipes and sockets with prctl(PR_SCHED_RBS_CTL)
 * (<linux/prctl.h>); it gives no budget and period, a budget alone (a
 * proportion of the controller's default period), or both (held as given).
 *
 * An RBS reservation made with MS_FLAG_RBS_SHARED may be joined by other
 * threads: sched_setattr(2) with SCHED_RBS, MS_FLAG_RBS_JOIN, no budget
 * or period, and in the SCHED_ATTR_SIZE_VER3 field sched_join_tid a
 * member of it. Its members share one budget; it lives while one of them
 * is in it. A member that asks for MS_FLAG_RBS_SHARED with a budget and
 * a period changes the reservation for all of them.
 *
 * Callers that pass the 48-byte (VER0) or 56-byte (VER1) structure, and
 * sched_setparam(2) and sched_setscheduler(2), send no class parameters:
 * a task that stays in its policy keeps the ones it has, one that enters
 * the policy gets weight from nice and every other one zero; so does
 * SCHED_FLAG_KEEP_POLICY with an all-zero tail. Entering BVT, VTRR or
 * BEBS from another policy needs CAP_SYS_NICE or a non-zero RLIMIT_RTPRIO,
 * as SCHED_FIFO does, unless it is the normal class. Invalid values
 * fail with EINVAL, admission failures with EBUSY, and an unprivileged
 * caller asking for more than it has (a larger weight or warp, the
 * reserved level, a reservation) with EPERM.
 */
#ifndef _UAPI_LINUX_SCHED_MULTISCHED_H
#define _UAPI_LINUX_SCHED_MULTISCHED_H

/* Scheduling policies, after SCHED_EXT (7). */
#define SCHED_BVT		8	/* Borrowed Virtual Time */
#define SCHED_VTRR		9	/* Virtual-Time Round-Robin */
#define SCHED_BEBS		10	/* EDF with best-effort bandwidth servers */
#define SCHED_RBS		11	/* proportion/period reservations */

/* sched_ms_flags */
#define MS_FLAG_WARP_OFF	0x01	/* BVT: keep W but do not warp */
#define MS_FLAG_WARP_SIGNAL	0x02	/* BVT: warp only while in a signal handler */
#define MS_FLAG_RESERVED	0x04	/* BVT: reserved-effort level (CAP_SYS_NICE) */
#define MS_FLAG_BEBS_PERIODIC	0x08	/* BEBS: periodic real-time task, admitted */
#define MS_FLAG_RBS_IO		0x10	/* RBS: priority-inheritance I/O server */
#define MS_FLAG_RBS_FEEDBACK	0x20	/* RBS: rbs_ctl sets proportion and period */
#define MS_FLAG_BEBS_OVERRUN	0x40	/* BEBS: SIGXCPU when a periodic job overruns */
#define MS_FLAG_RBS_BACKGROUND	0x80	/* RBS: run out of budget when the CPU is idle */
#define MS_FLAG_RBS_SHARED	0x100	/* RBS: a reservation other threads may join */
#define MS_FLAG_RBS_JOIN	0x200	/* RBS: join sched_join_tid's shared reservation */

#define MS_FLAGS_BVT		(MS_FLAG_WARP_OFF | MS_FLAG_WARP_SIGNAL | \
				 MS_FLAG_RESERVED)
#define MS_FLAGS_BEBS		(MS_FLAG_BEBS_PERIODIC | MS_FLAG_BEBS_OVERRUN)
#define MS_FLAGS_RBS		(MS_FLAG_RBS_IO | MS_FLAG_RBS_FEEDBACK | \
				 MS_FLAG_RBS_BACKGROUND | MS_FLAG_RBS_SHARED | \
				 MS_FLAG_RBS_JOIN)
#define MS_FLAGS_ALL		(MS_FLAGS_BVT | MS_FLAGS_BEBS | MS_FLAGS_RBS)

/* Limits, checked by sched_setattr(2). Times are in nanoseconds. */
#define MS_WEIGHT_MIN		1ULL
#define MS_WEIGHT_MAX		100000ULL	/* above nice -20's 88761 */
#define MS_WARP_MAX		10000000000LL	/* 10 s of virtual time */
#define MS_WARP_LIMIT_MIN	10000ULL	/* 10 us: hrtimer accuracy */
#define MS_WARP_LIMIT_MAX	10000000000ULL	/* 10 s */
#define MS_UNWARP_MAX		10000000000ULL	/* 10 s */
#define MS_PERIOD_MIN		100000ULL	/* 100 us: guard against timer DoS */
#define MS_PERIOD_MAX		4000000000ULL	/* 4 s, as SCHED_DEADLINE */
#define MS_RUNTIME_MIN		10000ULL	/* 10 us */

#endif /* _UAPI_LINUX_SCHED_MULTISCHED_H */
