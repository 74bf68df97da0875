// SPDX-License-Identifier: MIT
/*
 * One replay of a campaign input, as its fuzz target read it: a plan
 * target's bare choice stream through the executor (signals caught, so a
 * real fault becomes a `crash` with its site), the parse target's text
 * through the print-parse round trip of fuzz/parse.c, or any input through
 * an external program (--exec), whose crash reporter line gives the site.
 * The outcome names the bucket: the signature, and for a real signal the
 * faulting instruction and the top frames.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "triage_int.h"

#define EXEC_OUTPUT (64u << 10)       /* an external run's output kept */

void dfz__outcome_fini(struct dfz__outcome *o)
{
	free(o->report);
	o->report = NULL;
}

static void malformed(struct dfz__outcome *o, const char *fmt, const char *what)
{
	o->kind = DFZ__MALFORMED;
	snprintf(o->reason, sizeof(o->reason), fmt, what);
}

const char *dfz__sig_name(int signo)
{
	static char other[12];

	switch (signo) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGABRT: return "SIGABRT";
	case SIGKILL: return "SIGKILL";
	case SIGTRAP: return "SIGTRAP";
	default:
		snprintf(other, sizeof(other), "SIG%d", signo);
		return other;
	}
}

/*
 * A real signal: disassemble and symbolize its site, and make the site
 * part of the bucket: the instruction and the top frames.
 * @program: the external program, or NULL for this process.
 */
static void add_site(struct dfz__outcome *o, const char *program)
{
	size_t at = strlen(o->key);

	o->has_signal = true;
	dfz_fault_disasm(&o->site, &o->fault);
	dfz_fault_frames(&o->site, program, &o->fault);
	at += (size_t)snprintf(o->key + at, sizeof(o->key) - at, " | %s",
			       o->fault.instruction[0] ? o->fault.instruction :
			       "?");
	for (unsigned i = 0; i < o->fault.nframes && at < sizeof(o->key); i++)
		at += (size_t)snprintf(o->key + at, sizeof(o->key) - at,
				       " | %s", o->fault.frames[i]);
}

/* "SIGSEGV writing address 0x10 (mov dword ptr [rax], edx) in store (f.c:3)" */
static void site_message(struct dfz__outcome *o)
{
	const char *acc = o->fault.access;

	snprintf(o->message, sizeof(o->message), "%s %s address 0x%llx (%.60s) in %.100s",
		 o->signal, !strcmp(acc, "write") ? "writing" :
		 !strcmp(acc, "read") ? "reading" : "at",
		 (unsigned long long)o->site.addr,
		 o->fault.instruction[0] ? o->fault.instruction : "?",
		 o->fault.nframes ? o->fault.frames[0] : "?");
}

static void finding(struct dfz__outcome *o, const char *cls, const char *oracle,
		    int level, const char *detail, const char *message)
{
	o->kind = DFZ__FINDING;
	snprintf(o->cls, sizeof(o->cls), "%s", cls);
	snprintf(o->oracle, sizeof(o->oracle), "%s", oracle);
	o->level = level >= 0 && level < DFZ_NLEVELS ? level : -1;
	snprintf(o->sig, sizeof(o->sig), "%s/%s%s%s%s%s", cls, oracle,
		 o->level >= 0 ? "@" : "", o->level >= 0 ? dfz_level_name((unsigned)level) : "",
		 detail[0] ? ":" : "", detail);
	snprintf(o->key, sizeof(o->key), "%s", o->sig);
	snprintf(o->message, sizeof(o->message), "%s", message);
}

/* ------------------------------------------------------------ plan targets */

static int replay_plan(struct dfz__replayer *r, int family,
		       const uint8_t *buf, size_t n, struct dfz__outcome *o)
{
	struct dfz_plan p;
	struct dfz_verdict v;
	struct dfz_signature sig;
	size_t len = 0;
	FILE *f;

	dfz_plan_decode_as((unsigned)family, buf, n, &p);
	dfz_exec_run(r->ex, &p, r->cfg->bugs, &v);
	f = open_memstream(&o->report, &len);
	if (!f)
		return DFZ_ENOMEM;
	dfz_verdict_print(&v, NULL, false, f);
	if (fclose(f) != 0)
		return DFZ_ENOMEM;
	if (v.kind == DFZ_VERDICT_REJECTED) {
		malformed(o, "the harness rejects it: %.200s", v.reason);
		return 0;
	}
	if (v.kind != DFZ_VERDICT_BUG) {
		o->kind = DFZ__CLEAN;
		return 0;
	}
	dfz_signature_of(&v, &sig);
	finding(o, dfz_class_name(sig.cls), sig.oracle, sig.level, sig.detail,
		v.finding.msg);
	if (sig.cls == DFZ_CLASS_CRASH && sig.detail[0] &&
	    dfz_exec_crash_site(&o->site)) {
		snprintf(o->signal, sizeof(o->signal), "%s", sig.detail);
		add_site(o, NULL);
	}
	return 0;
}

/* ------------------------------------------------------------ parse */

/* The round trip of fuzz/parse.c: the normalised plan's text must parse,
 * to an equal plan, and print the same text again. */
static int round_trip(struct dfz_plan *p, struct dfz__outcome *o)
{
	struct dfz_plan q;
	char err[DFZ_MSG_MAX], *first, *second = NULL;
	const char *kind = NULL, *why = err;

	if (dfz_plan_normalise(p) < 0 || !(first = dfz_plan_text(p)))
		return DFZ_ENOMEM;
	if (dfz_plan_parse(first, &q, err, sizeof(err)) < 0) {
		kind = "reparse";
	} else if (!dfz_plan_equal(p, &q)) {
		kind = "differs";
		why = "the printed plan parses to a different plan";
	} else {
		second = dfz_plan_text(&q);
		if (!second) {
			free(first);
			return DFZ_ENOMEM;
		}
		if (strcmp(first, second)) {
			kind = "reprint";
			why = "the printed plan prints differently once parsed";
		}
	}
	if (kind) {
		finding(o, "parse.roundtrip", "parse", -1, kind, why);
		if (asprintf(&o->report, "parse: %s\n--- printed plan:\n%s%s%s",
			     why, first, second ? "--- printed again:\n" : "",
			     second ? second : "") < 0)
			o->report = NULL;
	} else {
		o->kind = DFZ__CLEAN;
	}
	free(second);
	free(first);
	return 0;
}

static int replay_parse(const uint8_t *buf, struct dfz__outcome *o)
{
	struct dfz_plan p;
	char err[DFZ_MSG_MAX];

	if (dfz_plan_parse((const char *)buf, &p, err, sizeof(err)) < 0) {
		malformed(o, "the parse target rejects it: %.200s", err);
		return 0;
	}
	return round_trip(&p, o);
}

/* ------------------------------------------------------------ external */

/* The value after "KEY:" on a line of a dmafuzz verdict report. */
static bool report_field(const char *text, const char *key, char *out,
			 size_t len)
{
	const char *p = text;
	size_t k = strlen(key);

	for (; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, k))
			continue;
		p += k;
		p += strspn(p, " ");
		snprintf(out, len, "%.*s", (int)strcspn(p, "\n"), p);
		return true;
	}
	return false;
}

/* The last non-empty line of @text that is not the driver's "running". */
static void last_line(const char *text, char *out, size_t len)
{
	const char *p = text, *best = "";
	size_t bl = 0;

	while (*p) {
		size_t l = strcspn(p, "\n");

		if (l && strncmp(p, "running ", 8) && strncmp(p, DFZ_CRASH_TAG, 17)) {
			best = p;
			bl = l;
		}
		p += l + (p[l] == '\n');
	}
	snprintf(out, len, "%.*s", (int)bl, best);
}

/* A dmafuzz target's verdict in the output: "CLASS:", "ORACLE:", "WHERE:". */
static bool verdict_lines(const char *text, struct dfz__outcome *o)
{
	char cls[32], oracle[24], where[32] = "", msg[DFZ_MSG_MAX] = "";
	int level = -1;

	if (!report_field(text, "CLASS:", cls, sizeof(cls)) ||
	    !report_field(text, "ORACLE:", oracle, sizeof(oracle)))
		return false;
	report_field(text, "MESSAGE:", msg, sizeof(msg));
	if (report_field(text, "WHERE:", where, sizeof(where)) &&
	    where[0] == 'L' && where[1] >= '1' && where[1] <= '3')
		level = 3 - (where[1] - '0');
	finding(o, cls, oracle, level, "", msg);
	return true;
}

static int replay_exec(struct dfz__replayer *r, const char *path,
		       struct dfz__outcome *o)
{
	const struct dfz_triage_config *cfg = r->cfg;
	unsigned ms = cfg->timeout_ms ? cfg->timeout_ms : DFZ_TRIAGE_TIMEOUT_MS;
	char *argv[] = { (char *)cfg->exec, (char *)path, NULL };
	char bugs_env[300], *env[] = { bugs_env, NULL }, line[DFZ_MSG_MAX];
	struct dfz__proc res;
	char *text = malloc(EXEC_OUTPUT);
	int st;

	if (!text)
		return DFZ_ENOMEM;
	snprintf(bugs_env, sizeof(bugs_env), "DMAFUZZ_BUGS=%s", r->bugs);
	if (dfz__proc_run(argv, env, ms, true, text, EXEC_OUTPUT, &res) < 0) {
		free(text);
		return DFZ_ENOMEM;
	}
	o->report = text;
	st = res.status;
	last_line(text, line, sizeof(line));
	if (res.timed_out) {
		snprintf(line, sizeof(line), "no exit within %u ms", ms);
		finding(o, "hang", "timeout", -1, "", line);
	} else if (dfz_crash_site_parse(text, &o->site) == 0) {
		snprintf(o->signal, sizeof(o->signal), "%s",
			 dfz__sig_name(o->site.signo));
		finding(o, "crash", "signal", -1, o->signal, line);
		add_site(o, cfg->exec);
		if (!line[0])
			site_message(o);
	} else if (verdict_lines(text, o)) {
		/* a dmafuzz replay target: its oracle's finding */
	} else if (WIFSIGNALED(st)) {
		if (!line[0])
			snprintf(line, sizeof(line), "killed by %s (no crash "
				 "report line)", dfz__sig_name(WTERMSIG(st)));
		finding(o, "crash", "signal", -1, dfz__sig_name(WTERMSIG(st)), line);
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && !text[0]) {
		free(text);
		o->report = NULL;
		return DFZ_ENOENT;
	} else if (WIFEXITED(st) && WEXITSTATUS(st)) {
		o->kind = DFZ__MALFORMED;
		snprintf(o->reason, sizeof(o->reason), "%.60s exits %d on it: %.160s",
			 cfg->exec, WEXITSTATUS(st), line);
	} else {
		o->kind = DFZ__CLEAN;
	}
	return 0;
}

int dfz__replay(struct dfz__replayer *r, const char *target, const char *path,
		const uint8_t *buf, size_t n, struct dfz__outcome *o)
{
	int family = dfz_family_of(target);

	memset(o, 0, sizeof(*o));
	o->level = -1;
	if (r->cfg->exec)
		return replay_exec(r, path, o);
	if (family >= 0)
		return replay_plan(r, family, buf, n, o);
	if (!strcmp(target, "parse"))
		return replay_parse(buf, o);
	malformed(o, "%s", "no fuzz target is named in its path (triage it "
		  "with --exec PROG)");
	return 0;
}
