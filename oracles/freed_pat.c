// SPDX-License-Identifier: MIT
/*
 * The freed pattern as the oracles expect it: dfz_mem_freed_byte() of
 * each offset of a level's default cap, the table allocated when the
 * oracle is made (never during a run), each page computed the first time
 * a check reaches it and kept for the oracle's lifetime. A check of a
 * freed block is then a word compare against this table instead of one
 * call per byte. The table is the oracle's own, computed from the
 * runtime's public definition of the pattern, not read from the arena
 * template the runtime fills with.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

#define PAT_SHIFT 12
#define PAT_PAGE (1u << PAT_SHIFT)

int dfz__freed_pat_init(struct dfz__freed_pat *p, uint32_t cap)
{
	uint32_t pages = (uint32_t)(((uint64_t)cap + PAT_PAGE - 1) >> PAT_SHIFT);

	memset(p, 0, sizeof(*p));
	if (pages == 0)
		return 0;
	/* Untouched pages of the table cost no memory. */
	p->bytes = malloc((size_t)pages << PAT_SHIFT);
	p->have = calloc(pages, 1);
	if (!p->bytes || !p->have) {
		dfz__freed_pat_free(p);
		return DFZ_ENOMEM;
	}
	p->pages = pages;
	return 0;
}

const uint8_t *dfz__freed_pat(struct dfz__freed_pat *p, unsigned level,
			      uint32_t off, uint32_t len)
{
	uint32_t first = off >> PAT_SHIFT, last;

	if (len == 0 || (uint64_t)off + len > (uint64_t)p->pages << PAT_SHIFT)
		return NULL;
	last = (uint32_t)(((uint64_t)off + len - 1) >> PAT_SHIFT);
	for (uint32_t pg = first; pg <= last; pg++) {
		uint8_t *at = p->bytes + ((size_t)pg << PAT_SHIFT);

		if (p->have[pg])
			continue;
		for (uint32_t k = 0; k < PAT_PAGE; k++)
			at[k] = dfz_mem_freed_byte((enum dfz_level)level,
						   (pg << PAT_SHIFT) + k);
		p->have[pg] = 1;
	}
	return p->bytes + off;
}

void dfz__freed_pat_free(struct dfz__freed_pat *p)
{
	free(p->bytes);
	free(p->have);
	memset(p, 0, sizeof(*p));
}
