/* host_limit.c - the host memory bound of a run (host_limit.h). */
#include "host_limit.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static bool limit_set;
static uint64_t limit_bytes;

uint64_t host_physical_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

void host_limit_set(uint64_t bytes)
{
	limit_bytes = bytes;
	limit_set = true;
}

uint64_t host_limit_get(void)
{
	if (!limit_set)
		host_limit_set(host_physical_bytes() / 10 * 8);
	return limit_bytes;
}

uint64_t host_rss_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long long size, resident;
	int n = f ? fscanf(f, "%llu %llu", &size, &resident) : 0;
	if (f)
		fclose(f);
	long page = sysconf(_SC_PAGESIZE);
	return n == 2 && page > 0 ? resident * (uint64_t)page : 0;
}

uint64_t host_peak_rss_bytes(void)
{
	struct rusage ru;
	return getrusage(RUSAGE_SELF, &ru) == 0 ? (uint64_t)ru.ru_maxrss * 1024 : 0;
}

int host_limit_parse(const char *s, uint64_t *bytes)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || !(v >= 0) || v > 1e15)
		return -1;
	double mult = 1 << 20;	/* MB when no suffix is given */
	switch (*end) {
	case 0: break;
	case 'K': case 'k': mult = 1 << 10; end++; break;
	case 'M': case 'm': end++; break;
	case 'G': case 'g': mult = 1 << 30; end++; break;
	case 'T': case 't': mult = (double)(1ull << 40); end++; break;
	case '%':
		if (v > 100)
			return -1;
		mult = (double)host_physical_bytes() / 100;
		end++;
		break;
	default: return -1;
	}
	if ((*end == 'B' || *end == 'b') && end[-1] != '%')
		end++;
	if (*end)
		return -1;
	*bytes = (uint64_t)(v * mult);
	return 0;
}
