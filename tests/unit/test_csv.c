/* SPDX-License-Identifier: MIT */
/* Tests of the RFC 4180 reader and writer. */
#include "io/csv.h"
#include "rv_test.h"

/* Reads every record of text; returns the count, or the error code. Fields
 * are joined with '|' and records with '/' into out. */
static int read_all(const char *text, char *out, size_t size)
{
	struct rv_csv_reader r;
	struct rv_csv_record rec;
	int n = 0, rc;

	out[0] = '\0';
	rc = rv_csv_reader_init(&r, text, strlen(text), "t.csv");
	while (rc == 0 && (rc = rv_csv_next(&r, &rec)) == 1) {
		for (size_t i = 0; i < rec.n; i++) {
			strncat(out, rec.field[i], size - strlen(out) - 1);
			strncat(out, i + 1 < rec.n ? "|" : "/", size - strlen(out) - 1);
		}
		n++;
		rc = 0;
	}
	rv_csv_reader_free(&r);
	return rc < 0 ? rc : n;
}

static void test_csv__line_ends_and_quotes(void **state)
{
	static const struct {
		const char *in, *out;
		int n;
	} cases[] = {
		{ "a,b\nc,d\n", "a|b/c|d/", 2 },
		{ "a,b\r\nc,d\r\n", "a|b/c|d/", 2 },
		{ "a,b\nc,d", "a|b/c|d/", 2 }, /* no final newline */
		{ "a,,\n", "a||/", 1 },        /* empty fields */
		{ "\"x,y\",\"say \"\"hi\"\"\"\n", "x,y|say \"hi\"/", 1 },
		{ "a,\"line1\nline2\"\nb,c\n", "a|line1\nline2/b|c/", 2 },
		{ "a,\"cr\r\nlf\"\r\n", "a|cr\r\nlf/", 1 },
		{ "\n\na\n\n", "a/", 1 }, /* empty lines skipped */
		{ "", "", 0 },
		{ "\"\"\n", "/", 1 }, /* one empty quoted field */
	};
	char out[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(read_all(cases[i].in, out, sizeof(out)), cases[i].n);
		assert_string_equal(out, cases[i].out);
	}
}

static void test_csv__errors_have_positions(void **state)
{
	static const struct {
		const char *in, *msg;
	} cases[] = {
		{ "a,\"open\nb\n", "t.csv:1:3: a quoted field is never closed" },
		{ "a,\"x\"y\n", "t.csv:1:6: text after a closing quote" },
		{ "a,b\nc,d\"e\n", "t.csv:2:4: a quote inside an unquoted field" },
		{ "a\rb\n", "t.csv:1:2: a carriage return not followed by a line feed" },
		{ "\xEF\xBB\xBF"
		  "a\n",
		  "t.csv:1:1: the file starts with a byte-order mark" },
	};
	char out[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		rv_assert_error(read_all(cases[i].in, out, sizeof(out)), RV_EPARSE, cases[i].msg);
}

static void test_csv__nul_byte(void **state)
{
	static const char text[] = { 'a', ',', '\0', 'b', '\n' };
	struct rv_csv_reader r;

	(void)state;
	rv_assert_error(rv_csv_reader_init(&r, text, sizeof(text), "t.csv"), RV_EPARSE, "NUL byte");
	rv_csv_reader_free(&r);
}

static void test_csv__too_many_fields(void **state)
{
	char text[2048];
	char out[4096];

	(void)state;
	memset(text, ',', 300);
	text[300] = '\n';
	text[301] = '\0';
	rv_assert_error(read_all(text, out, sizeof(out)), RV_EPARSE, "more than 256 fields");
}

static void test_csv__writer_quotes_minimally(void **state)
{
	struct rv_buf b = RV_BUF_INIT;

	(void)state;
	rv_csv_put_field(&b, "plain", 1);
	rv_csv_put_field(&b, "", 0);
	rv_csv_put_field(&b, "a,b", 0);
	rv_csv_put_field(&b, "say \"hi\"", 0);
	rv_csv_put_field(&b, "two\nlines", 0);
	rv_csv_put_field(&b, "rails=['VDD_IN']", 0);
	rv_csv_end_record(&b, 1);
	rv_csv_put_field(&b, "x", 1);
	rv_csv_end_record(&b, 0);
	assert_string_equal(b.data, "plain,,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\","
	                            "rails=['VDD_IN']\r\nx\n");
	rv_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv__line_ends_and_quotes),
		cmocka_unit_test(test_csv__errors_have_positions),
		cmocka_unit_test(test_csv__nul_byte),
		cmocka_unit_test(test_csv__too_many_fields),
		cmocka_unit_test(test_csv__writer_quotes_minimally),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
