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
 *
 * A frame is built in one buffer and written with one fwrite(): fprintf
 * per field (stream locking, format parsing) would cost more than
 * everything else csftop does for a frame.  Numbers go through fmt.c, the
 * formatter the screen uses too.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch.h"
#include "columns.h"
#include "fmt.h"
#include "i18n.h"
#include "select.h"
#include "text.h"

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

/* --- the frame's text ----------------------------------------------- */

/* Room for @n more bytes, or NULL (and b->oom) when memory runs out. */
static char *ob_room(struct batch_buf *b, size_t n)
{
	if (b->cap - b->len < n) {
		size_t cap = b->cap ? b->cap : 4096;
		char *text;

		if (b->oom)
			return NULL;
		while (cap - b->len < n)
			cap *= 2;
		text = realloc(b->text, cap);
		if (!text) {
			b->oom = 1;
			return NULL;
		}
		b->text = text;
		b->cap = cap;
	}
	return b->text + b->len;
}

static void ob_put(struct batch_buf *b, const char *s, size_t n)
{
	char *p = ob_room(b, n);

	if (p) {
		memcpy(p, s, n);
		b->len += n;
	}
}

static void ob_putc(struct batch_buf *b, char c)
{
	char *p = b->len < b->cap ? b->text + b->len : ob_room(b, 1);

	if (p) {
		*p = c;
		b->len++;
	}
}

static void ob_puts(struct batch_buf *b, const char *s)
{
	ob_put(b, s, strlen(s));
}

/* printf's "%*s" (right) or "%-*s": pads to @width bytes, never cuts. */
static void ob_field(struct batch_buf *b, const char *s, size_t n,
		     int width, int right)
{
	size_t pad = (size_t)width > n ? (size_t)width - n : 0;
	char *p = ob_room(b, n + pad);

	if (!p)
		return;
	if (right) {
		memset(p, ' ', pad);
		memcpy(p + pad, s, n);
	} else {
		memcpy(p, s, n);
		memset(p + n, ' ', pad);
	}
	b->len += n + pad;
}

/* fmt.h's FN(end, ARGS), padded to @width, on the right when @right */
#define OB_FIELD(b, width, right, fn, ...)				\
	do {								\
		char t_[FMT_BUFSZ], *s_ = fn(t_ + FMT_BUFSZ, __VA_ARGS__); \
									\
		ob_field(b, s_, (size_t)(t_ + FMT_BUFSZ - s_), width,	\
			 right);					\
	} while (0)
#define OB_FMT(b, fn, ...) OB_FIELD(b, 0, 0, fn, __VA_ARGS__)

/* @t's text as a C string, or NULL when memory ran out. */
static char *ob_string(struct batch_buf *t)
{
	ob_putc(t, '\0');
	if (!t->oom)
		return t->text;
	free(t->text);
	return NULL;
}

/* Once per frame at most: headers with translated formats. */
static void ob_printf(struct batch_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void ob_printf(struct batch_buf *b, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	p = ob_room(b, (size_t)n + 1);
	if (!p)
		return;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static void ob_uint(struct batch_buf *b, uint64_t v)
{
	OB_FMT(b, fmt_uint, v);
}

/* a share in percent (@scale 100) or a rate per s (10^9), 2 decimals */
static void ob_decimal(struct batch_buf *b, struct ratio q, uint64_t scale)
{
	OB_FMT(b, fmt_decimal, q, scale, 2);
}

/* the sample's wall clock in seconds, to the ms */
static void ob_time(struct batch_buf *b, const struct batch_opts *o)
{
	OB_FMT(b, fmt_decimal, ((struct ratio){ o->time_ns, 1000000000 }), 1,
	       3);
}

/*
 * Rows are the bulk of a frame, so each is written straight into the
 * buffer, reserved once per row with room for its widest form.
 */
#define ROW_ROOM (COL_NR * (2 * COL_TEXT_MAX + 2) + 64 + 16)

/*
 * fmt.h's FN(end, ARGS) at @p (FMT_BUFSZ bytes of room); the end.  One
 * fixed-size copy, as in text_cell().
 */
#define PUT_FMT(p, fn, ...)						\
	({								\
		char t_[2 * FMT_BUFSZ];					\
		char *s_ = fn(t_ + FMT_BUFSZ, __VA_ARGS__);		\
									\
		memcpy(p, s_, FMT_BUFSZ);				\
		(p) + (t_ + FMT_BUFSZ - s_);				\
	})

/*
 * A cell of the text table at @p: a space and the value in its column's
 * grid, wider when the value is (printf's "%*s", never cut).  Cells are
 * short: spaces and values go in fixed 16-byte copies, which the compiler
 * makes two moves, where a call of memset() and memcpy() per cell would
 * cost more than formatting the number (the slack behind each is
 * overwritten by the next cell).
 */
#define CELL_COPY 16
static char *text_cell(char *p, const struct row *r, const struct column *col)
{
	static const char spaces[CELL_COPY] = "                ";
	char t[COL_TEXT_MAX + CELL_COPY], *e = t + COL_TEXT_MAX;
	const char *v = col_render(e, r, col);
	size_t n = (size_t)(e - v), w = (size_t)col->batch_width;
	size_t pad = n < w ? w - n : 0;

	*p++ = ' ';
	if (col->align == ALIGN_RIGHT) {
		memcpy(p, spaces, CELL_COPY);
		if (pad > CELL_COPY)
			memset(p, ' ', pad);
		p += pad;
	}
	if (n <= CELL_COPY)
		memcpy(p, v, CELL_COPY);
	else
		memcpy(p, v, n);
	p += n;
	if (col->align == ALIGN_LEFT) {
		memcpy(p, spaces, CELL_COPY);
		if (pad > CELL_COPY)
			memset(p, ' ', pad);
		p += pad;
	}
	return p;
}

/*
 * A cell through the memo: a thread that did not run since the last frame
 * prints the same ids, totals, counts and zero shares there.  Kept by line
 * of the table, which is read in order, and keyed by the exact value and
 * nothing else, which is all such a column's text depends on: a thread
 * that moved to another line (a new sort order, threads came or went, -P)
 * finds another value there and is formatted again, never wrong.
 */
static char *memo_cell(char *p, const struct row *r, const struct column *col,
		       struct cell_memo *m)
{
	struct ratio v = { 0, 0 };
	char *end;

	if (col->uint) {
		v.num = col->uint(r);
	} else {
		v = col->ratio(r);
		/* nothing over any interval: one value, 0 */
		if (!v.num || !v.den)
			v.num = v.den = 0;
	}
	if (m->len && m->value.num == v.num && m->value.den == v.den) {
		memcpy(p, m->text, sizeof(m->text));
		return p + m->len;
	}
	end = text_cell(p, r, col);
	m->value = v;
	m->len = end - p < (ptrdiff_t)sizeof(m->text) ? (uint8_t)(end - p) : 0;
	memcpy(m->text, p, sizeof(m->text));
	return end;
}

/* Room for a memo per line of @s's table: 0, or -ENOMEM. */
static int memo_reserve(struct batch_buf *b, const struct screen *s)
{
	struct cell_memo *memo;

	if (!b->memo_cols) {
		for (int c = 0; c < COL_NR; c++) {
			const struct column *col = &columns[c];

			b->memo_slot[c] = col->batch_width && col_by_value(col) ?
					  (signed char)b->memo_cols++ : -1;
		}
	}
	if (b->memo_lines >= s->nrows || !b->memo_cols)
		return 0;
	memo = realloc(b->memo, s->nrows * b->memo_cols * sizeof(*memo));
	if (!memo)
		return -ENOMEM;
	memset(memo + b->memo_lines * b->memo_cols, 0,
	       (s->nrows - b->memo_lines) * b->memo_cols * sizeof(*memo));
	b->memo = memo;
	b->memo_lines = s->nrows;
	return 0;
}

/* --- strings -------------------------------------------------------- */

/* A JSON string: a thread name is arbitrary bytes; keep output valid. */
static void json_str(struct batch_buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;

	ob_putc(b, '"');
	while (*p) {
		int n = utf8_len(p);

		if (*p == '"' || *p == '\\') {
			ob_putc(b, '\\');
			ob_putc(b, (char)*p++);
		} else if (*p < 0x20 || *p == 0x7f || !n) {
			/* control, or not UTF-8: the byte read as Latin-1 */
			char u[6] = { '\\', 'u', '0', '0', hex[*p >> 4],
				      hex[*p & 15] };

			ob_put(b, u, sizeof(u));
			p++;
		} else {
			ob_put(b, (const char *)p, (size_t)n);
			p += n;
		}
	}
	ob_putc(b, '"');
}

/* A CSV field at @p (room for 2 * strlen(s) + 2), quoted if need be. */
static char *put_csv_str(char *p, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		while (*s)
			*p++ = *s++;
		return p;
	}
	*p++ = '"';
	for (; *s; s++) {
		if (*s == '"')
			*p++ = '"';
		*p++ = *s;
	}
	*p++ = '"';
	return p;
}

/*
 * A number of CSV/JSON at @p (FMT_BUFSZ bytes of room): raw units, no
 * rounding to a width.
 */
static char *put_raw_number(char *p, const struct row *r,
			    const struct column *col)
{
	if (col->ratio)
		return PUT_FMT(p, fmt_decimal, col->ratio(r),
			       col->kind == COL_KIND_PCT ? 100 : 1000000000,
			       2);
	return PUT_FMT(p, fmt_uint, col->uint(r));
}

/* --- the three formats ---------------------------------------------- */

static void print_csv(struct batch_buf *b, const struct screen *s,
		      const size_t *idx, size_t n, const struct batch_opts *o)
{
	char lead[3 * FMT_BUFSZ], *l = lead;
	size_t lead_len;

	if (s->seq <= 1) {
		ob_puts(b, "sample,time,interval_ns,mark");
		for (int c = 0; c < COL_NR; c++) {
			ob_putc(b, ',');
			ob_puts(b, columns[c].key);
		}
		ob_putc(b, '\n');
	}
	/* "sample,time," is the same on every line of the frame */
	l = PUT_FMT(l, fmt_uint, s->seq);
	*l++ = ',';
	l = PUT_FMT(l, fmt_decimal, ((struct ratio){ o->time_ns, 1000000000 }),
		    1, 3);
	*l++ = ',';
	lead_len = (size_t)(l - lead);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &s->rows[idx[i]];
		const char *mk = mark_of(s, r)->key;
		char text[COL_TEXT_MAX];
		char *p = ob_room(b, lead_len + ROW_ROOM);

		if (!p)
			return;
		memcpy(p, lead, lead_len);
		p += lead_len;
		p = PUT_FMT(p, fmt_uint, r->interval_ns);
		*p++ = ',';
		memcpy(p, mk, strlen(mk));
		p += strlen(mk);
		for (int c = 0; c < COL_NR; c++) {
			const struct column *col = &columns[c];

			*p++ = ',';
			if (!col_has_value(r, col))
				continue;
			if (col->kind == COL_KIND_TEXT)
				p = put_csv_str(p, col->text(r, text));
			else
				p = put_raw_number(p, r, col);
		}
		*p++ = '\n';
		b->len = (size_t)(p - b->text);
	}
}

/* A task of a thread page as JSON: {"tid":N,"comm":"..."}, or null. */
static void json_task(struct batch_buf *b, const struct csf_task *t)
{
	if (!t->at) {
		ob_puts(b, "null");
		return;
	}
	ob_puts(b, "{\"tid\":");
	ob_uint(b, t->tid);
	ob_puts(b, ",\"comm\":");
	json_str(b, t->comm);
	ob_putc(b, '}');
}

/*
 * A thread's histograms of the interval: "hist", per state the non-empty
 * buckets as [upper bound in ns, count] (null: the last, unbounded), and
 * "max_ns", per state the longest interval when known (else null); then
 * the last "waker" and "preempted_by".  Nothing without them.
 */
static void json_hist(struct batch_buf *b, const struct model *m,
		      const struct screen *s, const struct row *r)
{
	struct csf_hist h;

	if (model_row_hist(m, s, r, HIST_SPAN, &h))
		return;
	ob_puts(b, ",\"hist\":{");
	for (unsigned int st = 0; st < CSF_NR_STATES; st++) {
		int first = 1;

		if (st)
			ob_putc(b, ',');
		json_str(b, csf_state_name(st));
		ob_puts(b, ":[");
		for (unsigned int k = 0; k < CSF_HIST_BUCKETS; k++) {
			if (!h.count[st][k])
				continue;
			ob_puts(b, first ? "[" : ",[");
			first = 0;
			if (k + 1 < CSF_HIST_BUCKETS)
				ob_uint(b, CSF_HIST_UPPER_NS(k));
			else
				ob_puts(b, "null");
			ob_putc(b, ',');
			ob_uint(b, h.count[st][k]);
			ob_putc(b, ']');
		}
		ob_putc(b, ']');
	}
	ob_puts(b, "},\"max_ns\":{");
	for (unsigned int st = 0; st < CSF_NR_STATES; st++) {
		if (st)
			ob_putc(b, ',');
		json_str(b, csf_state_name(st));
		ob_putc(b, ':');
		if (h.max_known & (1u << st))
			ob_uint(b, h.max_ns[st]);
		else
			ob_puts(b, "null");
	}
	/* the last, whenever it was, as the columns show them */
	ob_puts(b, "},\"waker\":");
	json_task(b, &r->waits.waker);
	ob_puts(b, ",\"preempted_by\":");
	json_task(b, &r->waits.preemptor);
}

static void print_json(struct batch_buf *b, const struct model *m,
		       const struct screen *s, const size_t *idx, size_t n,
		       const struct batch_opts *o)
{
	char *p;

	ob_puts(b, "{\"sample\":");
	ob_uint(b, s->seq);
	ob_puts(b, ",\"time\":");
	ob_time(b, o);
	ob_puts(b, ",\"interval_ns\":");
	ob_uint(b, s->interval_ns);
	ob_puts(b, ",\"clock\":");
	json_str(b, o->clock_name);
	ob_puts(b, ",\"ctxsw_per_s\":");
	ob_decimal(b, s->csw_rate, 1000000000);
	ob_puts(b, ",\"threads_live\":");
	ob_uint(b, s->nthreads);
	ob_puts(b, ",\"processes\":");
	ob_uint(b, s->nprocs);
	ob_puts(b, ",\"cpus\":[");
	for (unsigned int k = 0; k < s->ncpus; k++) {
		const struct cpu_row *c = &s->cpus[k];

		ob_puts(b, k ? ",{\"cpu\":" : "{\"cpu\":");
		ob_uint(b, k);
		ob_puts(b, ",\"online\":");
		ob_uint(b, c->snap.online);
		ob_puts(b, ",\"busy\":");
		ob_decimal(b, c->busy, 100);
		ob_puts(b, ",\"idle_iowait\":");
		ob_decimal(b, c->iowait, 100);
		for (size_t j = 0; j < NCPUCOLS; j++) {
			ob_puts(b, ",\"");
			ob_puts(b, cpu_cols[j].key);
			ob_puts(b, "\":");
			ob_decimal(b, c->stat[cpu_cols[j].stat], 100);
		}
		ob_puts(b, ",\"ctxsw_per_s\":");
		ob_decimal(b, c->csw_rate, 1000000000);
		ob_putc(b, '}');
	}
	/* "processes" is taken: the number of them */
	ob_puts(b, o->processes ? "],\"per_process\":[" : "],\"threads\":[");
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &s->rows[idx[i]];
		char text[COL_TEXT_MAX];

		ob_puts(b, i ? ",{\"mark\":\"" : "{\"mark\":\"");
		ob_puts(b, mark_of(s, r)->key);
		ob_puts(b, "\",\"interval_ns\":");
		ob_uint(b, r->interval_ns);
		for (int c = 0; c < COL_NR; c++) {
			const struct column *col = &columns[c];

			ob_puts(b, ",\"");
			ob_puts(b, col->key);
			ob_puts(b, "\":");
			if (!col_has_value(r, col)) {
				ob_puts(b, "null");
			} else if (col->kind == COL_KIND_TEXT) {
				json_str(b, col->text(r, text));
			} else if ((p = ob_room(b, FMT_BUFSZ))) {
				b->len = (size_t)(put_raw_number(p, r, col) -
						  b->text);
			}
		}
		json_hist(b, m, s, r);
		ob_putc(b, '}');
	}
	ob_puts(b, "]}\n");
}

/* The CPU table's title line, translated once. */
static char *cpu_title_line(void)
{
	struct batch_buf t = { 0 };

	ob_printf(&t, "%-4s %6s", _("CPU"), _("BUSY%"));
	for (size_t j = 0; j < NCPUCOLS; j++)
		ob_printf(&t, " %6s", _(cpu_cols[j].title));
	ob_printf(&t, " %7s\n", _("CSW/s"));
	return ob_string(&t);
}

/* The thread table's title line, translated once. */
static char *title_line(void)
{
	struct batch_buf t = { 0 };
	int last = 0;

	for (int c = 0; c < COL_NR; c++)
		if (columns[c].batch_width)
			last = c;
	ob_putc(&t, ' ');
	for (int c = 0; c < COL_NR; c++) {
		const struct column *col = &columns[c];
		const char *title = col_title((enum col)c);
		int pad = col->batch_width - text_width(title);
		int right = col->align == ALIGN_RIGHT;

		if (!col->batch_width)
			continue;
		ob_putc(&t, ' ');
		if (right)
			ob_field(&t, "", 0, pad > 0 ? pad : 0, 0);
		ob_puts(&t, title);
		/* no trailing blanks */
		if (!right && c != last)
			ob_field(&t, "", 0, pad > 0 ? pad : 0, 0);
	}
	ob_putc(&t, '\n');
	return ob_string(&t);
}

static void print_text(struct batch_buf *b, const struct screen *s,
		       const size_t *idx, size_t n,
		       const struct batch_opts *o)
{
	char rate[FMT_BUFSZ], ival[FMT_BUFSZ], when[32];
	time_t secs = (time_t)(o->time_ns / 1000000000);
	struct tm tm;

	if (!b->titles)
		b->titles = title_line();
	if (!b->cpu_titles)
		b->cpu_titles = cpu_title_line();
	if (!b->titles || !b->cpu_titles) {
		b->oom = 1;
		return;
	}
	localtime_r(&secs, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	ob_printf(b, _("csftop %s  sample %u  interval %s  clock %s  "
		       "threads %u  processes %u  ctx sw/s %s"),
		  when, s->seq, s->seq > 1 ?
		  FMT_STR(ival, fmt_interval, s->interval_ns) :
		  _("since registration"), o->clock_label, s->nthreads,
		  s->nprocs, FMT_STR(rate, fmt_rate, s->csw_rate));
	ob_putc(b, '\n');
	ob_puts(b, b->cpu_titles);
	for (unsigned int k = 0; k < s->ncpus; k++) {
		const struct cpu_row *c = &s->cpus[k];

		OB_FIELD(b, 4, 0, fmt_uint, k);
		ob_putc(b, ' ');				/* "%6.1f" */
		OB_FIELD(b, 6, 1, fmt_pct, c->busy);
		for (size_t j = 0; j < NCPUCOLS; j++) {
			ob_putc(b, ' ');
			OB_FIELD(b, 6, 1, fmt_pct, c->stat[cpu_cols[j].stat]);
		}
		ob_putc(b, ' ');
		OB_FIELD(b, 7, 1, fmt_rate, c->csw_rate);
		ob_putc(b, '\n');
	}
	ob_puts(b, b->titles);
	if (!s->nrows) {
		ob_puts(b, _("No registered threads."));
		ob_putc(b, '\n');
	}
	if (memo_reserve(b, s)) {
		b->oom = 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &s->rows[idx[i]];
		struct cell_memo *m = &b->memo[i * b->memo_cols];
		char *p = ob_room(b, ROW_ROOM);

		if (!p)
			return;
		*p++ = mark_of(s, r)->ch;
		for (int c = 0; c < COL_NR; c++) {
			if (b->memo_slot[c] >= 0)
				p = memo_cell(p, r, &columns[c],
					      &m[b->memo_slot[c]]);
			else if (columns[c].batch_width)
				p = text_cell(p, r, &columns[c]);
		}
		*p++ = '\n';
		b->len = (size_t)(p - b->text);
	}
	ob_putc(b, '\n');
}

int batch_print(FILE *out, const struct model *m,
		const struct batch_opts *o, struct batch_buf *b)
{
	const struct screen *s = model_shown(m);
	size_t n;

	if (o->processes) {
		if (model_processes(s, &b->procs))
			return -ENOMEM;
		s = &b->procs.s;
	}
	if (model_idx_reserve(&b->idx, &b->idx_cap, s->nrows))
		return -ENOMEM;
	n = select_rows(s, o->filter, o->sort_col, o->sort_desc, b->idx);
	b->len = 0;
	b->oom = 0;
	switch (o->format) {
	case BATCH_CSV:
		print_csv(b, s, b->idx, n, o);
		break;
	case BATCH_JSON:
		print_json(b, m, s, b->idx, n, o);
		break;
	default:
		print_text(b, s, b->idx, n, o);
		break;
	}
	if (b->oom)
		return -ENOMEM;
	if (fwrite(b->text, 1, b->len, out) != b->len || fflush(out))
		return errno ? -errno : -EIO;
	return 0;
}

int batch_needs_hists(const struct batch_opts *o)
{
	if (o->format != BATCH_TEXT ||
	    (o->sort_col < COL_NR && columns[o->sort_col].waits))
		return 1;
	for (int c = 0; c < COL_NR; c++)
		if (columns[c].waits && columns[c].batch_width)
			return 1;
	return 0;
}

void batch_buf_free(struct batch_buf *b)
{
	free(b->idx);
	free(b->text);
	free(b->titles);
	free(b->cpu_titles);
	model_processes_free(&b->procs);
	free(b->memo);
	memset(b, 0, sizeof(*b));
}
