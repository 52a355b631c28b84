// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * batch.c - csftop -b: each sample of the same model the screen shows,
 * sorted and filtered the same way, as
 *
 *   text  a header, a CPU table and the thread table, like top -b;
 *   csv   one line per thread and sample, header once (RFC 4180 quoting);
 *   json  one object per sample and line (JSON lines), CPUs and threads.
 *
 * CSV and JSON keys are the -s column keys and never translated; shares are
 * percent of the interval, *_total are nanoseconds, vcsw/ivcsw per second.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch.h"
#include "fmt.h"
#include "i18n.h"
#include "view.h"

static const struct {
	int stat;
	const char *key;	/* CSV/JSON */
	const char *title;	/* text, N_() */
} cpu_cols[] = {
	{ CSF_STAT_USER, "user", N_("USER%") },
	{ CSF_STAT_NICE, "nice", N_("NICE%") },
	{ CSF_STAT_SYSTEM, "system", N_("SYS%") },
	{ CSF_STAT_IRQ, "irq", N_("IRQ%") },
	{ CSF_STAT_SOFTIRQ, "softirq", N_("SIRQ%") },
	{ CSF_STAT_IOWAIT, "iowait", N_("IOW%") },
	{ CSF_STAT_STEAL, "steal", N_("STEAL%") },
};
#define NCPUCOLS (sizeof(cpu_cols) / sizeof(cpu_cols[0]))

static const char *mark_key(const struct screen *s, const struct row *r)
{
	if (s->kind == SCREEN_DIFF) {
		if (r->flags & ROW_APPEARED)
			return "appeared";
		if (r->flags & ROW_GONE)
			return "exited";
		return r->flags & ROW_CHANGED ? "changed" : "";
	}
	if (r->flags & ROW_EXITED)
		return "exited";
	return (r->flags & ROW_NEW) && s->seq > 1 ? "new" : "";
}

static void comm_of(const struct row *r, char *buf)
{
	memcpy(buf, r->snap.comm, sizeof(r->snap.comm));
	buf[sizeof(r->snap.comm)] = '\0';
}

/* Length of a valid UTF-8 sequence at @s, or 0. */
static int utf8_len(const unsigned char *s)
{
	int n;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0 && s[0] >= 0xc2)
		n = 2;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3;
	else if ((s[0] & 0xf8) == 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* A JSON string: a thread name is arbitrary bytes; keep output valid. */
static void json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		int n = utf8_len(p);

		if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p++);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(out, "\\u%04x", *p++);
		} else if (!n) {
			/* not UTF-8: read the byte as Latin-1 */
			fprintf(out, "\\u%04x", *p++);
		} else {
			fwrite(p, 1, (size_t)n, out);
			p += n;
		}
	}
	fputc('"', out);
}

static void csv_str(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* A column's value in CSV/JSON: raw units, no rounding to a width. */
static void raw_value(FILE *out, const struct row *r, enum col c)
{
	char comm[sizeof(r->snap.comm) + 1];

	switch (model_cols[c].kind) {
	case COL_KIND_PCT:
	case COL_KIND_RATE:
		fprintf(out, "%.2f", row_value(r, c));
		break;
	case COL_KIND_TEXT:
		/* caller quotes */
		if (c == COL_COMM) {
			comm_of(r, comm);
			fputs(comm, out);
		} else {
			fputs(csf_state_name(row_state(r)), out);
		}
		break;
	default:
		fprintf(out, "%llu", (unsigned long long)row_value(r, c));
		break;
	}
}

static void print_csv(FILE *out, const struct screen *s, const size_t *idx,
		      size_t n, const struct batch_opts *o)
{
	if (s->seq <= 1) {
		fputs("sample,time,interval_ns,mark", out);
		for (int c = 0; c < COL_NR; c++)
			fprintf(out, ",%s", model_cols[c].key);
		fputc('\n', out);
	}
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &s->rows[idx[i]];
		char comm[sizeof(r->snap.comm) + 1];

		fprintf(out, "%u,%.3f,%llu,%s", s->seq, o->time_s,
			(unsigned long long)r->interval_ns, mark_key(s, r));
		for (int c = 0; c < COL_NR; c++) {
			fputc(',', out);
			if (c == COL_COMM) {
				comm_of(r, comm);
				csv_str(out, comm);
			} else {
				raw_value(out, r, (enum col)c);
			}
		}
		fputc('\n', out);
	}
}

static void print_json(FILE *out, const struct screen *s, const size_t *idx,
		       size_t n, const struct batch_opts *o)
{
	fprintf(out, "{\"sample\":%u,\"time\":%.3f,\"interval_ns\":%llu,"
		"\"clock\":", s->seq, o->time_s,
		(unsigned long long)s->interval_ns);
	json_str(out, o->clock_name);
	fprintf(out, ",\"ctxsw_per_s\":%.2f,\"threads_live\":%u,"
		"\"processes\":%u,\"cpus\":[", s->csw_rate, s->nthreads,
		s->nprocs);
	for (unsigned int k = 0; k < s->ncpus; k++) {
		const struct cpu_row *c = &s->cpus[k];

		fprintf(out, "%s{\"cpu\":%u,\"online\":%u,\"busy\":%.2f,"
			"\"idle_iowait\":%.2f", k ? "," : "", k,
			c->snap.online, c->busy_pct, c->iowait_pct);
		for (size_t j = 0; j < NCPUCOLS; j++)
			fprintf(out, ",\"%s\":%.2f", cpu_cols[j].key,
				c->stat_pct[cpu_cols[j].stat]);
		fprintf(out, ",\"ctxsw_per_s\":%.2f}", c->csw_rate);
	}
	fputs("],\"threads\":[", out);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &s->rows[idx[i]];
		char comm[sizeof(r->snap.comm) + 1];

		fprintf(out, "%s{\"mark\":\"%s\",\"interval_ns\":%llu",
			i ? "," : "", mark_key(s, r),
			(unsigned long long)r->interval_ns);
		for (int c = 0; c < COL_NR; c++) {
			fprintf(out, ",\"%s\":", model_cols[c].key);
			if (c == COL_COMM) {
				comm_of(r, comm);
				json_str(out, comm);
			} else if (c == COL_STATE) {
				json_str(out, csf_state_name(row_state(r)));
			} else {
				raw_value(out, r, (enum col)c);
			}
		}
		fputc('}', out);
	}
	fputs("]}\n", out);
}

static void print_text(FILE *out, const struct screen *s, const size_t *idx,
		       size_t n, const struct batch_opts *o)
{
	char rate[16], ival[32], when[32], buf[64];
	time_t secs = (time_t)o->time_s;
	struct tm tm;

	localtime_r(&secs, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	fmt_rate(rate, sizeof(rate), s->csw_rate);
	fmt_interval(ival, sizeof(ival), s->interval_ns);
	fprintf(out, _("csftop %s  sample %u  interval %s  clock %s  "
		       "threads %u  processes %u  ctx sw/s %s"),
		when, s->seq, s->seq > 1 ? ival : _("since registration"),
		o->clock_label, s->nthreads, s->nprocs, rate);
	fputc('\n', out);
	fprintf(out, "%-4s %6s", _("CPU"), _("BUSY%"));
	for (size_t j = 0; j < NCPUCOLS; j++)
		fprintf(out, " %6s", _(cpu_cols[j].title));
	fprintf(out, " %7s\n", _("CSW/s"));
	for (unsigned int k = 0; k < s->ncpus; k++) {
		const struct cpu_row *c = &s->cpus[k];

		fprintf(out, "%-4u %6.1f", k, c->busy_pct);
		for (size_t j = 0; j < NCPUCOLS; j++)
			fprintf(out, " %6.1f", c->stat_pct[cpu_cols[j].stat]);
		fmt_rate(rate, sizeof(rate), c->csw_rate);
		fprintf(out, " %7s\n", rate);
	}
	fputc(' ', out);
	for (int c = 0; c < COL_NR; c++) {
		const char *t = _(model_cols[c].title);
		int w = c == COL_COMM ? 15 : c == COL_STATE ? 8 :
			c == COL_CPU ? 3 : 7;
		int pad = w - view_width(t);

		fputc(' ', out);
		if (model_cols[c].kind != COL_KIND_TEXT)
			fprintf(out, "%*s", pad > 0 ? pad : 0, "");
		fputs(t, out);
		if (model_cols[c].kind == COL_KIND_TEXT && c != COL_NR - 1)
			fprintf(out, "%*s", pad > 0 ? pad : 0, "");
	}
	fputc('\n', out);
	if (!s->nrows)
		fprintf(out, "%s\n", _("No registered threads."));
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &s->rows[idx[i]];
		const char *mk = mark_key(s, r);
		char comm[sizeof(r->snap.comm) + 1];

		fputc(!*mk ? ' ' : !strcmp(mk, "exited") ? 'x' :
		      !strcmp(mk, "changed") ? '*' : '+', out);
		comm_of(r, comm);
		fprintf(out, " %7u %7u %-15s %-8s %3u", r->snap.tgid,
			r->snap.tid, comm, view_state_name(row_state(r)),
			r->snap.cpu);
		for (int c = COL_RUN_PCT; c < COL_NR; c++) {
			switch (model_cols[c].kind) {
			case COL_KIND_PCT:
				fmt_pct(buf, sizeof(buf), row_value(r, c));
				break;
			case COL_KIND_NS:
				fmt_dur(buf, sizeof(buf),
					(uint64_t)row_value(r, c));
				break;
			case COL_KIND_RATE:
				fmt_rate(buf, sizeof(buf), row_value(r, c));
				break;
			default:
				fmt_count(buf, sizeof(buf),
					  (uint64_t)row_value(r, c));
				break;
			}
			fprintf(out, " %7s", buf);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}

int batch_print(FILE *out, const struct screen *s,
		const struct batch_opts *o)
{
	size_t *idx = malloc((s->nrows ? s->nrows : 1) * sizeof(*idx));
	size_t n;

	if (!idx)
		return -ENOMEM;
	n = model_select(s, o->filter, o->sort_col, o->sort_desc, idx);
	switch (o->format) {
	case BATCH_CSV:
		print_csv(out, s, idx, n, o);
		break;
	case BATCH_JSON:
		print_json(out, s, idx, n, o);
		break;
	default:
		print_text(out, s, idx, n, o);
		break;
	}
	free(idx);
	if (fflush(out) || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}
