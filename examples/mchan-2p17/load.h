/* SPDX-License-Identifier: MIT */
#ifndef LOAD_H
#define LOAD_H
#include <stdint.h>
#define SIZE (1 << 17)
void load_weights(int8_t *l1, const int8_t *l2);
#endif
