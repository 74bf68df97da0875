/* SPDX-License-Identifier: MIT */
/*
 * The dmafuzz command line: one function per subcommand, the exit codes,
 * and the helpers they share. Only this layer and the fuzz entry points
 * exit the process.
 */
#ifndef DMAFUZZ_CLI_H
#define DMAFUZZ_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "dmafuzz/harness.h"

enum cli_exit {
	EXIT_CLEAN = 0,       /* every input ran clean */
	EXIT_BUG = 1,         /* an oracle found a bug */
	EXIT_BAD_INPUT = 2,   /* a bad flag, a missing file, a corrupt plan */
	EXIT_INTERNAL = 3,    /* the harness itself failed (out of memory) */
};

/* The header of a plan stream: records of a u32 LE length and the bytes. */
#define CLI_STREAM_MAGIC "DFZSTREAM1\n"
#define CLI_STREAM_MAGIC_LEN 11
#define CLI_RECORD_MAX 4096

int cli_run(int argc, char **argv);
int cli_show(int argc, char **argv);
int cli_encode(int argc, char **argv);
int cli_gen(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_fuzz(int argc, char **argv);
int cli_matrix(int argc, char **argv);
int cli_min(int argc, char **argv);
/* `dmafuzz min --exec BINARY FILE` (cmd_min_exec.c): @buf, @n bytes, the
 * schedule read from @input; @out the shrunk schedule's path (NULL:
 * INPUT.min). Return the exit status. */
int cli_min_exec(const char *bin, const char *input, const uint8_t *buf,
		 size_t n, uint64_t max_runs, const char *out, bool json);
int cli_triage(int argc, char **argv);
int cli_emit_c(int argc, char **argv);
int cli_report(int argc, char **argv);
/* `dmafuzz new-test` (cmd_new_test.c): a drop-in test skeleton, its
 * manifest line and the makefile fragment. */
int cli_new_test(int argc, char **argv);
/* `dmafuzz campaign` (cmd_campaign.c): check the options, run
 * tools/campaign.sh. Return the exit status (only when it cannot run). */
int cli_campaign(int argc, char **argv);

/* One-line error to stderr, prefixed "dmafuzz <cmd>: ". */
void cli_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The exit code of a failed library call's DFZ_E* code @rc: an I/O error
 * (a full disk) or no memory is the harness's, EXIT_INTERNAL; anything
 * else (a missing file, a path under a file, no permission, bad text) is
 * the input's, EXIT_BAD_INPUT. */
int cli_exit_of(int rc);

/* Parse a --bug value (a name, a comma list, or "all") into @mask. */
int cli_add_bugs(const char *cmd, const char *list, uint32_t *mask);

struct option;
/*
 * cli_getopt() - getopt_long() for command @cmd: an unknown option or one
 * without its value is said in one line with a pointer to --help (no
 * usage dump) and returned as '?'.
 */
int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
	       const struct option *longopts);

/* A family name (xfer, host, api) into its enum dfz_family value, or -1
 * after a one-line error. */
int cli_parse_family(const char *cmd, const char *name);

/*
 * cli_write_file() - @n bytes of @buf to @path: a regular file (or a new
 * one) through a temporary file beside it, renamed; a device, a FIFO or
 * /dev/stdout in place (a rename would replace it). Errors are one line
 * prefixed by @cmd. Return: EXIT_CLEAN, EXIT_BAD_INPUT (the path cannot
 * be created) or EXIT_INTERNAL (a write, close or rename failed).
 */
int cli_write_file(const char *cmd, const char *path, const void *buf,
		   size_t n);

#define CLI_FILE_MAX (1u << 20)      /* bytes of an input file: a plan, a
				      * stream, a schedule */

/*
 * cli_read_file() - @path ("-": standard input) whole, NUL-terminated,
 * for command @cmd. @buf: caller frees. Errors are one line prefixed by
 * @cmd. Return: 0, EXIT_BAD_INPUT (it cannot be opened or read, or holds
 * over CLI_FILE_MAX bytes) or EXIT_INTERNAL (out of memory).
 */
int cli_read_file(const char *cmd, const char *path, uint8_t **buf,
		  size_t *n);

/* Parse an unsigned decimal number; false on junk or overflow. */
bool cli_parse_u64(const char *s, uint64_t *out);

#endif /* DMAFUZZ_CLI_H */
