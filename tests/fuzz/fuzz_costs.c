/* fuzz_costs.c - cost tables: any bytes as costs/fz.json, the table of a
 * copy of tigerton's machine file beside it (a table may inherit one of
 * the repository's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "engine/json_in.h"
#include "hw/machine.h"

static char machine_path[256];

/* The machine file beside the fuzzed table (once, before the first input). */
static void write_machine(void)
{
	struct sim_err err;
	cJSON *m = json_read_file(FUZZ_REPO "/machines/tigerton.json", &err);
	if (!m)
		abort();
	cJSON_ReplaceItemInObjectCaseSensitive(m, "cost_table", cJSON_CreateString("fz"));
	cJSON_DeleteItemFromObjectCaseSensitive(m, "costs");	/* overrides of core2's keys */
	char *text = cJSON_Print(m);
	const char *p = fuzz_write("cm.json", (const uint8_t *)text, strlen(text));
	if (!p)
		abort();
	snprintf(machine_path, sizeof(machine_path), "%s", p);
	free(text);
	cJSON_Delete(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!machine_path[0])
		write_machine();
	struct machine m;
	struct sim_err err;
	if (fuzz_write("costs/fz.json", data, size) && machine_load(&m, machine_path, &err) == 0)
		machine_free(&m);
	return 0;
}
