// SPDX-License-Identifier: MIT
/*
 * Child processes for triage: an external fuzz target run on one input,
 * addr2line. Each runs in its own process group with a deadline, its
 * output collected through a pipe.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common_int.h"

double dfz__now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void child(char *const argv[], char *const env[], int out,
		  bool with_err)
{
	int null = open("/dev/null", O_RDWR);

	setpgid(0, 0);
	for (; env && *env; env++)
		putenv(*env);
	if (null >= 0)
		dup2(null, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	if (with_err)
		dup2(out, STDERR_FILENO);
	else if (null >= 0)
		dup2(null, STDERR_FILENO);
	execv(argv[0], argv);
	_exit(127);
}

/* Read the child's output until EOF or the deadline. */
static bool collect(int fd, double deadline, char *out, size_t cap,
		    size_t *n)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char sink[4096];

	*n = 0;
	for (;;) {
		double left = deadline - dfz__now();
		ssize_t r;

		if (left <= 0)
			return false;
		if (poll(&p, 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		if (!p.revents)
			continue;
		if (*n + 1 < cap)
			r = read(fd, out + *n, cap - 1 - *n);
		else
			r = read(fd, sink, sizeof(sink));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return true;
		if (*n + 1 < cap)
			*n += (size_t)r;
	}
}

int dfz__proc_run(char *const argv[], char *const env[], unsigned timeout_ms,
		  bool with_err, char *out, size_t cap, struct dfz__proc *res)
{
	double deadline = dfz__now() + timeout_ms / 1000.0;
	int fd[2];
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe(fd) < 0)
		return DFZ_ENOMEM;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return DFZ_ENOMEM;
	}
	if (pid == 0) {
		close(fd[0]);
		child(argv, env, fd[1], with_err);
	}
	close(fd[1]);
	setpgid(pid, pid);
	res->timed_out = !collect(fd[0], deadline, out, cap, &res->n);
	if (res->timed_out)
		kill(-pid, SIGKILL);
	close(fd[0]);
	if (cap)
		out[res->n] = 0;
	while (waitpid(pid, &res->status, 0) < 0 && errno == EINTR)
		;
	return 0;
}
