/* SPDX-License-Identifier: MIT */
/* The kernels of plain-statics: loads from memory nobody allocated. */
#ifndef PLAIN_STATICS_H
#define PLAIN_STATICS_H

#include <stdint.h>

#define N 64            /* bytes of each load */
#define CORES 8         /* the team of the per-core loads */

/* The sum of every byte each load brought into L1, and the same sum
 * computed by the fabric controller from the sources directly. */
int32_t load_sums(void);
int32_t cpu_sums(void);

#endif /* PLAIN_STATICS_H */
