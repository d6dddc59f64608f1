/* SPDX-License-Identifier: MIT */
/* Measuring the host with the kernels: roofval probe's measurements and the
 * profile it writes (docs/hardware-profile.md, "Probing a host"). hw/probe.h
 * holds what the measurement fills and the template's rendering. */
#ifndef RV_PROBE_MEASURE_H
#define RV_PROBE_MEASURE_H

#include <stddef.h>

#include "hw/probe.h"

struct rv_kernel_ops;
/* Kernel k's caveat on a CPU of FMA datapath isa->vector_bits (kernel.h:
 * its kernels narrower than that), copied into buf; NULL when k has none to
 * give. The probe and a capture on the CPU both ask it so. */
const char *rv_isa_kernel_caveat(char *buf, size_t size, const struct rv_kernel_ops *k,
                                 const struct rv_isa_rate *isa);

/* Measures this machine with the cblas kernels. RV_ENOTSUP when they cannot
 * run here; the kernels' errors otherwise. */
int rv_probe_measure(struct rv_probe_host *h, const struct rv_probe_opts *o);

/* Measures, renders and writes the profile to path atomically, then loads
 * it back with rv_profile_load() (what probe writes must pass the loader).
 * Unless o->replace, a file already at path is kept and RV_ERROR says
 * "PATH exists; give --force to replace it (or --key NEW)": checked before
 * anything is measured and again under the writers' lock. What was
 * measured goes to *measured too when it is not NULL (the caller's warning:
 * measured->caveat). */
int rv_probe_write(const struct rv_probe_opts *o, const char *path, struct rv_probe_host *measured);

#endif
