/* markov.h - the ticket-lock Markov chain of Boyd-Wickizer et al. ("Non-
 * scalable locks are dangerous", 2012; docs/calibration.md C4): n cores, mean
 * think time a, serial time s, per-request cost c; in state k (cores holding
 * or waiting) arrivals come at (n - k) / a and hand-offs at 1 / (s + c k / 2). */
#ifndef SIM_MARKOV_H
#define SIM_MARKOV_H

/* Acquisitions per cycle in steady state, solving pi Q = 0 with GSL's LU. */
double markov_ticket_throughput(int n, double a, double s, double c);

#endif
