// SPDX-License-Identifier: GPL-2.0
/*
 * vtrr_order [-c CPU] [-t SECS] [-q] [-a]
 *
 * The order of section 3.1 of the VTRR paper: clients A, B and C with
 * shares 3, 2 and 1 on one CPU are served A, B, C, A, B, A, and again.
 *
 * The three hogs must start together, with VFTs from one QVT, as in the
 * paper's example: the parent holds CPU (default 1) as SCHED_FIFO while it
 * forks them (C, B, A); each enters SCHED_VTRR and is then kept off the
 * CPU by the parent until all three are queued. The parent enables the
 * vtrr_pick tracepoint and sleeps SECS seconds (default 2); the trace is
 * cut into scheduling cycles at the picks that reset the counters, and
 * the order within each complete cycle is compared with ABCABA.
 *
 * With -a, the clients' affinity keeps changing while they run: from the
 * other CPU, a SCHED_FIFO thread sets each client's affinity to both CPUs
 * and back to CPU, all three every millisecond, so that each is dequeued
 * and put back (DEQUEUE_SAVE, ENQUEUE_RESTORE) whether it runs or waits.
 * A VTRR hog of share 1000 on the other CPU keeps the balancer from
 * moving them there. The paper moves a client only when its share
 * changes, so the order must survive.
 *
 * The order holds for turns of one quantum Q each. A turn is charged the
 * time it ran by the guest's clock, so a virtual CPU that the host stalls
 * for more than a quantum charges its client two and reorders the cycle,
 * as the paper's algorithm should. A cycle in which a turn (pick to next
 * pick, in the trace's timestamps) lasted more than 1.5 Q is therefore
 * counted as stretched and left out, and reported. The extra charge stays
 * in the client's VFT for good (each cycle then adds Q / S to every VFT
 * and Q to QVT, as before), so the cycles after a stall keep a new order
 * of their own: the reset may move (AABCAB AABCAB ...) or B may come back
 * before C (ABABCA ABABCA ...), both seen on a loaded host. The reset also
 * moved with no stretched turn in the trace (AABCAB from the first cycle
 * on, in two boots): the clients' setup, before tracing, is charged too,
 * and so are turns under 1.5 Q.
 *
 * What VTRR guarantees whatever the stalls is the count per cycle and its
 * scan: a pick is the head of the queue (A), or the client after the one
 * picked before (B after A, C after B); the scan goes back to the head
 * when the next client's counter or VFT says no. So a complete cycle that
 * was not stretched matches if it serves A three times, B twice and C
 * once, in six picks of that scan (ABCABA, AABCAB, ABABCA, ...). A client
 * that got a turn beyond its share (the restore path's bug, A B A B C A
 * B A) or a pick out of the scan's order (C before B, B twice) does not.
 * When no turn of the trace was stretched, the paper's order must also
 * be seen, as ABCABA or that stream of picks cut elsewhere (rotated), in
 * at least 10 cycles.
 *
 * Prints the first cycles, every one that does not match, and the counts;
 * exits 1 unless at least 20 complete cycles that were not stretched were
 * seen, 90% of them match, and, without a stretched turn, at least 10
 * were in the paper's order.
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

#define TRACING	"/sys/kernel/tracing"
#define MAX_PICKS 8192

int main(int argc, char **argv)
{
	static const unsigned int share[3] = { 3, 2, 1 };
	static char seq[MAX_PICKS], reset[MAX_PICKS], slow[MAX_PICKS];
	static double stamp[MAX_PICKS];
	long long quantum;
	int stretched = 0, stall = 0, exact = 0, rotated = 0, nrot = 0;
	int len, cut, ok, shares, scan, j;
	int count[3];
	struct sched_param fifo = { .sched_priority = 50 };
	int cpu = 1, secs = 2, quiet = 0, opt, i, n = 0;
	int cycles = 0, good = 0, shown = 0, start = -1;
	pid_t pid[3], heavy = 0, flipper = 0;
	int flip = 0, other;
	int fd[2];
	cpu_set_t set;
	char line[512], why[16], c;
	FILE *f;

	while ((opt = getopt(argc, argv, "c:t:qa")) != -1) {
		switch (opt) {
		case 'a': flip = 1; break;
		case 'c': cpu = atoi(optarg); break;
		case 't': secs = atoi(optarg); break;
		case 'q': quiet = 1; break;
		default: return 2;
		}
	}

	f = fopen("/proc/sys/kernel/sched_vtrr_quantum_ns", "r");
	if (!f || fscanf(f, "%lld", &quantum) != 1) {
		perror("vtrr_order: sched_vtrr_quantum_ns");
		return 2;
	}
	fclose(f);
	other = cpu ? 0 : 1;
	if (flip) {
		heavy = fork();
		if (!heavy) {
			struct sched_attr a = {
				.size = sizeof(a),
				.sched_policy = SCHED_VTRR,
				.sched_weight = 1000,
			};

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			CPU_ZERO(&set);
			CPU_SET(other, &set);
			if (syscall(SYS_sched_setattr, 0, &a, 0) ||
			    sched_setaffinity(0, sizeof(set), &set))
				_exit(1);
			for (;;)
				;
		}
	}

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &fifo) || pipe(fd)) {
		perror("vtrr_order: setup");
		return 2;
	}

	/* C first, A last: A is the last to run before the parent sleeps */
	for (i = 2; i >= 0; i--) {
		pid[i] = fork();
		if (!pid[i]) {
			struct sched_attr a = {
				.size = sizeof(a),
				.sched_policy = SCHED_VTRR,
				.sched_weight = share[i],
			};

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			c = syscall(SYS_sched_setattr, 0, &a, 0) ? '0' : '1';
			if (c == '0')
				perror("vtrr_order: child: sched_setattr");
			if (write(fd[1], &c, 1) != 1 || c != '1')
				_exit(1);
			for (;;)
				;
		}
		if (pid[i] < 0 || read(fd[0], &c, 1) != 1 || c != '1') {
			fprintf(stderr, "vtrr_order: a hog failed to start\n");
			return 2;
		}
	}

	if (flip) {
		flipper = fork();
		if (!flipper) {
			struct timespec ms = { 0, 1000000 };
			cpu_set_t both, one;

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			CPU_ZERO(&set);
			CPU_SET(other, &set);
			if (sched_setaffinity(0, sizeof(set), &set))
				_exit(1);
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			both = one;
			CPU_SET(other, &both);
			for (;;) {
				for (i = 0; i < 3; i++) {
					sched_setaffinity(pid[i], sizeof(both), &both);
					sched_setaffinity(pid[i], sizeof(one), &one);
				}
				nanosleep(&ms, NULL);
			}
		}
	}

	write_file(TRACING "/events/multisched/vtrr_pick/enable", "0");
	write_file(TRACING "/trace", "");
	if (write_file(TRACING "/events/multisched/vtrr_pick/enable", "1")) {
		perror("vtrr_order: enable vtrr_pick");
		return 2;
	}
	sleep(secs);
	write_file(TRACING "/events/multisched/vtrr_pick/enable", "0");
	if (flipper) {
		kill(flipper, SIGKILL);
		waitpid(flipper, NULL, 0);
	}
	if (heavy) {
		kill(heavy, SIGKILL);
		waitpid(heavy, NULL, 0);
	}
	for (i = 0; i < 3; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}

	f = fopen(TRACING "/trace", "r");
	if (!f) {
		perror("vtrr_order: trace");
		return 2;
	}
	while (fgets(line, sizeof(line), f) && n < MAX_PICKS) {
		char *p = strstr(line, "vtrr_pick: pid="), *t;
		int tp;

		if (!p || sscanf(p, "vtrr_pick: pid=%d", &tp) != 1)
			continue;
		t = strstr(p, "why=");
		if (!t || sscanf(t, "why=%15s", why) != 1)
			continue;
		/* "<comm>-<pid> [cpu] <flags> <seconds>: vtrr_pick: ..." */
		p[-2] = 0;
		t = strrchr(line, ' ');
		for (i = 0; i < 3; i++) {
			if (tp == pid[i]) {
				stamp[n] = t ? atof(t + 1) : 0;
				seq[n] = 'A' + i;
				reset[n++] = !strcmp(why, "reset");
			}
		}
	}
	fclose(f);

	/*
	 * complete cycles: from one reset to the next; turn j lasts from
	 * pick j to pick j + 1, and one over 1.5 Q is a stall
	 */
	for (i = 0; i + 1 < n; i++)
		slow[i] = (stamp[i + 1] - stamp[i]) * 1e9 > quantum * 3 / 2;
	for (i = 0; i < n; i++) {
		if (!reset[i])
			continue;
		if (start < 0) {
			start = i;
			continue;
		}
		len = i - start;
		cut = 0;
		for (j = start; j < i; j++)
			cut |= slow[j];
		memset(count, 0, sizeof(count));
		for (j = start; j < i; j++)
			count[seq[j] - 'A']++;
		shares = len == 6 && count[0] == 3 && count[1] == 2 &&
			 count[2] == 1;
		ok = len == 6 && !memcmp(seq + start, "ABCABA", 6);
		rotated = 0;
		/* the paper's stream of picks, cut elsewhere */
		for (j = 1; j < 6 && len == 6 && !ok && !rotated; j++)
			rotated = !memcmp(seq + start, "ABCABAABCABA" + j, 6);
		/*
		 * VTRR's scan: each pick is the head (A) or the client after
		 * the one picked before (A B, B C)
		 */
		scan = len > 0 && seq[start] == 'A';
		for (j = start + 1; j < i; j++)
			scan &= seq[j] == 'A' || seq[j] == seq[j - 1] + 1;
		if (cut) {
			stretched++;
			if (!quiet)
				printf("vtrr_order: cycle %d: %.*s  (stretched: left out)\n",
				       cycles + stretched, len, seq + start);
		} else {
			cycles++;
			exact += ok;
			nrot += rotated;
			ok = shares && scan;
			good += ok;
			if (!quiet && (!ok || shown++ < 3))
				printf("vtrr_order: cycle %d: %.*s%s\n",
				       cycles + stretched, len, seq + start,
				       ok ? "" : "  <-- no match");
		}
		start = i;
	}
	for (i = 0; i + 1 < n; i++)
		stall |= slow[i];
	printf("vtrr_order: shares 3:2:1%s, %d picks, %d of %d complete cycles served A,B,C,A,B,A and %d the same rotated, %d stretched cycles left out\n",
	       flip ? " with affinity changes" : "", n, exact, cycles, nrot,
	       stretched);
	printf("vtrr_order: %d of %d served A, B and C 3, 2 and 1 times in 6 picks of VTRR's scan%s\n",
	       good, cycles, stall ? "" : "; no turn was stretched, so >= 10 must be in the paper's order");
	return !(cycles >= 20 && good * 10 >= cycles * 9 &&
		 (stall || exact + nrot >= 10));
}
