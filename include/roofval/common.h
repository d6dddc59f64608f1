/* SPDX-License-Identifier: MIT */
/* What every public header shares: RV_API marks the functions libroofval
 * exports (the library is built with hidden visibility, so nothing else is
 * visible), and C linkage for C++ callers. */
#ifndef ROOFVAL_COMMON_H
#define ROOFVAL_COMMON_H

#if defined(__GNUC__) || defined(__clang__)
#define RV_API __attribute__((visibility("default")))
#else
#define RV_API
#endif

#ifdef __cplusplus
#define RV_BEGIN_DECLS extern "C" {
#define RV_END_DECLS   }
#else
#define RV_BEGIN_DECLS
#define RV_END_DECLS
#endif

#endif
