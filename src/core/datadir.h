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
 *   6. else the installed data: <prefix>/share/roofval/hardware and .../sweeps,
 *      <prefix> being the folder above the one holding the running binary or
 *      libroofval.so (so a moved prefix still works), else the compiled-in
 *      installation prefix's; baselines are not installed: results/baselines
 *      of the current folder (where capture writes).
 *
 * docs/install.md documents the same order. */
#ifndef RV_CORE_DATADIR_H
#define RV_CORE_DATADIR_H

enum rv_dir_kind { RV_DIR_HARDWARE, RV_DIR_SWEEPS, RV_DIR_BASELINES, RV_DIR_KIND_COUNT };

/* The folder of kind, given opt (NULL or "" when no option was given). The
 * result is opt itself, an environment string, or a thread-local buffer that
 * the next call for the same kind in this thread overwrites. */
const char *rv_dir_resolve(enum rv_dir_kind kind, const char *opt);

#endif
