// SPDX-License-Identifier: GPL-2.0
/*
 * ms_share [-p bvt|vtrr|bebs] [-c CPU] [-t SECS] [-e POINTS] [-s SLEEPER_SECS]
 *          [-N] W1 W2 ...
 *
 * Weighted sharing under SCHED_BVT (figures 1 and 2 of the BVT paper),
 * with -p vtrr, SCHED_VTRR (section 5.3 of the VTRR paper), or with
 * -p bebs, SCHED_BEBS best-effort servers (u = q / L * U_BE, section 4.3
 * of the BEBS paper): one CPU-bound child per weight, all pinned to CPU
 * (default 1), each in the policy with its weight (its share, for VTRR;
 * its importance q, for BEBS). After SECS seconds (default 10) the CPU
 * time each received, from /proc/PID/schedstat, is compared with its weight's
 * share. With -s, the first child sleeps for SLEEPER_SECS seconds
 * (figure 2) and the shares are measured from the moment it is woken (by
 * a signal, right after the first reading): it must share fairly, neither
 * starving the others with credit saved while asleep nor being starved.
 * Its share over the first 500 ms after the wakeup is checked too, where
 * a credit shows most: BVT leaves a sleeper at most C of credit, which
 * adds up to 100 * C / 500 ms points to the tolerance there.
 *
 * With -N, the arguments are nice values (negative ones after "--"): the
 * children stay SCHED_OTHER with those nice values, and the expected
 * shares follow the CFS weight table (nice 0 = 1024, nice 5 = 335). Under
 * sched_normal_class=bvt this is BVT weighting SCHED_NORMAL tasks by nice.
 *
 * Prints the measured and expected shares and exits 1 if any differs by
 * more than POINTS percentage points (default 2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/sched/types.h>
#include <linux/sched/multisched.h>

#include "ms_test.h"

#define MAX_HOGS 64

/* The kernel's sched_prio_to_weight[], nice -20 to 19. */
static const unsigned int nice_weight[40] = {
	88761, 71755, 56483, 46273, 36291,
	29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906,
	3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423,
	335, 272, 215, 172, 137,
	110, 87, 70, 56, 45,
	36, 29, 23, 18, 15,
};

int main(int argc, char **argv)
{
	unsigned long long before[MAX_HOGS], after[MAX_HOGS], total = 0;
	double tol = 2.0, wsum = 0;
	int cpu = 1, secs = 10, sleeper = 0, n = 0, i, opt, bad = 0;
	sigset_t wake;
	int nice_mode = 0, nice[MAX_HOGS], policy = SCHED_BVT, ready[2];
	unsigned int w[MAX_HOGS];
	pid_t pid[MAX_HOGS];

	while ((opt = getopt(argc, argv, "p:c:t:e:s:N")) != -1) {
		switch (opt) {
		case 'p':
			if (!strcmp(optarg, "bvt"))
				policy = SCHED_BVT;
			else if (!strcmp(optarg, "vtrr"))
				policy = SCHED_VTRR;
			else if (!strcmp(optarg, "bebs"))
				policy = SCHED_BEBS;
			else
				return 2;
			break;
		case 'c': cpu = atoi(optarg); break;
		case 't': secs = atoi(optarg); break;
		case 'e': tol = atof(optarg); break;
		case 's': sleeper = atoi(optarg); break;
		case 'N': nice_mode = 1; break;
		default: return 2;
		}
	}
	for (i = optind; i < argc && n < MAX_HOGS; i++) {
		if (nice_mode) {
			nice[n] = atoi(argv[i]);
			if (nice[n] < -20 || nice[n] > 19)
				return 2;
			w[n] = nice_weight[nice[n] + 20];
		} else {
			w[n] = atoi(argv[i]);
		}
		n++;
	}
	if (!n)
		return 2;

	/*
	 * Each child enters its class first and only then moves to @cpu, and
	 * the measurement waits until all of them are there: a child that
	 * moved first would wait on @cpu as SCHED_OTHER behind the hogs
	 * already in a class above fair, until the deferred fair server ran
	 * it, 950 ms later; with a 1 s settle the first child then ran alone
	 * for part of the window (weight 1 got 21.9% instead of 6.7%).
	 */
	if (pipe(ready))
		return 1;
	sigemptyset(&wake);
	sigaddset(&wake, SIGUSR1);
	sigprocmask(SIG_BLOCK, &wake, NULL);
	for (i = 0; i < n; i++) {
		pid[i] = fork();
		if (!pid[i]) {
			struct sched_attr a = {
				.size = sizeof(a),
				.sched_policy = policy,
				.sched_weight = w[i],
			};
			cpu_set_t set;

			close(ready[0]);
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			if ((nice_mode && setpriority(PRIO_PROCESS, 0, nice[i])) ||
			    (!nice_mode && syscall(SYS_sched_setattr, 0, &a, 0)) ||
			    sched_setaffinity(0, sizeof(set), &set)) {
				perror("ms_share: child setup");
				_exit(1);
			}
			if (write(ready[1], "1", 1) != 1)
				_exit(1);
			close(ready[1]);
			if (i == 0 && sleeper)
				sigwaitinfo(&wake, NULL);
			for (;;)
				;
		}
		wsum += w[i];
	}
	close(ready[1]);
	for (i = 0; i < n; i++) {
		char c;

		if (read(ready[0], &c, 1) != 1) {
			printf("ms_share: a child failed to set up\n");
			for (i = 0; i < n; i++)
				kill(pid[i], SIGKILL);
			return 1;
		}
	}
	close(ready[0]);

	sleep(sleeper + 1);	/* let every child settle in */
	for (i = 0; i < n; i++)
		before[i] = cpu_ns(pid[i]);
	if (sleeper) {
		unsigned long long early[MAX_HOGS], sum = 0;
		FILE *f = fopen("/proc/sys/kernel/sched_bvt_csw_allowance_ns", "r");
		double got, want = 100.0 * w[0] / wsum, credit = 0;
		long long c = 0;

		if (f && policy == SCHED_BVT && fscanf(f, "%lld", &c) == 1)
			credit = 100.0 * c / 500e6;
		if (f)
			fclose(f);
		kill(pid[0], SIGUSR1);
		usleep(500000);
		for (i = 0; i < n; i++) {
			early[i] = cpu_ns(pid[i]) - before[i];
			sum += early[i];
		}
		got = sum ? 100.0 * early[0] / sum : 0;
		printf("ms_share: the sleeper's first 500 ms after waking: got %.1f%% expected %.1f%% (+-%.1f)\n",
		       got, want, tol + credit);
		if (got < want - tol - credit || got > want + tol + credit) {
			printf("ms_share: the sleeper's early share is out of tolerance\n");
			bad = 1;
		}
		usleep(500000);
		if (secs > 1)
			sleep(secs - 1);
	} else {
		sleep(secs);
	}
	for (i = 0; i < n; i++) {
		after[i] = cpu_ns(pid[i]);
		total += after[i] - before[i];
	}
	for (i = 0; i < n; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}
	if (!total) {
		printf("ms_share: no CPU time measured\n");
		return 1;
	}

	for (i = 0; i < n; i++) {
		double got = 100.0 * (after[i] - before[i]) / total;
		double want = 100.0 * w[i] / wsum;
		int ok = got > want - tol && got < want + tol;
		char what[48];

		if (nice_mode)
			snprintf(what, sizeof(what), "nice %d (weight %u)",
				 nice[i], w[i]);
		else
			snprintf(what, sizeof(what), "weight %u", w[i]);
		printf("ms_share: %s got %.1f%% expected %.1f%% (+-%.1f)%s\n",
		       what, got, want, tol, ok ? "" : "  <-- out of tolerance");
		bad |= !ok;
	}
	return bad;
}
