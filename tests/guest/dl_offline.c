// SPDX-License-Identifier: GPL-2.0
/*
 * dl_offline [-n ROUNDS]
 *
 * The divide error the churn campaign found in 6.12's
 * inactive_task_timer() (patches/0023): a SCHED_DEADLINE task uses most
 * of its runtime and blocks, so its inactive timer is armed for its 0-lag
 * time, about 1.6 s ahead; it is moved to SCHED_OTHER while it sleeps,
 * which leaves the timer armed; and the CPU it slept on goes offline, so
 * that the CPU sits in def_root_domain with no active CPU. When the timer
 * fires, the kernel takes the task's bandwidth off that root domain. An
 * unfixed kernel divides by its 0 active CPUs there and panics (the
 * guest ends without an exit status); a fixed one goes on.
 *
 * The task runs wherever the scheduler puts it (SCHED_DEADLINE wants the
 * whole root domain as its affinity); a round whose task slept on CPU 0,
 * which the tests never take offline, is done again, up to 20 times.
 * Each of ROUNDS (default 2) rounds takes about 2.5 s. Prints what it did
 * and exits 0, or 1 when no round found a CPU to take offline or a step
 * failed (the error on stderr).
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
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ms_test.h"

#define MS		1000000LL

static int set_online(int cpu, int on)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return write_file(path, on ? "1" : "0");
}

/* One round; 1 when it was done, 0 to try again, -1 on failure. */
static int round_once(void)
{
	struct sched_param sp = { 0 };
	int fd[2], cpu = -1, status, ret = -1;
	char c;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (!pid) {
		struct sched_attr a = {
			.size = sizeof(a),
			.sched_policy = SCHED_DEADLINE,
			.sched_runtime = 50 * MS,
			.sched_deadline = 2000 * MS,
			.sched_period = 2000 * MS,
		};

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (syscall(SYS_sched_setattr, 0, &a, 0)) {
			perror("dl_offline: SCHED_DEADLINE");
			_exit(1);
		}
		/* most of the runtime: the 0-lag time is far ahead */
		spin_cpu_ns(40 * MS);
		if (write(fd[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(fd[1]);
	if (read(fd[0], &c, 1) != 1) {
		fprintf(stderr, "dl_offline: the task did not run\n");
		goto out;
	}
	usleep(20000);		/* it sleeps in pause(), on task_cpu() */
	cpu = ms_task_cpu(pid);
	if (cpu < 0) {
		fprintf(stderr, "dl_offline: no CPU in /proc/%d/stat\n", pid);
		goto out;
	}
	if (cpu == 0) {
		ret = 0;
		goto out;
	}
	if (sched_setscheduler(pid, SCHED_OTHER, &sp)) {
		perror("dl_offline: SCHED_OTHER");
		goto out;
	}
	if (set_online(cpu, 0)) {
		fprintf(stderr, "dl_offline: cpu%d offline: %s\n", cpu,
			strerror(errno));
		goto out;
	}
	/* the inactive timer fires about 1.6 s after the task blocked */
	usleep(2500000);
	if (set_online(cpu, 1)) {
		fprintf(stderr, "dl_offline: cpu%d online: %s\n", cpu,
			strerror(errno));
		goto out;
	}
	printf("dl_offline: the task slept on cpu%d, left SCHED_DEADLINE, cpu%d went offline for 2.5 s\n",
	       cpu, cpu);
	ret = 1;
out:
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(fd[0]);
	return ret;
}

int main(int argc, char **argv)
{
	int rounds = 2, done = 0, tries = 0, opt, r;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		switch (opt) {
		case 'n': rounds = atoi(optarg); break;
		default: return 2;
		}
	}
	while (done < rounds && tries++ < 20) {
		r = round_once();
		if (r < 0)
			return 1;
		done += r;
	}
	printf("dl_offline: %d of %d rounds in %d tries\n", done, rounds, tries);
	return done == rounds ? 0 : 1;
}
