/* SPDX-License-Identifier: MIT */
/* Build provenance, from the compile definitions CMake gives this file. */
#include "core/build.h"

#ifndef RV_BUILD_COMPILER
#define RV_BUILD_COMPILER "unknown"
#endif
#ifndef RV_BUILD_TYPE
#define RV_BUILD_TYPE "unknown"
#endif
#ifndef RV_BUILD_FLAGS
#define RV_BUILD_FLAGS "unknown"
#endif
#ifndef RV_BUILD_KERNEL_FLAGS
#define RV_BUILD_KERNEL_FLAGS "unknown"
#endif

const char *rv_build_compiler(void)
{
	return RV_BUILD_COMPILER;
}

const char *rv_build_type(void)
{
	return *RV_BUILD_TYPE ? RV_BUILD_TYPE : "none";
}

const char *rv_build_flags(void)
{
	return RV_BUILD_FLAGS;
}

const char *rv_build_kernel_flags(void)
{
	return RV_BUILD_KERNEL_FLAGS;
}
