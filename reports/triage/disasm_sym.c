// SPDX-License-Identifier: MIT
/*
 * The top frames of a crash site, symbolized: addr2line on the module at
 * the frame's offset from the module's load base gives "function
 * (file:line)" for static functions too; without it (or without debug
 * information) the frame stays "module+0xoffset", which does not move
 * with address-space randomisation either.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "triage_int.h"

#define ADDR2LINE "/usr/bin/addr2line"

/* The module holding @pc in this process: its path and load base. */
static bool module_of(uintptr_t pc, char *path, size_t len, uintptr_t *base)
{
	Dl_info info;
	ssize_t n;

	if (!dladdr((void *)pc, &info) || !info.dli_fbase)
		return false;
	*base = (uintptr_t)info.dli_fbase;
	if (info.dli_fname && strchr(info.dli_fname, '/') &&
	    access(info.dli_fname, R_OK) == 0) {
		snprintf(path, len, "%s", info.dli_fname);
		return true;
	}
	/* The main program: dladdr() names it as it was started. */
	n = readlink("/proc/self/exe", path, len - 1);
	if (n <= 0)
		return false;
	path[n] = 0;
	return true;
}

/*
 * The ELF facts a lookup needs: a position-dependent executable (ET_EXEC)
 * is looked up at its run-time addresses, anything else (PIE, shared
 * object) at offsets from its base; @span: the end of its last loaded
 * segment (0: unknown), beyond which an address is not in it.
 */
static bool elf_facts(const char *path, bool *fixed, uintptr_t *span)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	FILE *f = fopen(path, "rb");
	bool ok;

	*fixed = false;
	*span = 0;
	if (!f)
		return false;
	ok = fread(&eh, sizeof(eh), 1, f) == 1 && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
	     eh.e_ident[EI_CLASS] == ELFCLASS64;
	if (ok) {
		*fixed = eh.e_type == ET_EXEC;
		for (unsigned i = 0; i < eh.e_phnum && i < 64; i++) {
			if (fseek(f, (long)(eh.e_phoff + (uint64_t)i * eh.e_phentsize),
				  SEEK_SET) || fread(&ph, sizeof(ph), 1, f) != 1)
				break;
			if (ph.p_type == PT_LOAD && ph.p_vaddr + ph.p_memsz > *span)
				*span = (uintptr_t)(ph.p_vaddr + ph.p_memsz);
		}
	}
	fclose(f);
	return ok;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* @file without the working directory's prefix: "runtime/host.c:123". */
static char *relative(char *file)
{
	char cwd[4096];
	size_t k;

	if (!getcwd(cwd, sizeof(cwd)))
		return file;
	k = strlen(cwd);
	if (k > 1 && !strncmp(file, cwd, k) && file[k] == '/')
		return file + k + 1;
	return file;
}

/* addr2line -f: "function\nfile:line[ (discriminator N)]\n". */
static bool addr2line(const char *path, uintptr_t addr, char *out, size_t len)
{
	char hex[24], text[1024], *nl, *file, *disc;
	char *argv[] = { ADDR2LINE, "-f", "-e", (char *)path, hex, NULL };
	struct dfz__proc res;

	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)addr);
	if (access(ADDR2LINE, X_OK) != 0 ||
	    dfz__proc_run(argv, NULL, 5000, false, text, sizeof(text), &res) < 0 ||
	    res.timed_out)
		return false;
	nl = strchr(text, '\n');
	if (!nl || !strncmp(text, "??", 2))
		return false;
	*nl = 0;
	file = nl + 1;
	file[strcspn(file, "\n")] = 0;
	disc = strstr(file, " (discriminator");
	if (disc)
		*disc = 0;
	file = relative(file);
	if (!strncmp(file, "??", 2))
		snprintf(out, len, "%.80s (%.40s+0x%llx)", text, base_name(path),
			 (unsigned long long)addr);
	else
		snprintf(out, len, "%.80s (%.100s)", text, file);
	return true;
}

static void frame_text(const char *path, uintptr_t base, uintptr_t pc,
		       bool is_return, char *out, size_t len)
{
	uintptr_t look = is_return ? pc - 1 : pc, addr, span;
	bool fixed;

	if (!elf_facts(path, &fixed, &span) || (!fixed && pc < base)) {
		snprintf(out, len, "0x%llx", (unsigned long long)pc);
		return;
	}
	addr = fixed ? look : look - base;
	if (span && addr >= span) {
		snprintf(out, len, "0x%llx (outside %.100s)",
			 (unsigned long long)pc, base_name(path));
		return;
	}
	if (!addr2line(path, addr, out, len))
		snprintf(out, len, "%.100s+0x%llx", base_name(path),
			 (unsigned long long)(fixed ? pc : pc - base));
}

void dfz_fault_frames(const struct dfz_crash_site *s, const char *program,
		      struct dfz_fault *out)
{
	char path[4096];
	uintptr_t base;

	out->nframes = 0;
	for (unsigned i = 0; i < s->nframes && i < DFZ_FAULT_FRAMES; i++) {
		char *text = out->frames[out->nframes++];
		uintptr_t pc = s->frame[i];

		if (program) {
			snprintf(path, sizeof(path), "%s", program);
			base = s->base;
		} else if (!module_of(pc, path, sizeof(path), &base)) {
			snprintf(text, DFZ_FAULT_TEXT, "0x%llx",
				 (unsigned long long)pc);
			continue;
		}
		frame_text(path, base, pc, i > 0, text, DFZ_FAULT_TEXT);
	}
}
