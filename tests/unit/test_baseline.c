/* SPDX-License-Identifier: MIT */
/* Tests of baseline CSV files: byte-identical round trips, edge cases, merging and safe writes. */
#include <dirent.h>
#include <errno.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/path.h"
#include "core/vec.h"
#include "io/baseline.h"
#include "io/file.h"
#include "rv_test.h"
#include "rv_test_baseline.h"

#define HEADER "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes"

/* Every reference baseline, read and written back, is the same bytes. */
static void test_baseline__reference_round_trip(void **state)
{
	const char *ref = rv_reference_dir();
	char dir[RV_PATH_MAX], path[RV_PATH_MAX];
	struct dirent *de;
	DIR *dh;
	int files = 0;

	(void)state;
	RV_SKIP_WITHOUT_REFERENCE(ref);
	assert_int_equal(rv_path_join(dir, sizeof(dir), ref, "baselines"), 0);
	dh = opendir(dir);
	assert_non_null(dh);
	while ((de = readdir(dh)) != NULL) {
		struct rv_baseline *b;
		size_t len;
		char *orig, *again;

		if (!strstr(de->d_name, ".csv"))
			continue;
		assert_int_equal(rv_path_join(path, sizeof(path), dir, de->d_name), 0);
		orig = rv_slurp(path, &len);
		assert_non_null(orig);
		assert_int_equal(rv_baseline_load(&b, path), 0);
		assert_true(b->n_rows > 0);
		rv_baseline_sort(b);
		again = rv_test_baseline_render(b);
		if (strcmp(orig, again) != 0)
			fail_msg("%s changed in a round trip", path);
		rv_baseline_free(b);
		free(orig);
		free(again);
		files++;
	}
	(void)closedir(dh);
	assert_int_equal(files, 6);
}

static void test_baseline__edge_cases(void **state)
{
	const char *text = HEADER "\r\n"
	                          "hw1,matmul,64x64x128,fp32,6.8960000000000006e-06,,11,"
	                          "\"window 1.8ms, \"\"noisy\"\"\nsecond line\"\r\n"
	                          "hw1,matmul,64x64x64,fp32,5.778e-06,0.0,3,plain";
	struct rv_baseline *b = rv_test_baseline_parse(text);
	char *out;

	(void)state;
	assert_int_equal(b->n_rows, 2);
	assert_true(b->crlf);
	assert_true(isnan(b->rows[0].energy_J)); /* empty: not measured */
	rv_assert_close(b->rows[1].energy_J, 0.0, 0, 0);
	assert_string_equal(b->rows[0].notes, "window 1.8ms, \"noisy\"\nsecond line");
	assert_int_equal(b->rows[1].line, 4);
	rv_baseline_sort(b);
	out = rv_test_baseline_render(b);
	assert_string_equal(out, HEADER "\r\n"
	                                "hw1,matmul,64x64x64,fp32,5.778e-06,0.0,3,plain\r\n"
	                                "hw1,matmul,64x64x128,fp32,6.8960000000000006e-06,,11,"
	                                "\"window 1.8ms, \"\"noisy\"\"\nsecond line\"\r\n");
	free(out);
	rv_baseline_free(b);
}

static void test_baseline__lf_kept_and_sort_order(void **state)
{
	struct rv_baseline *b = rv_test_baseline_parse(HEADER "\n"
	                                                      "b,vector_add,4096,fp32,1e-06,,1,\n"
	                                                      "b,matmul,64x96x64,fp32,1e-06,,1,\n"
	                                                      "a,matmul,64x64x128,fp32,1e-06,,1,\n"
	                                                      "a,matmul,64x64x128,fp16,1e-06,,1,\n"
	                                                      "b,vector_add,256,fp32,1e-06,,1,\n");
	char *out;

	(void)state;
	assert_false(b->crlf);
	rv_baseline_sort(b);
	out = rv_test_baseline_render(b);
	/* (op, dtype, shape as integers, hardware). */
	assert_string_equal(out, HEADER "\n"
	                                "a,matmul,64x64x128,fp16,1e-06,,1,\n"
	                                "a,matmul,64x64x128,fp32,1e-06,,1,\n"
	                                "b,matmul,64x96x64,fp32,1e-06,,1,\n"
	                                "b,vector_add,256,fp32,1e-06,,1,\n"
	                                "b,vector_add,4096,fp32,1e-06,,1,\n");
	free(out);
	rv_baseline_free(b);
}

static void test_baseline__extra_columns_survive(void **state)
{
	struct rv_baseline *b =
	        rv_test_baseline_parse(HEADER ",latency_min_s,cv\n"
	                                      "h,matmul,1x2x3,fp32,2e-06,,11,,1.9e-06,0.01\n");
	char *out;

	(void)state;
	assert_int_equal(b->n_extra, 2);
	assert_string_equal(b->extra_cols[1], "cv");
	/* latency_min_s is the schema's: typed; cv is not: kept as text. */
	assert_int_equal(b->extra_id[0], RV_COL_LATENCY_MIN_S);
	assert_int_equal(b->extra_id[1], RV_COL_UNKNOWN);
	assert_int_equal(b->n_unknown, 1);
	rv_assert_close(b->rows[0].latency_min_s, 1.9e-06, 0, 0);
	rv_assert_close(rv_row_value(&b->rows[0], RV_COL_LATENCY_MIN_S), 1.9e-06, 0, 0);
	assert_string_equal(b->rows[0].unknown[0], "0.01");
	out = rv_test_baseline_render(b);
	assert_string_equal(out, HEADER ",latency_min_s,cv\n"
	                                "h,matmul,1x2x3,fp32,2e-06,,11,,1.9e-06,0.01\n");
	free(out);
	rv_baseline_free(b);
}

static void test_baseline__bad_inputs(void **state)
{
	static const struct {
		const char *text;
		int code;
		const char *msg;
	} cases[] = {
		{ "", RV_EPARSE, "b.csv: the file is empty" },
		{ "hardware,op,shape\n", RV_EPARSE, "b.csv:1: the header ends after 3 columns" },
		{ "hardware,op,shape,dtype,latency,energy_j,trial_count,notes\n", RV_EPARSE,
		  "b.csv:1:25: header column 5 is 'latency', expected 'latency_s'" },
		{ HEADER ",notes\n", RV_EPARSE, "b.csv:1:62: header column 'notes' appears twice" },
		{ HEADER "\nh,matmul,1x2x3,fp32,abc,,11,\n", RV_EPARSE,
		  "b.csv:2:21: latency_s: 'abc' is not a number" },
		{ HEADER "\nh,matmul,1x2x3,fp32,1e-6,,11,\nh,matmul,1x2x3,fp32,nan,,11,\n",
		  RV_EPARSE, "b.csv:3:21: latency_s: 'nan' is not a number" },
		{ HEADER "\nh,matmul,1x2x3,fp32,-1e-06,,11,\n", RV_ERANGE,
		  "b.csv:2:21: latency_s: -1e-06 s is not a plausible latency" },
		{ HEADER "\nh,matmul,1x2x3,fp32,0,,11,\n", RV_ERANGE, "not a plausible latency" },
		{ HEADER "\nh,matmul,1x2x3,fp32,1e9,,11,\n", RV_ERANGE, "not a plausible latency" },
		{ HEADER "\nh,matmul,1x2x3,fp32,1e-06,-0.5,11,\n", RV_ERANGE,
		  "b.csv:2:27: energy_j: -0.5 J is negative" },
		{ HEADER "\nh,matmul,1x2x3,fp32,1e-06,,0,\n", RV_ERANGE, "trial_count: 0 trials" },
		{ HEADER "\nh,matmul,1x2x3,fp32,1e-06,,1.5,\n", RV_EPARSE,
		  "trial_count: '1.5' is not a non-negative integer" },
		{ HEADER "\nh,matmul,1x2,fp32,1e-06,,1,\n", RV_EPARSE,
		  "b.csv:2:10: shape: shape '1x2': matmul takes 3 dimensions" },
		{ HEADER "\nh,matmul,0x2x3,fp32,1e-06,,1,\n", RV_ERANGE, "dimension M is 0" },
		{ HEADER "\nh,conv,1x2x3,fp32,1e-06,,1,\n", RV_EPARSE,
		  "b.csv:2:3: op: unknown op 'conv'" },
		{ HEADER "\nh,matmul,1x2x3,float,1e-06,,1,\n", RV_EPARSE, "dtype: unknown dtype" },
		{ HEADER "\n,matmul,1x2x3,fp32,1e-06,,1,\n", RV_EPARSE,
		  "hardware: '' is not a hardware key" },
		{ HEADER "\nh,matmul,1x2x3,fp32,1e-06,,1\n", RV_EPARSE,
		  "b.csv:2: 7 fields, but the header has 8 columns" },
		{ HEADER "\nh,matmul,1x2x3,fp32,1e-06,,1,\nh,matmul,1x2x3,fp32,2e-06,,1,\n",
		  RV_EPARSE,
		  "b.csv:3: a second row for h matmul 1x2x3 fp32 (the first is on line 2)" },
	};
	struct rv_baseline *b;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = rv_baseline_parse(&b, cases[i].text, strlen(cases[i].text), "b.csv");

		if (rc != cases[i].code || !strstr(rv_error_last(), cases[i].msg))
			fail_msg("case %zu: got %d '%s', wanted %d '%s'", i, rc, rv_error_last(),
			         cases[i].code, cases[i].msg);
		assert_null(b);
	}
}

static struct rv_baseline_row make_row(const char *shape, double latency_s, const char *notes)
{
	struct rv_baseline_row r;

	rv_baseline_row_init(&r);
	r.hardware = (char *)(uintptr_t) "host";
	r.op = RV_OP_MATMUL;
	assert_int_equal(rv_shape_parse(shape, RV_OP_MATMUL, &r.shape), 0);
	r.dtype = RV_DTYPE_FP32;
	r.latency_s = latency_s;
	r.trial_count = 11;
	r.notes = (char *)(uintptr_t)notes;
	return r;
}

static void test_baseline__store_merges_rows(void **state)
{
	const char *dir = rv_scratch_dir("baseline_store");
	char path[RV_PATH_MAX], *text;
	struct rv_baseline_row r = make_row("64x64x64", 1e-05, "first");

	(void)state;
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "host_matmul.csv"), 0);
	assert_int_equal(rv_baseline_store(path, &r), 0);
	r = make_row("32x32x32", 2e-06, "second");
	r.latency_cv = 0.02;
	r.cols = RV_COL_BIT(RV_COL_LATENCY_CV);
	assert_int_equal(rv_baseline_store(path, &r), 0);
	r = make_row("64x64x64", 1.5e-05, "replaced, with a comma");
	assert_int_equal(rv_baseline_store(path, &r), 0);
	text = rv_slurp(path, NULL);
	assert_non_null(text);
	assert_string_equal(text, HEADER ",latency_cv\r\n"
	                                 "host,matmul,32x32x32,fp32,2e-06,,11,second,0.02\r\n"
	                                 "host,matmul,64x64x64,fp32,1.5e-05,,11,"
	                                 "\"replaced, with a comma\",\r\n");
	free(text);
}

static void test_baseline__merge_captures(void **state)
{
	/* Three captures of one machine. 64x64x64: 1.0, 1.6 and 1.1 us: the
	 * median 1.1 us is capture c's, whose trial count and notes the row
	 * keeps; spread (1.6 - 1.0) / 1.1. 32x32x32: a and b, 2.0 and 3.0: the
	 * mean of the two, 2.5, nearest to both; the first (a) on the tie.
	 * 16x16x16: b alone, kept as it is, its repeats and spread too. */
	struct rv_baseline *in[3], *m = NULL;
	const char *labels[3] = { "a", "b", "c" };
	char want[512];
	size_t merged;

	(void)state;
	in[0] = rv_test_baseline_parse(HEADER "\n"
	                                      "host,matmul,64x64x64,fp32,1e-06,,11,\n"
	                                      "host,matmul,32x32x32,fp32,2e-06,,7,first\n");
	in[1] = rv_test_baseline_parse(HEADER ",repeats,repeat_spread\n"
	                                      "host,matmul,32x32x32,fp32,3e-06,,9,,,\n"
	                                      "host,matmul,64x64x64,fp32,1.6e-06,,13,,,\n"
	                                      "host,matmul,16x16x16,fp32,5e-07,,5,b,3,0.5\n");
	in[2] = rv_test_baseline_parse(HEADER "\n"
	                                      "host,matmul,64x64x64,fp32,1.1e-06,,15,quiet\n");
	assert_int_equal(rv_baseline_merge(&m, in, labels, 3, &merged), 0);
	assert_int_equal(m->n_rows, 3);
	assert_int_equal(merged, 2);
	/* Sorted: 16, 32, 64. */
	assert_string_equal(m->rows[0].notes, "b");
	assert_int_equal(m->rows[0].repeats.value, 3);
	rv_assert_close(m->rows[0].repeat_spread, 0.5, 0, 0);
	rv_assert_close(m->rows[1].latency_s, 2.5e-06, 1e-15, 0);
	assert_int_equal(m->rows[1].trial_count, 7);
	assert_int_equal(m->rows[1].repeats.value, 2);
	rv_assert_close(m->rows[1].repeat_spread, 1e-06 / 2.5e-06, 1e-12, 0);
	assert_string_equal(m->rows[1].notes,
	                    "first; median of 2 captures (a, b), 40% apart (the row is a's)");
	rv_assert_close(m->rows[2].latency_s, 1.1e-06, 0, 0);
	assert_int_equal(m->rows[2].trial_count, 15);
	assert_int_equal(m->rows[2].repeats.value, 3);
	rv_assert_close(m->rows[2].repeat_spread, 0.6e-06 / 1.1e-06, 1e-12, 0);
	(void)snprintf(want, sizeof(want),
	               "quiet; median of 3 captures (a, b, c), %.3g%% apart (the row is c's)",
	               100 * 0.6e-06 / 1.1e-06);
	assert_string_equal(m->rows[2].notes, want);
	/* What it writes reads back the same. */
	{
		char *text = rv_test_baseline_render(m);
		struct rv_baseline *back = rv_test_baseline_parse(text);

		assert_int_equal(back->n_rows, 3);
		rv_assert_close(back->rows[1].latency_s, m->rows[1].latency_s, 0, 0);
		rv_baseline_free(back);
		free(text);
	}
	for (int i = 0; i < 3; i++)
		rv_baseline_free(in[i]);
	rv_baseline_free(m);
}

static void test_baseline__failed_write_keeps_old_file(void **state)
{
	/* What happened, and what to do about it when there is something. */
	static const struct {
		enum rv_file_fault step;
		int err, code;
		const char *msg, *hint;
	} faults[] = {
		{ RV_FILE_FAULT_OPEN, EACCES, RV_EPERM, "cannot create a temporary file in",
		  "Permission denied; make the folder writable, or write elsewhere" },
		{ RV_FILE_FAULT_OPEN, EROFS, RV_EPERM, "cannot create a temporary file in",
		  "Read-only file system; make the folder writable, or write elsewhere" },
		{ RV_FILE_FAULT_WRITE, ENOSPC, RV_EIO, "(the old file is unchanged)",
		  "No space left on device; free space on that disk, then run it again" },
		{ RV_FILE_FAULT_WRITE, EDQUOT, RV_EIO, "cannot write",
		  "quota exceeded; free space on that disk, then run it again" },
		{ RV_FILE_FAULT_FSYNC, EIO, RV_EIO, "cannot sync", "Input/output error" },
		{ RV_FILE_FAULT_FSYNC, ENOSPC, RV_EIO, "cannot sync", "free space on that disk" },
		{ RV_FILE_FAULT_RENAME, EXDEV, RV_EIO, "cannot replace",
		  "(the old file is unchanged)" },
	};
	const char *dir = rv_scratch_dir("baseline_fault");
	char path[RV_PATH_MAX], *before, *after;
	struct rv_baseline_row r = make_row("64x64x64", 1e-05, "kept");
	struct dirent *de;
	DIR *dh;
	int files = 0;

	(void)state;
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "host_matmul.csv"), 0);
	assert_int_equal(rv_baseline_store(path, &r), 0);
	before = rv_slurp(path, NULL);
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		r = make_row("128x128x128", 3e-05, "lost");
		struct rv_baseline *b = NULL;

		rv_file__inject_fault(faults[i].step, faults[i].err);
		rv_assert_error(rv_baseline_store(path, &r), faults[i].code, faults[i].msg);
		rv_assert_error(faults[i].code, faults[i].code, faults[i].hint);
		after = rv_slurp(path, NULL);
		assert_string_equal(before, after);
		free(after);
		/* Still a valid baseline, with the row stored before the fault. */
		assert_int_equal(rv_baseline_load(&b, path), 0);
		assert_int_equal(b->n_rows, 1);
		assert_string_equal(b->rows[0].notes, "kept");
		rv_baseline_free(b);
	}
	/* No temporary file is left behind. */
	dh = opendir(dir);
	while ((de = readdir(dh)) != NULL)
		files += de->d_name[0] != '.';
	(void)closedir(dh);
	assert_int_equal(files, 1);
	free(before);
}

static void test_baseline__mode_kept_and_folder_errors(void **state)
{
	const char *dir = rv_scratch_dir("baseline_mode");
	char path[RV_PATH_MAX];
	struct rv_baseline_row r = make_row("64x64x64", 1e-05, "");
	struct stat st;

	(void)state;
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "h.csv"), 0);
	assert_int_equal(rv_baseline_store(path, &r), 0);
	assert_int_equal(chmod(path, 0640), 0);
	r.latency_s = 2e-05;
	assert_int_equal(rv_baseline_store(path, &r), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	/* a missing folder is made (io/file.c); a file in the way is named */
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "missing/h.csv"), 0);
	assert_int_equal(rv_baseline_store(path, &r), 0);
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "h.csv/sub/h.csv"), 0);
	rv_assert_error(rv_baseline_store(path, &r), RV_EIO, "is not a folder");
	rv_assert_error(rv_file_write_atomic(dir, "x", 1), RV_EIO, "is a folder");
}

/* A folder without write permission: real, so only as another user than
 * root, who writes there anyway. */
static void test_baseline__read_only_folder(void **state)
{
	const char *dir = rv_scratch_dir("baseline_readonly");
	char path[RV_PATH_MAX], *before, *after;
	struct rv_baseline_row r = make_row("64x64x64", 1e-05, "kept");
	int rc;

	(void)state;
	if (geteuid() == 0) {
		print_message("[  SKIPPED ] running as root, who may write into a 0555 folder\n");
		skip();
	}
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "h.csv"), 0);
	assert_int_equal(rv_baseline_store(path, &r), 0);
	before = rv_slurp(path, NULL);
	assert_int_equal(chmod(dir, 0555), 0);
	r = make_row("128x128x128", 3e-05, "lost");
	rc = rv_baseline_store(path, &r);
	assert_int_equal(chmod(dir, 0755), 0);
	rv_assert_error(rc, RV_EPERM, "cannot create a temporary file in");
	rv_assert_error(rc, RV_EPERM, "Permission denied; make the folder writable");
	after = rv_slurp(path, NULL);
	assert_string_equal(before, after);
	free(before);
	free(after);
}

/* Two processes storing rows into one baseline at the same time lose none. */
static void test_baseline__concurrent_writers(void **state)
{
	const char *dir = rv_scratch_dir("baseline_concurrent");
	char path[RV_PATH_MAX];
	struct rv_baseline *b = NULL;
	pid_t pid[2];
	int status;

	(void)state;
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "h.csv"), 0);
	for (int w = 0; w < 2; w++) {
		pid[w] = fork();
		assert_true(pid[w] >= 0);
		if (pid[w] == 0) {
			for (int i = 0; i < 25; i++) {
				char shape[32];
				struct rv_baseline_row r;

				(void)snprintf(shape, sizeof(shape), "%dx%dx8", w + 1, i + 1);
				r = make_row(shape, 1e-06 * (i + 1), "");
				if (rv_baseline_store(path, &r) != 0)
					_exit(1);
			}
			_exit(0);
		}
	}
	for (int w = 0; w < 2; w++) {
		assert_int_equal(waitpid(pid[w], &status, 0), pid[w]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	assert_int_equal(rv_baseline_load(&b, path), 0);
	assert_int_equal(b->n_rows, 50);
	rv_baseline_free(b);
}

/* A writer killed in the middle of a save leaves .path.roofval-XXXXXX.tmp:
 * the next store, under the lock, removes it and nothing else. */
static void test_baseline__stale_temp_removed(void **state)
{
	const char *dir = rv_scratch_dir("baseline_stale");
	char path[RV_PATH_MAX], stale[RV_PATH_MAX], other[RV_PATH_MAX], near[RV_PATH_MAX];
	struct rv_baseline_row r = make_row("64x64x64", 1e-05, "");
	struct stat st;

	(void)state;
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "h.csv"), 0);
	assert_int_equal(rv_path_join(stale, sizeof(stale), dir, ".h.csv.roofval-Ab3dE9.tmp"), 0);
	assert_int_equal(rv_path_join(other, sizeof(other), dir, ".g.csv.roofval-Ab3dE9.tmp"), 0);
	assert_int_equal(rv_path_join(near, sizeof(near), dir, "h.csv.tmp"), 0);
	rv_spit(stale, HEADER "\nh,matmul,1x1");
	rv_spit(other, "another file's");
	rv_spit(near, "not a temporary file of ours");
	assert_int_equal(rv_baseline_store(path, &r), 0);
	assert_int_equal(stat(stale, &st), -1);
	assert_int_equal(stat(other, &st), 0);
	assert_int_equal(stat(near, &st), 0);
}

static void test_baseline__lock_waits_for_holder(void **state)
{
	const char *dir = rv_scratch_dir("baseline_lock");
	char path[RV_PATH_MAX];
	struct rv_file_lock held;
	struct rv_baseline_row r = make_row("64x64x64", 1e-05, "");
	pid_t pid;
	int status;

	(void)state;
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "h.csv"), 0);
	/* Another process holds the lock: a short wait times out with a clear message. */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rv_file_lock lk;

		if (rv_file_lock(&lk, path, 1.0) != 0)
			_exit(1);
		sleep(2);
		_exit(0);
	}
	(void)nanosleep(&(struct timespec){ 0, 300 * 1000 * 1000 }, NULL);
	rv_assert_error(rv_file_lock(&held, path, 0.2), RV_EIO,
	                "another process has held the lock");
	/* Once it exits, the lock is ours and a store goes through. */
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(rv_file_lock(&held, path, 1.0), 0);
	rv_file_unlock(&held);
	assert_int_equal(rv_baseline_store(path, &r), 0);
}

/* rv_baseline_find() through the index: every row found after upserts in
 * any order, after a sort moved them all, with rows added behind its back
 * (found by a scan), and a replaced row found where it is. */
static void test_baseline__find_by_index(void **state)
{
	struct rv_baseline *b;
	struct rv_baseline_row r;
	struct rv_shape s;
	char shape[64];
	const size_t n = 3000;

	(void)state;
	assert_int_equal(rv_baseline_new(&b), 0);
	for (size_t i = 0; i < n; i++) {
		size_t k = (i * 7919) % n; /* a shuffled order */

		(void)snprintf(shape, sizeof(shape), "%zux%zux8", k % 97 + 1, k / 97 + 1);
		r = make_row(shape, 1e-6 * (double)(k + 1), "");
		r.hardware = (char *)(uintptr_t)(k % 2 ? "host" : "other");
		assert_int_equal(rv_baseline_upsert(b, &r), 0);
	}
	assert_int_equal(b->n_rows, n);
	for (int sorted = 0; sorted < 2; sorted++) {
		for (size_t k = 0; k < n; k++) {
			long at;

			(void)snprintf(shape, sizeof(shape), "%zux%zux8", k % 97 + 1, k / 97 + 1);
			assert_int_equal(rv_shape_parse(shape, RV_OP_MATMUL, &s), 0);
			at = rv_baseline_find(b, k % 2 ? "host" : "other", RV_OP_MATMUL, &s,
			                      RV_DTYPE_FP32);
			assert_true(at >= 0);
			rv_assert_close(b->rows[at].latency_s, 1e-6 * (double)(k + 1), 0, 0);
			assert_int_equal(rv_baseline_find(b, k % 2 ? "other" : "host", RV_OP_MATMUL,
			                                  &s, RV_DTYPE_FP32),
			                 -1);
			assert_int_equal(
			        rv_baseline_find(b, "host", RV_OP_LINEAR, &s, RV_DTYPE_FP32), -1);
		}
		rv_baseline_sort(b);
	}
	/* A replaced row keeps its place; one pushed directly is found by a scan. */
	r = make_row("5x1x8", 9.0, "replaced");
	r.hardware = (char *)(uintptr_t) "other";
	assert_int_equal(rv_shape_parse("5x1x8", RV_OP_MATMUL, &s), 0);
	{
		long before = rv_baseline_find(b, "other", RV_OP_MATMUL, &s, RV_DTYPE_FP32);

		assert_int_equal(rv_baseline_upsert(b, &r), 0);
		assert_int_equal(rv_baseline_find(b, "other", RV_OP_MATMUL, &s, RV_DTYPE_FP32),
		                 before);
		rv_assert_close(b->rows[before].latency_s, 9.0, 0, 0);
	}
	r = make_row("1000x1000x8", 1.0, "");
	r.hardware = rv_strdup("host");
	r.notes = rv_strdup("");
	assert_int_equal(rv_vec_push(&b->rows, &b->n_rows, &b->cap_rows, &r, sizeof(r)), 0);
	assert_int_equal(rv_baseline_find(b, "host", RV_OP_MATMUL, &r.shape, RV_DTYPE_FP32),
	                 (long)n);
	assert_int_equal(rv_baseline_index(b), 0);
	assert_int_equal(rv_baseline_find(b, "host", RV_OP_MATMUL, &r.shape, RV_DTYPE_FP32),
	                 (long)n);
	rv_baseline_free(b);
	/* A baseline whose one row is taken away after each upsert (as a merge
	 * hands rows on): each new row is found, and upserts never wait on a
	 * full index. */
	assert_int_equal(rv_baseline_new(&b), 0);
	for (size_t i = 0; i < 200; i++) {
		(void)snprintf(shape, sizeof(shape), "%zux2x8", i + 1);
		r = make_row(shape, 1e-3, "");
		assert_int_equal(rv_baseline_upsert(b, &r), 0);
		assert_int_equal(b->n_rows, 1);
		assert_int_equal(rv_baseline_find(b, "host", RV_OP_MATMUL, &r.shape, RV_DTYPE_FP32),
		                 0);
		free(b->rows[0].hardware);
		free(b->rows[0].notes);
		b->n_rows = 0;
	}
	rv_baseline_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_baseline__reference_round_trip),
		cmocka_unit_test(test_baseline__edge_cases),
		cmocka_unit_test(test_baseline__find_by_index),
		cmocka_unit_test(test_baseline__lf_kept_and_sort_order),
		cmocka_unit_test(test_baseline__extra_columns_survive),
		cmocka_unit_test(test_baseline__bad_inputs),
		cmocka_unit_test(test_baseline__store_merges_rows),
		cmocka_unit_test(test_baseline__merge_captures),
		cmocka_unit_test(test_baseline__failed_write_keeps_old_file),
		cmocka_unit_test(test_baseline__mode_kept_and_folder_errors),
		cmocka_unit_test(test_baseline__read_only_folder),
		cmocka_unit_test(test_baseline__concurrent_writers),
		cmocka_unit_test(test_baseline__stale_temp_removed),
		cmocka_unit_test(test_baseline__lock_waits_for_holder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
