/* SPDX-License-Identifier: MIT */
#include "kernel/openblas_core.h"

#include <stdio.h>
#include <strings.h>

/* OpenBLAS 0.3.21's x86-64 cores (driver/others/dynamic.c). */
static const struct {
	const char *core;
	unsigned bits;
} cores[] = {
	{ "SkylakeX", 512 },     { "Cooperlake", 512 }, { "SapphireRapids", 512 },
	{ "Haswell", 256 },      { "Zen", 256 },        { "Sandybridge", 256 },
	{ "Katmai", 128 },       { "Coppermine", 128 }, { "Northwood", 128 },
	{ "Prescott", 128 },     { "Banias", 128 },     { "Atom", 128 },
	{ "Core2", 128 },        { "Penryn", 128 },     { "Dunnington", 128 },
	{ "Nehalem", 128 },      { "Athlon", 128 },     { "Opteron", 128 },
	{ "Opteron_SSE3", 128 }, { "Barcelona", 128 },  { "Nano", 128 },
	{ "Bobcat", 128 },
};

/* The widest vectors, in bits, of core's GEMM kernels (the name
 * openblas_get_corename() gives); 0 for a core not known here. */
static unsigned core_bits(const char *core)
{
	for (size_t i = 0; core && i < sizeof(cores) / sizeof(cores[0]); i++)
		if (strcasecmp(core, cores[i].core) == 0)
			return cores[i].bits;
	return 0;
}

const char *rv_openblas_caveat(char *buf, size_t size, const char *core, unsigned cpu_vector_bits)
{
	unsigned bits = core_bits(core);
	/* The core of the CPU's width that this OpenBLAS has, for the hint. */
	const char *want = cpu_vector_bits >= 512   ? "SkylakeX"
	                   : cpu_vector_bits >= 256 ? "Haswell"
	                                            : "(a core of that width)";

	if (bits == 0 || cpu_vector_bits <= bits)
		return NULL;
	(void)snprintf(buf, size,
	               "OpenBLAS runs its %s kernels (%u-bit vectors) on a CPU whose FMA "
	               "datapath is %u bits wide: they reach at most 1/%u of its rate, and a "
	               "capture measures them, not the hardware (an OpenBLAS that does not "
	               "know the CPU falls back to old kernels); set OPENBLAS_CORETYPE=%s or "
	               "install a newer OpenBLAS, and run again",
	               core, bits, cpu_vector_bits, cpu_vector_bits / bits, want);
	return buf;
}
