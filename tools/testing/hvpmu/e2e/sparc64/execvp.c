// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only, linked into the sparc64 guest's static perf (e2e/sparc64/run.sh).
 *
 * In that perf (static, glibc 2.36 of Debian's libc6-dev-sparc64-cross),
 * execvp() of a bare command name fails with ENAMETOOLONG before it looks
 * at PATH: "perf stat -- true" says "Workload failed: File name too long",
 * "perf stat -- /bin/true" works, and so does a small static program's
 * execvp("true"), also run from perf. glibc's execvpe() returns
 * ENAMETOOLONG there only when __libc_alloca_cutoff() refuses a buffer of
 * a few dozen bytes, i.e. when the main thread's stackblock_size reads
 * wrong in perf: the cause is not known. This execvp() searches PATH as
 * execvp() does, with a buffer of its own; being in an object of the link
 * it is used instead of libc.a's.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int execvp(const char *file, char *const argv[])
{
	const char *path = getenv("PATH"), *p, *end;
	char buf[PATH_MAX];
	int seen_eacces = 0;
	size_t dlen, flen;

	if (!*file) {
		errno = ENOENT;
		return -1;
	}
	if (strchr(file, '/'))
		return execv(file, argv);
	if (!path)
		path = "/bin:/usr/bin";
	flen = strlen(file);
	for (p = path; ; p = end + 1) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		dlen = end - p;
		if (dlen + flen + 2 <= sizeof(buf)) {
			memcpy(buf, p, dlen);
			if (dlen)
				buf[dlen++] = '/';
			memcpy(buf + dlen, file, flen + 1);
			execv(buf, argv);
			if (errno == EACCES)
				seen_eacces = 1;
			else if (errno != ENOENT && errno != ENOTDIR)
				return -1;
		}
		if (!*end)
			break;
	}
	errno = seen_eacces ? EACCES : ENOENT;
	return -1;
}
