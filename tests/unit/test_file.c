/* SPDX-License-Identifier: MIT */
/* io/file: the one writer of files. Links are followed, special files
 * written through or refused, reads of special files do not wait, only
 * roofval's own temporary files are removed, and rv_file_update() loses no
 * update of concurrent writers. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/path.h"
#include "io/file.h"
#include "rv_test.h"

/* A fresh scratch folder for one test. */
static const char *scratch(const char *name)
{
	static char dir[64];

	(void)snprintf(dir, sizeof(dir), "file_%s", name);
	return rv_scratch_dir(dir);
}

static void join(char *out, const char *dir, const char *name)
{
	assert_int_equal(rv_path_join(out, RV_PATH_MAX, dir, name), 0);
}

static char *slurp(const char *path)
{
	char *text = NULL;
	size_t len;

	assert_int_equal(rv_file_read(&text, &len, path), 0);
	return text;
}

/* A link is followed: its target is replaced, the link stays a link. */
static void test_file__link_target_replaced(void **state)
{
	const char *dir = scratch("link");
	char link[RV_PATH_MAX], target[RV_PATH_MAX], sub[RV_PATH_MAX];
	struct stat st;
	char *text;

	(void)state;
	join(sub, dir, "sub");
	assert_int_equal(mkdir(sub, 0777), 0);
	join(target, dir, "sub/t.txt");
	join(link, dir, "l.txt");
	assert_int_equal(symlink("sub/t.txt", link), 0);
	/* dangling: the target is created */
	assert_int_equal(rv_file_write_atomic(link, "one", 3), 0);
	assert_int_equal(rv_file_write_atomic(link, "two", 3), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	text = slurp(target);
	assert_string_equal(text, "two");
	free(text);
}

/* A character device is written through, never turned into a file; a
 * folder is refused. */
static void test_file__device_and_folder(void **state)
{
	const char *dir = scratch("device");
	char link[RV_PATH_MAX];
	struct stat st;

	(void)state;
	/* Through a link: a broken build replaces the link, not /dev/null. */
	join(link, dir, "null");
	assert_int_equal(symlink("/dev/null", link), 0);
	assert_int_equal(rv_file_write_atomic(link, "x", 1), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	rv_assert_error(rv_file_write_atomic(dir, "x", 1), RV_EIO, "is a folder");
}

/* A FIFO with a reader is written through; reading a FIFO is refused at
 * once, not waited on. */
static void test_file__fifo(void **state)
{
	const char *dir = scratch("fifo");
	char fifo[RV_PATH_MAX], got[16] = { 0 };
	struct stat st;
	char *text = NULL;
	size_t len;
	int fd;

	(void)state;
	join(fifo, dir, "f");
	assert_int_equal(mkfifo(fifo, 0666), 0);
	rv_assert_error(rv_file_read(&text, &len, fifo), RV_EIO,
	                "is not a regular file but a FIFO");
	fd = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(fd >= 0);
	assert_int_equal(rv_file_write_atomic(fifo, "hello", 5), 0);
	assert_int_equal(read(fd, got, sizeof(got) - 1), 5);
	assert_string_equal(got, "hello");
	(void)close(fd);
	assert_int_equal(stat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
}

/* A descriptor alias of this process is that descriptor: /proc/self/fd/N
 * and a link to it write into the pipe, which stays a pipe. */
static void test_file__descriptor_alias(void **state)
{
	const char *dir = scratch("alias");
	char alias[64], link[RV_PATH_MAX], got[16] = { 0 };
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	(void)snprintf(alias, sizeof(alias), "/proc/self/fd/%d", p[1]);
	join(link, dir, "out");
	assert_int_equal(symlink(alias, link), 0);
	assert_int_equal(rv_file_write_atomic(alias, "ab", 2), 0);
	assert_int_equal(rv_file_write_atomic(link, "cd", 2), 0);
	assert_int_equal(read(p[0], got, sizeof(got) - 1), 4);
	assert_string_equal(got, "abcd");
	(void)close(p[0]);
	(void)close(p[1]);
}

/* Only .<name>.roofval-XXXXXX.tmp is ours: the user's *.tmp files stay. */
static void test_file__only_own_temps_removed(void **state)
{
	const char *dir = scratch("temps");
	static const char *const keep[] = { "h.csv.backup.tmp",
		                            "h.csv.Ab3dE9.tmp",
		                            ".h.csv.tmp",
		                            ".h.csv.roofval-Ab3dE.tmp",
		                            ".g.csv.roofval-Ab3dE9.tmp",
		                            ".h.csv.roofval-Ab3dE9.tmp.bak" };
	char path[RV_PATH_MAX], p[RV_PATH_MAX];
	struct stat st;

	(void)state;
	join(path, dir, "h.csv");
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		join(p, dir, keep[i]);
		rv_spit(p, "user's");
	}
	join(p, dir, ".h.csv.roofval-Ab3dE9.tmp");
	rv_spit(p, "ours");
	assert_int_equal(rv_file_remove_stale_temps(path), 1);
	assert_int_equal(stat(p, &st), -1);
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		join(p, dir, keep[i]);
		assert_int_equal(stat(p, &st), 0);
	}
}

static int add_one(void *ctx, const char *old_text, size_t old_len, struct rv_buf *new_text)
{
	long n = old_text ? strtol(old_text, NULL, 10) : 0;

	(void)ctx;
	(void)old_len;
	rv_buf_printf(new_text, "%ld\n", n + 1);
	return 1;
}

static int keep_it(void *ctx, const char *old_text, size_t old_len, struct rv_buf *new_text)
{
	(void)ctx;
	(void)old_text;
	(void)old_len;
	rv_buf_puts(new_text, "never written");
	return 0;
}

/* rv_file_update(): the missing file is NULL, 0 leaves the file alone, and
 * four processes adding 25 each to one counter lose no update. */
static void test_file__update_concurrent(void **state)
{
	const char *dir = scratch("update");
	char path[RV_PATH_MAX];
	pid_t pid[4];
	char *text;
	int status;

	(void)state;
	join(path, dir, "count");
	assert_int_equal(rv_file_update(path, add_one, NULL), 1);
	assert_int_equal(rv_file_update(path, keep_it, NULL), 0);
	text = slurp(path);
	assert_string_equal(text, "1\n");
	free(text);
	for (int w = 0; w < 4; w++) {
		pid[w] = fork();
		assert_true(pid[w] >= 0);
		if (pid[w] == 0) {
			for (int i = 0; i < 25; i++)
				if (rv_file_update(path, add_one, NULL) != 1)
					_exit(1);
			_exit(0);
		}
	}
	for (int w = 0; w < 4; w++) {
		assert_int_equal(waitpid(pid[w], &status, 0), pid[w]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	text = slurp(path);
	assert_string_equal(text, "101\n");
	free(text);
	/* the lock's folder is made when missing, as for every writer */
	join(path, dir, "missing/deeper/count");
	assert_int_equal(rv_file_update(path, add_one, NULL), 1);
	text = slurp(path);
	assert_string_equal(text, "1\n");
	free(text);
}

/* Output folders are made when missing, mkdir -p with 0777 less the umask,
 * by every writer (atomic write, lock, update, replace); a file in the way
 * is named; an existing folder is fine. */
static void test_file__output_folders_made(void **state)
{
	const char *dir = scratch("mkdirs");
	char path[RV_PATH_MAX], sub[RV_PATH_MAX];
	struct rv_file_lock lk;
	struct stat st;
	mode_t mask = umask(022);
	char *text;

	(void)state;
	join(sub, dir, "a/b/c");
	assert_int_equal(rv_file_mkdirs(sub), 0);
	assert_int_equal(stat(sub, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0755);
	assert_int_equal(rv_file_mkdirs(sub), 0); /* already there */
	join(sub, dir, "a/b/c/");                 /* a trailing slash */
	assert_int_equal(rv_file_mkdirs(sub), 0);
	(void)umask(027);
	join(path, dir, "w/x/out.csv");
	assert_int_equal(rv_file_write_atomic(path, "x\n", 2), 0);
	text = slurp(path);
	assert_string_equal(text, "x\n");
	free(text);
	join(sub, dir, "w/x");
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0750);
	(void)umask(mask);
	join(path, dir, "r/s/fit.json");
	assert_int_equal(rv_file_replace(path, "{}", 2), 0);
	join(path, dir, "l/m/rows.csv");
	assert_int_equal(rv_file_lock(&lk, path, 1.0), 0);
	rv_file_unlock(&lk);
	join(sub, dir, "l/m");
	assert_int_equal(stat(sub, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* an update with nothing to write makes no folder */
	join(path, dir, "n/o/count");
	assert_int_equal(rv_file_update(path, keep_it, NULL), 0);
	join(sub, dir, "n");
	assert_int_equal(stat(sub, &st), -1);
	/* a file where a folder should be: named, nothing made under it */
	join(path, dir, "w/x/out.csv/deeper/f.csv");
	rv_assert_error(rv_file_write_atomic(path, "x", 1), RV_EIO, "is not a folder");
	join(sub, dir, "w/x/out.csv/deeper");
	rv_assert_error(rv_file_mkdirs(sub), RV_EIO, "out.csv is not a folder");
	join(sub, dir, "w/x/out.csv");
	rv_assert_error(rv_file_mkdirs(sub), RV_EIO, "is not a folder");
}

/* An output that is one of the inputs read since rv_file_inputs_begin() is
 * refused (by name, through a hard or a symbolic link), nothing written;
 * another output, and any output after rv_file_inputs_end(), is written. */
static void test_file__output_never_an_input(void **state)
{
	const char *dir = scratch("inputs");
	char in[RV_PATH_MAX], hard[RV_PATH_MAX], soft[RV_PATH_MAX], other[RV_PATH_MAX];
	char *text;

	(void)state;
	join(in, dir, "in.csv");
	join(hard, dir, "hard.csv");
	join(soft, dir, "soft.csv");
	join(other, dir, "other.csv");
	assert_int_equal(rv_file_write_atomic(in, "rows", 4), 0);
	assert_int_equal(link(in, hard), 0);
	assert_int_equal(symlink("in.csv", soft), 0);
	rv_file_inputs_begin();
	free(slurp(in));
	rv_assert_error(rv_file_write_output(in, "report", 6), RV_EIO,
	                "in.csv is one of this command's inputs; writing the output over it "
	                "would destroy it");
	rv_assert_error(rv_file_write_output(hard, "report", 6), RV_EIO, "in.csv, one of");
	rv_assert_error(rv_file_write_output(soft, "report", 6), RV_EIO, "in.csv, one of");
	assert_int_equal(rv_file_write_output(other, "report", 6), 0);
	assert_int_equal(rv_file_output_check("-"), 0);
	text = slurp(in);
	assert_string_equal(text, "rows");
	free(text);
	rv_file_inputs_end();
	assert_int_equal(rv_file_write_output(in, "new", 3), 0);
}

/* Files replaced together: a failure while any is written replaces none,
 * and says so; without one, all are replaced. */
static void test_file__replace_all_or_none(void **state)
{
	const char *dir = scratch("pairs");
	char a[RV_PATH_MAX], b[RV_PATH_MAX];
	struct rv_file_part parts[2];
	char *text;

	(void)state;
	join(a, dir, "a.csv");
	join(b, dir, "a.meta.json");
	assert_int_equal(rv_file_write_atomic(a, "old a", 5), 0);
	assert_int_equal(rv_file_write_atomic(b, "old b", 5), 0);
	parts[0] = (struct rv_file_part){ a, "new a", 5 };
	parts[1] = (struct rv_file_part){ b, "new b", 5 };
	rv_file__inject_fault(RV_FILE_FAULT_FSYNC, ENOSPC);
	rv_assert_error(rv_file_replace_all(parts, 2), RV_EIO,
	                "No space left on device; free space on that disk, then run it again; "
	                "none of the 2 files was replaced");
	text = slurp(a);
	assert_string_equal(text, "old a");
	free(text);
	text = slurp(b);
	assert_string_equal(text, "old b");
	free(text);
	assert_int_equal(rv_file_remove_stale_temps(a) + rv_file_remove_stale_temps(b), 0);
	assert_int_equal(rv_file_replace_all(parts, 2), 0);
	text = slurp(b);
	assert_string_equal(text, "new b");
	free(text);
	/* The second rename fails: the message says which file was replaced
	 * and which not. */
	parts[0].data = "3rd a";
	parts[1].data = "3rd b";
	rv_file__inject_fault_nth(RV_FILE_FAULT_RENAME, EIO, 2);
	rv_assert_error(rv_file_replace_all(parts, 2), RV_EIO, "a.csv was replaced, ");
	assert_non_null(strstr(rv_error_last(), "a.meta.json was not: they no longer belong "
	                                        "together; run it again"));
	text = slurp(a);
	assert_string_equal(text, "3rd a");
	free(text);
	text = slurp(b);
	assert_string_equal(text, "new b");
	free(text);
	assert_int_equal(rv_file_remove_stale_temps(b), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file__link_target_replaced),
		cmocka_unit_test(test_file__device_and_folder),
		cmocka_unit_test(test_file__fifo),
		cmocka_unit_test(test_file__descriptor_alias),
		cmocka_unit_test(test_file__only_own_temps_removed),
		cmocka_unit_test(test_file__update_concurrent),
		cmocka_unit_test(test_file__output_folders_made),
		cmocka_unit_test(test_file__output_never_an_input),
		cmocka_unit_test(test_file__replace_all_or_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
