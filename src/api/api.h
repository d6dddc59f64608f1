/* SPDX-License-Identifier: MIT */
/* The public API of libroofval (include/roofval/), implemented over the
 * internal modules: rv_data is a struct rv_layout with its cache, rv_hw a
 * profile it loaded, predictions go through model/predict and validation
 * through rv_layout_validate() and report/. This header only gathers the
 * public ones for the files of src/api/. */
#ifndef RV_API_API_H
#define RV_API_API_H

#include <roofval/roofval.h>

#endif
