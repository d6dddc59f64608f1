/* SPDX-License-Identifier: MIT */
/* The executors' registry, from hw/executors.def. */
#include "model/executor.h"

static const struct rv_executor_ops *const executors[RV_EXECUTOR_COUNT] = {
#define RV_EXECUTOR(id, name) [RV_EXECUTOR_##id] = &rv_executor_##name,
#include "hw/executors.def"
#undef RV_EXECUTOR
};

const struct rv_executor_ops *rv_executor_ops(enum rv_executor x)
{
	return executors[x];
}
