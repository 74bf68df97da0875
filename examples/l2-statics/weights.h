/* SPDX-License-Identifier: MIT */
#ifndef WEIGHTS_H
#define WEIGHTS_H
#include <stdint.h>
#define WEIGHTS 8
int32_t sum_weights(void);
#endif
