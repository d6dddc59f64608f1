/* SPDX-License-Identifier: MIT */
#include "core/key.h"

#include <string.h>

int rv_hw_key_valid(const char *s)
{
	return s && *s &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") ==
	               strlen(s);
}
