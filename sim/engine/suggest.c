/* suggest.c - the valid name nearest a mistyped one (suggest.h). */
#include "suggest.h"

#include <stdio.h>
#include <string.h>

#define SUGGEST_MAX 64	/* longer names are never suggested */

int suggest_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n >= SUGGEST_MAX || m >= SUGGEST_MAX)
		return SUGGEST_MAX;
	int d[SUGGEST_MAX + 1][SUGGEST_MAX + 1];
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;	/* two neighbours swapped */
			d[i][j] = v;
		}
	return d[n][m];
}

char *suggest_near(const char *word, const char *list, char *out, size_t size)
{
	size_t wl = strlen(word);
	int limit = wl <= 4 ? 1 : wl <= 8 ? 2 : 3, best = limit + 1;
	char name[SUGGEST_MAX], found[SUGGEST_MAX] = "";
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, " ,");
		if (len && len < sizeof(name)) {
			memcpy(name, p, len);
			name[len] = 0;
			int dist = strcmp(name, word) ? suggest_distance(word, name) : best;
			if (dist < best) {
				best = dist;
				memcpy(found, name, len + 1);
			}
		}
		p += len;
		p += strspn(p, " ,");
	}
	if (found[0])
		snprintf(out, size, " (did you mean '%s'?)", found);
	else if (size)
		out[0] = 0;
	return out;
}
