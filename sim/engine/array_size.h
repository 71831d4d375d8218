/* array_size.h - ARRAY_SIZE(a), the number of elements of array a, as the
 * kernel's <linux/kernel.h> has it (an int here: every table is small). */
#ifndef SIM_ARRAY_SIZE_H
#define SIM_ARRAY_SIZE_H

#define ARRAY_SIZE(a) ((int)(sizeof(a) / sizeof((a)[0])))

#endif
