/* gnuplot.h - running gnuplot on a script written next to its plot, so a
 * user can restyle and re-run it (PATH.gp, PATH.dat beside PATH). */
#ifndef SIM_GNUPLOT_H
#define SIM_GNUPLOT_H

#include <stdio.h>

#include "engine/error.h"

/* Open PATH.dat (or PATH.gp) for writing; sets err on failure. */
FILE *plot_open(const char *path, const char *ext, struct sim_err *err);

/* Run `gnuplot PATH.gp`; -1 with a message if gnuplot is missing or fails. */
int plot_run(const char *path, struct sim_err *err);

/* Run `gnuplot SCRIPT` in folder DIR (NULL: here), so the script names its
 * data and output files relative to itself. */
int plot_run_in(const char *dir, const char *script, struct sim_err *err);

/* The name of PATH without its folder (what a script beside it calls it). */
const char *plot_base(const char *path);

/* Run `gnuplot PATH.gp` in PATH's folder: a script that names its files by
 * plot_base() finds them, and can be run again from there as it is. */
int plot_run_beside(const char *path, struct sim_err *err);

/* Write a plot's data and script through fn (a workload's plot hook) into
 * PATH.dat and PATH.gp, then run gnuplot: PATH. */
int plot_draw(const char *path, void (*fn)(void *state, FILE *dat, FILE *gp, const char *path),
	      void *state, struct sim_err *err);

/* Before a long run: can PATH.dat be written? (It is created empty.) */
int plot_check(const char *path, struct sim_err *err);

#endif
