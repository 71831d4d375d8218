/* sweep_plot.h - a sweep's plots from its summary.json, drawn by gnuplot;
 * each plot keeps its .dat and .gp beside it so a user can restyle it. */
#ifndef SIM_SWEEP_PLOT_H
#define SIM_SWEEP_PLOT_H

#include <cjson/cJSON.h>

#include "engine/error.h"

/* Draw DIR's plots (format "png" or "svg"): the main metric and the lock
 * wait share against the x dimension with 95% CI error bars, a stacked
 * profile bar per point, and slab memory against the main metric. */
int sweep_plot(const char *dir, const cJSON *summary, const char *format,
	       struct sim_err *err);

#endif
