// SPDX-License-Identifier: GPL-2.0
/*
 * The classes on a nohz_full CPU (the nohz boot: nohz_full=1 on two CPUs).
 *
 *   ms_nohz share CLASS   two hogs of CLASS on the nohz_full CPU
 *   ms_nohz lone CLASS    one hog of CLASS alone there
 *
 * CLASS is bvt, vtrr, bebs, rbs, fifo or other; rbs's hogs are the
 * members of one shared reservation of 40 ms every 100 ms, which runs
 * in the background when out of budget (MS_FLAG_RBS_BACKGROUND), so
 * that the CPU never idles and its tick would run at HZ. Both modes print the local
 * timer interrupts the CPU took per second (LOC of /proc/interrupts:
 * the tick and every hrtimer) while the hogs ran; with the tick on that
 * is at least HZ, 1000 in the test kernel.
 *
 * share: BVT and VTRR end a turn from the tick (C = 2 ms, the VTRR
 * quantum 4 ms), and so do the members of a shared RBS reservation (a
 * tick each), so the CPU must keep its tick while two of their tasks
 * are queued (ms_can_stop_tick()). The RBS hogs' shares are of what the
 * two ran, as the others'. Sampled every 100 ms for 2 s after a
 * second's warm-up, each hog must have 50% within 2 points over the 2 s
 * (issue 13's bound) and at least 30% of every 100 ms window: a turn is
 * at most C or the quantum plus a 1 ms tick, which moves a window's
 * share by 5 points, and 15 more are left for TCG. With the tick
 * stopped only the housekeeping CPU's 1 Hz remote tick switches them,
 * and one hog gets nothing in most windows. When one of the two is
 * killed, the tick must stop again: fewer than 100 timer interrupts a
 * second over 2 s, after a second for the tick to notice. While both
 * run, the CPU must take at least 500 a second, half of HZ. BEBS ends budgets with
 * hrtimers and keeps no tick: two best-effort hogs there are served by
 * budgets of up to e_max (200 ms), so each must have 50% within 10
 * points over 4 s after 3 s of warm-up (one e_max budget is 5 points of
 * 4 s, on each side of the window), and the CPU must take fewer than
 * 100 timer interrupts a second, a tenth of the tick's.
 *
 * lone: one task needs no tick in any class. After 3 s of warm-up (a
 * BEBS hog's budget grows to e_max in about 2 s), the CPU must take
 * fewer than 100 timer interrupts a second over 2 s: the class servers
 * (deferred dl_servers) must not bring the tick back. "other" (EEVDF,
 * whose 6.12 fair server is deferred too) is reported, not asserted.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdlib.h>
#include "ms_test.h"

#define TICKLESS_MAX	100	/* interrupts a second: a tenth of HZ */
#define TICK_MIN	500	/* half of HZ: the tick is on */


/* The nohz_full CPU: the boot must have exactly one, or -1. */
static int nohz_cpu(void)
{
	char buf[64] = "";
	int cpu;

	ms_read_str("/sys/devices/system/cpu/nohz_full", buf, sizeof(buf));
	if (sscanf(buf, "%d", &cpu) != 1 || strchr(buf, ',') ||
	    strchr(buf, '-'))
		return -1;
	return cpu;
}

/* Local timer interrupts CPU @cpu has taken, or -1. */
static long long loc_count(int cpu)
{
	char line[1024], *p, *end;
	long long v = -1;
	FILE *f = fopen("/proc/interrupts", "r");
	int i;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " ");
		if (strncmp(p, "LOC:", 4))
			continue;
		p += 4;
		for (i = 0; i <= cpu; i++) {
			v = strtoll(p, &end, 10);
			if (end == p) {
				v = -1;
				break;
			}
			p = end;
		}
		break;
	}
	fclose(f);
	return v;
}

/* the first RBS hog, whose shared reservation the second joins */
static pid_t rbs_first;

/*
 * A hog of @policy on @cpu: SCHED_FIFO at priority 1, RBS in a shared
 * reservation of 40 ms every 100 ms with background mode (the first
 * makes it, the second joins it), the others plain.
 */
static pid_t start_hog(int cpu, int policy)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct sched_attr a = { .size = sizeof(a),
				.sched_policy = SCHED_RBS };
	pid_t pid;

	if (policy == SCHED_RBS) {
		if (rbs_first > 0) {
			a.sched_ms_flags = MS_FLAG_RBS_JOIN;
			a.sched_join_tid = rbs_first;
		} else {
			/* in the background too: the CPU is never idle */
			a.sched_ms_flags = MS_FLAG_RBS_SHARED |
					   MS_FLAG_RBS_BACKGROUND;
			a.sched_runtime = 40000000;
			a.sched_period = 100000000;
		}
		pid = ms_start_hog(cpu, SCHED_OTHER, "ms_nohz");
		if (pid > 0 && syscall(SYS_sched_setattr, pid, &a, 0)) {
			perror("ms_nohz: SCHED_RBS");
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			return -1;
		}
		if (rbs_first <= 0)
			rbs_first = pid;
		return pid;
	}
	if (policy != SCHED_FIFO)
		return ms_start_hog(cpu, policy, "ms_nohz");
	pid = ms_start_hog(cpu, SCHED_OTHER, "ms_nohz");
	if (pid > 0 && sched_setscheduler(pid, SCHED_FIFO, &sp)) {
		perror("ms_nohz: SCHED_FIFO");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

static void stop(pid_t *pid, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (pid[i] > 0) {
			kill(pid[i], SIGKILL);
			waitpid(pid[i], NULL, 0);
		}
}

/* @cpu's local timer interrupts a second over the next @us, or -1 */
static double loc_rate(int cpu, long long us)
{
	long long loc0, loc1, t0, t1;

	loc0 = loc_count(cpu);
	t0 = now_ns();
	usleep(us);
	loc1 = loc_count(cpu);
	t1 = now_ns();
	if (loc0 < 0 || loc1 < 0) {
		printf("cpu%d has no LOC count in /proc/interrupts\n", cpu);
		return -1;
	}
	return (loc1 - loc0) * 1e9 / (t1 - t0);
}

static int lone(int cpu, const char *name, int policy)
{
	double rate;
	pid_t pid;

	pid = start_hog(cpu, policy);
	if (pid < 0)
		return 1;
	usleep(3000000);
	rate = loc_rate(cpu, 2000000);
	stop(&pid, 1);
	if (rate < 0)
		return 1;
	printf("%s alone on nohz_full cpu%d: %.0f timer interrupts/s (limit %d)\n",
	       name, cpu, rate, TICKLESS_MAX);
	if (policy == SCHED_OTHER)
		return 0;
	return rate < TICKLESS_MAX ? 0 : 1;
}

static int share(int cpu, const char *name, int policy)
{
	bool bebs = policy == SCHED_BEBS;
	int windows = bebs ? 1 : 20, w, i, bad = 0;
	long long win = bebs ? 4000000000LL : 100000000LL;
	unsigned long long c0[2], c[2], prev[2];
	double s, min_s[2] = { 100, 100 }, rate, tol = bebs ? 10 : 2;
	long long loc0, loc1, t0, t1;
	pid_t pid[2] = { -1, -1 };

	for (i = 0; i < 2; i++) {
		pid[i] = start_hog(cpu, policy);
		if (pid[i] < 0) {
			stop(pid, 2);
			return 1;
		}
	}
	usleep(bebs ? 3000000 : 1000000);
	for (i = 0; i < 2; i++)
		prev[i] = c0[i] = cpu_ns(pid[i]);
	loc0 = loc_count(cpu);
	t0 = now_ns();
	for (w = 1; w <= windows; w++) {
		sleep_until_ns(t0 + w * win);
		for (i = 0; i < 2; i++)
			c[i] = cpu_ns(pid[i]);
		for (i = 0; i < 2; i++) {
			s = 100.0 * (c[i] - prev[i]) /
			    ((c[0] - prev[0]) + (c[1] - prev[1]) + 1);
			if (s < min_s[i])
				min_s[i] = s;
		}
		prev[0] = c[0];
		prev[1] = c[1];
	}
	loc1 = loc_count(cpu);
	t1 = now_ns();
	if (!bebs)
		stop(&pid[1], 1);
	rate = (loc1 - loc0) * 1e9 / (t1 - t0);
	for (i = 0; i < 2; i++) {
		s = 100.0 * (c[i] - c0[i]) /
		    ((c[0] - c0[0]) + (c[1] - c0[1]) + 1);
		printf("%s hog %d on nohz_full cpu%d: %.1f%% of %.1f s",
		       name, i, cpu, s, (t1 - t0) / 1e9);
		if (!bebs)
			printf(", at least %.1f%% of every 100 ms", min_s[i]);
		printf("\n");
		if (s < 50 - tol || s > 50 + tol || (!bebs && min_s[i] < 30))
			bad = 1;
	}
	/* BVT and VTRR: the tick is on, HZ (1000) a second less TCG's */
	if (!bebs && rate < TICK_MIN) {
		printf("cpu%d: %.0f timer interrupts/s, under %d: the tick is not on\n",
		       cpu, rate, TICK_MIN);
		bad = 1;
	}
	printf("cpu%d: %.0f timer interrupts/s%s\n", cpu, rate,
	       bebs ? " (limit 100: BEBS needs no tick)" : "");
	if (bebs && rate >= TICKLESS_MAX)
		bad = 1;
	if (!bebs) {
		/* one of the two left: the tick goes again */
		pid[1] = -1;
		usleep(1000000);
		rate = loc_rate(cpu, 2000000);
		printf("cpu%d with one %s hog left: %.0f timer interrupts/s (limit %d)\n",
		       cpu, name, rate, TICKLESS_MAX);
		if (rate < 0 || rate >= TICKLESS_MAX)
			bad = 1;
	}
	stop(pid, 2);
	return bad;
}

int main(int argc, char **argv)
{
	int cpu = nohz_cpu(), policy;
	cpu_set_t set;

	if (argc != 3 || (policy = ms_policy_of(argv[2])) < 0 ||
	    (strcmp(argv[1], "share") && strcmp(argv[1], "lone"))) {
		fprintf(stderr, "usage: ms_nohz share|lone bvt|vtrr|bebs|rbs|fifo|other\n");
		return 2;
	}
	if (cpu < 0) {
		printf("the boot has no single nohz_full CPU (nohz_full=1 wanted)\n");
		return 1;
	}
	/* the measuring parent stays off the nohz_full CPU */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (cpu == 0 || sched_setaffinity(0, sizeof(set), &set)) {
		printf("cpu0 must be a housekeeping CPU\n");
		return 1;
	}
	if (!strcmp(argv[1], "lone"))
		return lone(cpu, argv[2], policy);
	return share(cpu, argv[2], policy);
}
