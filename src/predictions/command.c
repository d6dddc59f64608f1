/* SPDX-License-Identifier: MIT */
/* An adapter command as a model: /bin/sh -c COMMAND, the entries to predict
 * on its standard input, a predictions CSV read from its standard output,
 * within a time limit. The command runs in a process group of its own, so a
 * time-out kills whatever it started. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "io/file.h"
#include "predictions/predictions.h"

extern char **environ;

/* The last non-empty line of text (at most size - 1 bytes of it) into out. */
static void last_line(char *out, size_t size, const struct rv_buf *text)
{
	const char *s = rv_buf_str(text), *end = s + text->len, *start;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	start = end;
	while (start > s && start[-1] != '\n')
		start--;
	(void)snprintf(out, size, "%.*s", (int)(end - start), start);
	for (char *c = out; *c; c++)
		if ((unsigned char)*c < 0x20)
			*c = ' ';
}

struct child {
	pid_t pid;
	int in, out, err; /* our ends of its standard streams; -1 when closed */
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		(void)close(*fd);
	*fd = -1;
}

static int spawn(struct child *c, const char *command)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	char sh[] = "/bin/sh", dash_c[] = "-c";
	char *cmd = rv_strdup(command);
	char *argv[] = { sh, dash_c, cmd, NULL };
	int rc;

	if (!cmd)
		return rv_error_set(RV_ENOMEM, "out of memory");

	if (pipe(in) < 0 || pipe(out) < 0 || pipe(err) < 0) {
		rc = errno;
		for (int i = 0; i < 2; i++) {
			if (in[i] >= 0)
				(void)close(in[i]);
			if (out[i] >= 0)
				(void)close(out[i]);
			if (err[i] >= 0)
				(void)close(err[i]);
		}
		free(cmd);
		return rv_error_errno(rc, "cannot make pipes for the model command");
	}
	(void)posix_spawn_file_actions_init(&fa);
	(void)posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	(void)posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	(void)posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	for (int i = 0; i < 2; i++) {
		(void)posix_spawn_file_actions_addclose(&fa, in[i]);
		(void)posix_spawn_file_actions_addclose(&fa, out[i]);
		(void)posix_spawn_file_actions_addclose(&fa, err[i]);
	}
	(void)posix_spawnattr_init(&attr);
	(void)posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	(void)posix_spawnattr_setpgroup(&attr, 0);
	rc = posix_spawn(&c->pid, sh, &fa, &attr, argv, environ);
	free(cmd);
	(void)posix_spawn_file_actions_destroy(&fa);
	(void)posix_spawnattr_destroy(&attr);
	(void)close(in[0]);
	(void)close(out[1]);
	(void)close(err[1]);
	c->in = in[1];
	c->out = out[0];
	c->err = err[0];
	if (rc != 0) {
		close_fd(&c->in);
		close_fd(&c->out);
		close_fd(&c->err);
		return rv_error_errno(rc, "cannot start /bin/sh for the model command");
	}
	(void)fcntl(c->in, F_SETFL, fcntl(c->in, F_GETFL) | O_NONBLOCK);
	return 0;
}

/* How much of the command's standard error is kept for messages: its end. */
#define COMMAND_ERR_TAIL_B ((size_t)64 << 10)

/* Reads what is there from *fd into b; closes it at the end of the stream.
 * max_B > 0: more is an error (its standard output, which is parsed);
 * max_B 0: only the last COMMAND_ERR_TAIL_B or so are kept (its standard
 * error, which may log without end and is read so the command never
 * blocks on it). */
static int drain(int *fd, struct rv_buf *b, size_t max_B)
{
	char chunk[65536];
	ssize_t n = read(*fd, chunk, sizeof(chunk));

	if (n > 0) {
		if (max_B && b->len + (size_t)n > max_B)
			return rv_error_set(RV_ERANGE,
			                    "the model command wrote more than %zu bytes to its "
			                    "standard output",
			                    max_B);
		rv_buf_add(b, chunk, (size_t)n);
		if (!max_B && b->len > 2 * COMMAND_ERR_TAIL_B && b->data) {
			memmove(b->data, b->data + b->len - COMMAND_ERR_TAIL_B, COMMAND_ERR_TAIL_B);
			b->len = COMMAND_ERR_TAIL_B;
			b->data[b->len] = '\0';
		}
		return rv_buf_check(b);
	}
	if (n == 0 || (errno != EINTR && errno != EAGAIN))
		close_fd(fd);
	return 0;
}

/* A signal that ends roofval (SIGINT, SIGTERM, SIGHUP) while the command
 * runs: recorded here, the command's process group killed, then raised
 * again with the caller's handling. */
static volatile sig_atomic_t command_signal;

static void on_signal(int sig)
{
	command_signal = sig;
}

static const int command_stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define COMMAND_N_STOP 3

/* Waits for the command's shell to exit, at most until deadline (then its
 * group is killed: a command that closed its outputs and runs on is not
 * waited for without end). */
static void wait_child(const struct child *c, int *status, double deadline, int *timed_out)
{
	struct timespec nap = { 0, 5 * 1000 * 1000 };

	for (;;) {
		pid_t got = waitpid(c->pid, status, WNOHANG);

		if (got == c->pid || (got < 0 && errno != EINTR))
			return;
		if (command_signal || rv_now_s() >= deadline) {
			*timed_out = !command_signal;
			(void)kill(-c->pid, SIGKILL);
			while (waitpid(c->pid, status, 0) < 0 && errno == EINTR)
				;
			return;
		}
		(void)nanosleep(&nap, NULL);
	}
}

/* Feeds the request and collects both outputs until the command closes them
 * or the time is up (*timed_out). */
static int exchange(struct child *c, const struct rv_buf *request, struct rv_buf *out,
                    struct rv_buf *errtext, double timeout_s, int *timed_out)
{
	size_t sent = 0;
	double deadline = rv_now_s() + timeout_s;
	int err = 0;

	*timed_out = 0;
	if (request->len == 0)
		close_fd(&c->in);
	while (err == 0 && (c->out >= 0 || c->err >= 0)) {
		struct pollfd fds[3];
		nfds_t n = 0;
		double left_s = deadline - rv_now_s();
		int ready;

		if (left_s <= 0) {
			*timed_out = 1;
			break;
		}
		if (command_signal)
			break;
		if (c->in >= 0)
			fds[n++] = (struct pollfd){ c->in, POLLOUT, 0 };
		if (c->out >= 0)
			fds[n++] = (struct pollfd){ c->out, POLLIN, 0 };
		if (c->err >= 0)
			fds[n++] = (struct pollfd){ c->err, POLLIN, 0 };
		ready = poll(fds, n, (int)(left_s * 1000) + 1);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready < 0)
			return rv_error_errno(errno, "waiting for the model command");
		for (nfds_t i = 0; i < n && err == 0; i++) {
			if (!fds[i].revents)
				continue;
			if (fds[i].fd == c->in) {
				ssize_t w = write(c->in, request->data + sent, request->len - sent);

				if (w > 0)
					sent += (size_t)w;
				/* EPIPE: it stopped reading; what it wrote still counts. */
				if ((w < 0 && errno != EAGAIN && errno != EINTR) ||
				    sent == request->len)
					close_fd(&c->in);
			} else if (fds[i].fd == c->out) {
				err = drain(&c->out, out, RV_FILE_MAX_B);
			} else {
				err = drain(&c->err, errtext, 0);
			}
		}
	}
	return err;
}

int rv_predictions_from_command(struct rv_prediction_set **out, const char *command,
                                const struct rv_buf *request, double timeout_s, const char *model)
{
	struct child c = { -1, -1, -1, -1 };
	struct rv_buf text = RV_BUF_INIT, errtext = RV_BUF_INIT;
	sigset_t pipe_set, old_set;
	struct sigaction sa, old_sa[COMMAND_N_STOP];
	double deadline;
	char what[256], name[320];
	int err, status = 0, timed_out = 0;

	*out = NULL;
	/* A command that stops reading must not kill us with SIGPIPE. */
	(void)sigemptyset(&pipe_set);
	(void)sigaddset(&pipe_set, SIGPIPE);
	(void)pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	(void)sigemptyset(&sa.sa_mask);
	command_signal = 0;
	for (int i = 0; i < COMMAND_N_STOP; i++)
		(void)sigaction(command_stop_signals[i], &sa, &old_sa[i]);
	deadline = rv_now_s() + timeout_s;
	err = spawn(&c, command);
	if (err == 0) {
		err = exchange(&c, request, &text, &errtext, timeout_s, &timed_out);
		if (timed_out || err < 0 || command_signal)
			(void)kill(-c.pid, SIGKILL);
		close_fd(&c.in);
		close_fd(&c.out);
		close_fd(&c.err);
		wait_child(&c, &status, deadline, &timed_out);
	}
	for (int i = 0; i < COMMAND_N_STOP; i++)
		(void)sigaction(command_stop_signals[i], &old_sa[i], NULL);
	/* The command is gone: the signal now does what it would have done. */
	if (command_signal)
		(void)raise(command_signal);
	{
		struct timespec zero = { 0, 0 };
		sigset_t pending;

		/* Consume a SIGPIPE our writes raised before unblocking it. */
		if (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE))
			(void)sigtimedwait(&pipe_set, NULL, &zero);
		(void)pthread_sigmask(SIG_SETMASK, &old_set, NULL);
	}
	last_line(what, sizeof(what), &errtext);
	if (err == 0 && timed_out)
		err = rv_error_set(RV_ERROR,
		                   "the model command ran past its %g s time-out and was killed "
		                   "(--model-timeout gives it longer)",
		                   timeout_s);
	else if (err == 0 && WIFSIGNALED(status))
		err = rv_error_set(RV_ERROR, "the model command was killed by signal %d%s%s",
		                   WTERMSIG(status), *what ? "; its standard error ends: " : "",
		                   what);
	else if (err == 0 && WIFEXITED(status) && WEXITSTATUS(status) != 0)
		err = rv_error_set(RV_ERROR, "the model command exited with status %d%s%s",
		                   WEXITSTATUS(status), *what ? "; its standard error ends: " : "",
		                   what);
	(void)snprintf(name, sizeof(name), "the model command's output");
	if (err == 0)
		err = rv_predictions_parse(out, rv_buf_str(&text), text.len, name, model);
	rv_buf_free(&text);
	rv_buf_free(&errtext);
	return err;
}
