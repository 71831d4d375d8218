/* fuzz.h - what the libFuzzer harnesses share: the input as a C string, a
 * scratch folder for the harnesses whose parser reads a file, and the
 * repository's machine files (their cost tables are found there). */
#ifndef SLABSIM_FUZZ_H
#define SLABSIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The input as a NUL-terminated copy (free it); NULL for an input with a
 * NUL byte inside, which no text format of slabsim's holds. */
char *fuzz_text(const uint8_t *data, size_t size);

/* A scratch folder of this process's own (made once; removed at exit). */
const char *fuzz_dir(void);

/* Write data to fuzz_dir()/NAME (making its folder); returns the path
 * (static storage) or NULL. */
const char *fuzz_write(const char *name, const uint8_t *data, size_t size);

/* Point the machine search path at the repository's machines/ (before the
 * first machine is loaded); LLVMFuzzerInitialize does it for every harness. */
void fuzz_use_repo_machines(void);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
