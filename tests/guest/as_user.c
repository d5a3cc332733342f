// SPDX-License-Identifier: GPL-2.0
/*
 * as_user [-r RTPRIO] UID CMD [ARG...]: run CMD as an unprivileged user,
 * with no capabilities and RLIMIT_RTPRIO 0 (or RTPRIO with -r), to test
 * the EPERM paths and the rules that RLIMIT_RTPRIO relaxes.
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

int main(int argc, char **argv)
{
	struct rlimit rt = { 0, 0 };
	uid_t uid;

	if (argc > 2 && !strcmp(argv[1], "-r")) {
		rt.rlim_cur = rt.rlim_max = atoi(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: as_user [-r RTPRIO] UID CMD [ARG...]\n");
		return 2;
	}
	uid = atoi(argv[1]);
	if (setrlimit(RLIMIT_RTPRIO, &rt) || setgroups(0, NULL) ||
	    setgid(uid) || setuid(uid)) {
		perror("as_user");
		return 1;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
