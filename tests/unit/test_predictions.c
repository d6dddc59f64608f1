/* SPDX-License-Identifier: MIT */
/* Tests of predictions: the CSV's strict loader, lookup, rendering, and an
 * adapter command run as a model. */
#include "predictions/predictions.h"
#include "rv_test.h"

#define HEADER "hardware,op,shape,dtype,latency_s,energy_j"

static struct rv_prediction_set *parse_ok(const char *text)
{
	struct rv_prediction_set *set;

	if (rv_predictions_parse(&set, text, strlen(text), "p.csv", "mine") != 0)
		fail_msg("parse failed: %s", rv_error_last());
	return set;
}

static void parse_bad(const char *text, const char *needle)
{
	struct rv_prediction_set *set = NULL;

	rv_assert_error(rv_predictions_parse(&set, text, strlen(text), "p.csv", "mine"), RV_EPARSE,
	                needle);
	assert_null(set);
}

static void test_predictions__parse_and_find(void **state)
{
	struct rv_prediction_set *set =
	        parse_ok(HEADER ",regime,comment\r\n"
	                        "h1,matmul,64x64x64,fp32,1e-05,0.002,alu_bound,ok\r\n"
	                        "h1,vector_add,4096,fp32,2.5e-06,,,\r\n"
	                        "h0,linear,1x128x128,fp16,3e-06,1e-05,dram_bound,\"a, b\"\r\n");
	struct rv_shape s;
	struct rv_prediction_row *r;

	(void)state;
	assert_string_equal(set->model, "mine");
	assert_int_equal(set->n_rows, 3);
	assert_int_equal(rv_shape_parse("64x64x64", RV_OP_MATMUL, &s), 0);
	r = rv_predictions_find(set, "h1", RV_OP_MATMUL, &s, RV_DTYPE_FP32);
	assert_non_null(r);
	rv_assert_close(r->latency_s, 1e-5, 0, 0);
	rv_assert_close(r->energy_J, 0.002, 0, 0);
	assert_int_equal(r->regime, RV_REGIME_ALU);
	assert_int_equal(r->line, 2);
	assert_null(rv_predictions_find(set, "h1", RV_OP_MATMUL, &s, RV_DTYPE_FP16));
	assert_null(rv_predictions_find(set, "h2", RV_OP_MATMUL, &s, RV_DTYPE_FP32));
	assert_int_equal(rv_shape_parse("4096", RV_OP_VECTOR_ADD, &s), 0);
	r = rv_predictions_find(set, "h1", RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32);
	assert_non_null(r);
	assert_true(isnan(r->energy_J));
	assert_int_equal(r->regime, RV_REGIME_COUNT);
	rv_predictions_free(set);
}

static void test_predictions__strict(void **state)
{
	(void)state;
	parse_bad("", "empty");
	parse_bad("hardware,op,shape,dtype,latency_s\n",
	          "header column 6 is '', expected 'energy_j'");
	parse_bad("hardware,op,shape,dtype,energy_j,latency_s\n", "header column 5 is 'energy_j'");
	parse_bad(HEADER ",x,x\n", "header column 'x' appears twice");
	parse_bad(HEADER "\nh,conv,1,fp32,1,1\n", "p.csv:2:3: op:");
	parse_bad(HEADER "\nh,matmul,1x2,fp32,1,1\n", "p.csv:2:10: shape:");
	parse_bad(HEADER "\nh,matmul,1x2x3,fp33,1,1\n", "p.csv:2:16: dtype:");
	parse_bad(HEADER "\nh,vector_add,8,fp32,0,1\n", "latency_s: '0' is not a finite positive");
	parse_bad(HEADER "\nh,vector_add,8,fp32,-1,1\n", "latency_s: '-1'");
	parse_bad(HEADER "\nh,vector_add,8,fp32,nan,1\n", "latency_s: 'nan'");
	parse_bad(HEADER "\nh,vector_add,8,fp32,inf,1\n", "latency_s: 'inf'");
	parse_bad(HEADER "\nh,vector_add,8,fp32,,1\n", "latency_s: ''");
	parse_bad(HEADER "\nh,vector_add,8,fp32,1,0\n", "energy_j: '0' is not a finite positive");
	parse_bad(HEADER "\nh,vector_add,8,fp32,1,1e999\n", "energy_j: '1e999'");
	parse_bad(HEADER ",regime\nh,vector_add,8,fp32,1,1,fast\n",
	          "p.csv:2:25: regime: unknown regime 'fast'");
	parse_bad(HEADER "\nh,vector_add,8,fp32,1\n", "p.csv:2: 5 fields, but the header has 6");
	parse_bad(HEADER "\nh!,vector_add,8,fp32,1,1\n", "'h!' is not a hardware key");
	parse_bad(HEADER "\nh,vector_add,8,fp32,1,1\nh,vector_add,8,fp32,2,\n",
	          "p.csv:3: a second prediction for h vector_add 8 fp32 (the first is on line 2)");
	parse_bad("\xef\xbb\xbf" HEADER "\n", "byte-order mark");
}

static void test_predictions__render_round_trip(void **state)
{
	const char *text = HEADER ",regime\n"
	                          "h0,linear,1x128x128,fp16,3e-06,1e-05,dram_bound\n"
	                          "h1,matmul,64x64x64,fp32,1e-05,0.002,alu_bound\n"
	                          "h1,vector_add,4096,fp32,2.5e-06,,\n";
	struct rv_prediction_set *set = parse_ok(text);
	struct rv_buf out = RV_BUF_INIT;

	(void)state;
	assert_int_equal(rv_predictions_render(&out, set), 0);
	assert_string_equal(rv_buf_str(&out), text);
	rv_buf_free(&out);
	rv_predictions_free(set);
}

static void test_predictions__predictor_marks_used(void **state)
{
	struct rv_prediction_set *set = parse_ok(HEADER "\nh1,vector_add,8,fp32,1e-06,\n"
	                                                "h1,vector_add,16,fp32,2e-06,\n");
	struct rv_predictor pr;
	struct rv_estimate e;
	struct rv_profile p;
	struct rv_shape s;
	char key[] = "h1";

	(void)state;
	memset(&p, 0, sizeof(p));
	p.key = key;
	rv_predictions_predictor(&pr, set);
	assert_string_equal(pr.model, "mine");
	assert_int_equal(rv_shape_parse("16", RV_OP_VECTOR_ADD, &s), 0);
	assert_int_equal(pr.estimate(pr.ctx, &p, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32, &e), 0);
	rv_assert_close(e.latency_s, 2e-6, 0, 0);
	assert_int_equal(e.binding, -1);
	assert_int_equal(rv_shape_parse("32", RV_OP_VECTOR_ADD, &s), 0);
	assert_int_equal(pr.estimate(pr.ctx, &p, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32, &e),
	                 RV_ENOENT);
	assert_int_equal(set->rows[0].used, 0);
	assert_int_equal(set->rows[1].used, 1);
	rv_predictions_free(set);
}

static struct rv_buf request(void)
{
	struct rv_buf b = RV_BUF_INIT;
	struct rv_shape s;

	assert_int_equal(rv_shape_parse("8", RV_OP_VECTOR_ADD, &s), 0);
	rv_predictions_request_header(&b);
	rv_predictions_request_row(&b, "h1", RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32, "/p/h1.json");
	return b;
}

static void test_predictions__command(void **state)
{
	struct rv_buf req = request();
	struct rv_prediction_set *set = NULL;

	(void)state;
	assert_string_equal(rv_buf_str(&req), "hardware,op,shape,dtype,profile\n"
	                                      "h1,vector_add,8,fp32,/p/h1.json\n");
	/* Reads its input, answers each row. */
	assert_int_equal(rv_predictions_from_command(&set,
	                                             "read header; echo " HEADER
	                                             "; while IFS=, read hw op shape dt prof; do "
	                                             "echo \"$hw,$op,$shape,$dt,1e-06,\"; done",
	                                             &req, 10, "adapter"),
	                 0);
	assert_int_equal(set->n_rows, 1);
	assert_string_equal(set->model, "adapter");
	rv_predictions_free(set);
	set = NULL;
	rv_assert_error(rv_predictions_from_command(&set, "echo boom >&2; exit 3", &req, 10, "a"),
	                RV_ERROR,
	                "the model command exited with status 3; its standard error ends: boom");
	assert_null(set);
	rv_assert_error(rv_predictions_from_command(&set, "kill -9 $$", &req, 10, "a"), RV_ERROR,
	                "killed by signal 9");
	rv_assert_error(rv_predictions_from_command(&set, "sleep 10", &req, 0.3, "a"), RV_ERROR,
	                "ran past its 0.3 s time-out");
	rv_assert_error(rv_predictions_from_command(&set, "echo hello", &req, 10, "a"), RV_EPARSE,
	                "the model command's output:1:1: header column 1 is 'hello'");
	/* Does not read its input at all: no SIGPIPE, its output still counts. */
	rv_assert_error(rv_predictions_from_command(&set, "exec 0<&-; echo " HEADER, &req, 10, "a"),
	                0, "");
	rv_predictions_free(set);
	rv_buf_free(&req);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_predictions__parse_and_find),
		cmocka_unit_test(test_predictions__strict),
		cmocka_unit_test(test_predictions__render_round_trip),
		cmocka_unit_test(test_predictions__predictor_marks_used),
		cmocka_unit_test(test_predictions__command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
