/* SPDX-License-Identifier: MIT */
/* The one rule for a hardware key, in profiles, sweeps, baselines and
 * predictions: one or more letters, digits, '_', '-' or '.'. */
#ifndef RV_CORE_KEY_H
#define RV_CORE_KEY_H

/* 1 when s is a hardware key, else 0 (NULL is not one). */
int rv_hw_key_valid(const char *s);

#endif
