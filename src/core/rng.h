/* SPDX-License-Identifier: MIT */
/* The one random number generator: SplitMix64, seeded explicitly, so that
 * kernel inputs and generated sweeps are the same for the same seed on every
 * machine. */
#ifndef RV_CORE_RNG_H
#define RV_CORE_RNG_H

#include <stdint.h>

/* The next 64 random bits; advances *state. */
static inline uint64_t rv_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double rv_rng_uniform(uint64_t *state)
{
	return (double)(rv_rng_next(state) >> 11) * 0x1p-53;
}

#endif
