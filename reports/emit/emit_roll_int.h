/* SPDX-License-Identifier: MIT */
/*
 * Private interface of the loop roller of the drop-in printer: the lines
 * as templates with numbers (emit_roll_text.c: parsing, the expansion
 * back, the rolled output) and the rolling itself (emit_roll.c).
 */
#ifndef DMAFUZZ_EMIT_ROLL_INT_H
#define DMAFUZZ_EMIT_ROLL_INT_H

#include "emit_dropin_int.h"

#define ROLL_DEPTH 10             /* loops nested at most */
#define ROLL_ROW (1 + ROLL_DEPTH) /* a table row: constant, coefficients */
#define ROLL_SLOT '\x01'          /* a number's place in a template */
#define ROLL_SLOT_U '\x02'        /* ... of a number with a u suffix */

/* The rows of a number that takes values no affine form gives: row k is
 * its constant and coefficients where the loops' index sum is k. */
struct roll_table;

/* A value of the tile loop's index i (the outermost loop, i0): c + a * i
 * (modulo m when m), plus per term a * ((i + o) / p % q) or, with tab,
 * tab[(i + o) / p % q]. */
struct roll_term {
	uint32_t p, q, a;
	uint32_t *tab;                /* q values, or NULL */
	uint32_t id;                  /* its name when printed, + 1 */
};

struct roll_fit {
	uint32_t c, a, m, o;
	unsigned nterm;
	struct roll_term term[ROLL_DEPTH];
};

struct roll_table {
	uint32_t len;
	uint32_t id;                  /* its name when printed, + 1 */
	uint32_t vary;                /* the columns whose rows differ */
	uint32_t *row;                /* len * ROLL_ROW */
};

/*
 * A number: (c + sum of coef[r] * i(r)) % m (m 0: no modulus), where i(r)
 * is the index of the loop r loops out (0: the innermost around it); with
 * a table, c and coef are the table's row sum of idx[r] * i(r) instead.
 */
struct roll_expr {
	uint32_t c;
	uint32_t m;
	uint32_t coef[ROLL_DEPTH];
	struct roll_table *tab;
	uint32_t idx[ROLL_DEPTH];
	struct roll_fit *fit[ROLL_ROW]; /* columns given by the tile loop */
};

/* A line (tmpl > 0: template tmpl - 1 with its n numbers) or a loop
 * (tmpl 0: trip times its n body nodes). */
struct roll_node {
	uint32_t tmpl;
	uint32_t n;
	uint32_t trip;
	uint32_t cost;                /* lines it prints */
	uint64_t hash;                /* of its structure, not its numbers */
	struct roll_fit *tfit;        /* the trip, of the tile loop's index */
	union {
		struct roll_expr *num;
		struct roll_node *body;
	};
};

struct roll_chunk;

struct roll {
	struct roll_chunk *arena;
	char **tmpl;                  /* the templates */
	uint32_t ntmpl, cap;
	uint32_t *index;              /* open addressing: template + 1 */
	uint32_t nindex;              /* a power of two */
	bool oom;                     /* an allocation failed */
};

/* @n bytes from @r's arena (freed with it); NULL out of memory. */
void *dfz__roll_alloc(struct roll *r, size_t n);

/**
 * dfz__roll_copy() - a deep copy of the @n nodes at @s (their numbers and
 * loop bodies) in @r's storage.
 * Return: the copy, or NULL when @r is out of memory.
 */
struct roll_node *dfz__roll_copy(struct roll *r, const struct roll_node *s,
				 uint32_t n);

/** dfz__roll_nest() - how deep the loops of the @n nodes at @s nest. */
unsigned dfz__roll_nest(const struct roll_node *s, uint32_t n);
void dfz__roll_free(struct roll *r);
uint64_t dfz__roll_mix(uint64_t h, uint64_t v);

/* The lines of @text (@len bytes, whole lines) as line nodes (@n). */
struct roll_node *dfz__roll_parse(struct roll *r, const char *text,
				  size_t len, uint32_t *n);

/* The value of @f at tile loop index @i. */
uint64_t dfz__roll_fit_value(const struct roll_fit *f, uint64_t i);

/* A tile grid of the printer: its counts, innermost first. */
struct roll_grid {
	unsigned n;
	uint32_t q[ROLL_DEPTH];
};

/*
 * dfz__roll_tiles() - @n nodes at @s (parsed lines) with the first run of
 * tile notes that one of the grids @g (@ng) fits rolled into one loop
 * over the tiles, numbers and trips functions of its index (the rest
 * rolled by dfz__roll_seq()). Return: the nodes (@n updated) or NULL.
 */
struct roll_node *dfz__roll_tiles(struct roll *r, struct roll_node *s,
				  uint32_t *n, const struct roll_grid *g,
				  unsigned ng);

/* @n nodes at *@seq rolled by the greedy roller (emit_roll.c): where
 * shorter, or wherever something repeats (@force). */
bool dfz__roll_seq(struct roll *r, struct roll_node **seq, uint32_t *n,
		   bool force);

/* dfz__emit_roll() knowing the tile grids @g (@ng) of the program. */
int dfz__emit_roll_grids(FILE *f, const char *text, size_t len,
			 const struct roll_grid *g, unsigned ng);

/* The value of @e with the loop indices @v (outermost first, @depth). */
uint64_t dfz__roll_value(const struct roll_expr *e, const uint32_t *v,
			 unsigned depth);

/* Whether the @n nodes at @s expand to exactly @text (@len bytes);
 * false with r->oom set when out of memory. */
bool dfz__roll_expands_to(struct roll *r, const struct roll_node *s,
			  uint32_t n, const char *text, size_t len);

/* The @n nodes at @s as C: the tables, then the lines and for loops.
 * Return: 0 or DFZ_ENOMEM (nothing written). */
int dfz__roll_render(FILE *f, const struct roll *r, struct roll_node *s,
		     uint32_t n);

#endif /* DMAFUZZ_EMIT_ROLL_INT_H */
