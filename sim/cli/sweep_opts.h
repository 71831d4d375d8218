/* sweep_opts.h - `slabsim sweep`'s command line into the options of a
 * sweep (study/sweep_experiment.h). */
#ifndef SIM_SWEEP_OPTS_H
#define SIM_SWEEP_OPTS_H

#include "study/sweep_experiment.h"

/* -1: go on; 0: help printed; 2: bad usage (message printed). */
int sweep_parse_opts(int argc, char **argv, struct sweep_options *o, const char *help);

#endif
