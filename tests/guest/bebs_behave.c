// SPDX-License-Identifier: GPL-2.0
/*
 * bebs_behave alone|mixed|idle [-c CPU] [-t SECS] [-e POINTS]
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
 * idle: no timer for nothing (the "no idle timers"). A BEBS hog
 *   spins alone on the CPU for 300 ms, then sleeps. Traced with
 *   timer:hrtimer_expire_entry: while it spins, its budget runs out about
 *   20 times (a new server's budget is 3 ms and grows by an eighth at
 *   each expiry, section 4.3 with w = 3), each time ended by the budget
 *   hrtimer, also when slack releases it and it is picked again: at
 *   least 5 firings (else budgets would be the tick's, or the trace could
 *   not see the timers and the other check would be void). In the SECS
 *   seconds from 0.5 s after it went to sleep, none fire
 *   (bebs_budget_timer, bebs_release_timer). The
 *   deadline-server timers that fired there are printed, not checked:
 *   fair's server, which kernel threads start, has the same handlers.
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
#include <sys/syscall.h>
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

/*
 * Count timer:hrtimer_expire_entry events on @cpu from @from to @to (ns,
 * the trace clock): BEBS's own timers in @bebs, the deadline servers' in
 * @dl.
 */
static void count_timers(int cpu, long long from, long long to, int *bebs,
			 int *dl)
{
	char line[512], name[64], tag[16], *rest;
	long long ts;
	FILE *f = fopen(MS_TRACE "trace", "r");

	*bebs = *dl = 0;
	if (!f)
		return;
	snprintf(tag, sizeof(tag), "[%03d]", cpu);
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, tag))
			continue;
		rest = ms_trace_event(line, &ts, name, sizeof(name));
		if (!rest || strcmp(name, "hrtimer_expire_entry") ||
		    ts < from || ts >= to)
			continue;
		if (strstr(rest, "function=bebs_"))
			(*bebs)++;
		else if (strstr(rest, "function=dl_task_timer") ||
			 strstr(rest, "function=inactive_task_timer"))
			(*dl)++;
	}
	fclose(f);
}

static int test_idle(int cpu, int secs)
{
	struct sched_attr a = { .size = sizeof(a), .sched_policy = SCHED_BEBS };
	long long t0, t1, t2, t3;
	int b_run, d_run, b_idle, d_idle, bad, fd[2];
	char c, clock[32];
	pid_t pid;

	/* the trace in CLOCK_MONOTONIC, as now_ns() */
	ms_trace_clock(clock, sizeof(clock));
	write_file(MS_TRACE "trace_clock", "mono");
	if (ms_trace_start("timer/hrtimer_expire_entry") || pipe(fd)) {
		printf("bebs_behave: cannot trace timer:hrtimer_expire_entry\n");
		write_file(MS_TRACE "trace_clock", clock);
		return 1;
	}
	t0 = now_ns();
	pid = fork();
	if (!pid) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) ||
		    syscall(SYS_sched_setattr, 0, &a, 0))
			_exit(1);
		spin_ns(300000000LL);
		c = '1';
		if (write(fd[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], &c, 1) != 1) {
		printf("bebs_behave: the BEBS hog did not run\n");
		ms_trace_stop();
		ms_trace_restore();
		write_file(MS_TRACE "trace_clock", clock);
		return 1;
	}
	t1 = now_ns();
	usleep(500000);
	t2 = now_ns();
	sleep(secs);
	t3 = now_ns();
	ms_trace_stop();
	count_timers(cpu, t0, t1, &b_run, &d_run);
	count_timers(cpu, t2, t3, &b_idle, &d_idle);
	ms_trace_restore();
	write_file(MS_TRACE "trace_clock", clock);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	bad = b_run < 5 || b_idle > 0;
	printf("bebs_behave: cpu%d, BEBS timers fired %d times while a BEBS hog spun 300 ms (at least 5) and %d times in %d s after it slept (none allowed); deadline-server timers %d and %d%s\n",
	       cpu, b_run, b_idle, secs, d_run, d_idle,
	       b_run < 5 ? "  <-- too few budget timers" :
	       b_idle ? "  <-- a timer with nothing to serve" : "");
	return bad;
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
	if (!strcmp(what, "idle"))
		return test_idle(cpu, secs);
	return 2;
}
