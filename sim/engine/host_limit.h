/* host_limit.h - the host memory a simulation may take. Large machines and
 * workloads grow the host's memory with the simulated objects; past the
 * limit a run stops with a message saying what to shrink, instead of the
 * host's OOM killer ending it (or the machine) without a word. */
#ifndef SIM_HOST_LIMIT_H
#define SIM_HOST_LIMIT_H

#include <stdint.h>

/* The host's physical memory in bytes (0 if unknown). */
uint64_t host_physical_bytes(void);

/* The limit every later engine_init takes (bytes; 0: none). Before any
 * call it is 80% of physical memory. */
void host_limit_set(uint64_t bytes);
uint64_t host_limit_get(void);

/* This process's resident set now, and at its peak, in bytes. */
uint64_t host_rss_bytes(void);
uint64_t host_peak_rss_bytes(void);

/* Parse a --host-memory value: MB, or a number with a K, M, G or T suffix,
 * or a percentage of physical memory ("50%"); 0 on success. */
int host_limit_parse(const char *s, uint64_t *bytes);

#endif
