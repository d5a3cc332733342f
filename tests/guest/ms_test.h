/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the guest test programs. */
#ifndef MS_TEST_H
#define MS_TEST_H

#include <stdio.h>
#include <sys/types.h>

/* CPU time a task has received, in ns, from /proc/PID/schedstat. */
static inline unsigned long long cpu_ns(pid_t pid)
{
	unsigned long long ns = 0;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

#endif /* MS_TEST_H */
