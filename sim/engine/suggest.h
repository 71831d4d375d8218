/* suggest.h - "did you mean": the valid name nearest a mistyped one. */
#ifndef SIM_SUGGEST_H
#define SIM_SUGGEST_H

#include <stddef.h>

/* The word of LIST (names separated by spaces or commas) nearest WORD by
 * edit distance (insert, delete, substitute, swap two neighbours), when it
 * is near enough to be a typo: at most 1 edit for names up to 4
 * characters, 2 up to 8, else 3. Writes " (did you mean 'NAME'?)" to out,
 * or "" when nothing is near; returns out. */
char *suggest_near(const char *word, const char *list, char *out, size_t size);

/* The edit distance (optimal string alignment) of a and b. */
int suggest_distance(const char *a, const char *b);

#endif
