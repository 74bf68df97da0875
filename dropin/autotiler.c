// SPDX-License-Identifier: MIT
/*
 * The AutoTiler's RAM allocators (include/dmafuzz/dropin/at_api_pmsis.h):
 * L3 blocks of the model's RAM, which every external RAM of the SDK
 * (default RAM, HyperRAM, QSPI and OctoSPI RAM) is here. As the SDK's
 * macros, an allocation that returns address 0 is made again (0 means
 * failure to the generated code) and a failure returns 0. And the flash
 * file systems' files: the host file the generated code names, loaded
 * read-only into an L3 block at its open.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dropin_int.h"
#include "dmafuzz/dropin/at_api_pmsis.h"

uint32_t dfz_dropin_at_ram_alloc(struct dfz_site s, uint32_t size)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	uint32_t off;

	if (!d || dfz_l3_alloc(d->rt, size, &off) < 0)
		return 0;
	if (off == 0 && dfz_l3_alloc(d->rt, size, &off) < 0)
		return 0;
	dfz__blocks_user(d, DFZ_L3, off);
	return off;
}

/* The macros drop the size (AT_*RAM_FREE(dev, ptr, size)), so only the
 * address is judged: an interior pointer, a double free. */
void dfz_dropin_at_ram_free(struct dfz_site s, uint32_t addr, uint32_t size)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	struct dfz__free_call c = { "AT RAM free", DFZ_L3, addr, addr, size,
				    true };

	if (!d || !dfz__blocks_free(d, &c))
		return;
	if (dfz_l3_free(d->rt, addr) < 0)
		dfz__dropin_fail(d, DFZ_CLASS_DEV_MISUSE,
				 "AT RAM free of 0x%x, which is not a live L3 "
				 "block (expected an address AT_*RAM_ALLOC "
				 "returned)", (unsigned)addr);
}

/* The host file @name whole into *@buf (caller frees). Return its size,
 * or -1. */
static long slurp(const char *name, uint8_t **buf)
{
	FILE *f = fopen(name, "rb");
	long n = -1;

	*buf = NULL;
	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    n <= (long)UINT32_MAX && fseek(f, 0, SEEK_SET) == 0 &&
	    (*buf = malloc(n ? (size_t)n : 1)) != NULL &&
	    fread(*buf, 1, (size_t)n, f) == (size_t)n) {
		fclose(f);
		return n;
	}
	free(*buf);
	*buf = NULL;
	fclose(f);
	return -1;
}

int dfz_dropin_at_flash_open(struct dfz_site s, struct dfz_at_flash_fs *fs,
			     const char *name, int write)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	uint8_t *buf;
	long n;

	if (!d || !dfz__dropin_usable(d, fs, sizeof(*fs), "the file system "
				      "of AT_*FLASH_FS_OPEN") || write || !name)
		return -1;
	fs->size = 0;
	n = slurp(name, &buf);
	if (n < 0)
		return -1;
	if (dfz_l3_alloc(d->rt, n ? (uint32_t)n : 1, &fs->base) < 0 ||
	    dfz_l3_write(d->rt, fs->base, buf, (uint32_t)n) < 0) {
		free(buf);
		return -1;
	}
	free(buf);
	fs->size = (uint32_t)n;
	return 0;
}

void dfz_dropin_at_flash_close(struct dfz_site s, struct dfz_at_flash_fs *fs)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d || !dfz__dropin_usable(d, fs, sizeof(*fs), "the file system "
				      "of AT_*FLASH_FS_CLOSE") || !fs->size)
		return;
	dfz_l3_free(d->rt, fs->base);
	fs->size = 0;
}

/* The L3 address of @off in the open file; a copy outside it is a
 * finding at the call (and goes to the file's start). */
uint32_t dfz_dropin_at_flash_addr(struct dfz_site s,
				  struct dfz_at_flash_fs *fs, uint32_t off,
				  uint32_t size)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d || !dfz__dropin_usable(d, fs, sizeof(*fs), "the file system "
				      "of AT_*FLASH_FS_CL_COPY"))
		return 0;
	if (fs->size == 0 || (uint64_t)off + size > fs->size) {
		dfz__dropin_fail(d, DFZ_CLASS_DMA_BAD_ADDRESS,
				 "flash file copy of %u bytes at offset %u of a "
				 "file of %u bytes (expected a range inside a "
				 "file AT_*FLASH_FS_OPEN loaded)", size, off,
				 fs->size);
		return fs->base;
	}
	return fs->base + off;
}
