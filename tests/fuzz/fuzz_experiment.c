/* fuzz_experiment.c - experiment files (configs/NAME.json, the input of a sweep):
 * read, then expanded into points with every point's run checked. */
#include <stdlib.h>

#include "fuzz.h"
#include "run/experiment.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	struct experiment e;
	struct sim_err err;
	if (experiment_parse(&e, "fuzz.json", text, &err) == 0)
		experiment_expand(&e, &err);
	experiment_free(&e);
	free(text);
	return 0;
}
