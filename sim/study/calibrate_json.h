/* calibrate_json.h - the machine file calibrate writes, figure by figure
 * with each one's source, from checked measurements (calibrate_fit.h). */
#ifndef SIM_STUDY_CALIBRATE_JSON_H
#define SIM_STUDY_CALIBRATE_JSON_H

#include "study/calibrate_fit.h"

/* The machine file of host h: the measured figures in cycles at the
 * measured clock, the nearest machine's where none can be measured, the
 * instruction costs of `cost_table`, each figure's source, and the raw
 * measurements. Free with cJSON_Delete. */
cJSON *calibrate_machine_json(const struct host_topo *h, const struct calibrate_measured *ms,
			      const struct machine *near, const char *cost_table,
			      const struct calibrate_label *label);

#endif
