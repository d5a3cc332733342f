// SPDX-License-Identifier: GPL-2.0
/*
 * schedctl - run a command under, or move a task into, a scheduling class.
 *
 * In the spirit of util-linux chrt(1), but it knows the multisched classes
 * (BVT, VTRR, BEBS, RBS) and the 96-byte struct sched_attr that carries
 * their parameters. Every syscall failure is explained in words.
 *
 * Exit status: 0 success, 1 a syscall or runtime failure, 2 a usage error,
 * 127 COMMAND could not be executed; otherwise the status of COMMAND.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/sched/types.h>
#include <linux/sched/multisched.h>

/* prctl(2) of the RBS feedback controller, if the C library's headers lack it */
#ifndef PR_SCHED_RBS_CTL
#define PR_SCHED_RBS_CTL	0x52425343
#define PR_RBS_CTL_ADD		0
#define PR_RBS_CTL_CONSUMER	0
#define PR_RBS_CTL_PRODUCER	1
#endif

#ifndef SCHED_ATTR_SIZE_VER3
#error "HDR must hold the multisched uapi headers (no SCHED_ATTR_SIZE_VER3)"
#endif

static_assert(sizeof(struct sched_attr) == SCHED_ATTR_SIZE_VER3,
	      "struct sched_attr in HDR is not the 96-byte multisched layout");

#define SCHEDCTL_VERSION	"1.0"

/* From <linux/sched.h>; glibc's <sched.h> clashes with that header. */
#ifndef SCHED_OTHER
#define SCHED_OTHER		0
#endif
#ifndef SCHED_BATCH
#define SCHED_BATCH		3
#endif
#ifndef SCHED_IDLE
#define SCHED_IDLE		5
#endif
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE		6
#endif
#ifndef SCHED_EXT
#define SCHED_EXT		7
#endif
#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK	0x01
#endif
#ifndef SCHED_FLAG_RECLAIM
#define SCHED_FLAG_RECLAIM		0x02
#endif
#ifndef SCHED_FLAG_DL_OVERRUN
#define SCHED_FLAG_DL_OVERRUN		0x04
#endif

#define PROC_MS_CLASSES		"/proc/sys/kernel/sched_ms_classes"
#define PROC_NORMAL_CLASS	"/proc/sys/kernel/sched_normal_class"
#define PROC_MS_BANDWIDTH	"/proc/sys/kernel/sched_ms_bandwidth"

#define NSEC_PER_SEC		1000000000ULL
#define PPM			1000000ULL
#define CAP_SYS_NICE_BIT	23

enum kind {
	K_NORMAL,		/* SCHED_OTHER, SCHED_BATCH, SCHED_IDLE */
	K_RT,			/* SCHED_FIFO, SCHED_RR */
	K_DL,			/* SCHED_DEADLINE */
	K_BVT,
	K_VTRR,
	K_BEBS,
	K_RBS,
};

struct policy {
	const char *name;	/* as -c takes it, and the sysctl spells it */
	const char *sname;	/* SCHED_* */
	unsigned int nr;
	enum kind kind;
	const char *desc;
};

static const struct policy policies[] = {
	{ "other", "SCHED_OTHER", SCHED_OTHER, K_NORMAL,
	  "default time sharing (alias: normal)" },
	{ "batch", "SCHED_BATCH", SCHED_BATCH, K_NORMAL,
	  "time sharing for CPU-bound work" },
	{ "idle", "SCHED_IDLE", SCHED_IDLE, K_NORMAL,
	  "very low priority background work" },
	{ "fifo", "SCHED_FIFO", SCHED_FIFO, K_RT,
	  "real-time, first in first out" },
	{ "rr", "SCHED_RR", SCHED_RR, K_RT,
	  "real-time, round robin" },
	{ "deadline", "SCHED_DEADLINE", SCHED_DEADLINE, K_DL,
	  "earliest deadline first with CBS" },
	{ "bvt", "SCHED_BVT", SCHED_BVT, K_BVT,
	  "Borrowed Virtual Time" },
	{ "vtrr", "SCHED_VTRR", SCHED_VTRR, K_VTRR,
	  "Virtual-Time Round-Robin" },
	{ "bebs", "SCHED_BEBS", SCHED_BEBS, K_BEBS,
	  "EDF with best-effort bandwidth servers" },
	{ "rbs", "SCHED_RBS", SCHED_RBS, K_RBS,
	  "proportion/period reservations" },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The kernel's spellings of the attributes; no kernel header gives them here. */
#define __sc_attribute(x)	__attribute__((x))
#ifndef __printf
#define __printf(a, b)		__sc_attribute(format(printf, a, b))
#endif
#ifndef __noreturn
#define __noreturn		__sc_attribute(noreturn)
#endif

static const struct {
	const char *name;
	unsigned int flag;
} ms_flag_names[] = {
	{ "warp-off", MS_FLAG_WARP_OFF },
	{ "warp-signal", MS_FLAG_WARP_SIGNAL },
	{ "reserved", MS_FLAG_RESERVED },
	{ "periodic", MS_FLAG_BEBS_PERIODIC },
	{ "overrun", MS_FLAG_BEBS_OVERRUN },
	{ "io-server", MS_FLAG_RBS_IO },
	{ "feedback", MS_FLAG_RBS_FEEDBACK },
	{ "background", MS_FLAG_RBS_BACKGROUND },
	{ "shared", MS_FLAG_RBS_SHARED },
};

/* The parameters a set names: bits of struct request's @named. */
#define NAMED_NICE		0x001
#define NAMED_PRIO		0x002
#define NAMED_WEIGHT		0x004
#define NAMED_WARP		0x008
#define NAMED_WARP_LIMIT	0x010
#define NAMED_UNWARP		0x020
#define NAMED_FLAGS		0x040	/* --flags: the exact set */
#define NAMED_RUNTIME		0x080
#define NAMED_PERIOD		0x100
#define NAMED_DEADLINE		0x200

/*
 * What a set operation asks for, shared by every task it touches. Each
 * task's request is built from it and the task's current parameters by
 * build_attr().
 */
struct request {
	const struct policy *pol;
	struct sched_attr attr;		/* the values of the named parameters */
	unsigned int named;		/* NAMED_* */
	unsigned int add_flags;		/* MS_FLAG_* of --warp-off and the like */
	bool reset_on_fork;		/* -R */
	bool reset;			/* --reset: start from the defaults */
	bool verbose;
	long long join;			/* --join TID, 0 for none */
};

/* --json: the show and list forms print JSON; see json_item(). */
static bool json;
static unsigned int json_items;

static bool is_ms(const struct policy *pol)
{
	return pol->kind >= K_BVT;
}

static void __printf(1, 2) msg(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("schedctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void __printf(1, 2) __noreturn usage_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("schedctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'schedctl --help' for more information.\n", stderr);
	exit(2);
}

static void print_help(void)
{
	fputs("Usage:\n"
	      "  schedctl [options] -c CLASS [--] COMMAND [ARG...]  run COMMAND in CLASS\n"
	      "  schedctl [options] -c CLASS -p PID[,PID...]        set the policy of PIDs\n"
	      "  schedctl [-a] [-v] [--json] -p PID[,PID...]        show the policy of PIDs\n"
	      "  schedctl --list-tasks [CLASS] [--json]             list threads and parameters\n"
	      "  schedctl --list [--json]                           list the policies\n"
	      "\n"
	      "A set changes only what it names. In the same class (other, batch and\n"
	      "idle count as one, as do fifo and rr) the other parameters keep their\n"
	      "values; entering another class they take its defaults, but the nice\n"
	      "value and reset-on-fork are kept. COMMAND starts from schedctl's own.\n"
	      "--reset starts from the defaults instead, nice 0 included.\n"
	      "\n"
	      "Policy:\n"
	      "  -c, --class NAME      other (normal), batch, idle, fifo, rr, deadline,\n"
	      "                        bvt, vtrr, bebs or rbs; needed to set anything\n"
	      "      --nice N          nice value (weight 0 derives the weight from it)\n"
	      "      --prio N          real-time priority for fifo and rr\n"
	      "  -w, --weight N        bvt/vtrr share, bebs/rbs importance;\n"
	      "                        0 derives it from the nice value\n"
	      "      --warp TIME       bvt warp W (virtual time)\n"
	      "      --warp-limit TIME bvt warp time limit L (0 = none)\n"
	      "      --unwarp TIME     bvt unwarp time requirement U\n"
	      "      --warp-off        bvt: keep the warp but do not warp\n"
	      "      --warp-signal     bvt: warp only while in a signal handler\n"
	      "      --reserved        bvt: reserved-effort level (CAP_SYS_NICE)\n"
	      "      --periodic        bebs: periodic real-time task, admitted\n"
	      "      --overrun         bebs: SIGXCPU when a periodic job overruns\n"
	      "      --io-server       rbs: priority-inheritance I/O server, at the\n"
	      "                        period of the reservation that wakes it\n"
	      "      --feedback        rbs: rbs_ctl sets proportion and period; with\n"
	      "                        no budget and period from progress metrics, or\n"
	      "                        from what it uses (see --consumer)\n"
	      "      --background      rbs: run out of budget while the CPU is idle\n"
	      "      --shared          rbs: a reservation other threads may join\n"
	      "      --flags LIST      the class flags are exactly LIST, names of the\n"
	      "                        nine flag options above with commas, or none;\n"
	      "                        the flag options add to it\n"
	      "      --budget TIME|N%  runtime per period (bebs, rbs, deadline);\n"
	      "                        N% is that share of --period\n"
	      "  -P, --period TIME     period (bebs, rbs, deadline)\n"
	      "      --consumer FD     rbs --feedback: COMMAND reads the pipe, FIFO or\n"
	      "                        socket FD it inherits; its fill level is a\n"
	      "                        progress metric (at most four of these two)\n"
	      "      --producer FD     rbs --feedback: COMMAND writes FD\n"
	      "      --join TID        rbs: join the shared reservation of thread TID\n"
	      "                        (its budget and period; no other rbs option)\n"
	      "      --deadline TIME   relative deadline (deadline; default: --period)\n"
	      "  -R, --reset-on-fork   children return to SCHED_OTHER and nice 0\n"
	      "      --reset           unnamed parameters take their defaults\n"
	      "  -b, -d                refused: in chrt they choose SCHED_BATCH and\n"
	      "                        SCHED_DEADLINE; use -c batch, -c deadline,\n"
	      "                        --budget or --deadline\n"
	      "\n"
	      "Other options:\n"
	      "  -p, --pid PID[,PID...]  operate on these PIDs instead of running a\n"
	      "                        COMMAND; -p may be given more than once\n"
	      "  -a, --all-tasks       with -p, operate on every thread of each PID\n"
	      "      --list-tasks [CLASS]  list every thread in the system (in CLASS)\n"
	      "                        with its parameters\n"
	      "  -l, --list            list the policies and which this kernel accepts\n"
	      "      --json            print JSON when showing and listing\n"
	      "  -v, --verbose         show the parameters before and after a change\n"
	      "  -h, --help            show this help and exit\n"
	      "  -V, --version         show the version and exit\n"
	      "\n"
	      "TIME is a decimal number with a unit: ns, us, ms or s (1.5ms, 250us);\n"
	      "only 0 may go without one.\n"
	      "\n"
	      "Exit status: 0 success, 1 failure, 2 usage error, 127 COMMAND could not\n"
	      "be run; when COMMAND runs, its own exit status.\n"
	      "See schedctl(8).\n", stdout);
}

/* ---- parsing ------------------------------------------------------ */

/* *v = *v * 10 + d, false on overflow. */
static bool mul10_add(unsigned long long *v, unsigned int d)
{
	if (*v > (ULLONG_MAX - d) / 10)
		return false;
	*v = *v * 10 + d;
	return true;
}

enum parse_result {
	PARSE_OK,
	PARSE_SYNTAX,		/* not a number */
	PARSE_RANGE,		/* does not fit 64 bits */
	PARSE_PRECISION,	/* more decimals than the scale keeps */
};

/*
 * Parse "DIGITS[.DIGITS]" at *sp into a fixed-point value scaled by
 * 10^exp, and advance *sp past it. Decimals beyond the scale must be 0.
 */
static enum parse_result parse_fixed(const char **sp, unsigned int exp,
				     unsigned long long *val)
{
	const char *s = *sp, *ip, *fp = NULL;
	size_t ilen, flen = 0, i;
	unsigned long long v = 0;

	ip = s;
	while (isdigit((unsigned char)*s))
		s++;
	ilen = s - ip;
	if (!ilen)
		return PARSE_SYNTAX;
	if (*s == '.') {
		fp = ++s;
		while (isdigit((unsigned char)*s))
			s++;
		flen = s - fp;
		if (!flen)
			return PARSE_SYNTAX;
	}
	*sp = s;

	for (i = 0; i < ilen; i++)
		if (!mul10_add(&v, ip[i] - '0'))
			return PARSE_RANGE;
	for (i = 0; i < exp; i++)
		if (!mul10_add(&v, i < flen ? fp[i] - '0' : 0))
			return PARSE_RANGE;
	for (i = exp; i < flen; i++)
		if (fp[i] != '0')
			return PARSE_PRECISION;
	*val = v;
	return PARSE_OK;
}

/* The empty suffix is for 0 alone: parse_time_of() refuses other numbers. */
static const struct {
	const char *suffix;
	unsigned int exp;	/* nanoseconds per unit, as a power of ten */
} time_units[] = {
	{ "", 0 }, { "ns", 0 }, { "us", 3 }, { "ms", 6 }, { "s", 9 },
};

#define NOT_A_TIME	"not a time (a number with a unit ns, us, ms or s, e.g. 1.5ms)"

/*
 * Parse @s, which is @arg or its magnitude, as the TIME argument of @opt.
 * A bad one is a usage error: say so, quoting @arg, and exit with 2.
 */
static unsigned long long parse_time_of(const char *opt, const char *arg,
					const char *s)
{
	unsigned long long ns = 0;
	enum parse_result res;
	const char *num, *p;
	size_t i;

	if (*s == '-')
		usage_error("invalid %s '%s': a time cannot be negative",
			    opt, arg);
	/* Find the unit first: it decides the scale of the number. */
	num = s;
	while (isdigit((unsigned char)*s) || *s == '.')
		s++;
	if (s == num)
		usage_error("invalid %s '%s': " NOT_A_TIME, opt, arg);
	for (i = 0; i < ARRAY_SIZE(time_units); i++)
		if (!strcmp(s, time_units[i].suffix))
			break;
	if (i == ARRAY_SIZE(time_units))
		usage_error("invalid %s '%s': unknown unit '%s' (use ns, us, ms or s)",
			    opt, arg, s);
	/* A bare number would be nanoseconds: ask for the unit, but for 0. */
	if (!*s && strspn(num, "0.") != (size_t)(s - num))
		usage_error("invalid %s '%s': a time needs a unit: ns, us, ms or s (e.g. %sms)",
			    opt, arg, arg);

	p = num;
	res = parse_fixed(&p, time_units[i].exp, &ns);
	if (res == PARSE_OK && p != s)
		res = PARSE_SYNTAX;	/* a second decimal point */
	switch (res) {
	case PARSE_OK:
		break;
	case PARSE_SYNTAX:
		usage_error("invalid %s '%s': " NOT_A_TIME, opt, arg);
	case PARSE_PRECISION:
		usage_error("invalid %s '%s': finer than one nanosecond",
			    opt, arg);
	case PARSE_RANGE:
		usage_error("invalid %s '%s': out of range (at most %llu ns)",
			    opt, arg, ULLONG_MAX);
	}
	return ns;
}

static unsigned long long parse_time(const char *opt, const char *arg)
{
	return parse_time_of(opt, arg, arg);
}

/* The warp is signed: a negative one goes to the kernel, which decides. */
static long long parse_signed_time(const char *opt, const char *arg)
{
	bool neg = arg[0] == '-';
	unsigned long long mag;

	mag = parse_time_of(opt, arg, neg ? arg + 1 : arg);
	if (mag > (unsigned long long)LLONG_MAX + neg)
		usage_error("invalid %s '%s': out of range (at most %lld ns)",
			    opt, arg, LLONG_MAX);
	if (neg)
		return mag ? -(long long)(mag - 1) - 1 : 0;
	return mag;
}

/* Parse "N%" into parts per million; a bad one is a usage error. */
static unsigned long long parse_percent(const char *opt, const char *arg)
{
	unsigned long long ppm = 0;
	enum parse_result res;
	const char *s = arg;

	if (*s == '-')
		usage_error("invalid %s '%s': a share cannot be negative",
			    opt, arg);
	res = parse_fixed(&s, 4, &ppm);
	if (res == PARSE_OK && strcmp(s, "%"))
		res = PARSE_SYNTAX;
	switch (res) {
	case PARSE_OK:
		break;
	case PARSE_SYNTAX:
		usage_error("invalid %s '%s': not a percentage", opt, arg);
	case PARSE_PRECISION:
		usage_error("invalid %s '%s': at most four decimals",
			    opt, arg);
	case PARSE_RANGE:
		usage_error("invalid %s '%s': a share must be 0%%..100%%",
			    opt, arg);
	}
	if (ppm > PPM)
		usage_error("invalid %s '%s': a share must be 0%%..100%%",
			    opt, arg);
	return ppm;
}

static long long parse_int(const char *opt, const char *arg,
			   long long min, long long max)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (end == arg || *end || isspace((unsigned char)*arg))
		usage_error("invalid %s '%s': not an integer", opt, arg);
	if (errno == ERANGE || v < min || v > max)
		usage_error("invalid %s '%s': out of range (%lld..%lld)",
			    opt, arg, min, max);
	return v;
}

#define MSG_BAD_FLAG	"invalid --flags '%s': unknown flag '%s' (warp-off, warp-signal, reserved, periodic, overrun, io-server, feedback, background, shared or none)"

/* Parse --flags LIST: "none" or flag names separated by commas. */
static unsigned int parse_flags(const char *arg)
{
	char *copy, *tok, *save;
	unsigned int flags = 0;
	size_t i;

	if (!strcmp(arg, "none"))
		return 0;
	copy = strdup(arg);
	if (!copy) {
		msg("out of memory");
		exit(1);
	}
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(ms_flag_names); i++)
			if (!strcmp(tok, ms_flag_names[i].name))
				break;
		if (i == ARRAY_SIZE(ms_flag_names))
			usage_error(MSG_BAD_FLAG, arg, tok);
		flags |= ms_flag_names[i].flag;
	}
	free(copy);
	return flags;
}

/* The pids of -p, which takes PID[,PID...] and may be repeated. */
static pid_t *pids;
static size_t npids;

static void add_pids(const char *arg)
{
	const char *s = arg, *end;
	char tok[32];
	size_t len;
	pid_t *p;

	for (;;) {
		end = strchr(s, ',');
		len = end ? (size_t)(end - s) : strlen(s);
		if (len >= sizeof(tok))
			usage_error("invalid --pid '%.*s': out of range (1..%d)",
				    (int)len, s, INT_MAX);
		memcpy(tok, s, len);
		tok[len] = '\0';
		p = realloc(pids, (npids + 1) * sizeof(*pids));
		if (!p) {
			msg("out of memory");
			exit(1);
		}
		pids = p;
		pids[npids++] = parse_int("--pid", tok, 1, INT_MAX);
		if (!end)
			break;
		s = end + 1;
	}
}

static const struct policy *policy_by_name(const char *name)
{
	size_t i;

	if (!strncasecmp(name, "sched_", 6))
		name += 6;
	if (!strcasecmp(name, "normal"))
		name = "other";
	for (i = 0; i < ARRAY_SIZE(policies); i++)
		if (!strcasecmp(name, policies[i].name))
			return &policies[i];
	return NULL;
}

static const struct policy *policy_by_nr(unsigned int nr)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(policies); i++)
		if (policies[i].nr == nr)
			return &policies[i];
	return NULL;
}

/* ---- formatting --------------------------------------------------- */

/* A time in the largest unit that keeps it exact: 20ms, 1.5us, 7ns. */
static const char *fmt_time(char *buf, size_t len, unsigned long long ns)
{
	static const struct {
		const char *suffix;
		unsigned long long mult;
		int digits;
	} u[] = {
		{ "s", NSEC_PER_SEC, 9 },
		{ "ms", 1000000ULL, 6 },
		{ "us", 1000ULL, 3 },
	};
	char frac[16];
	size_t i;
	int n;

	for (i = 0; i < ARRAY_SIZE(u); i++) {
		if (ns < u[i].mult)
			continue;
		if (!(ns % u[i].mult)) {
			snprintf(buf, len, "%llu%s", ns / u[i].mult,
				 u[i].suffix);
			return buf;
		}
		snprintf(frac, sizeof(frac), "%0*llu", u[i].digits,
			 ns % u[i].mult);
		for (n = u[i].digits; n > 0 && frac[n - 1] == '0'; n--)
			frac[n - 1] = '\0';
		snprintf(buf, len, "%llu.%s%s", ns / u[i].mult, frac,
			 u[i].suffix);
		return buf;
	}
	if (ns)
		snprintf(buf, len, "%lluns", ns);
	else
		snprintf(buf, len, "0");
	return buf;
}

static const char *fmt_stime(char *buf, size_t len, long long ns)
{
	if (ns >= 0)
		return fmt_time(buf, len, ns);
	buf[0] = '-';
	fmt_time(buf + 1, len - 1, -(unsigned long long)ns);
	return buf;
}

/* Parts per million as a percentage with one decimal: 950000 -> 95.0. */
static const char *fmt_ppm(char *buf, size_t len, unsigned long long ppm)
{
	unsigned long long tenths = (ppm + 500) / 1000;

	snprintf(buf, len, "%llu.%llu%%", tenths / 10, tenths % 10);
	return buf;
}

static const char *fmt_flags(char *buf, size_t len, unsigned int flags)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(ms_flag_names) && off < len; i++) {
		if (!(flags & ms_flag_names[i].flag))
			continue;
		flags &= ~ms_flag_names[i].flag;
		off += snprintf(buf + off, len - off, "%s%s", off ? "," : "",
				ms_flag_names[i].name);
	}
	if (flags && off < len)
		snprintf(buf + off, len - off, "%s0x%x", off ? "," : "", flags);
	else if (!off)
		snprintf(buf, len, "none");
	return buf;
}

/* ---- /proc -------------------------------------------------------- */

/* Read the first line of @path without its newline; false if unreadable. */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/* The multisched classes this kernel accepts; false if it has none. */
static bool ms_classes(char *buf, size_t len)
{
	char *p;

	if (!read_line(PROC_MS_CLASSES, buf, len))
		return false;
	/* Tabs or newlines would garble the messages that quote it. */
	for (p = buf; *p; p++)
		if (isspace((unsigned char)*p))
			*p = ' ';
	return true;
}

static bool ms_class_available(const char *name)
{
	char buf[256], *tok, *save;

	if (!ms_classes(buf, sizeof(buf)))
		return false;
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, name))
			return true;
	return false;
}

/* Look up "Key:" in /proc/<path>/status; false if absent. */
static bool status_field(const char *path, const char *key, char *buf,
			 size_t len)
{
	char line[256];
	size_t klen = strlen(key);
	bool found = false;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			snprintf(buf, len, "%s", line + klen + 1);
			found = true;
			break;
		}
	}
	fclose(f);
	return found;
}

static bool have_cap_sys_nice(void)
{
	unsigned long long caps;
	char buf[64];

	if (!status_field("/proc/self/status", "CapEff", buf, sizeof(buf)) ||
	    sscanf(buf, "%llx", &caps) != 1)
		return false;
	return caps & (1ULL << CAP_SYS_NICE_BIT);
}

/* Does @tid fail the kernel's check_same_owner() against us? */
static bool other_owner(pid_t pid, pid_t tid)
{
	unsigned int ruid, euid;
	char path[64], buf[128];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	if (!status_field(path, "Uid", buf, sizeof(buf)) ||
	    sscanf(buf, "%u %u", &ruid, &euid) != 2)
		return false;
	return geteuid() != ruid && geteuid() != euid;
}

/* Print the "ms." lines the classes put in /proc/<pid>/task/<tid>/sched. */
static void print_ms_stats(pid_t pid, pid_t tid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", pid, tid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0)
		if (!strncmp(line, "ms.", 3))
			fputs(line, stdout);
	free(line);
	fclose(f);
}

/* ---- the syscalls ------------------------------------------------- */

#define MSG_ENOTSUP "%s: a flag asks for a feature this kernel does not have"
#define MSG_OLD_ATTR	"note: the kernel lacks the extended sched_attr (it knows %u bytes, not %d); no multisched parameters"

/*
 * sched_getattr() with the largest structure the kernel takes. A kernel
 * without the extension either refuses the 88 bytes with E2BIG or, as
 * mainline does, fills in fewer and says so in attr->size.
 */
static int get_attr(pid_t tid, struct sched_attr *attr)
{
	static const unsigned int sizes[] = {
		SCHED_ATTR_SIZE_VER2, SCHED_ATTR_SIZE_VER1,
		SCHED_ATTR_SIZE_VER0,
	};
	static bool noted;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		memset(attr, 0, sizeof(*attr));
		if (!syscall(SYS_sched_getattr, tid, attr, sizes[i], 0))
			break;
		if (errno != E2BIG)
			return -1;
	}
	if (i == ARRAY_SIZE(sizes))
		return -1;
	if (attr->size < SCHED_ATTR_SIZE_VER2 && !noted) {
		msg(MSG_OLD_ATTR, attr->size, SCHED_ATTR_SIZE_VER2);
		noted = true;
	}
	return 0;
}

static void show_time(pid_t tid, const char *when, const char *what,
		      unsigned long long ns, bool verbose)
{
	char buf[48];

	printf("pid %d's %s%s: %s", tid, when, what,
	       fmt_time(buf, sizeof(buf), ns));
	if (verbose && ns)
		printf(" (%llu ns)", ns);
	putchar('\n');
}

/* Say why get_attr() failed for @tid; a @thread that has gone is no failure. */
static int get_failed(pid_t tid, bool thread)
{
	if (errno == ESRCH && thread)
		return 0;
	if (errno == ESRCH)
		msg("no such process %d", tid);
	else
		msg("cannot get the parameters of pid %d: %s", tid,
		    strerror(errno));
	return 1;
}

/* SCHED_BVT, or SCHED_EXT, or "unknown (N)". */
static const char *policy_sname(char *buf, size_t len, unsigned int nr)
{
	const struct policy *pol = policy_by_nr(nr);

	if (pol)
		return pol->sname;
	if (nr == SCHED_EXT)
		return "SCHED_EXT";
	snprintf(buf, len, "unknown (%u)", nr);
	return buf;
}

/*
 * The nice value of @tid, whose parameters are @a: sched_getattr() reports
 * it for the time-sharing and multisched policies, getpriority() for all.
 */
static int task_nice(pid_t tid, const struct sched_attr *a)
{
	const struct policy *pol = policy_by_nr(a->sched_policy);
	int nice;

	if (!pol || (pol->kind != K_RT && pol->kind != K_DL))
		return a->sched_nice;
	errno = 0;
	nice = getpriority(PRIO_PROCESS, tid);
	return errno ? 0 : nice;
}

/* ---- JSON ----------------------------------------------------------- */

/* Begin the next object of the array that json_end() closes. */
static void json_item(void)
{
	fputs(json_items++ ? ",\n  " : "[\n  ", stdout);
}

static void json_end(void)
{
	fputs(json_items ? "\n]\n" : "[]\n", stdout);
}

/* The length of the UTF-8 sequence at @s, or 0 if it is not a valid one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* A NUL is no continuation byte: this stops at the end. */
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* No overlong forms, surrogates or code points above U+10FFFF. */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

/* @str as a JSON string; a byte that is not UTF-8 is taken as Latin-1. */
static void json_string(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	putchar('"');
	while (*s) {
		n = *s >= 0x80 ? utf8_len(s) : 0;
		if (n) {
			fwrite(s, 1, n, stdout);
			s += n;
		} else if (*s == '"' || *s == '\\') {
			printf("\\%c", *s++);
		} else if (*s >= 0x20 && *s < 0x7f) {
			putchar(*s++);
		} else {
			printf("\\u%04x", *s++);
		}
	}
	putchar('"');
}

/* ", "KEY": " before a member's value: every object starts with "pid". */
static void json_key(const char *key)
{
	printf(", \"%s\": ", key);
}

static void json_flags(unsigned int flags)
{
	bool first = true;
	size_t i;

	json_key("flags");
	putchar('[');
	for (i = 0; i < ARRAY_SIZE(ms_flag_names); i++) {
		if (!(flags & ms_flag_names[i].flag))
			continue;
		flags &= ~ms_flag_names[i].flag;
		printf("%s\"%s\"", first ? "" : ", ", ms_flag_names[i].name);
		first = false;
	}
	if (flags)
		printf("%s\"0x%x\"", first ? "" : ", ", flags);
	putchar(']');
}

/* Is @s a JSON integer (no sign but '-', no leading zeros)? */
static bool json_integer(const char *s)
{
	if (*s == '-')
		s++;
	if (!isdigit((unsigned char)*s) || (s[0] == '0' && s[1]))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	return !*s;
}

/* The "ms." lines of /proc/<pid>/task/<tid>/sched as the "ms" object. */
static void json_ms_stats(pid_t pid, pid_t tid)
{
	char path[64], *line = NULL, *key, *val, *end;
	bool first = true;
	size_t cap = 0;
	FILE *f;

	json_key("ms");
	putchar('{');
	snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", pid, tid);
	f = fopen(path, "re");
	while (f && getline(&line, &cap, f) > 0) {
		if (strncmp(line, "ms.", 3))
			continue;
		val = strchr(line, ':');
		if (!val)
			continue;
		key = line;
		end = val;
		while (end > key && isspace((unsigned char)end[-1]))
			end--;
		*end = '\0';
		val++;
		while (isspace((unsigned char)*val))
			val++;
		end = val + strlen(val);
		while (end > val && isspace((unsigned char)end[-1]))
			end--;
		*end = '\0';
		fputs(first ? "" : ", ", stdout);
		first = false;
		json_string(key);
		fputs(": ", stdout);
		if (json_integer(val))
			fputs(val, stdout);
		else
			json_string(val);
	}
	putchar('}');
	free(line);
	if (f)
		fclose(f);
}

/*
 * @tid, a thread of @pid, with its parameters @a as one JSON object; with
 * its command name if @comm, with the "ms." statistics if @stats.
 */
static void json_task(pid_t pid, pid_t tid, const char *comm,
		      const struct sched_attr *a, bool stats)
{
	const struct policy *pol = policy_by_nr(a->sched_policy);
	char buf[256];

	json_item();
	printf("{\"pid\": %d, \"tid\": %d", pid, tid);
	if (comm) {
		json_key("comm");
		json_string(comm);
	}
	json_key("policy");
	json_string(policy_sname(buf, sizeof(buf), a->sched_policy));
	json_key("policy_nr");
	printf("%u", a->sched_policy);
	json_key("class");
	if (pol)
		json_string(pol->name);
	else
		fputs(a->sched_policy == SCHED_EXT ? "\"ext\"" : "null", stdout);
	json_key("reset_on_fork");
	fputs(a->sched_flags & SCHED_FLAG_RESET_ON_FORK ? "true" : "false",
	      stdout);
	json_key("attr_size");
	printf("%u", a->size);
	json_key("nice");
	printf("%d", task_nice(tid, a));

	switch (pol ? pol->kind : K_NORMAL) {
	case K_NORMAL:
		if (a->sched_weight) {
			json_key("weight");
			printf("%u", a->sched_weight);
		}
		if ((a->sched_policy == SCHED_OTHER ||
		     a->sched_policy == SCHED_BATCH) &&
		    read_line(PROC_NORMAL_CLASS, buf, sizeof(buf))) {
			json_key("normal_class");
			json_string(buf);
		}
		break;
	case K_RT:
		json_key("priority");
		printf("%u", a->sched_priority);
		break;
	case K_DL:
		json_key("runtime_ns");
		printf("%llu", (unsigned long long)a->sched_runtime);
		json_key("deadline_ns");
		printf("%llu", (unsigned long long)a->sched_deadline);
		json_key("period_ns");
		printf("%llu", (unsigned long long)a->sched_period);
		break;
	case K_BVT:
		json_key("weight");
		printf("%u", a->sched_weight);
		json_key("warp_ns");
		printf("%lld", (long long)a->sched_warp);
		json_key("warp_limit_ns");
		printf("%llu", (unsigned long long)a->sched_warp_limit);
		json_key("unwarp_ns");
		printf("%llu", (unsigned long long)a->sched_unwarp);
		json_flags(a->sched_ms_flags);
		break;
	case K_VTRR:
		json_key("weight");
		printf("%u", a->sched_weight);
		break;
	case K_BEBS:
	case K_RBS:
		json_key("weight");
		printf("%u", a->sched_weight);
		json_key("budget_ns");
		printf("%llu", (unsigned long long)a->sched_runtime);
		json_key("period_ns");
		printf("%llu", (unsigned long long)a->sched_period);
		json_flags(a->sched_ms_flags);
		break;
	}
	if (stats)
		json_ms_stats(pid, tid);
	putchar('}');
}

/* ---- showing -------------------------------------------------------- */

/*
 * Show the parameters of @tid, a thread of @pid; @when is "", "old " or
 * "new ". A @thread that has gone is skipped in silence.
 */
static int show_task(pid_t pid, pid_t tid, const char *when, bool verbose,
		     bool thread)
{
	const struct policy *pol;
	struct sched_attr a;
	char buf[256];

	if (get_attr(tid, &a))
		return get_failed(tid, thread);
	if (json) {
		json_task(pid, tid, NULL, &a, true);
		return 0;
	}
	pol = policy_by_nr(a.sched_policy);

	printf("pid %d's %spolicy: %s", tid, when,
	       policy_sname(buf, sizeof(buf), a.sched_policy));
	if (a.sched_flags & SCHED_FLAG_RESET_ON_FORK)
		fputs("|SCHED_RESET_ON_FORK", stdout);
	putchar('\n');
	if (verbose)
		printf("pid %d's %ssched_attr size: %u\n", tid, when, a.size);

	switch (pol ? pol->kind : K_NORMAL) {
	case K_NORMAL:
		printf("pid %d's %snice: %d\n", tid, when, a.sched_nice);
		if (a.sched_weight)
			printf("pid %d's %sweight: %u\n", tid, when,
			       a.sched_weight);
		if ((a.sched_policy == SCHED_OTHER ||
		     a.sched_policy == SCHED_BATCH) &&
		    read_line(PROC_NORMAL_CLASS, buf, sizeof(buf)))
			printf("pid %d's %snormal class: %s\n", tid, when, buf);
		break;
	case K_RT:
		printf("pid %d's %spriority: %u\n", tid, when,
		       a.sched_priority);
		break;
	case K_DL:
		show_time(tid, when, "runtime", a.sched_runtime, verbose);
		show_time(tid, when, "deadline", a.sched_deadline, verbose);
		show_time(tid, when, "period", a.sched_period, verbose);
		break;
	case K_BVT:
		printf("pid %d's %sweight: %u\n", tid, when, a.sched_weight);
		printf("pid %d's %swarp: %s", tid, when,
		       fmt_stime(buf, sizeof(buf), a.sched_warp));
		if (verbose && a.sched_warp)
			printf(" (%lld ns)", (long long)a.sched_warp);
		putchar('\n');
		if (a.sched_warp_limit)
			show_time(tid, when, "warp limit", a.sched_warp_limit,
				  verbose);
		else
			printf("pid %d's %swarp limit: 0 (none)\n", tid, when);
		show_time(tid, when, "unwarp", a.sched_unwarp, verbose);
		printf("pid %d's %sflags: %s\n", tid, when,
		       fmt_flags(buf, sizeof(buf), a.sched_ms_flags));
		break;
	case K_VTRR:
		printf("pid %d's %sweight: %u\n", tid, when, a.sched_weight);
		break;
	case K_BEBS:
	case K_RBS:
		printf("pid %d's %sweight: %u\n", tid, when, a.sched_weight);
		show_time(tid, when, "budget", a.sched_runtime, verbose);
		show_time(tid, when, "period", a.sched_period, verbose);
		printf("pid %d's %sflags: %s\n", tid, when,
		       fmt_flags(buf, sizeof(buf), a.sched_ms_flags));
		break;
	}
	print_ms_stats(pid, tid);
	return 0;
}

/* Append printf-style to @buf of @len, which holds @*off characters. */
static void __printf(4, 5) append(char *buf, size_t len, size_t *off,
				  const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n > 0)
		*off += n;
}

/* The parameters of @tid, whose attributes are @a, as "name=value" words. */
static const char *fmt_params(char *buf, size_t len, pid_t tid,
			      const struct sched_attr *a)
{
	const struct policy *pol = policy_by_nr(a->sched_policy);
	char t1[32], t2[32], t3[32], f[128];
	size_t off = 0;

	buf[0] = '\0';
	switch (pol ? pol->kind : K_NORMAL) {
	case K_NORMAL:
		append(buf, len, &off, "nice=%d", a->sched_nice);
		if (a->sched_weight)
			append(buf, len, &off, " weight=%u", a->sched_weight);
		break;
	case K_RT:
		append(buf, len, &off, "prio=%u", a->sched_priority);
		break;
	case K_DL:
		append(buf, len, &off, "runtime=%s deadline=%s period=%s",
		       fmt_time(t1, sizeof(t1), a->sched_runtime),
		       fmt_time(t2, sizeof(t2), a->sched_deadline),
		       fmt_time(t3, sizeof(t3), a->sched_period));
		break;
	case K_BVT:
		append(buf, len, &off,
		       "nice=%d weight=%u warp=%s warp-limit=%s unwarp=%s flags=%s",
		       task_nice(tid, a), a->sched_weight,
		       fmt_stime(t1, sizeof(t1), a->sched_warp),
		       fmt_time(t2, sizeof(t2), a->sched_warp_limit),
		       fmt_time(t3, sizeof(t3), a->sched_unwarp),
		       fmt_flags(f, sizeof(f), a->sched_ms_flags));
		break;
	case K_VTRR:
		append(buf, len, &off, "nice=%d weight=%u", task_nice(tid, a),
		       a->sched_weight);
		break;
	case K_BEBS:
	case K_RBS:
		append(buf, len, &off,
		       "nice=%d weight=%u budget=%s period=%s flags=%s",
		       task_nice(tid, a), a->sched_weight,
		       fmt_time(t1, sizeof(t1), a->sched_runtime),
		       fmt_time(t2, sizeof(t2), a->sched_period),
		       fmt_flags(f, sizeof(f), a->sched_ms_flags));
		break;
	}
	if (a->sched_flags & SCHED_FLAG_RESET_ON_FORK)
		append(buf, len, &off, " reset-on-fork");
	return buf;
}

/* The number in a /proc directory entry's name, or 0 if it is none. */
static pid_t proc_number(const char *name)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*name))
		return 0;
	v = strtol(name, &end, 10);
	return *end || v <= 0 || v > INT_MAX ? 0 : v;
}

/* One line, or JSON object, per thread of @pid that is in @filter's policy. */
static int list_threads(pid_t pid, const struct policy *filter)
{
	char path[64], comm[64], buf[256], params[256];
	struct sched_attr a;
	struct dirent *de;
	int ret = 0;
	pid_t tid;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;	/* it has exited */
	while ((de = readdir(dir))) {
		tid = proc_number(de->d_name);
		if (!tid)
			continue;
		if (get_attr(tid, &a)) {
			ret |= get_failed(tid, true);
			continue;
		}
		if (filter && a.sched_policy != filter->nr)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
		if (!read_line(path, comm, sizeof(comm)))
			continue;	/* it has exited */
		if (json)
			json_task(pid, tid, comm, &a, false);
		else
			printf("%7d %7d %-15s %-16s %s\n", pid, tid,
			       policy_sname(buf, sizeof(buf), a.sched_policy),
			       comm, fmt_params(params, sizeof(params), tid,
						&a));
	}
	closedir(dir);
	return ret;
}

/* --list-tasks: every thread in the system, or those in @filter's policy. */
static int list_tasks(const struct policy *filter)
{
	struct dirent *de;
	int ret = 0;
	pid_t pid;
	DIR *dir;

	dir = opendir("/proc");
	if (!dir) {
		msg("cannot list /proc: %s", strerror(errno));
		return 1;
	}
	if (!json)
		printf("%7s %7s %-15s %-16s %s\n", "PID", "TID", "POLICY",
		       "COMMAND", "PARAMETERS");
	while ((de = readdir(dir))) {
		pid = proc_number(de->d_name);
		if (pid)
			ret |= list_threads(pid, filter);
	}
	closedir(dir);
	if (json)
		json_end();
	return ret;
}

/* ---- explaining failures ------------------------------------------ */

/* Messages too long for their call; a #define keeps each one whole. */
#define MSG_EINVAL_DL		"invalid parameters for %s: budget >= 1.024us; budget <= deadline <= period (period 0 = deadline); period within /proc/sys/kernel/sched_deadline_period_{min,max}_us; priority 0"
#define MSG_EINVAL_BVT		"invalid parameters for %s: %s; warp 0..%s; warp limit 0 (none) or %s..%s; unwarp 0..%s; flags warp-off, warp-signal, reserved; priority 0"
#define MSG_EINVAL_BEBS		"invalid parameters for %s: %s; a best-effort server takes no budget, period, deadline or --overrun; a periodic task (--periodic) takes a budget %s..period, a period %s..%s and a deadline 0 or budget..period; priority 0"
#define MSG_EBUSY_BEBS_NEW	"SCHED_BEBS admits a new periodic task on the first CPU of its affinity with room: widen the affinity (taskset -c) or free bandwidth"
#define MSG_EBUSY_BEBS_CPU	"SCHED_BEBS changes an admitted periodic task on the CPU it holds, CPU %d: free bandwidth there, or make the task best-effort and periodic again to place it anew"
#define MSG_EINVAL_BEBS_RBS	"invalid parameters for %s: %s; budget %s..period; period %s..%s; %s; priority 0"
#define MSG_EPERM_NORMAL	"%s: needs CAP_SYS_NICE (or RLIMIT_NICE) to lower the nice value or to leave SCHED_IDLE"
#define MSG_EPERM_DL_AFFINITY	"%s refused despite CAP_SYS_NICE: the affinity of pid %d must span its whole root domain"
#define MSG_EPERM_BVT		"%s: needs CAP_SYS_NICE to raise weight or warp above the current value"
#define MSG_EPERM_ENTER		"%s: entering it from another policy needs CAP_SYS_NICE or a non-zero RLIMIT_RTPRIO (it is 0), as SCHED_FIFO does"
#define MSG_EPERM_BVT_WARP	"%s: needs CAP_SYS_NICE to raise weight or warp, or to loosen the warp limit, the unwarp time, --warp-off or --warp-signal of a warped thread"
#define MSG_EPERM_RESERVE	"%s: needs CAP_SYS_NICE to reserve CPU bandwidth or to raise weight above the current value"
#define MSG_EBUSY_RBS		"SCHED_RBS admits a reservation on the first CPU of its affinity where it fits under the limit and keeps that CPU's reservations, with the rest admitted there counted as one more task, within the rate-monotonic bound n(2^(1/n)-1): 82.8%% for two, 78.0%% for three, 69.3%% for many; an admitted reservation changes on the CPU it holds"
#define MSG_EBUSY_JOIN	"the reservation of thread %llu is on a CPU outside the affinity of pid %d (see ms.rbs.reserved_cpu in schedctl -p %llu)"
#define MSG_EBUSY_DL		"admission control refused: not enough SCHED_DEADLINE bandwidth left (see /proc/sys/kernel/sched_rt_{runtime,period}_us)"
#define MSG_EBUSY_ALL_CPUS	"admission control refused: the reservations of every CPU pid %d may use are full"

static void explain_einval(const struct policy *pol)
{
	char classes[256], a[32], b[32], c[32], d[32];
	char weight[64];

	if (is_ms(pol) && !ms_class_available(pol->name)) {
		if (!ms_classes(classes, sizeof(classes)) || !classes[0])
			snprintf(classes, sizeof(classes), "none");
		msg("%s is not available in this kernel (available: %s)",
		    pol->sname, classes);
		return;
	}

	snprintf(weight, sizeof(weight), "weight 0 (from nice) or %llu..%llu",
		 (unsigned long long)MS_WEIGHT_MIN,
		 (unsigned long long)MS_WEIGHT_MAX);
	switch (pol->kind) {
	case K_NORMAL:
		msg("invalid parameters for %s: priority 0; nice -20..19; %s; no class flags",
		    pol->sname, weight);
		break;
	case K_RT:
		msg("invalid parameters for %s: priority %d..%d (--prio)",
		    pol->sname, sched_get_priority_min(pol->nr),
		    sched_get_priority_max(pol->nr));
		break;
	case K_DL:
		msg(MSG_EINVAL_DL, pol->sname);
		break;
	case K_BVT:
		msg(MSG_EINVAL_BVT, pol->sname, weight,
		    fmt_time(a, sizeof(a), MS_WARP_MAX),
		    fmt_time(b, sizeof(b), MS_WARP_LIMIT_MIN),
		    fmt_time(c, sizeof(c), MS_WARP_LIMIT_MAX),
		    fmt_time(d, sizeof(d), MS_UNWARP_MAX));
		break;
	case K_VTRR:
		msg("invalid parameters for %s: %s; no class flags; priority 0",
		    pol->sname, weight);
		break;
	case K_BEBS:
		msg(MSG_EINVAL_BEBS, pol->sname, weight,
		    fmt_time(a, sizeof(a), MS_RUNTIME_MIN),
		    fmt_time(b, sizeof(b), MS_PERIOD_MIN),
		    fmt_time(c, sizeof(c), MS_PERIOD_MAX));
		break;
	case K_RBS:
		msg(MSG_EINVAL_BEBS_RBS, pol->sname, weight,
		    fmt_time(a, sizeof(a), MS_RUNTIME_MIN),
		    fmt_time(b, sizeof(b), MS_PERIOD_MIN),
		    fmt_time(c, sizeof(c), MS_PERIOD_MAX),
		    "no deadline; feedback takes no period without a budget, a budget over the controller's period without one, nor io-server or shared; --join takes no other flag");
		break;
	}
}

/*
 * Would the kernel refuse @tid entering @pol's class because its
 * RLIMIT_RTPRIO is 0? BVT, VTRR and BEBS run above fair; entering them
 * from another policy needs what SCHED_FIFO needs, unless the class is
 * the normal class. @tid is 0 for a command schedctl is about to run.
 */
static bool needs_rtprio(const struct policy *pol, pid_t pid, pid_t tid)
{
	char normal[32] = "";
	struct rlimit rl;
	int cur = sched_getscheduler(tid);

	if (pol->kind != K_BVT && pol->kind != K_VTRR && pol->kind != K_BEBS)
		return false;
	if (cur >= 0 && (unsigned int)(cur & ~SCHED_RESET_ON_FORK) == pol->nr)
		return false;
	if (read_line(PROC_NORMAL_CLASS, normal, sizeof(normal)) &&
	    !strcmp(normal, pol->name))
		return false;
	return !prlimit(pid, RLIMIT_RTPRIO, NULL, &rl) && rl.rlim_cur == 0;
}

static void explain_eperm(const struct policy *pol,
			  const struct sched_attr *attr, pid_t pid, pid_t tid)
{
	struct rlimit rl;
	char limit[64] = "";

	if (other_owner(pid, tid)) {
		msg("pid %d belongs to another user; needs CAP_SYS_NICE", tid);
		return;
	}

	if (needs_rtprio(pol, pid, tid)) {
		msg(MSG_EPERM_ENTER, pol->sname);
		return;
	}

	switch (pol->kind) {
	case K_NORMAL:
		msg(MSG_EPERM_NORMAL, pol->sname);
		break;
	case K_RT:
		if (!prlimit(pid, RLIMIT_RTPRIO, NULL, &rl) &&
		    rl.rlim_cur != RLIM_INFINITY)
			snprintf(limit, sizeof(limit), "; it is %llu",
				 (unsigned long long)rl.rlim_cur);
		msg("%s needs CAP_SYS_NICE (or RLIMIT_RTPRIO >= %u for fifo/rr%s)",
		    pol->sname, attr->sched_priority, limit);
		break;
	case K_DL:
		if (have_cap_sys_nice())
			msg(MSG_EPERM_DL_AFFINITY, pol->sname, tid);
		else
			msg("%s needs CAP_SYS_NICE", pol->sname);
		break;
	case K_BVT:
		if (attr->sched_ms_flags & MS_FLAG_RESERVED)
			msg("%s: the reserved level (--reserved) needs CAP_SYS_NICE",
			    pol->sname);
		else if (attr->sched_warp > 0)
			msg(MSG_EPERM_BVT_WARP, pol->sname);
		else
			msg(MSG_EPERM_BVT, pol->sname);
		break;
	case K_VTRR:
		msg("%s: needs CAP_SYS_NICE to raise weight above the current value",
		    pol->sname);
		break;
	case K_BEBS:
	case K_RBS:
		if (pol->kind == K_RBS || attr->sched_ms_flags &
		    MS_FLAG_BEBS_PERIODIC)
			msg(MSG_EPERM_RESERVE, pol->sname);
		else
			msg("%s: needs CAP_SYS_NICE to raise weight above the current value",
			    pol->sname);
		break;
	}
}

/*
 * EBUSY: admission control. /proc/sys/kernel/sched_ms_bandwidth, where
 * the kernel has it, holds "cpuN used_ppm total_ppm" per CPU; compare
 * those the target may run on with what it asked for.
 */
/* The CPU @tid last ran on (field 39 of /proc/TID/stat), or -1. */
static int task_cpu_of(pid_t tid)
{
	char path[64], buf[1024], *p;
	int cpu = -1, field;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	if (p) {
		/* field 3 follows the ") " after the command name */
		for (field = 2; p && field < 39; field++)
			p = strchr(p + 1, ' ');
		if (p && sscanf(p + 1, "%d", &cpu) != 1)
			cpu = -1;
	}
	fclose(f);
	return cpu;
}

static void explain_ebusy(const struct policy *pol,
			  const struct sched_attr *attr, pid_t tid)
{
	unsigned long long used, total, asked = 0, period;
	char line[128], a[32], b[32], c[32];
	unsigned int cpu, nfull = 0, ncpus = 0, full_cpu = 0;
	struct sched_attr now;
	cpu_set_t mask;
	int held = -1;
	FILE *f;

	if (pol->kind == K_DL) {
		msg(MSG_EBUSY_DL);
		return;
	}
	/*
	 * An admitted periodic BEBS task, or an RBS reservation, changes on
	 * the CPU it holds.
	 */
	if (!get_attr(tid, &now) &&
	    ((pol->kind == K_BEBS && now.sched_policy == SCHED_BEBS &&
	      (now.sched_ms_flags & MS_FLAG_BEBS_PERIODIC)) ||
	     (pol->kind == K_RBS && now.sched_policy == SCHED_RBS)))
		held = task_cpu_of(tid);

	/* BEBS reserves C / D, its density, the others C / T */
	period = attr->sched_period ? attr->sched_period :
				      attr->sched_deadline;
	if (pol->kind == K_BEBS && attr->sched_deadline)
		period = attr->sched_deadline;
	if (period)
		asked = (unsigned long long)
			(((__uint128_t)attr->sched_runtime * PPM +
			  period - 1) / period);

	f = fopen(PROC_MS_BANDWIDTH, "re");
	if (!f || sched_getaffinity(tid, sizeof(mask), &mask)) {
		msg("admission control refused: the CPU's reservations are full");
		if (f)
			fclose(f);
		return;
	}
	if (held >= 0) {
		CPU_ZERO(&mask);
		CPU_SET(held, &mask);
	}
	/* Count the full CPUs first, for the headline. */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu%u %llu %llu", &cpu, &used, &total) != 3 ||
		    cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &mask))
			continue;
		ncpus++;
		if (used + asked > total) {
			if (!nfull)
				full_cpu = cpu;
			nfull++;
		}
	}
	if (nfull == 1)
		msg("admission control refused: CPU %u's reservations are full",
		    full_cpu);
	else if (nfull && nfull == ncpus)
		msg(MSG_EBUSY_ALL_CPUS, tid);
	else
		msg("admission control refused: the CPU's reservations are full");

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu%u %llu %llu", &cpu, &used, &total) != 3 ||
		    cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &mask))
			continue;
		if (!period)
			msg("CPU %u: %s reserved, %s free", cpu,
			    fmt_ppm(a, sizeof(a), used),
			    fmt_ppm(b, sizeof(b),
				    total > used ? total - used : 0));
		else
			msg("CPU %u: %s reserved, %s free, asked for %s", cpu,
			    fmt_ppm(a, sizeof(a), used),
			    fmt_ppm(b, sizeof(b),
				    total > used ? total - used : 0),
			    fmt_ppm(c, sizeof(c), asked));
	}
	fclose(f);
	if (pol->kind == K_RBS)
		msg(MSG_EBUSY_RBS);
	else if (held >= 0)
		msg(MSG_EBUSY_BEBS_CPU, held);
	else if (pol->kind == K_BEBS)
		msg(MSG_EBUSY_BEBS_NEW);
}

/* Why sched_setattr() of @attr, for @pol, failed for @tid with @err. */
static void explain(int err, const struct policy *pol,
		    const struct sched_attr *attr, pid_t pid, pid_t tid)
{
	switch (err) {
	case ESRCH:
		if (attr->sched_join_tid && !kill(tid, 0))
			msg("no thread %llu to join, or its reservation is ending",
			    (unsigned long long)attr->sched_join_tid);
		else
			msg("no such process %d", tid);
		break;
	case E2BIG:
		msg("kernel does not know the extended sched_attr (is this a multisched kernel?)");
		break;
	case EINVAL:
		if (attr->sched_join_tid)
			msg("thread %llu shares no reservation: join one made with --shared",
			    (unsigned long long)attr->sched_join_tid);
		else
			explain_einval(pol);
		break;
	case EPERM:
		explain_eperm(pol, attr, pid, tid);
		break;
	case EBUSY:
		if (attr->sched_join_tid)
			msg(MSG_EBUSY_JOIN,
			    (unsigned long long)attr->sched_join_tid, tid,
			    (unsigned long long)attr->sched_join_tid);
		else
			explain_ebusy(pol, attr, tid);
		break;
	case EOPNOTSUPP:
		msg(MSG_ENOTSUP, pol->sname);
		break;
	default:
		msg("cannot set %s for pid %d: %s", pol->sname, tid,
		    strerror(err));
		break;
	}
}

/* ---- operations ---------------------------------------------------- */

/*
 * The structure to send for a task whose current parameters are @cur, or
 * NULL for --reset. A parameter @req names has its value; one it does not
 * keeps @cur's when the task stays in the class (see struct policy's
 * kinds: other, batch and idle are one class here, as are fifo and rr)
 * and is left at its default otherwise, except the nice value and
 * reset-on-fork, which are always kept. A deadline task's deadline
 * defaults to its period.
 */
static void build_attr(const struct request *req, pid_t tid,
		       const struct sched_attr *cur, struct sched_attr *attr)
{
	const struct policy *now = cur ? policy_by_nr(cur->sched_policy) :
					 NULL;
	const struct sched_attr *n = &req->attr;
	bool same = now && now->kind == req->pol->kind;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->sched_policy = req->pol->nr;
	if (cur) {
		attr->sched_nice = task_nice(tid, cur);
		attr->sched_flags = cur->sched_flags & SCHED_FLAG_RESET_ON_FORK;
	}
	if (same) {
		switch (req->pol->kind) {
		case K_NORMAL:
			/* sched_runtime is the fair slice: not ours to send. */
			break;
		case K_RT:
			attr->sched_priority = cur->sched_priority;
			break;
		case K_DL:
			attr->sched_flags |= cur->sched_flags &
					     (SCHED_FLAG_RECLAIM |
					      SCHED_FLAG_DL_OVERRUN);
			attr->sched_runtime = cur->sched_runtime;
			attr->sched_deadline = cur->sched_deadline;
			attr->sched_period = cur->sched_period;
			break;
		case K_BVT:
		case K_VTRR:
		case K_BEBS:
		case K_RBS:
			attr->sched_weight = cur->sched_weight;
			attr->sched_ms_flags = cur->sched_ms_flags;
			attr->sched_warp = cur->sched_warp;
			attr->sched_warp_limit = cur->sched_warp_limit;
			attr->sched_unwarp = cur->sched_unwarp;
			attr->sched_runtime = cur->sched_runtime;
			attr->sched_deadline = cur->sched_deadline;
			attr->sched_period = cur->sched_period;
			break;
		}
	}

	if (req->named & NAMED_NICE)
		attr->sched_nice = n->sched_nice;
	if (req->named & NAMED_PRIO)
		attr->sched_priority = n->sched_priority;
	if (req->named & NAMED_WEIGHT)
		attr->sched_weight = n->sched_weight;
	if (req->named & NAMED_WARP)
		attr->sched_warp = n->sched_warp;
	if (req->named & NAMED_WARP_LIMIT)
		attr->sched_warp_limit = n->sched_warp_limit;
	if (req->named & NAMED_UNWARP)
		attr->sched_unwarp = n->sched_unwarp;
	if (req->named & NAMED_FLAGS)
		attr->sched_ms_flags = n->sched_ms_flags;
	attr->sched_ms_flags |= req->add_flags;
	if (req->named & NAMED_RUNTIME)
		attr->sched_runtime = n->sched_runtime;
	if (req->named & NAMED_PERIOD)
		attr->sched_period = n->sched_period;
	if (req->named & NAMED_DEADLINE)
		attr->sched_deadline = n->sched_deadline;
	else if (req->pol->kind == K_DL && !same)
		attr->sched_deadline = attr->sched_period;
	if (req->reset_on_fork)
		attr->sched_flags |= SCHED_FLAG_RESET_ON_FORK;
	/* a member takes the reservation's budget, period and flags */
	if (req->join) {
		attr->sched_ms_flags = MS_FLAG_RBS_JOIN;
		attr->sched_runtime = 0;
		attr->sched_period = 0;
		attr->sched_deadline = 0;
		attr->sched_join_tid = req->join;
	}
}

static int set_task(pid_t pid, pid_t tid, const struct request *req,
		    bool thread)
{
	struct sched_attr cur, attr;

	if (!req->reset && get_attr(tid, &cur))
		return get_failed(tid, thread);
	build_attr(req, tid, req->reset ? NULL : &cur, &attr);

	if (req->verbose && show_task(pid, tid, "old ", false, thread))
		return 1;
	if (syscall(SYS_sched_setattr, tid, &attr, 0)) {
		/* A thread that exited after we listed it is no failure. */
		if (thread && errno == ESRCH)
			return 0;
		explain(errno, req->pol, &attr, pid, tid);
		return 1;
	}
	if (req->verbose)
		return show_task(pid, tid, "new ", false, thread);
	return 0;
}

/*
 * Set or show (@req NULL) PID, or with @all every thread of it. Failures
 * are reported as they come; the result is 1 if any happened.
 */
static int apply_to_tasks(pid_t pid, bool all, const struct request *req,
			  bool verbose)
{
	char path[64];
	struct dirent *de;
	int ret = 0;
	pid_t tid;
	DIR *dir;

	if (!all)
		return req ? set_task(pid, pid, req, false) :
			     show_task(pid, pid, "", verbose, false);

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir) {
		if (errno == ENOENT)
			msg("no such process %d", pid);
		else
			msg("cannot list the threads of pid %d: %s", pid,
			    strerror(errno));
		return 1;
	}
	while ((de = readdir(dir))) {
		tid = proc_number(de->d_name);
		if (!tid)
			continue;
		if (req)
			ret |= set_task(pid, tid, req, tid != pid);
		else
			ret |= show_task(pid, tid, "", verbose, tid != pid);
	}
	closedir(dir);
	return ret;
}

#define JSON_POLICY	"%s\n  {\"name\": \"%s\", \"policy\": \"%s\", \"nr\": %u, \"available\": %s, \"description\": "

/* --list --json: one object, "policies", "multisched_classes", "normal_class". */
static void list_policies_json(bool have_ms, char *classes, bool have_normal,
			       const char *normal)
{
	char *tok, *save;
	bool first = true;
	size_t i;

	fputs("{\"policies\": [", stdout);
	for (i = 0; i < ARRAY_SIZE(policies); i++) {
		const struct policy *pol = &policies[i];
		bool ok;

		if (is_ms(pol))
			ok = have_ms && ms_class_available(pol->name);
		else
			ok = sched_get_priority_max(pol->nr) >= 0;
		printf(JSON_POLICY, i ? "," : "", pol->name, pol->sname,
		       pol->nr, ok ? "true" : "false");
		json_string(pol->desc);
		putchar('}');
	}
	fputs("],\n \"multisched_classes\": ", stdout);
	if (have_ms) {
		putchar('[');
		for (tok = strtok_r(classes, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save)) {
			fputs(first ? "" : ", ", stdout);
			first = false;
			json_string(tok);
		}
		putchar(']');
	} else {
		fputs("null", stdout);
	}
	fputs(",\n \"normal_class\": ", stdout);
	if (have_normal)
		json_string(normal);
	else
		fputs("null", stdout);
	fputs("}\n", stdout);
}

static int list_policies(void)
{
	char classes[256], normal[64];
	bool have_ms = ms_classes(classes, sizeof(classes));
	bool have_normal = read_line(PROC_NORMAL_CLASS, normal, sizeof(normal));
	size_t i;

	if (json) {
		list_policies_json(have_ms, classes, have_normal, normal);
		return 0;
	}
	printf("%-9s %-15s %3s  %-9s  %s\n", "NAME", "POLICY", "NR",
	       "AVAILABLE", "DESCRIPTION");
	for (i = 0; i < ARRAY_SIZE(policies); i++) {
		const struct policy *pol = &policies[i];
		bool ok;

		if (is_ms(pol))
			ok = have_ms && ms_class_available(pol->name);
		else
			ok = sched_get_priority_max(pol->nr) >= 0;
		printf("%-9s %-15s %3u  %-9s  %s\n", pol->name, pol->sname,
		       pol->nr, ok ? "yes" : "no", pol->desc);
	}
	if (!have_ms)
		printf("multisched classes: none (no %s)\n", PROC_MS_CLASSES);
	else
		printf("multisched classes: %s\n", classes[0] ? classes :
							       "none");
	if (have_normal)
		printf("normal class: %s\n", normal);
	else
		printf("normal class: fair (no %s)\n", PROC_NORMAL_CLASS);
	return 0;
}

enum {
	OPT_NICE = 0x100,
	OPT_PRIO,
	OPT_WARP,
	OPT_WARP_LIMIT,
	OPT_UNWARP,
	OPT_WARP_OFF,
	OPT_WARP_SIGNAL,
	OPT_RESERVED,
	OPT_PERIODIC,
	OPT_OVERRUN,
	OPT_IO_SERVER,
	OPT_FEEDBACK,
	OPT_CONSUMER,
	OPT_PRODUCER,
	OPT_BACKGROUND,
	OPT_SHARED,
	OPT_JOIN,
	OPT_FLAGS,
	OPT_BUDGET,
	OPT_DEADLINE,
	OPT_RESET,
	OPT_LIST_TASKS,
	OPT_JSON,
};

static const struct option long_options[] = {
	{ "class",		required_argument,	NULL, 'c' },
	{ "nice",		required_argument,	NULL, OPT_NICE },
	{ "prio",		required_argument,	NULL, OPT_PRIO },
	{ "weight",		required_argument,	NULL, 'w' },
	{ "warp",		required_argument,	NULL, OPT_WARP },
	{ "warp-limit",		required_argument,	NULL, OPT_WARP_LIMIT },
	{ "unwarp",		required_argument,	NULL, OPT_UNWARP },
	{ "warp-off",		no_argument,		NULL, OPT_WARP_OFF },
	{ "warp-signal",	no_argument,		NULL, OPT_WARP_SIGNAL },
	{ "reserved",		no_argument,		NULL, OPT_RESERVED },
	{ "periodic",		no_argument,		NULL, OPT_PERIODIC },
	{ "overrun",		no_argument,		NULL, OPT_OVERRUN },
	{ "io-server",		no_argument,		NULL, OPT_IO_SERVER },
	{ "feedback",		no_argument,		NULL, OPT_FEEDBACK },
	{ "consumer",		required_argument,	NULL, OPT_CONSUMER },
	{ "producer",		required_argument,	NULL, OPT_PRODUCER },
	{ "background",		no_argument,		NULL, OPT_BACKGROUND },
	{ "shared",		no_argument,		NULL, OPT_SHARED },
	{ "join",		required_argument,	NULL, OPT_JOIN },
	{ "flags",		required_argument,	NULL, OPT_FLAGS },
	{ "budget",		required_argument,	NULL, OPT_BUDGET },
	{ "period",		required_argument,	NULL, 'P' },
	{ "deadline",		required_argument,	NULL, OPT_DEADLINE },
	{ "reset-on-fork",	no_argument,		NULL, 'R' },
	{ "reset",		no_argument,		NULL, OPT_RESET },
	{ "pid",		required_argument,	NULL, 'p' },
	{ "all-tasks",		no_argument,		NULL, 'a' },
	{ "list-tasks",		optional_argument,	NULL, OPT_LIST_TASKS },
	{ "list",		no_argument,		NULL, 'l' },
	{ "json",		no_argument,		NULL, OPT_JSON },
	{ "verbose",		no_argument,		NULL, 'v' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

#define MSG_JOIN_ALONE	"--join goes with -c rbs and takes the reservation's budget, period and flags: no other rbs option"
#define MSG_CHRT_B	"-b is not --budget: in chrt(1) it chooses SCHED_BATCH; use -c batch for that, or --budget TIME"
#define MSG_CHRT_D	"-d is not --deadline: in chrt(1) it chooses SCHED_DEADLINE; use -c deadline for that, or --deadline TIME"
#define MSG_JSON	"--json goes with showing (-p without -c), --list and --list-tasks"

/* --consumer and --producer: the RBS feedback controller's metrics */
#define MAX_METRICS	4
#define MSG_NOT_METRIC	"cannot use fd %d as a progress metric: not a pipe, FIFO or socket, or this kernel has no rbs_ctl"

struct metric {
	int	fd;
	int	role;	/* PR_RBS_CTL_CONSUMER or PR_RBS_CTL_PRODUCER */
};

/*
 * Refuse a descriptor that cannot be a metric before the class is entered:
 * a command that is not run must not leave this process in a reservation
 * of the least allocation on its way out.
 */
static int check_metrics(const struct metric *m, int n)
{
	struct stat st;
	int i;

	for (i = 0; i < n; i++) {
		if (fstat(m[i].fd, &st)) {
			msg("cannot use fd %d as a progress metric: it is not open",
			    m[i].fd);
			return -1;
		}
		if (!S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) {
			msg("cannot use fd %d as a progress metric: not a pipe, FIFO or socket",
			    m[i].fd);
			return -1;
		}
	}
	return 0;
}

/*
 * Register the descriptors COMMAND inherits as progress metrics of the
 * thread that is about to become it, in the class already.
 */
static int register_metrics(const struct metric *m, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!prctl(PR_SCHED_RBS_CTL, PR_RBS_CTL_ADD, m[i].fd, m[i].role,
			   0))
			continue;
		switch (errno) {
		case EBADF:
			msg("cannot use fd %d as a progress metric: it is not open",
			    m[i].fd);
			break;
		case EINVAL:
			msg(MSG_NOT_METRIC, m[i].fd);
			break;
		case EEXIST:
			msg("cannot use fd %d as a progress metric: its file is registered already",
			    m[i].fd);
			break;
		default:
			msg("cannot use fd %d as a progress metric: %s",
			    m[i].fd, strerror(errno));
		}
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct request req = { .pol = NULL };
	struct sched_attr *attr = &req.attr;
	const struct policy *filter = NULL;
	const char *budget_arg = NULL, *tasks_class = NULL;
	bool all = false, list = false, list_tasks_opt = false;
	struct metric metrics[MAX_METRICS];
	bool params = false;
	int c, ret, nmetrics = 0;
	size_t i;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:c:w:P:Rp:alvhVbd",
				long_options, NULL)) != -1) {
		switch (c) {
		case 'c':
			req.pol = policy_by_name(optarg);
			if (!req.pol)
				usage_error("unknown class '%s' (see schedctl --list)",
					    optarg);
			break;
		case OPT_NICE:
			attr->sched_nice = parse_int("--nice", optarg,
						     INT32_MIN, INT32_MAX);
			req.named |= NAMED_NICE;
			break;
		case OPT_PRIO:
			attr->sched_priority = parse_int("--prio", optarg, 0,
							 UINT32_MAX);
			req.named |= NAMED_PRIO;
			break;
		case 'w':
			attr->sched_weight = parse_int("--weight", optarg, 0,
						       UINT32_MAX);
			req.named |= NAMED_WEIGHT;
			break;
		case OPT_WARP:
			attr->sched_warp = parse_signed_time("--warp", optarg);
			req.named |= NAMED_WARP;
			break;
		case OPT_WARP_LIMIT:
			attr->sched_warp_limit = parse_time("--warp-limit",
							    optarg);
			req.named |= NAMED_WARP_LIMIT;
			break;
		case OPT_UNWARP:
			attr->sched_unwarp = parse_time("--unwarp", optarg);
			req.named |= NAMED_UNWARP;
			break;
		case OPT_WARP_OFF:
			req.add_flags |= MS_FLAG_WARP_OFF;
			params = true;
			break;
		case OPT_WARP_SIGNAL:
			req.add_flags |= MS_FLAG_WARP_SIGNAL;
			params = true;
			break;
		case OPT_RESERVED:
			req.add_flags |= MS_FLAG_RESERVED;
			params = true;
			break;
		case OPT_PERIODIC:
			req.add_flags |= MS_FLAG_BEBS_PERIODIC;
			params = true;
			break;
		case OPT_OVERRUN:
			req.add_flags |= MS_FLAG_BEBS_OVERRUN;
			params = true;
			break;
		case OPT_IO_SERVER:
			req.add_flags |= MS_FLAG_RBS_IO;
			params = true;
			break;
		case OPT_CONSUMER:
		case OPT_PRODUCER:
			if (nmetrics == MAX_METRICS)
				usage_error("at most %d --consumer and --producer",
					    MAX_METRICS);
			metrics[nmetrics].fd = parse_int(c == OPT_CONSUMER ?
							 "--consumer" :
							 "--producer",
							 optarg, 0, INT_MAX);
			metrics[nmetrics++].role = c == OPT_CONSUMER ?
						   PR_RBS_CTL_CONSUMER :
						   PR_RBS_CTL_PRODUCER;
			break;
		case OPT_FEEDBACK:
			req.add_flags |= MS_FLAG_RBS_FEEDBACK;
			params = true;
			break;
		case OPT_BACKGROUND:
			req.add_flags |= MS_FLAG_RBS_BACKGROUND;
			params = true;
			break;
		case OPT_SHARED:
			req.add_flags |= MS_FLAG_RBS_SHARED;
			params = true;
			break;
		case OPT_JOIN:
			req.join = parse_int("--join", optarg, 1, INT32_MAX);
			params = true;
			break;
		case OPT_FLAGS:
			attr->sched_ms_flags = parse_flags(optarg);
			req.named |= NAMED_FLAGS;
			break;
		case OPT_BUDGET:
			/* A percentage needs the period: resolve it later. */
			budget_arg = optarg;
			if (!strchr(optarg, '%'))
				attr->sched_runtime = parse_time("--budget",
								 optarg);
			req.named |= NAMED_RUNTIME;
			break;
		case 'P':
			attr->sched_period = parse_time("--period", optarg);
			req.named |= NAMED_PERIOD;
			break;
		case OPT_DEADLINE:
			attr->sched_deadline = parse_time("--deadline", optarg);
			req.named |= NAMED_DEADLINE;
			break;
		case 'R':
			req.reset_on_fork = true;
			params = true;
			break;
		case OPT_RESET:
			req.reset = true;
			params = true;
			break;
		case 'b':
			usage_error(MSG_CHRT_B);
		case 'd':
			usage_error(MSG_CHRT_D);
		case 'p':
			add_pids(optarg);
			break;
		case 'a':
			all = true;
			break;
		case OPT_LIST_TASKS:
			list_tasks_opt = true;
			/* --list-tasks CLASS as well as --list-tasks=CLASS */
			if (!optarg && optind < argc && argv[optind][0] != '-')
				optarg = argv[optind++];
			tasks_class = optarg;
			break;
		case 'l':
			list = true;
			break;
		case OPT_JSON:
			json = true;
			break;
		case 'v':
			req.verbose = true;
			break;
		case 'h':
			print_help();
			return 0;
		case 'V':
			printf("schedctl %s\n", SCHEDCTL_VERSION);
			return 0;
		case ':':
			usage_error("option '%s' needs an argument",
				    argv[optind - 1]);
		default:
			if (optopt && optopt < 0x100)
				usage_error("invalid option -- '%c'", optopt);
			usage_error("unrecognized option '%s'",
				    argv[optind - 1]);
		}
	}
	if (req.named)
		params = true;

	if (list) {
		if (npids || optind < argc || req.pol || params || all ||
		    list_tasks_opt || req.verbose)
			usage_error("--list takes no other option than --json");
		return list_policies();
	}
	if (list_tasks_opt) {
		if (npids || optind < argc || req.pol || params || all ||
		    req.verbose)
			usage_error("--list-tasks takes no other option than a CLASS and --json");
		if (tasks_class) {
			filter = policy_by_name(tasks_class);
			if (!filter)
				usage_error("unknown class '%s' (see schedctl --list)",
					    tasks_class);
		}
		return list_tasks(filter);
	}
	if (npids && optind < argc)
		usage_error("give either -p PID or a COMMAND, not both");
	if (nmetrics && (npids || !req.pol || req.pol->kind != K_RBS ||
			 !((req.add_flags | attr->sched_ms_flags) &
			   MS_FLAG_RBS_FEEDBACK)))
		usage_error("--consumer and --producer need -c rbs --feedback and a COMMAND");
	if (!npids && optind == argc)
		usage_error("no COMMAND and no -p PID given");
	if (all && !npids)
		usage_error("-a/--all-tasks needs -p PID");
	if (params && !req.pol)
		usage_error("setting parameters needs -c/--class");
	if (!npids && !req.pol)
		usage_error("running a COMMAND needs -c/--class");
	if (json && req.pol)
		usage_error(MSG_JSON);
	if (req.join && (req.pol->kind != K_RBS || req.add_flags ||
			 (req.named & (NAMED_FLAGS | NAMED_RUNTIME |
				       NAMED_PERIOD | NAMED_DEADLINE))))
		usage_error(MSG_JOIN_ALONE);

	if (budget_arg && strchr(budget_arg, '%')) {
		unsigned long long ppm = parse_percent("--budget", budget_arg);

		if (!(req.named & NAMED_PERIOD))
			usage_error("--budget %s needs --period", budget_arg);
		attr->sched_runtime = (unsigned long long)
			((__uint128_t)attr->sched_period * ppm / PPM);
	}

	if (npids) {
		ret = 0;
		for (i = 0; i < npids; i++)
			ret |= apply_to_tasks(pids[i], all,
					      req.pol ? &req : NULL,
					      req.verbose);
		if (json)
			json_end();
		free(pids);
		return ret;
	}

	if (check_metrics(metrics, nmetrics))
		return 1;
	if (set_task(getpid(), getpid(), &req, false))
		return 1;
	if (register_metrics(metrics, nmetrics))
		return 1;
	fflush(stdout);
	execvp(argv[optind], argv + optind);
	msg("failed to execute %s: %s", argv[optind], strerror(errno));
	return 127;
}
