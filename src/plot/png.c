/* SPDX-License-Identifier: MIT */
/* PNG through rsvg-convert (Debian: librsvg2-bin): run as a child process
 * writing to a pipe, so the PNG reaches its file in one atomic write like
 * every file roofval writes. */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/error.h"
#include "core/path.h"
#include "io/file.h"
#include "plot/plot.h"

extern char **environ;

#define RSVG "rsvg-convert"

/* Whether an executable named name is in one of the folders of $PATH. */
static int on_path(const char *name)
{
	const char *path = getenv("PATH");
	char dir_name[RV_PATH_MAX];

	while (path && *path) {
		size_t len = strcspn(path, ":");
		int err = len ? rv_path_fmt(dir_name, sizeof(dir_name), "%.*s/%s", (int)len, path,
		                            name)
		              : rv_path_fmt(dir_name, sizeof(dir_name), "./%s", name);

		/* A folder too long to hold the name holds no program. */
		if (err == 0 && access(dir_name, X_OK) == 0)
			return 1;
		path += len;
		if (*path == ':')
			path++;
	}
	return 0;
}

/* The first line rsvg-convert wrote on its standard error, into out. */
static void first_line(char *out, size_t size, FILE *fp)
{
	out[0] = '\0';
	if (fseek(fp, 0, SEEK_SET) != 0 || !fgets(out, (int)size, fp))
		return;
	out[strcspn(out, "\r\n")] = '\0';
}

int rv_plot_png(const char *svg_path, const char *png_path)
{
	static const unsigned char png_magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	posix_spawn_file_actions_t fa;
	struct rv_buf png = RV_BUF_INIT;
	char input[RV_PATH_MAX + 2], why[256], chunk[65536], prog[] = RSVG, fmt[] = "--format=png";
	char *argv[] = { prog, fmt, input, NULL };
	FILE *errs = NULL;
	int fds[2] = { -1, -1 }, status = 0, err = 0, rc;
	pid_t pid;
	ssize_t got;

	if (!on_path(RSVG))
		return rv_error_set(
		        RV_ENOTSUP,
		        "--png needs rsvg-convert, which is not on PATH; install it "
		        "with 'apt-get install librsvg2-bin' (Debian, Ubuntu), or leave "
		        "out --png and keep the SVG");
	/* A leading '-' would read as an option. */
	if ((err = rv_path_fmt(input, sizeof(input), "%s%s", svg_path[0] == '-' ? "./" : "",
	                       svg_path)) < 0)
		return err;
	errs = tmpfile();
	if (!errs)
		return rv_error_errno(errno, "cannot create a temporary file for rsvg-convert");
	if (pipe(fds) != 0) {
		err = rv_error_errno(errno, "cannot create a pipe for rsvg-convert");
		(void)fclose(errs);
		return err;
	}
	if ((rc = posix_spawn_file_actions_init(&fa)) != 0) {
		err = rv_error_errno(rc, "cannot start rsvg-convert");
		goto out;
	}
	rc = posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	if (rc == 0)
		rc = posix_spawn_file_actions_adddup2(&fa, fileno(errs), STDERR_FILENO);
	if (rc == 0)
		rc = posix_spawn_file_actions_addclose(&fa, fds[0]);
	if (rc == 0)
		rc = posix_spawnp(&pid, RSVG, &fa, NULL, argv, environ);
	(void)posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		err = rv_error_errno(rc, "cannot start rsvg-convert");
		goto out;
	}
	(void)close(fds[1]);
	fds[1] = -1;
	while ((got = read(fds[0], chunk, sizeof(chunk))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = rv_error_errno(errno, "reading the output of rsvg-convert");
			break;
		}
		rv_buf_add(&png, chunk, (size_t)got);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (err == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		first_line(why, sizeof(why), errs);
		err = rv_error_set(RV_EIO, "rsvg-convert failed on %s (%s %d)%s%s", svg_path,
		                   WIFEXITED(status) ? "exit status" : "signal",
		                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
		                   why[0] ? ": " : "", why);
	}
	if (err == 0 && (png.len < sizeof(png_magic) || memcmp(png.data, png_magic, 8) != 0))
		err = rv_error_set(RV_EIO, "rsvg-convert wrote no PNG for %s", svg_path);
	if (err == 0)
		err = rv_buf_check(&png);
	if (err == 0)
		err = rv_file_write_output(png_path, png.data, png.len);
out:
	if (fds[0] >= 0)
		(void)close(fds[0]);
	if (fds[1] >= 0)
		(void)close(fds[1]);
	(void)fclose(errs);
	rv_buf_free(&png);
	return err;
}
