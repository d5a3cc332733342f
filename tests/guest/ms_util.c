// SPDX-License-Identifier: GPL-2.0
/*
 * ms_util [-m bvt|vtrr|bebs|fifo] [-n FAIR]: fair tasks are not left on a
 * CPU that a multisched class saturates (issue 13, utilisation signals).
 *
 * A hog of the class (-m, default bvt; fifo for mainline's SCHED_FIFO at
 * priority 1, the reference) runs on CPU 1. Half a second later, FAIR
 * (default 3) SCHED_OTHER hogs start on CPU 1, where fair runs only from
 * its dl_server (50 ms a second), and are then allowed CPUs 0 and 1.
 * After 2 s for the balancer, their shares of a CPU are read over 4 s
 * from their schedstat.
 *
 * The class's run time counts in the CPU's RT utilisation (avg_rt), so
 * fair sees CPU 1's capacity as nearly gone (scale_rt_capacity()) and
 * moves its tasks to CPU 0, as it does for SCHED_FIFO: each then gets
 * 1/FAIR of CPU 0. Without the signal, CPU 1 looks like a full CPU with
 * one task too few: the balancer leaves a fair hog there, or moves fair
 * hogs back and forth between the CPUs. Exits 0 when every fair hog gets
 * at least three quarters of 1/FAIR of a CPU (the slack for the fair
 * server's periods and TCG). With two hogs, boots of November 2026
 * measured a least share of 42.0 to 52.3% with the signal (BVT, VTRR,
 * BEBS and SCHED_FIFO, 3 runs each), and without it 11.7 to 30.3% in 5
 * runs of 6 (50.9% in the sixth). Prints each hog's share, its
 * migrations in the 4 s (se.nr_migrations) and its last CPU.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include "ms_test.h"

#define MAX_FAIR	8

static void __attribute__((noreturn)) fair_hog(int fd)
{
	cpu_set_t set;
	char c = '1';

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		c = '0';
	if (write(fd, &c, 1) != 1 || c != '1')
		_exit(1);
	close(fd);
	for (;;)
		;
}

int main(int argc, char **argv)
{
	unsigned long long c0[MAX_FAIR], c1[MAX_FAIR];
	long long m0[MAX_FAIR], m1[MAX_FAIR];
	long long t0, t1, min = -1, max = -1, share;
	int opt, n = 3, i, fd[2], policy = SCHED_BVT, ret = 1;
	const char *cls = "bvt";
	pid_t hog = -1, pid[MAX_FAIR] = { 0 };
	cpu_set_t set;
	char c;

	while ((opt = getopt(argc, argv, "m:n:")) != -1) {
		if (opt == 'n') {
			n = atoi(optarg);
		} else if (opt == 'm') {
			cls = optarg;
		} else {
			fprintf(stderr, "usage: ms_util [-m bvt|vtrr|bebs|fifo] [-n FAIR]\n");
			return 2;
		}
	}
	if (!strcmp(cls, "bvt"))
		policy = SCHED_BVT;
	else if (!strcmp(cls, "vtrr"))
		policy = SCHED_VTRR;
	else if (!strcmp(cls, "bebs"))
		policy = SCHED_BEBS;
	else if (!strcmp(cls, "fifo"))
		policy = SCHED_FIFO;
	else
		n = 0;
	if (n < 1 || n > MAX_FAIR) {
		fprintf(stderr, "ms_util: -m bvt, vtrr, bebs or fifo; -n 1 to %d\n",
			MAX_FAIR);
		return 2;
	}

	if (policy == SCHED_FIFO) {
		if (pipe(fd))
			return 1;
		hog = fork();
		if (!hog) {
			struct sched_param sp = { .sched_priority = 1 };

			close(fd[0]);
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			CPU_ZERO(&set);
			CPU_SET(1, &set);
			c = !sched_setaffinity(0, sizeof(set), &set) &&
			    !sched_setscheduler(0, SCHED_FIFO, &sp) ? '1' : '0';
			if (write(fd[1], &c, 1) != 1 || c != '1')
				_exit(1);
			for (;;)
				;
		}
		close(fd[1]);
		if (hog < 0 || read(fd[0], &c, 1) != 1 || c != '1')
			hog = -1;
		close(fd[0]);
	} else {
		hog = ms_start_hog(1, policy, "ms_util");
	}
	if (hog < 0) {
		fprintf(stderr, "ms_util: no %s hog on cpu1\n", cls);
		goto out;
	}
	usleep(500000);

	for (i = 0; i < n; i++) {
		if (pipe(fd))
			goto out;
		pid[i] = fork();
		if (!pid[i]) {
			close(fd[0]);
			fair_hog(fd[1]);
		}
		close(fd[1]);
		c = '0';
		if (pid[i] < 0 || read(fd[0], &c, 1) != 1 || c != '1') {
			fprintf(stderr, "ms_util: no fair hog on cpu1\n");
			close(fd[0]);
			goto out;
		}
		close(fd[0]);
	}
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CPU_SET(1, &set);
	for (i = 0; i < n; i++)
		if (sched_setaffinity(pid[i], sizeof(set), &set)) {
			perror("ms_util: sched_setaffinity");
			goto out;
		}

	sleep(2);
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		c0[i] = cpu_ns(pid[i]);
		m0[i] = pid_sched_ll(pid[i], "se.nr_migrations");
	}
	sleep(4);
	t1 = now_ns();
	for (i = 0; i < n; i++) {
		c1[i] = cpu_ns(pid[i]);
		m1[i] = pid_sched_ll(pid[i], "se.nr_migrations");
	}

	printf("a %s hog on cpu1, %d fair hogs started there and allowed cpus 0-1\n",
	       cls, n);
	for (i = 0; i < n; i++) {
		share = (long long)(c1[i] - c0[i]) * 1000 / (t1 - t0);
		printf("fair hog %d: %lld.%lld%% of a CPU, %lld migrations, last on cpu%d\n",
		       i, share / 10, share % 10, m1[i] - m0[i],
		       ms_task_cpu(pid[i]));
		if (min < 0 || share < min)
			min = share;
		if (share > max)
			max = share;
	}
	printf("shares %lld.%lld%% to %lld.%lld%%, the least at least %d.%d%% (three quarters of 1/%d)\n",
	       min / 10, min % 10, max / 10, max % 10, 750 / n / 10,
	       750 / n % 10, n);
	ret = min >= 750 / n ? 0 : 1;
out:
	for (i = 0; i < n; i++)
		if (pid[i] > 0) {
			kill(pid[i], SIGKILL);
			waitpid(pid[i], NULL, 0);
		}
	if (hog > 0) {
		kill(hog, SIGKILL);
		waitpid(hog, NULL, 0);
	}
	return ret;
}
