/* SPDX-License-Identifier: MIT */
/* How this build of roofval was compiled: the C compiler, CMake's build
 * type and the C flags, for the capture manifest (a baseline says which
 * build measured it) and `roofval version`. CMake gives them to
 * src/core/build.c alone, so a change of flags recompiles one file. */
#ifndef RV_CORE_BUILD_H
#define RV_CORE_BUILD_H

/* The C compiler's id and version: "GNU 12.2.0", "Clang 16.0.6". */
const char *rv_build_compiler(void);
/* CMake's build type: "RelWithDebInfo" (the default), "Release", "Debug". */
const char *rv_build_type(void);
/* The C flags every source file gets: CMAKE_C_FLAGS, the build type's
 * (CMAKE_C_FLAGS_<TYPE>) and the sanitizers' ("-O2 -g -DNDEBUG"). */
const char *rv_build_flags(void);
/* The flags roofval's own timed kernel loops (kernel/add_loops.c and the
 * cblas module's run loop) are compiled with after rv_build_flags(), which
 * they override whatever the build type ("-O2"). */
const char *rv_build_kernel_flags(void);

#endif
