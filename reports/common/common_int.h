/* SPDX-License-Identifier: MIT */
/*
 * Private helpers of the reports layer, written once for all its folders
 * (shrink/, emit/, triage/, render/) and the command line: files written
 * atomically and read whole, shell words, child processes, the progress
 * line. Nothing here is public: the library exports these symbols with
 * the dfz__ prefix, for the project's own code and tests only.
 */
#ifndef DMAFUZZ_COMMON_INT_H
#define DMAFUZZ_COMMON_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dmafuzz/runtime.h"

/* ------------------------------------------------------------ files */

/**
 * dfz__write_atomic() - write @n bytes of @buf to @path through a
 * temporary file beside it and rename(2). Return: 0, or a negative
 * DFZ_E* code (DFZ_EIO for a failed disk) with errno set for the message.
 */
int dfz__write_atomic(const char *path, const void *buf, size_t n);

/**
 * dfz__write_all() - all @n bytes of @buf to the open @fd (a short write
 * retried). Return: 0, or a negative DFZ_E* code, errno set.
 */
int dfz__write_all(int fd, const void *buf, size_t n);

/**
 * dfz__open_temp() - create a fresh temporary file beside @path (mode
 * 0600 until changed), its name into @tmp (@len bytes).
 * Return: its file descriptor, or a negative DFZ_E* code (DFZ_EINVAL:
 * the name does not fit), errno set.
 */
int dfz__open_temp(const char *path, char *tmp, size_t len);

/**
 * dfz__write_temp() - the second half of dfz__write_atomic(), for a
 * caller that tells a file it cannot create from one it cannot write:
 * @n bytes of @buf into @fd (from dfz__open_temp(), named @tmp), which
 * is closed and renamed to @path (mode 0644); on failure @tmp is removed.
 * Return: as dfz__write_atomic().
 */
int dfz__write_temp(int fd, const char *tmp, const char *path,
		    const void *buf, size_t n);

/* A growing text buffer (open_memstream) for a file written atomically. */
struct dfz__text {
	FILE *f;
	char *buf;
	size_t len;
};

int dfz__text_open(struct dfz__text *t);
/** dfz__text_commit() - close @t and write it to @path atomically.
 * Return: as dfz__write_atomic(), or DFZ_ENOMEM. */
int dfz__text_commit(struct dfz__text *t, const char *path);

/*
 * dfz__read_stream() - the rest of @f, as dfz__read_file() reads a file
 * (@f stays open).
 */
char *dfz__read_stream(FILE *f, size_t max, size_t *n, bool *cut);

/*
 * dfz__read_file() - @path whole, NUL-terminated, at most @max bytes (a
 * longer file is cut there and *@cut set). Return: the text (caller
 * frees) or NULL (errno says why).
 */
char *dfz__read_file(const char *path, size_t max, size_t *n, bool *cut);

/** dfz__fnv1a() - the 64-bit FNV-1a hash of @n bytes of @buf. */
uint64_t dfz__fnv1a(const uint8_t *buf, size_t n);

/* ------------------------------------------------------------ targets */

#define DFZ__TARGETS 5                /* xfer, host, api, parse, other */

/** dfz__target_names() - the DFZ__TARGETS target names, by index. */
const char *const *dfz__target_names(void);

/**
 * dfz__target_of() - the fuzz target of @path: the index of the last
 * (nearest) component that names one, else DFZ__TARGETS - 1 ("other").
 */
unsigned dfz__target_of(const char *path);

/* ------------------------------------------------------------ arrays */

/**
 * dfz__grow() - room for item @n (the next one) in the array *@items of
 * @size-byte items, *@cap of them allocated: when full, *@cap doubles
 * (from @first when 0) and the array is reallocated (it may move).
 * @items: the address of the array's pointer (T **, NULL when empty).
 * Return: 0, or DFZ_ENOMEM with *@items and *@cap untouched.
 */
int dfz__grow(void *items, size_t *cap, size_t n, size_t size, size_t first);

/* ------------------------------------------------------------ directories */

/**
 * dfz__mkdir_p() - create a directory and its missing parents (mkdir -p).
 * @path: the directory, under 4096 bytes; one that exists already is fine.
 *
 * Return: 0, or a negative DFZ_E* code, errno left set for the message:
 * DFZ_ENOTDIR (a file where a directory belongs), DFZ_ENOENT, DFZ_EACCES,
 * DFZ_EINVAL (a @path too long), DFZ_EIO (the disk failed) or DFZ_ENOMEM.
 */
int dfz__mkdir_p(const char *path);

/*
 * dfz__dir_fn - called for one entry of a directory: @path is "DIR/NAME",
 * @name the entry's name. Return: 0 to go on, else the walk stops and
 * dfz__dir_each() returns it (a negative DFZ_E* code).
 */
typedef int (*dfz__dir_fn)(const char *path, const char *name, void *arg);

/**
 * dfz__dir_each() - call @fn for every entry of @dir but "." and ".." (in
 * readdir order; an entry whose path is 4096 bytes or longer is passed
 * over), until one returns non-zero.
 * @opened: out, whether @dir could be opened (may be NULL).
 * Return: 0, or the first non-zero return of @fn; 0 too when @dir cannot
 * be opened (a directory that is not there holds nothing).
 */
int dfz__dir_each(const char *dir, dfz__dir_fn fn, void *arg, bool *opened);

/**
 * dfz__dir_each_sorted() - dfz__dir_each() in strcmp() order of the
 * names. When @dir cannot be read (*@opened false), errno says why
 * (ENOMEM too: the list of names is allocated).
 * Return: as dfz__dir_each().
 */
int dfz__dir_each_sorted(const char *dir, dfz__dir_fn fn, void *arg,
			 bool *opened);

/* ------------------------------------------------------------ shell */

#define DFZ__COMMAND_MAX 4400         /* a replay command line: a program
				       * path and its switches */

/**
 * dfz__shell_quote() - @s as one word of a POSIX shell command line, into
 * @buf: as it is when it holds only characters no shell reads specially
 * (letters, digits and "_-./:,+@%"; not empty), else in single quotes
 * (a quote inside as '\'').
 * Return: false when it did not fit (@buf then holds a cut word).
 */
bool dfz__shell_quote(const char *s, char *buf, size_t len);

/* ------------------------------------------------------------ processes */

/* How a child process ended (dfz__proc_run()). */
struct dfz__proc {
	int status;                   /* waitpid() status */
	bool timed_out;               /* killed at the deadline */
	size_t n;                     /* bytes of output kept */
};

/**
 * dfz__proc_run() - run @argv (argv[0] is the program's path) with
 * standard input from /dev/null, in its own process group, killed after
 * @timeout_ms, with the "NAME=VALUE" strings of @env (NULL-terminated, or
 * NULL) added to its environment. Its standard output (and standard error with @with_err)
 * goes to @out, @cap bytes at most (the rest is read and dropped),
 * NUL-terminated.
 * Return: 0, or DFZ_ENOMEM when the process could not be started.
 */
int dfz__proc_run(char *const argv[], char *const env[], unsigned timeout_ms,
		  bool with_err, char *out, size_t cap, struct dfz__proc *res);

/** dfz__now() - monotonic seconds. */
double dfz__now(void);

/* ------------------------------------------------------------ progress */

#define DFZ__PROGRESS_MS 100          /* at most one update per this */

/*
 * struct dfz__progress - one line of progress on standard error, updated
 * in place ('\r') as `make fuzz`'s is, for a person watching: only when
 * standard error is a terminal, and at most every DFZ__PROGRESS_MS, so
 * that a log or a test's output holds none of it and a run pays almost
 * nothing for it.
 */
struct dfz__progress {
	bool on;                          /* standard error is a terminal */
	double next;                      /* no update before (seconds) */
	size_t width;                     /* of the line shown; 0: none */
};

/** dfz__progress_init() - @p on when standard error is a terminal. */
void dfz__progress_init(struct dfz__progress *p);

/**
 * dfz__progress_show() - show @fmt... as the progress line, replacing
 * the one shown; skipped when the last update was under DFZ__PROGRESS_MS
 * ago, unless @now.
 */
void dfz__progress_show(struct dfz__progress *p, bool now, const char *fmt,
			...) __attribute__((format(printf, 3, 4)));

/**
 * dfz__progress_clear() - blank the line shown, the cursor back at its
 * start (before other output to the terminal, and at the end).
 */
void dfz__progress_clear(struct dfz__progress *p);

#endif /* DMAFUZZ_COMMON_INT_H */
