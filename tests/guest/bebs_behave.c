// SPDX-License-Identifier: GPL-2.0
/*
 * bebs_behave alone|mixed [-c CPU] [-t SECS] [-e POINTS]
 *
 * What a SCHED_BEBS best-effort server gets of a CPU (default 1) against
 * wall time, measured from /proc/PID/schedstat over SECS seconds
 * (default 4):
 *
 * alone: slack reclamation (section 4.2 of the BEBS paper). A BEBS hog
 *   alone on the CPU has a utilisation of U_BE (below 1: the class
 *   servers' bandwidth is admitted on every CPU), and without slack
 *   reclamation would run only that much. With it, it takes the CPU as a
 *   SCHED_OTHER hog alone there does: its share must be within POINTS
 *   (default 2) of the SCHED_OTHER hog's, measured just before in the
 *   same boot.
 *
 * mixed: a BEBS hog and a SCHED_OTHER hog on the CPU. Slack is reclaimed
 *   only when the CPU would idle, so the BEBS hog runs U_BE of the CPU
 *   and fair the rest: U_BE is 1 less the bandwidth admitted on the CPU
 *   (the first number of its line in /proc/sys/kernel/sched_ms_bandwidth)
 *   plus BEBS's own server's (debugfs sched/bebs_server/cpuN). Its share
 *   must be within POINTS (default 3) of U_BE.
 *
 * Prints what it measured; exits 1 when out of tolerance.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "ms_test.h"

static pid_t start_hog(int cpu, int policy)
{
	return ms_start_hog(cpu, policy, "bebs_behave");
}

static void stop_hog(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* The percentage of wall time each of @n hogs ran in @secs seconds. */
static void measure(pid_t *pid, int n, int secs, double *pct)
{
	unsigned long long before[2];
	long long t0, t1;
	int i;

	sleep(1);	/* let the servers adapt */
	t0 = now_ns();
	for (i = 0; i < n; i++)
		before[i] = cpu_ns(pid[i]);
	sleep(secs);
	t1 = now_ns();
	for (i = 0; i < n; i++)
		pct[i] = 100.0 * (cpu_ns(pid[i]) - before[i]) / (t1 - t0);
}

/* U_BE of @cpu in percent, as bebs.c computes it; -1 if unreadable. */
static double u_be(int cpu)
{
	char line[128], path[128];
	long long used = -1, rt, per;
	FILE *f = fopen("/proc/sys/kernel/sched_ms_bandwidth", "r");
	int c;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu%d %lld", &c, &used) == 2 && c == cpu)
			break;
		else
			used = -1;
	fclose(f);
	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/sched/bebs_server/cpu%d/runtime", cpu);
	rt = file_ll(path);
	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/sched/bebs_server/cpu%d/period", cpu);
	per = file_ll(path);
	if (used < 0 || rt < 0 || per <= 0)
		return -1;
	printf("bebs_behave: cpu%d admitted %.1f%%, of which the BEBS server %.1f%%\n",
	       cpu, used / 1e4, 100.0 * rt / per);
	return 100.0 - used / 1e4 + 100.0 * rt / per;
}

int main(int argc, char **argv)
{
	int cpu = 1, secs = 4, opt, bad = 0;
	double tol = -1, pct[2], base, want;
	const char *what;
	pid_t pid[2];

	if (argc < 2)
		return 2;
	what = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "c:t:e:")) != -1) {
		switch (opt) {
		case 'c': cpu = atoi(optarg); break;
		case 't': secs = atoi(optarg); break;
		case 'e': tol = atof(optarg); break;
		default: return 2;
		}
	}

	if (!strcmp(what, "alone")) {
		if (tol < 0)
			tol = 2;
		pid[0] = start_hog(cpu, SCHED_OTHER);
		if (pid[0] < 0)
			return 1;
		measure(pid, 1, secs, pct);
		stop_hog(pid[0]);
		base = pct[0];
		pid[0] = start_hog(cpu, SCHED_BEBS);
		if (pid[0] < 0)
			return 1;
		measure(pid, 1, secs, pct);
		stop_hog(pid[0]);
		bad = pct[0] < base - tol;
		printf("bebs_behave: alone on cpu%d a SCHED_OTHER hog got %.1f%%, a BEBS hog %.1f%% (at least %.1f)%s\n",
		       cpu, base, pct[0], base - tol, bad ? "  <-- too little" : "");
		return bad;
	}
	if (!strcmp(what, "mixed")) {
		if (tol < 0)
			tol = 3;
		want = u_be(cpu);
		if (want < 0) {
			printf("bebs_behave: cannot read U_BE of cpu%d\n", cpu);
			return 1;
		}
		pid[0] = start_hog(cpu, SCHED_BEBS);
		pid[1] = start_hog(cpu, SCHED_OTHER);
		if (pid[0] < 0 || pid[1] < 0)
			return 1;
		measure(pid, 2, secs, pct);
		stop_hog(pid[0]);
		stop_hog(pid[1]);
		bad = pct[0] < want - tol || pct[0] > want + tol;
		printf("bebs_behave: on cpu%d a BEBS hog got %.1f%% (U_BE %.1f%% +-%.1f), a SCHED_OTHER hog %.1f%%%s\n",
		       cpu, pct[0], want, tol, pct[1],
		       bad ? "  <-- out of tolerance" : "");
		return bad;
	}
	return 2;
}
