/* SPDX-License-Identifier: MIT */
/* The Add node's closure on Siracusa: sizes, tiles and arguments. */
#ifndef CLOSURE_H
#define CLOSURE_H

#include <stdint.h>

#define TILE 64
#define NUM_TILES 9
#define NUM_CORES 8

typedef struct {
	int8_t *data_in;   /* L2 */
	int8_t *data_out;  /* L2 */
} closure_args_t;

typedef struct {
	const int8_t *in;
	int8_t *out;
	uint32_t n;
} add_args_t;

void _closure_Add_0(void *_args);

#endif
