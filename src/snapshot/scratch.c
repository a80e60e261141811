/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "snapshot/scratch.h"
#include "shared/rm-rf.h"

int scratch_make(struct scratch *s, const char *parent, const char *prefix, const char **ret_path)
{
	char *p;

	if (s->n >= SCRATCH_MAX)
		return -E2BIG;
	if (asprintf(&p, "%s/%s.XXXXXX", parent, prefix) < 0)
		return -ENOMEM;
	if (!mkdtemp(p)) {
		int r = -errno;
		free(p);
		return r;
	}
	s->dirs[s->n++] = p;
	*ret_path = p;
	return 0;
}

void scratch_remove(struct scratch *s)
{
	for (size_t i = 0; i < s->n; i++) {
		int r = rm_rf_at(AT_FDCWD, s->dirs[i]);
		if (r < 0 && r != -ENOENT)
			fprintf(stderr, "%s: cannot remove %s: %s\n", program_invocation_short_name,
				s->dirs[i], strerror(-r));
		free(s->dirs[i]);
	}
	s->n = 0;
}

void scratch_forget(struct scratch *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->dirs[i]);
	s->n = 0;
}

static volatile pid_t scratch_child;

/* The parent only waits: a signal meant for the run is the run's. */
static void forward(int sig)
{
	if (scratch_child > 0)
		kill(scratch_child, sig);
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP };

int scratch_supervise(struct scratch *s)
{
	struct sigaction sa = { .sa_handler = forward, .sa_flags = SA_RESTART }, old[3];
	sigset_t all, prev;
	int status;

	/* no signal between the fork and the handlers may be lost or kill the parent early */
	sigemptyset(&all);
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaddset(&all, forwarded[i]);
	sigprocmask(SIG_BLOCK, &all, &prev);
	fflush(NULL); /* nothing buffered is written twice */
	pid_t pid = fork();
	if (pid < 0) {
		int r = -errno;
		sigprocmask(SIG_SETMASK, &prev, NULL);
		scratch_remove(s);
		return r;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &prev, NULL);
		return 0;
	}
	scratch_child = pid;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++) {
		sigaction(forwarded[i], NULL, &old[i]);
		if (old[i].sa_handler != SIG_IGN) /* nohup's ignored signals stay ignored */
			sigaction(forwarded[i], &sa, NULL);
	}
	sigprocmask(SIG_SETMASK, &prev, NULL);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = 2 << 8; /* cannot happen: our only child */
			break;
		}
	}
	scratch_remove(s);
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	/* die as the run did, so a shell stops its script too; but no core of ours */
	if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGPIPE || sig == SIGKILL) {
		signal(sig, SIG_DFL);
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, sig);
		sigprocmask(SIG_UNBLOCK, &one, NULL);
		raise(sig);
	}
	_exit(sig ? 128 + sig : WIFEXITED(status) ? WEXITSTATUS(status) : 2);
}
