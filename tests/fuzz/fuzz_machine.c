/* fuzz_machine.c - machine files: any bytes as machines/NAME.json, whose
 * cost table is then one of the repository's. */
#include "fuzz.h"
#include "hw/machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("m.json", data, size);
	struct machine m;
	struct sim_err err;
	if (path && machine_load(&m, path, &err) == 0)
		machine_free(&m);
	return 0;
}
