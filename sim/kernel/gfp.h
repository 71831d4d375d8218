/* gfp.h - the allocation flags the model tells apart: whether an allocation
 * may sleep in reclaim (__GFP_WAIT before 4.4, __GFP_DIRECT_RECLAIM after),
 * which fault injection's ignore-gfp-wait filter looks at, and the names a
 * kmem trace prints. */
#ifndef SIM_GFP_H
#define SIM_GFP_H

#include <stdbool.h>

typedef unsigned int gfp_t;

#define __GFP_HIGH	0x1u	/* may use the emergency reserves */
#define __GFP_WAIT	0x2u	/* may sleep (direct reclaim) */
#define __GFP_IO	0x4u
#define __GFP_FS	0x8u

#define GFP_ATOMIC	__GFP_HIGH
#define GFP_NOWAIT	0u
#define GFP_NOIO	__GFP_WAIT
#define GFP_NOFS	(__GFP_WAIT | __GFP_IO)
#define GFP_KERNEL	(__GFP_WAIT | __GFP_IO | __GFP_FS)

/* gfpflags_allow_blocking(): may this allocation sleep? */
static inline bool gfpflags_allow_blocking(gfp_t gfp)
{
	return gfp & __GFP_WAIT;
}

/* The name ftrace's show_gfp_flags() gives these flags. */
static inline const char *gfp_name(gfp_t gfp)
{
	return gfp == GFP_KERNEL ? "GFP_KERNEL" : gfp == GFP_ATOMIC ? "GFP_ATOMIC"
	     : gfp == GFP_NOFS ? "GFP_NOFS" : gfp == GFP_NOIO ? "GFP_NOIO"
	     : gfp == GFP_NOWAIT ? "GFP_NOWAIT"
	     : gfpflags_allow_blocking(gfp) ? "__GFP_WAIT" : "GFP_NOWAIT";
}

#endif
