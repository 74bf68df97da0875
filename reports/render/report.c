// SPDX-License-Identifier: MIT
/*
 * `dmafuzz report`: the campaign and its triage read into one model, then
 * its four outputs (summary.md, summary.json, findings.sarif, index.html)
 * written to temporary files and renamed into place only once all four are
 * complete. Also the helpers the writers share: artifact URIs and frame
 * parsing.
 */
#define _XOPEN_SOURCE 700               /* realpath() */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render_int.h"

typedef int (*writer_fn)(const struct dfz__campaign *c, FILE *f);

static const char *const out_names[] = DFZ_REPORT_FILES;
static const writer_fn writers[] = {
	dfz__write_md, dfz__write_summary_json, dfz__write_sarif,
	dfz__write_html,
};
_Static_assert(sizeof(out_names) / sizeof(out_names[0]) ==
	       sizeof(writers) / sizeof(writers[0]), "one writer per output");
#define NOUT (sizeof(writers) / sizeof(writers[0]))

bool dfz__path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < len;
}

char *dfz__fmt_num(double v, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%.1f", v);
	return buf;
}

char *dfz__fmt_duration(double s, char *buf, size_t len)
{
	unsigned long long t = s > 0 ? (unsigned long long)(s + 0.5) : 0;

	if (s < 0)
		snprintf(buf, len, "-");
	else if (t < 60)
		snprintf(buf, len, "%llu s", t);
	else if (t < 3600)
		snprintf(buf, len, "%llu min %llu s", t / 60, t % 60);
	else
		snprintf(buf, len, "%llu h %02llu min", t / 3600, t / 60 % 60);
	return buf;
}

bool dfz__all_have_edges(const struct dfz__campaign *c)
{
	for (size_t i = 0; i < c->ninst; i++)
		if (c->inst[i].has_plot && !c->inst[i].has_edges)
			return false;
	return true;
}

/* The number after the last ':' of @loc, cut off there; 0 if none. */
static unsigned long cut_number(char *loc)
{
	char *colon = strrchr(loc, ':');
	unsigned long v;

	if (!colon || !colon[1] ||
	    strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return 0;
	v = strtoul(colon + 1, NULL, 10);
	if (v)
		*colon = 0;
	return v;
}

bool dfz__frame_split(const char *frame, char *func, size_t flen, char *file,
		      size_t filelen, unsigned long *line)
{
	const char *open = strrchr(frame, '('), *close;
	unsigned long last, before;
	char loc[1024];

	if (!open || !(close = strchr(open, ')')) || close[1])
		return false;
	snprintf(loc, sizeof(loc), "%.*s", (int)(close - open - 1), open + 1);
	last = cut_number(loc);           /* "file:line" or "file:line:col" */
	if (!last)
		return false;
	before = cut_number(loc);
	*line = before ? before : last;
	if (!loc[0])
		return false;
	snprintf(file, filelen, "%s", loc);
	while (open > frame && open[-1] == ' ')
		open--;
	snprintf(func, flen, "%.*s", (int)(open - frame), frame);
	return true;
}

/* @s percent-encoded (all but unreserved characters and '/') into @buf. */
static void uri_encode(const char *s, char *buf, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t k = 0;

	for (; *s && k + 4 < len; s++) {
		unsigned char ch = (unsigned char)*s;

		if (strchr("-._~/", ch) || (ch >= '0' && ch <= '9') ||
		    ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z')) {
			buf[k++] = (char)ch;
		} else {
			buf[k++] = '%';
			buf[k++] = hex[ch >> 4];
			buf[k++] = hex[ch & 15];
		}
	}
	buf[k] = 0;
}

/*
 * @rel (relative to the triage dir) as a path relative to the output dir,
 * through "../" when they only share an ancestor. False when they share
 * nothing but the root (or a realpath is unknown).
 */
static bool relative_to_out(const struct dfz__campaign *c, const char *rel,
			    char *buf, size_t len)
{
	const char *o = c->out_abs, *b = c->tr.base_abs;
	size_t common = 0, k = 0;

	if (!o || !b)
		return false;
	/* The longest common prefix that ends at a component boundary. */
	for (size_t i = 0;; i++) {
		if ((!o[i] || o[i] == '/') && (!b[i] || b[i] == '/'))
			common = i;
		if (!o[i] || !b[i] || o[i] != b[i])
			break;
	}
	if (common == 0)
		return false;
	buf[0] = 0;
	for (const char *p = o + common; *p && k + 4 < len; p++)
		if (*p == '/') {
			memcpy(buf + k, "../", 4);
			k += 3;
		}
	b += common;
	b += *b == '/';
	return dfz__path(buf + k, len - k, "%s%s%s", b, *b ? "/" : "", rel);
}

char *dfz__artifact_uri(const struct dfz__campaign *c, const char *rel,
			char *buf, size_t len)
{
	char path[8192];

	if (relative_to_out(c, rel, path, sizeof(path))) {
		uri_encode(path, buf, len);
		return buf;
	}
	dfz__path(path, sizeof(path), "%s/%s",
		  c->tr.base_abs ? c->tr.base_abs : c->tr.base, rel);
	snprintf(buf, len, "file://");
	uri_encode(path, buf + strlen(buf), len - strlen(buf));
	return buf;
}

char *dfz__artifact_path(const struct dfz__campaign *c, const char *rel,
			 char *buf, size_t len)
{
	if (!relative_to_out(c, rel, buf, len))
		dfz__path(buf, len, "%s/%s", c->tr.base, rel);
	return buf;
}

char *dfz__replay_line(const struct dfz__campaign *c, const struct dfz_json *r,
		       char *buf, size_t len)
{
	const char *base = c->tr.base_abs ? c->tr.base_abs : c->tr.base;
	char path[8192], word[8400];

	dfz__path(path, sizeof(path), "%s/%s", base,
		  dfz_json_str(dfz_json_get(r, "file")));
	dfz__shell_quote(path, word, sizeof(word));
	snprintf(buf, len, "%s %s", dfz_json_str(dfz_json_get(r, "command")),
		 word);
	return buf;
}

const char *dfz__no_replay(const struct dfz__bucket *b)
{
	if (!b->replay)
		return "not said (a triage.json older than replay commands: "
		       "run 'dmafuzz triage' again)";
	if (!strcmp(b->target, "parse"))
		return "no dmafuzz command replays a parse finding (the "
		       "print-parse round trip): the parse fuzz target does, "
		       "build/fuzz/replay/parse REPRODUCER (make fuzz-build)";
	return "none";
}

/* Output @i of @c into the temporary file @tmp, flushed to disk. */
static int write_one(const struct dfz__campaign *c, size_t i, const char *tmp,
		     char *err, size_t errlen)
{
	FILE *f = fopen(tmp, "w");
	int rc, e = 0;

	if (!f) {
		snprintf(err, errlen, "cannot write '%s': %s", tmp,
			 strerror(errno));
		return dfz_err_from_errno(errno);
	}
	errno = 0;
	rc = writers[i](c, f);
	if (rc < 0)
		snprintf(err, errlen, "writing '%s': %s", tmp, dfz_strerror(rc));
	else if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0)
		e = errno ? errno : EIO;
	if (fclose(f) != 0 && rc == 0 && !e)
		e = errno ? errno : EIO;
	if (rc == 0 && e) {
		snprintf(err, errlen, "writing '%s': %s", tmp, strerror(e));
		rc = dfz_err_from_errno(e);
	}
	return rc;
}

/* Write every output to its temporary file, then rename them all. */
static int write_outputs(struct dfz__campaign *c, const char *out,
			 char *err, size_t errlen)
{
	char tmp[NOUT][4096], dst[4096];
	size_t done;
	int rc = 0;

	for (done = 0; rc == 0 && done < NOUT; done++) {
		dfz__progress_show(&c->progress, true,
				   "report: writing %s (%zu/%zu), %zu bucket(s)",
				   out_names[done], done + 1, NOUT, c->tr.nb);
		snprintf(tmp[done], sizeof(tmp[done]), "%s/.%s.tmp.%ld", out,
			 out_names[done], (long)getpid());
		rc = write_one(c, done, tmp[done], err, errlen);
	}
	for (size_t i = 0; rc == 0 && i < NOUT; i++) {
		snprintf(dst, sizeof(dst), "%s/%s", out, out_names[i]);
		if (rename(tmp[i], dst) != 0) {
			snprintf(err, errlen, "cannot rename '%s' to '%s': %s",
				 tmp[i], dst, strerror(errno));
			rc = dfz_err_from_errno(errno);
		}
	}
	if (rc < 0)
		for (size_t i = 0; i < done; i++)
			remove(tmp[i]);
	return rc;
}

static int read_triage(struct dfz__campaign *c,
		       const struct dfz_report_config *cfg, char *err,
		       size_t errlen)
{
	char path[4096];
	struct stat st;

	if (cfg->triage)
		return dfz__triage_read(c, cfg->triage, err, errlen);
	if (!dfz__path(path, sizeof(path), "%s/triage/triage.json", cfg->dir)) {
		snprintf(err, errlen, "campaign path too long");
		return DFZ_ENOENT;
	}
	if (stat(path, &st) < 0 && errno == ENOENT) {
		dfz__path(c->triage_note, sizeof(c->triage_note),
			 "No triage output (%s): run 'dmafuzz triage %s' for "
			 "the buckets.", path, cfg->dir);
		return 0;
	}
	return dfz__triage_read(c, path, err, errlen);
}

/* The user's sources of a drop-in triage: --srcroot, else the triage's,
 * else the current directory; one that does not exist is no error (its
 * lines are then missing from the report, which says so). */
static int source_root(struct dfz__campaign *c,
		       const struct dfz_report_config *cfg, char *err,
		       size_t errlen)
{
	c->srcroot = cfg->srcroot ? cfg->srcroot :
		     c->tr.srcroot ? c->tr.srcroot : ".";
	c->srcroot_abs = realpath(c->srcroot, NULL);
	if (!c->srcroot_abs && errno == ENOMEM) {
		snprintf(err, errlen, "out of memory");
		return DFZ_ENOMEM;
	}
	return 0;
}

int dfz_report_write(const struct dfz_report_config *cfg,
		     enum dfz_report_stage *stage, char *err, size_t errlen)
{
	struct dfz__campaign c = {
		.dir = cfg->dir,
		.version = cfg->version ? cfg->version : "unknown",
		.generated = cfg->generated,
	};
	const char *out = cfg->out ? cfg->out : cfg->dir;
	int rc;

	err[0] = 0;
	*stage = DFZ_REPORT_CAMPAIGN;
	dfz__progress_init(&c.progress);
	rc = dfz__campaign_read(&c, err, errlen);
	if (rc == 0) {
		rc = dfz__run_read(&c);
		if (rc < 0)
			snprintf(err, errlen, "reading %s/%s: %s", cfg->dir,
				 DFZ__RUN_FILE, dfz_strerror(rc));
	}
	if (rc < 0)
		goto out_fini;
	*stage = DFZ_REPORT_TRIAGE;
	rc = read_triage(&c, cfg, err, errlen);
	if (rc == 0)
		rc = source_root(&c, cfg, err, errlen);
	if (rc < 0)
		goto out_fini;
	*stage = DFZ_REPORT_OUTPUT;
	if (dfz__mkdir_p(out) < 0 || !(c.out_abs = realpath(out, NULL))) {
		snprintf(err, errlen, "output directory '%s': %s", out,
			 strerror(errno));
		rc = dfz_err_from_errno(errno);
		goto out_fini;
	}
	rc = write_outputs(&c, out, err, errlen);
	if (rc == 0)
		*stage = DFZ_REPORT_OK;
out_fini:
	dfz__progress_clear(&c.progress);
	dfz__campaign_fini(&c);
	return rc;
}
