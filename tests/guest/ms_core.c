// SPDX-License-Identifier: GPL-2.0
/*
 * The classes under core scheduling (the stress boot: two cores of two
 * SMT threads each, scripts/qemu-run --threads 2).
 *
 *   ms_core pair CLASS       hogs of CLASS, weights 2 and 1, on the two
 *                            threads of one core, each with a cookie
 *                            of its own
 *   ms_core rank HIGH LOW    a hog of HIGH on one thread and one of LOW
 *                            on the other, with different cookies
 *
 * CLASS is bvt or vtrr; HIGH and LOW are bvt, vtrr, bebs, rbs, fifo or other
 * (rbs: a reservation of 30 ms every 100 ms). Tasks of different cookies
 * never run on a core at once: the core runs the cookie of the sibling
 * whose pick ranks highest (prio_less()) and forces the other sibling
 * idle. Both modes measure the hogs' CPU time over 2 s after half a
 * second's warm-up, and check that together they had at most 110% of
 * the 2 s:
 * with core scheduling off they would have 200%. The 10 points are for
 * the moments before a sibling sees the core's new cookie and for
 * TCG's timing.
 *
 * pair: of what the two ran, the hog of weight 2 must have 2/3 within 10
 * points. Each class compares its tasks on the two CPUs by their progress
 * since the core's last pick (ms_core_less()), and the running one gives
 * the core up at a tick (BVT) or at the end of its quantum (VTRR), which
 * moves 2 s's share by a fifth of a point; the 10 points are for TCG's
 * vCPU threads, which share 2 host CPUs among 4. Without the class's
 * order both tasks ranked as fair by a se.vruntime they never advance,
 * and one had the core but for what its sibling's class server (50 ms a
 * second) took: about 95 to 5.
 *
 * rank: HIGH's class is above LOW's. HIGH must have at least 85% of the
 * 2 s (rbs: its 30%, less 5 points), and LOW at most 15% more than what
 * HIGH leaves it (rbs: 70%); LOW runs while HIGH does not, and through
 * its class's server, which takes 50 ms a second whatever the sibling
 * runs (not fair's, which counts its CPU's forced idle time as fair's
 * and so never finds fair starved: 0.0 to 0.2% in the boots of
 * 2026-11-27). The 15 points are the server's 5 and 10 for TCG. Without
 * the classes' ranks HIGH and LOW ranked alike, as fair, and the core
 * went by a se.vruntime neither advances; an RBS reservation lost its
 * core to the RT task.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include "ms_test.h"

#define WARMUP_US	500000
#define WINDOW_US	2000000


/* Two SMT siblings, neither CPU 0, or -1. */
static int siblings(int *a, int *b)
{
	char path[96], buf[64];
	int cpu, x, y;

	for (cpu = 1; cpu < 64; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
			 cpu);
		buf[0] = 0;
		ms_read_str(path, buf, sizeof(buf));
		if (!buf[0])
			break;
		if ((sscanf(buf, "%d-%d", &x, &y) == 2 ||
		     sscanf(buf, "%d,%d", &x, &y) == 2) && x > 0 && y > x) {
			*a = x;
			*b = y;
			return 0;
		}
	}
	return -1;
}

/* A hog of @policy (weight @weight) on @cpu, with a cookie of its own. */
static pid_t start_hog(int cpu, int policy, unsigned int weight)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct sched_attr a = { .size = sizeof(a), .sched_policy = SCHED_RBS,
				.sched_runtime = 30000000,
				.sched_period = 100000000 };
	unsigned long long cookie = 0;
	int err = 0;
	pid_t pid;

	pid = ms_start_hog_weight(cpu, policy == SCHED_RBS ||
				  policy == SCHED_FIFO ? SCHED_OTHER : policy,
				  weight, "ms_core");
	if (pid < 0)
		return -1;
	if (!err && policy == SCHED_RBS &&
	    syscall(SYS_sched_setattr, pid, &a, 0)) {
		perror("ms_core: SCHED_RBS");
		err = 1;
	}
	if (!err && policy == SCHED_FIFO &&
	    sched_setscheduler(pid, SCHED_FIFO, &sp)) {
		perror("ms_core: SCHED_FIFO");
		err = 1;
	}
	if (!err && (prctl(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, pid,
			   PR_SCHED_CORE_SCOPE_THREAD, 0) ||
		     prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET, pid,
			   PR_SCHED_CORE_SCOPE_THREAD, &cookie) || !cookie)) {
		perror("ms_core: PR_SCHED_CORE");
		err = 1;
	}
	if (err && pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	return err ? -1 : pid;
}

static void stop(pid_t *pid)
{
	int i;

	for (i = 0; i < 2; i++)
		if (pid[i] > 0) {
			kill(pid[i], SIGKILL);
			waitpid(pid[i], NULL, 0);
		}
}

/* CPU time of the two hogs over the window, in % of the window's length. */
static int measure(pid_t *pid, double *pct)
{
	unsigned long long c0[2], c1[2];
	long long t0, t1;
	int i;

	usleep(WARMUP_US);
	t0 = now_ns();
	for (i = 0; i < 2; i++)
		c0[i] = cpu_ns(pid[i]);
	usleep(WINDOW_US);
	for (i = 0; i < 2; i++)
		c1[i] = cpu_ns(pid[i]);
	t1 = now_ns();
	for (i = 0; i < 2; i++)
		pct[i] = 100.0 * (c1[i] - c0[i]) / (t1 - t0);
	return 0;
}

static int run(int cpu[2], const char *name[2], int policy[2],
	       unsigned int weight[2], double *pct)
{
	pid_t pid[2] = { -1, -1 };
	int i;

	for (i = 0; i < 2; i++) {
		pid[i] = start_hog(cpu[i], policy[i], weight[i]);
		if (pid[i] < 0) {
			printf("cannot start the %s hog on cpu%d\n", name[i],
			       cpu[i]);
			stop(pid);
			return 1;
		}
	}
	measure(pid, pct);
	stop(pid);
	for (i = 0; i < 2; i++)
		printf("%s hog on cpu%d (weight %u, a cookie of its own): %.1f%% of %.1f s\n",
		       name[i], cpu[i], weight[i], pct[i], WINDOW_US / 1e6);
	if (pct[0] + pct[1] > 110) {
		printf("together %.1f%%, over 110%%: core scheduling kept them apart too little\n",
		       pct[0] + pct[1]);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int weight[2] = { 0, 0 };
	const char *name[2];
	int cpu[2], policy[2], bad;
	double pct[2], s, want;
	cpu_set_t set;

	if (argc < 3 || (strcmp(argv[1], "pair") && strcmp(argv[1], "rank")) ||
	    (!strcmp(argv[1], "pair") &&
	     (argc != 3 || (ms_policy_of(argv[2]) != SCHED_BVT &&
			    ms_policy_of(argv[2]) != SCHED_VTRR))) ||
	    (!strcmp(argv[1], "rank") &&
	     (argc != 4 || ms_policy_of(argv[2]) < 0 || ms_policy_of(argv[3]) < 0))) {
		fprintf(stderr, "usage: ms_core pair bvt|vtrr\n"
			"       ms_core rank HIGH LOW  (bvt, vtrr, bebs, rbs, fifo, other)\n");
		return 2;
	}
	if (siblings(&cpu[0], &cpu[1])) {
		printf("no two SMT siblings besides cpu0 (qemu-run --threads 2 wanted)\n");
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("ms_core: sched_setaffinity");
		return 1;
	}
	if (!strcmp(argv[1], "pair")) {
		name[0] = name[1] = argv[2];
		policy[0] = policy[1] = ms_policy_of(argv[2]);
		weight[0] = 2048;
		weight[1] = 1024;
		if (run(cpu, name, policy, weight, pct))
			return 1;
		s = 100.0 * pct[0] / (pct[0] + pct[1] + 1e-9);
		printf("the hog of weight 2 had %.1f%% of what the two ran (want 66.7 within 10)\n",
		       s);
		return s < 56.7 || s > 76.7;
	}
	name[0] = argv[2];
	name[1] = argv[3];
	policy[0] = ms_policy_of(argv[2]);
	policy[1] = ms_policy_of(argv[3]);
	if (run(cpu, name, policy, weight, pct))
		return 1;
	want = policy[0] == SCHED_RBS ? 30 : 100;
	bad = pct[0] < want - (want == 100 ? 15 : 5) ||
	      pct[1] > 100 - want + 15;
	printf("%s must have %.0f%% or more, %s %.0f%% or less\n", name[0],
	       want - (want == 100 ? 15 : 5), name[1], 100 - want + 15);
	return bad;
}
