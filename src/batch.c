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
 * A frame is built in one buffer and written with one write(2): at 1,000
 * threads that is ~150 kB, and fprintf per field (stream locking, format
 * parsing) cost more than everything else csftop does per frame.  Numbers
 * go through fmt.c, the formatter the screen uses too.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
	char buf[FMT_BUFSZ];

	ob_put(b, buf, fmt_uint(buf, sizeof(buf), v));
}

static void ob_fixed(struct batch_buf *b, double v, unsigned int decimals)
{
	char buf[FMT_BUFSZ];

	ob_put(b, buf, fmt_fixed(buf, sizeof(buf), v, decimals));
}

/* Write it all to @fd, through short writes and signals. */
static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Rows are the bulk of a frame, so each is written straight into the
 * buffer, reserved once per row with room for its widest form plus
 * ROW_SLACK.  Numbers are written right-aligned in place (fmt_cell):
 * formatting into a scratch buffer and copying that with wide moves read
 * back bytes just stored one at a time, which the CPU cannot forward from
 * its store buffer; that stall was half of print_text's time.
 */
#define ROW_SLACK (2 * FMT_BUFSZ)

/* "%-*s" of the @n bytes already at @p. */
static char *align_left(char *p, size_t n, size_t w)
{
	for (; n < w; n++)
		p[n] = ' ';
	return p + n;
}

/* A short constant string (a mark, a key), without a call to strlen. */
static char *put_unit_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
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
 * A column's value in CSV/JSON at @p: raw units, no rounding to a width.
 * Numbers need FMT_BUFSZ bytes of room, text its length; COMM is the
 * caller's, to quote.
 */
static char *put_raw_value(char *p, const struct row *r, enum col c)
{
	const char *t;

	switch (model_cols[c].kind) {
	case COL_KIND_PCT:
	case COL_KIND_RATE:
		/* most are 0: "%.2f" of 0 without the division */
		if (fmt_value_zero(r, c)) {
			memcpy(p, "0.00", 4);
			return p + 4;
		}
		return p + fmt_fixed(p, FMT_BUFSZ, row_value(r, c), 2);
	case COL_KIND_TEXT:
		for (t = csf_state_name(row_state(r)); *t;)
			*p++ = *t++;
		return p;
	default:
		return p + fmt_uint(p, FMT_BUFSZ, row_uvalue(r, c));
	}
}

/* Room for one CSV/JSON line of values, COMM quoted, state names. */
#define COMM_LEN sizeof(((struct csf_snap *)0)->comm)
#define RAW_ROOM (COL_NR * (FMT_BUFSZ + 1) + 2 * COMM_LEN + 64 + ROW_SLACK)

static void ob_raw_value(struct batch_buf *b, const struct row *r, enum col c)
{
	char *p = ob_room(b, FMT_BUFSZ + ROW_SLACK);

	if (p)
		b->len = (size_t)(put_raw_value(p, r, c) - b->text);
}

/* --- the three formats ---------------------------------------------- */

static void print_csv(struct batch_buf *b, const struct screen *s,
		      const size_t *idx, size_t n, const struct batch_opts *o)
{
	char lead[64];
	size_t lead_len;

	if (s->seq <= 1) {
		ob_puts(b, "sample,time,interval_ns,mark");
		for (int c = 0; c < COL_NR; c++) {
			ob_putc(b, ',');
			ob_puts(b, model_cols[c].key);
		}
		ob_putc(b, '\n');
	}
	/* "sample,time," is the same on every line of the frame */
	lead_len = fmt_uint(lead, sizeof(lead), s->seq);
	lead[lead_len++] = ',';
	lead_len += fmt_fixed(lead + lead_len, sizeof(lead) - lead_len,
			      o->time_s, 3);
	lead[lead_len++] = ',';
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &s->rows[idx[i]];
		char comm[FMT_BUFSZ];
		char *p = ob_room(b, lead_len + RAW_ROOM);

		if (!p)
			return;
		memcpy(p, lead, lead_len);
		p += lead_len;
		p += fmt_uint(p, FMT_BUFSZ, r->interval_ns);
		*p++ = ',';
		p = put_unit_str(p, mark_key(s, r));
		for (int c = 0; c < COL_NR; c++) {
			*p++ = ',';
			if (c == COL_COMM) {
				comm_of(r, comm);
				p = put_csv_str(p, comm);
			} else {
				p = put_raw_value(p, r, (enum col)c);
			}
		}
		*p++ = '\n';
		b->len = (size_t)(p - b->text);
	}
}

static void print_json(struct batch_buf *b, const struct screen *s,
		       const size_t *idx, size_t n,
		       const struct batch_opts *o)
{
	ob_puts(b, "{\"sample\":");
	ob_uint(b, s->seq);
	ob_puts(b, ",\"time\":");
	ob_fixed(b, o->time_s, 3);
	ob_puts(b, ",\"interval_ns\":");
	ob_uint(b, s->interval_ns);
	ob_puts(b, ",\"clock\":");
	json_str(b, o->clock_name);
	ob_puts(b, ",\"ctxsw_per_s\":");
	ob_fixed(b, s->csw_rate, 2);
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
		ob_fixed(b, c->busy_pct, 2);
		ob_puts(b, ",\"idle_iowait\":");
		ob_fixed(b, c->iowait_pct, 2);
		for (size_t j = 0; j < NCPUCOLS; j++) {
			ob_puts(b, ",\"");
			ob_puts(b, cpu_cols[j].key);
			ob_puts(b, "\":");
			ob_fixed(b, c->stat_pct[cpu_cols[j].stat], 2);
		}
		ob_puts(b, ",\"ctxsw_per_s\":");
		ob_fixed(b, c->csw_rate, 2);
		ob_putc(b, '}');
	}
	ob_puts(b, "],\"threads\":[");
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &s->rows[idx[i]];
		char comm[sizeof(r->snap.comm) + 1];

		ob_puts(b, i ? ",{\"mark\":\"" : "{\"mark\":\"");
		ob_puts(b, mark_key(s, r));
		ob_puts(b, "\",\"interval_ns\":");
		ob_uint(b, r->interval_ns);
		for (int c = 0; c < COL_NR; c++) {
			ob_puts(b, ",\"");
			ob_puts(b, model_cols[c].key);
			ob_puts(b, "\":");
			if (c == COL_COMM) {
				comm_of(r, comm);
				json_str(b, comm);
			} else if (c == COL_STATE) {
				json_str(b, csf_state_name(row_state(r)));
			} else {
				ob_raw_value(b, r, (enum col)c);
			}
		}
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
	ob_putc(&t, '\0');
	if (t.oom) {
		free(t.text);
		return NULL;
	}
	return t.text;
}

/* The thread table's title line, translated once. */
static char *title_line(void)
{
	struct batch_buf t = { 0 };

	ob_putc(&t, ' ');
	for (int c = 0; c < COL_NR; c++) {
		const char *title = _(model_cols[c].title);
		int w = c == COL_COMM ? 15 : c == COL_STATE ? 8 :
			c == COL_CPU ? 3 : 7;
		int pad = w - view_width(title);

		ob_putc(&t, ' ');
		if (model_cols[c].kind != COL_KIND_TEXT)
			ob_field(&t, "", 0, pad > 0 ? pad : 0, 0);
		ob_puts(&t, title);
		if (model_cols[c].kind == COL_KIND_TEXT && c != COL_NR - 1)
			ob_field(&t, "", 0, pad > 0 ? pad : 0, 0);
	}
	ob_putc(&t, '\n');
	ob_putc(&t, '\0');
	if (t.oom) {
		free(t.text);
		return NULL;
	}
	return t.text;
}

/*
 * Cells through the memo: in a frame only the current state's total of a
 * thread grows; its PID and TID, its other totals and its counts print
 * the same 8 bytes as the frame before.  The memo is kept by row index and
 * keyed by the exact value, which is all such a cell depends on: a row
 * that moved (threads came or went), or a diff screen, finds other values
 * and is formatted again, never wrong.  @v is the value of column @c of
 * @r, @k its memo slot.
 */
static char *memo_put(struct cell_memo *m, unsigned int k, uint64_t v,
		      char *p, char *end)
{
	m->value[k] = v;
	m->cell[k] = 0;
	if (end - p == 8)
		memcpy(&m->cell[k], p, 8);
	return end;
}

static char *memo_uint(struct cell_memo *m, unsigned int k, uint64_t v,
		       char *p)
{
	if (m->cell[k] && m->value[k] == v) {
		memcpy(p, &m->cell[k], 8);
		return p + 8;
	}
	return memo_put(m, k, v, p, fmt_cell_uint(p, v, FMT_CELL_W));
}

static char *memo_value(const struct batch_buf *b, struct cell_memo *m,
			unsigned int k, uint64_t v, char *p,
			const struct row *r, enum col c)
{
	if (!v) {
		memcpy(p, b->zero_fields[c], 8);
		return p + 8;
	}
	if (m->cell[k] && m->value[k] == v) {
		memcpy(p, &m->cell[k], 8);
		return p + 8;
	}
	return memo_put(m, k, v, p, fmt_cell(p, r, c));
}

/* A share or a rate: most are 0.0, one copy. */
static char *value_cell(const struct batch_buf *b, char *p,
			const struct row *r, enum col c)
{
	if (fmt_value_zero(r, c)) {
		memcpy(p, b->zero_fields[c], 8);
		return p + 8;
	}
	return fmt_cell(p, r, c);
}

/* The order print_text() writes a row's cells in: the titles' order. */
_Static_assert(COL_TID == COL_PID + 1 && COL_RUN_PCT == COL_CPU + 1 &&
	       COL_RUN_TOTAL == COL_RUN_PCT + CSF_NR_STATES &&
	       COL_VCSW_RATE == COL_RUN_TOTAL + CSF_NR_STATES &&
	       COL_IVCSW_RATE == COL_VCSW_RATE + 1 &&
	       COL_MIGRATIONS == COL_IVCSW_RATE + 1 &&
	       COL_WAKEUPS == COL_MIGRATIONS + 1 && COL_NR == COL_WAKEUPS + 1,
	       "print_text() writes the columns in enum col order");

static void print_text(struct batch_buf *b, const struct screen *s,
		       const size_t *idx, size_t n,
		       const struct batch_opts *o)
{
	char rate[FMT_BUFSZ], ival[FMT_BUFSZ], when[32], buf[FMT_BUFSZ];
	time_t secs = (time_t)o->time_s;
	struct tm tm;

	if (!b->have_names) {
		for (unsigned int k = 0; k <= CSF_STATE_EXITED; k++)
			b->state_names[k] = view_state_name(k);
		/* " %7s" of each column's zero, for a copy of 8 bytes */
		for (int c = 0; c < COL_NR; c++)
			snprintf(b->zero_fields[c], sizeof(b->zero_fields[c]),
				 " %7s", fmt_zero((enum col)c));
		b->have_names = 1;
	}
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
	fmt_rate(rate, sizeof(rate), s->csw_rate);
	fmt_interval(ival, sizeof(ival), s->interval_ns);
	ob_printf(b, _("csftop %s  sample %u  interval %s  clock %s  "
		       "threads %u  processes %u  ctx sw/s %s"),
		  when, s->seq, s->seq > 1 ? ival : _("since registration"),
		  o->clock_label, s->nthreads, s->nprocs, rate);
	ob_putc(b, '\n');
	ob_puts(b, b->cpu_titles);
	for (unsigned int k = 0; k < s->ncpus; k++) {
		const struct cpu_row *c = &s->cpus[k];

		ob_field(b, buf, fmt_uint(buf, sizeof(buf), k), 4, 0);
		ob_putc(b, ' ');				/* "%6.1f" */
		ob_field(b, buf, fmt_fixed(buf, sizeof(buf), c->busy_pct, 1),
			 6, 1);
		for (size_t j = 0; j < NCPUCOLS; j++) {
			ob_putc(b, ' ');
			ob_field(b, buf, fmt_fixed(buf, sizeof(buf),
				 c->stat_pct[cpu_cols[j].stat], 1), 6, 1);
		}
		ob_putc(b, ' ');
		ob_field(b, rate, fmt_rate(rate, sizeof(rate), c->csw_rate),
			 7, 1);
		ob_putc(b, '\n');
	}
	ob_puts(b, b->titles);
	if (!s->nrows) {
		ob_puts(b, _("No registered threads."));
		ob_putc(b, '\n');
	}
	if (b->memo_cap < s->nrows) {
		struct cell_memo *memo = realloc(b->memo,
						 s->nrows * sizeof(*memo));

		if (!memo) {
			b->oom = 1;
			return;
		}
		memset(memo + b->memo_cap, 0,
		       (s->nrows - b->memo_cap) * sizeof(*memo));
		b->memo = memo;
		b->memo_cap = s->nrows;
	}
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &s->rows[idx[i]];
		struct cell_memo *m = &b->memo[idx[i]];
		const char *mk = mark_key(s, r);
		unsigned int st = row_state(r);
		const char *state = st <= CSF_STATE_EXITED ?
				    b->state_names[st] : "?";
		size_t state_len = strlen(state);
		char *p;

		/* 64: the mark, PID, TID, COMM and CPU with their spaces */
		p = ob_room(b, 64 + state_len + 8 +
			    COL_NR * (FMT_BUFSZ + 1) + ROW_SLACK);
		if (!p)
			return;
		/* "%c %7u %7u %-15s %-8s %3u", then " %7s" per number */
		*p++ = !*mk ? ' ' : !strcmp(mk, "exited") ? 'x' :
		       !strcmp(mk, "changed") ? '*' : '+';
		p = memo_uint(m, MEMO_PID, r->snap.tgid, p);
		p = memo_uint(m, MEMO_TID, r->snap.tid, p);
		*p++ = ' ';
		memcpy(p, r->snap.comm, sizeof(r->snap.comm));
		p = align_left(p, strnlen(r->snap.comm, sizeof(r->snap.comm)),
			       15);
		*p++ = ' ';
		memcpy(p, state, state_len);
		p = align_left(p, state_len, 8);
		p = fmt_cell_uint(p, r->snap.cpu, 3);
		for (unsigned int k = 0; k < CSF_NR_STATES; k++)
			p = value_cell(b, p, r, (enum col)(COL_RUN_PCT + k));
		for (unsigned int k = 0; k < CSF_NR_STATES; k++)
			p = memo_value(b, m, MEMO_TOTAL + k, r->total_ns[k], p,
				       r, (enum col)(COL_RUN_TOTAL + k));
		p = value_cell(b, p, r, COL_VCSW_RATE);
		p = value_cell(b, p, r, COL_IVCSW_RATE);
		p = memo_value(b, m, MEMO_MIGRATIONS, r->migrations, p, r,
			       COL_MIGRATIONS);
		p = memo_value(b, m, MEMO_WAKEUPS, r->wakeups, p, r,
			       COL_WAKEUPS);
		*p++ = '\n';
		b->len = (size_t)(p - b->text);
	}
	ob_putc(b, '\n');
}

int batch_print(FILE *out, const struct screen *s,
		const struct batch_opts *o, struct batch_buf *b)
{
	size_t n;
	int err;

	if (b->idx_cap < s->nrows) {
		size_t *idx = realloc(b->idx, s->nrows * sizeof(*idx));

		if (!idx)
			return -ENOMEM;
		b->idx = idx;
		b->idx_cap = s->nrows;
	}
	n = model_select(s, o->filter, o->sort_col, o->sort_desc, b->idx);
	b->len = 0;
	b->oom = 0;
	switch (o->format) {
	case BATCH_CSV:
		print_csv(b, s, b->idx, n, o);
		break;
	case BATCH_JSON:
		print_json(b, s, b->idx, n, o);
		break;
	default:
		print_text(b, s, b->idx, n, o);
		break;
	}
	if (b->oom)
		return -ENOMEM;
	/* nothing else is in the stream's buffer: write past it */
	if (fflush(out))
		return errno ? -errno : -EIO;
	if (fileno(out) < 0) {
		if (fwrite(b->text, 1, b->len, out) != b->len || fflush(out))
			return errno ? -errno : -EIO;
		return 0;
	}
	err = write_all(fileno(out), b->text, b->len);
	return err;
}

void batch_buf_free(struct batch_buf *b)
{
	free(b->idx);
	free(b->text);
	free(b->titles);
	free(b->cpu_titles);
	free(b->memo);
	memset(b, 0, sizeof(*b));
}
