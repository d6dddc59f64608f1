/* SPDX-License-Identifier: MIT */
#include "core/path.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"

int rv_path_same(const char *a, const char *b)
{
	struct stat sa, sb;

	return strcmp(a, b) == 0 || (stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	                             sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
}

static int path_too_long(char *out, size_t size)
{
	char start[48];

	(void)snprintf(start, sizeof(start), "%s", size ? out : "");
	if (size)
		out[0] = '\0';
	return rv_error_set(RV_ERANGE, "path too long (over %zu bytes): %s...", size ? size - 1 : 0,
	                    start);
}

int rv_path_fmt(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size)
		return path_too_long(out, size);
	return 0;
}

int rv_path_join(char *out, size_t size, const char *dir, const char *name)
{
	size_t len = strlen(dir);

	if (len == 0)
		return rv_path_fmt(out, size, "%s", name);
	return rv_path_fmt(out, size, "%s%s%s", dir, dir[len - 1] == '/' ? "" : "/", name);
}
