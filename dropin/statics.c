// SPDX-License-Identifier: MIT
/*
 * The program's static objects, from its own symbol table: every
 * variable and array the link placed in L2's or L1's statics (a plain
 * static, a PI_L2 or PI_CL_L1 buffer, a function's static) is declared to
 * the runtime as an object of its own (dfz_mem_declare_statics()), so
 * the oracles judge a transfer into the statics as they judge one into a
 * block: a DMA that runs off the end of one array into the next is out
 * of bounds at its call, as it would be under ASan for a CPU access.
 *
 * The program is linked without PIE (dmafuzz-dropin.pc), so a symbol's
 * value is its address. A stripped program has no symbol table: its
 * statics stay one region, and a transfer anywhere inside them is
 * accepted (docs/porting/memory.md).
 */
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dropin_int.h"

#define MAX_OBJECTS 65536u

/* The symbol table of the ELF image @img (@n bytes), or NULL. */
static const Elf64_Shdr *symtab_of(const uint8_t *img, size_t n)
{
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Shdr *sh;

	if (n < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(*sh) ||
	    eh->e_shoff > n || (size_t)eh->e_shnum * sizeof(*sh) >
	    n - eh->e_shoff)
		return NULL;
	sh = (const void *)(img + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == SHT_SYMTAB && sh[i].sh_offset <= n &&
		    sh[i].sh_size <= n - sh[i].sh_offset &&
		    sh[i].sh_entsize == sizeof(Elf64_Sym))
			return &sh[i];
	return NULL;
}

/* The objects of @sym (@nsym symbols) in [base, base + statics): @out
 * (room for MAX_OBJECTS) gets them; return how many. */
static uint32_t objects_in(const Elf64_Sym *sym, size_t nsym, uintptr_t base,
			   uint32_t statics, unsigned level,
			   struct dfz_span *out)
{
	uint32_t k = 0;

	for (size_t i = 0; i < nsym && k < MAX_OBJECTS; i++) {
		uint64_t at = sym[i].st_value, len = sym[i].st_size;

		if (ELF64_ST_TYPE(sym[i].st_info) != STT_OBJECT || len == 0 ||
		    at < base || at - base >= statics ||
		    len > statics - (at - base))
			continue;
		out[k++] = (struct dfz_span){ (uint8_t)level,
					      (uint32_t)(at - base),
					      (uint32_t)len };
	}
	return k;
}

/* Declare the objects of @img to @rt's L2 and L1 statics. */
static int declare(struct dfz_rt *rt, const uint8_t *img, size_t n)
{
	static const uintptr_t base[DFZ_NLEVELS] = {
		[DFZ_L2] = DFZ_DROPIN_L2_BASE, [DFZ_L1] = DFZ_DROPIN_L1_BASE,
	};
	const Elf64_Shdr *st = symtab_of(img, n);
	struct dfz_span *obj;
	int rc = 0;

	if (!st)
		return 0;
	obj = malloc(MAX_OBJECTS * sizeof(*obj));
	if (!obj)
		return DFZ_ENOMEM;
	for (unsigned l = DFZ_L2; l <= DFZ_L1 && rc == 0; l++) {
		struct dfz_mem_regions r;
		uint32_t k;

		dfz_mem_regions(rt, (enum dfz_level)l, &r);
		k = objects_in((const void *)(img + st->sh_offset),
			       st->sh_size / sizeof(Elf64_Sym), base[l],
			       r.statics, l, obj);
		if (k)
			rc = dfz_mem_declare_statics(rt, (enum dfz_level)l,
						     obj, k);
	}
	free(obj);
	return rc;
}

int dfz__statics_declare(struct dfz_rt *rt)
{
	struct stat sb;
	void *img;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return 0;       /* no image to read: one region each */
	if (fstat(fd, &sb) < 0 || sb.st_size <= 0) {
		close(fd);
		return 0;
	}
	img = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return 0;
	rc = declare(rt, img, (size_t)sb.st_size);
	munmap(img, (size_t)sb.st_size);
	return rc;
}
