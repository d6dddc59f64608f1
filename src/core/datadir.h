/* SPDX-License-Identifier: MIT */
/* Where roofval finds its data: the one resolver of the hardware, sweep and
 * baseline folders (rv_profile_dir(), rv_sweep_dir(), rv_baseline_dir() and
 * so rv_layout_open() forward to it). The order, first match wins:
 *
 *   1. the folder given (a --hardware-dir, --sweep-dir, --baseline-dir option);
 *   2. $ROOFVAL_HARDWARE_DIR, $ROOFVAL_SWEEP_DIR, $ROOFVAL_BASELINE_DIR;
 *   3. <D>/hardware, <D>/sweeps, <D>/results/baselines for D = $ROOFVAL_DATA_DIR
 *      (which roofval --data-dir D sets);
 *   4. hardware/, sweeps/, results/baselines/ of the current folder, each when
 *      it is a folder;
 *   5. for a binary (or libroofval) running from the build tree: the source
 *      tree's folders, as before installation;
 *   6. else the installed data: <prefix>/share/roofval/hardware, .../sweeps
 *      and .../baselines (the committed baselines), <prefix> being the
 *      folder above the one holding the running binary or libroofval.so (so
 *      a moved prefix still works), else the compiled-in installation
 *      prefix's.
 *
 * docs/install.md documents the same order. */
#ifndef RV_CORE_DATADIR_H
#define RV_CORE_DATADIR_H

#include <stddef.h>

enum rv_dir_kind { RV_DIR_HARDWARE, RV_DIR_SWEEPS, RV_DIR_BASELINES, RV_DIR_KIND_COUNT };

/* The folder of kind, given opt (NULL or "" when no option was given). The
 * result is opt itself, an environment string, or a thread-local buffer that
 * the next call for the same kind in this thread overwrites. */
const char *rv_dir_resolve(enum rv_dir_kind kind, const char *opt);

/* A shipped data file (rel, e.g. "hardware/templates/host_cpu.json"): the
 * source tree's for a build-tree binary, else the installed one under
 * <prefix>/share/roofval, as step 6 above finds it. The result is a
 * thread-local buffer (or rel itself when the path does not fit). */
const char *rv_data_file(const char *rel);

/* The installation prefix of the running code (the binary, libroofval.so
 * or a backend module) into out: 1, or 0 when it runs from its build tree
 * or its file is unknown (out is then unchanged). */
int rv_install_prefix(char *out, size_t size);

/* Where backend modules are loaded from, into out: build_dir for code
 * running from its build tree, else <prefix>/<libdir>/roofval/modules of
 * its installation. 0, or a negative code when the path does not fit. */
int rv_module_dir(char *out, size_t size, const char *build_dir);

#endif
