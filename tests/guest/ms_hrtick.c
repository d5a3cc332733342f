// SPDX-License-Identifier: GPL-2.0
/*
 * ms_hrtick [-m vtrr|bvt] [-c CPU]: a switch due before the next tick
 * happens on time with the HRTICK scheduler feature (issue 13, sub-tick
 * enforcement).
 *
 * Two hogs of the class on CPU (default 1), traced for 1 s with
 * sched_switch, first with NO_HRTICK, then with HRTICK in
 * /sys/kernel/debug/sched/features. A turn is the time from a switch to
 * a hog to the next switch away from it on that CPU; it should be:
 *
 *   - vtrr (default): 500 us, the quantum set to 500 us
 *     (kernel.sched_vtrr_quantum_ns); a client runs one quantum;
 *   - bvt: 400 us, the context switch allowance C set to 200 us
 *     (kernel.sched_bvt_csw_allowance_ns); of two hogs of equal weight,
 *     the one that starts C behind the other runs until it is C ahead
 *     (section 2.1 of the paper), 2C of run time.
 *
 * Prints the median and the 90th percentile of each run's turns, and
 * exits 0 when:
 *
 *   - with NO_HRTICK the median turn is at least 900 us: the tick (HZ
 *     1000 in the test kernel) ends a turn, so turns are whole ticks,
 *     and the check shows the boot cannot meet the next one without the
 *     hrtick;
 *   - with HRTICK it is at most 750 us for VTRR: the turn plus half of
 *     it for the hrtimer's expiry and the switch, which take tens of
 *     microseconds under TCG (the nohz and BEBS budget-timer tests saw
 *     well under that); under one tick, 1 ms, for BVT, whose runner
 *     overshoots C by that latency and so moves the end of the next turn
 *     by as much: without the hrtick a turn ends only at a tick, so a
 *     median under one tick shows the hrtick ending the turns. With C at
 *     250 us, nine runs in November 2026 measured medians of 664 to
 *     813 us (a trace put 75 to 130 us from the hrtick's expiry to the
 *     switch), and a fresh-clone run on a slower host 992 us, 2C plus
 *     twice 246 us: hence C at 200 us, which leaves room under the tick.
 *     A turn at the tick lasts about a tick or two (medians of 1010 to
 *     1990 us in those runs).
 *
 * The hrtick's expiries on CPU are counted from the trace
 * (hrtimer_expire_entry with function=hrtick): none with NO_HRTICK, and
 * at most 3 per turn with HRTICK, where one ends a turn and another may
 * re-arm it when it fired before the task clock reached the switch; a
 * class that re-armed it in a loop would show hundreds.
 *
 * The sysctl and the features are put back as they were, and the trace
 * buffer and tracing_on as well.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdlib.h>
#include "ms_test.h"

#define TURN_NS		500000LL
#define BVT_C_NS	200000LL
#define TICK_NS		1000000LL	/* HZ 1000 in the test kernel */
#define FEATURES	"/sys/kernel/debug/sched/features"
#define MAX_TURNS	20000

/* Each class: its policy, the sysctl that sets the turn, and its value. */
static const struct {
	const char *name;
	int policy;
	const char *sysctl;
	long long value;
	long long bound;	/* the longest median turn with HRTICK */
} classes[] = {
	{ "vtrr", SCHED_VTRR, "/proc/sys/kernel/sched_vtrr_quantum_ns",
	  TURN_NS, TURN_NS * 3 / 2 },
	{ "bvt", SCHED_BVT, "/proc/sys/kernel/sched_bvt_csw_allowance_ns",
	  BVT_C_NS, TICK_NS - 1 },
};
static int cls;

#define NR_CLASSES	((int)(sizeof(classes) / sizeof(classes[0])))

static long long turns[MAX_TURNS];

/* 1 if FEATURES lists HRTICK (not NO_HRTICK), 0 if not, -1 if unreadable */
static int hrtick_on(void)
{
	char buf[4096], *t, *save;
	FILE *f = fopen(FEATURES, "r");
	int on = -1;

	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		for (t = strtok_r(buf, " \n", &save); t;
		     t = strtok_r(NULL, " \n", &save)) {
			if (!strcmp(t, "HRTICK"))
				on = 1;
			else if (!strcmp(t, "NO_HRTICK"))
				on = 0;
		}
	}
	fclose(f);
	return on;
}

/*
 * The turns of @pid[0..1] on @cpu in the trace; their number. Counts the
 * expiries of the runqueue's hrtick there in @hrticks.
 */
static int read_turns(int cpu, const pid_t *pid, int *hrticks)
{
	char line[512], name[64], tag[16], *f, *p;
	long long ts, start = -1;
	pid_t on = 0, prev, next;
	FILE *tr = fopen(MS_TRACE "trace", "r");
	int n = 0;

	if (!tr)
		return 0;
	snprintf(tag, sizeof(tag), "[%03d]", cpu);
	while (fgets(line, sizeof(line), tr) && n < MAX_TURNS) {
		if (!strstr(line, tag))
			continue;
		f = ms_trace_event(line, &ts, name, sizeof(name));
		if (f && !strcmp(name, "hrtimer_expire_entry") &&
		    strstr(f, "function=hrtick "))
			(*hrticks)++;
		if (!f || strcmp(name, "sched_switch"))
			continue;
		p = strstr(f, "prev_pid=");
		prev = p ? atoi(p + 9) : 0;
		p = strstr(f, "next_pid=");
		next = p ? atoi(p + 9) : 0;
		if (on && prev == on && start >= 0)
			turns[n++] = ts - start;
		on = 0;
		start = -1;
		if (next == pid[0] || next == pid[1]) {
			on = next;
			start = ts;
		}
	}
	fclose(tr);
	return n;
}

/*
 * One run: the median turn in ns (and the 90th percentile, and the
 * hrtick's expiries per 10 turns in @hr10), or -1.
 */
static long long run(int cpu, bool hrtick, long long *p90, int *hr10)
{
	pid_t pid[2] = { -1, -1 };
	int i, n = 0, hr = 0;

	if (write_file(FEATURES, hrtick ? "HRTICK" : "NO_HRTICK")) {
		fprintf(stderr, "ms_hrtick: cannot write %s\n", FEATURES);
		return -1;
	}
	/*
	 * The tracepoints are switched on before the hogs start and off
	 * after they are gone: switching them rewrites their code, and under
	 * QEMU's multi-threaded TCG a virtual CPU that runs a tracepoint
	 * being rewritten may take a stale int3 (an Oops at __schedule's
	 * sched_switch in a fresh-clone make check run of 2026-11-25, with
	 * the hogs switching every 250 us). Only tracing_on, which rewrites
	 * nothing, changes while they run.
	 */
	if (ms_trace_start("sched/sched_switch timer/hrtimer_expire_entry"))
		goto out;
	for (i = 0; i < 2; i++)
		pid[i] = ms_start_hog(cpu, classes[cls].policy, "ms_hrtick");
	if (pid[0] < 0 || pid[1] < 0)
		goto out;
	usleep(300000);
	write_file(MS_TRACE "trace", "");	/* from here on */
	usleep(1000000);
	write_file(MS_TRACE "tracing_on", "0");
	n = read_turns(cpu, pid, &hr);
out:
	for (i = 0; i < 2; i++)
		if (pid[i] > 0) {
			kill(pid[i], SIGKILL);
			waitpid(pid[i], NULL, 0);
		}
	ms_trace_stop();
	ms_trace_restore();
	if (n < 10) {
		fprintf(stderr, "ms_hrtick: %d turns traced\n", n);
		return -1;
	}
	qsort(turns, n, sizeof(turns[0]), cmp_ll);
	*p90 = turns[n * 9 / 10];
	*hr10 = hr * 10 / n;
	printf("%s: %d turns of two %s hogs on cpu%d with %s %lld us: median %lld us, 90th percentile %lld us; %d hrtick expiries\n",
	       hrtick ? "HRTICK" : "NO_HRTICK", n, classes[cls].name, cpu,
	       strrchr(classes[cls].sysctl, '/') + 1,
	       classes[cls].value / 1000, turns[n / 2] / 1000, *p90 / 1000,
	       hr);
	return turns[n / 2];
}

int main(int argc, char **argv)
{
	long long v0, off, on, p90;
	int cpu = 1, was, opt, hr_off = 0, hr_on = 0;
	const char *sysctl;
	char buf[32];

	while ((opt = getopt(argc, argv, "c:m:")) != -1) {
		if (opt == 'c') {
			cpu = atoi(optarg);
		} else if (opt == 'm') {
			for (cls = 0; cls < NR_CLASSES; cls++)
				if (!strcmp(optarg, classes[cls].name))
					break;
			if (cls == NR_CLASSES) {
				fprintf(stderr, "ms_hrtick: -m vtrr or bvt\n");
				return 2;
			}
		} else {
			fprintf(stderr, "usage: ms_hrtick [-m vtrr|bvt] [-c CPU]\n");
			return 2;
		}
	}
	sysctl = classes[cls].sysctl;
	was = hrtick_on();
	v0 = file_ll(sysctl);
	if (was < 0 || v0 <= 0) {
		fprintf(stderr, "ms_hrtick: cannot read %s or %s\n",
			FEATURES, sysctl);
		return 1;
	}
	snprintf(buf, sizeof(buf), "%lld", classes[cls].value);
	if (write_file(sysctl, buf)) {
		fprintf(stderr, "ms_hrtick: cannot set %s\n", sysctl);
		return 1;
	}
	off = run(cpu, false, &p90, &hr_off);
	on = run(cpu, true, &p90, &hr_on);
	snprintf(buf, sizeof(buf), "%lld", v0);
	write_file(sysctl, buf);
	write_file(FEATURES, was ? "HRTICK" : "NO_HRTICK");
	if (off < 0 || on < 0)
		return 1;
	printf("bounds: NO_HRTICK median >= 900 us and no hrtick; HRTICK median <= %lld us and at most 3 hrtick expiries per turn\n",
	       classes[cls].bound / 1000);
	return off >= 900000 && !hr_off && on <= classes[cls].bound &&
	       hr_on <= 30 ? 0 : 1;
}
