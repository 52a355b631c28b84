/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * columns.h - the thread table's columns and the marks in front of its
 * rows, in the spirit of htop's ProcessFieldData: the screen's layout, the
 * text, CSV and JSON output and the sort all read columns[], so that a
 * column is added in one place (doc/development.md, "A csftop column").
 *
 * No curses and no colours here: the model's unit tests and the fuzz
 * targets link it.
 */
#ifndef CSFTOP_COLUMNS_H
#define CSFTOP_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* The columns of the thread table, in display order: columns[] below. */
enum col {
	COL_PID,
	COL_TID,
	COL_COMM,
	COL_STATE,
	COL_CPU,
	COL_RUN_PCT,		/* share of the interval, one per state */
	COL_RUNNABLE_PCT,
	COL_SLEEP_PCT,
	COL_IOWAIT_PCT,
	COL_BLOCKED_PCT,
	COL_RUN_TOTAL,		/* total since registration (B-A in a diff) */
	COL_RUNNABLE_TOTAL,
	COL_SLEEP_TOTAL,
	COL_IOWAIT_TOTAL,
	COL_BLOCKED_TOTAL,
	COL_VCSW_RATE,		/* voluntary switches per second */
	COL_IVCSW_RATE,		/* involuntary switches per second */
	COL_MIGRATIONS,		/* total (B-A in a diff) */
	COL_WAKEUPS,		/* total (B-A in a diff) */
	COL_RUNNABLE_P99,	/* the waits of the interval (ABI 1.1) */
	COL_RUNNABLE_MAX,
	COL_WAIT_P99,
	COL_WAKER,		/* the last, whenever it was */
	COL_PREEMPTOR,
	COL_WAKER_TID,
	COL_PREEMPTOR_TID,
	COL_NR
};

/* The signature view: who waited longest for a CPU in the last interval. */
#define COL_DEFAULT_SORT COL_RUNNABLE_PCT

enum col_kind { COL_KIND_INT, COL_KIND_TEXT, COL_KIND_PCT, COL_KIND_NS,
		COL_KIND_RATE };

enum col_align { ALIGN_LEFT, ALIGN_RIGHT };

struct column {
	const char *key;	/* stable name: -s, CSV header, JSON key */
	const char *title;	/* N_() marked; translate with _() to show */
	const char *help;	/* N_() marked; one line for the help screen */
	enum col_kind kind;	/* how CSV and JSON write the value */
	enum col_align align;
	/* screen cells its values need (the title may need more); 0: as
	 * wide as the widest state name in the language shown */
	int width;
	/* csftop -b text: a fixed grid, so that scripts may cut by column;
	 * 0: not in it (CSV and JSON have every column) */
	int batch_width;
	/* the order columns give way in on a narrow screen: 0 stays longest */
	int priority;
	int desc_first;		/* first sort on it is descending */
	/* its value is of the waits, computed only while something shown
	 * needs them (model_waits()) */
	int waits;
	/*
	 * The value: an integer (ids, ns, counts; the state's number), or a
	 * fraction for shares and rates.  It is the sort key; a column with
	 * neither is sorted on its name(), case-insensitively.
	 */
	uint64_t (*uint)(const struct row *r);
	struct ratio (*ratio)(const struct row *r);
	/* a text column's untranslated text (CSV, JSON) in @buf of
	 * COL_TEXT_MAX bytes or a constant */
	const char *(*text)(const struct row *r, char *buf);
	/* a text column's sort key: a name of up to 16 bytes in the row */
	const char *(*name)(const struct row *r);
	/*
	 * Whether @r has a value: when not (a row without histograms, a task
	 * that never acted), the screen shows "-", CSV leaves it empty and
	 * JSON writes null.  NULL: always.
	 */
	int (*has)(const struct row *r);
	/* the compact form the screen and -b text show, ending just before
	 * @end (fmt.h's way): at most COL_TEXT_MAX - 1 bytes; its start.
	 * A column with uint() or ratio() and neither text() nor has()
	 * renders that value alone: col_by_value() */
	char *(*render)(char *end, const struct row *r,
			const struct column *col);
};

#define COL_TEXT_MAX	64

extern const struct column columns[COL_NR];

/* Whether @r has a value for @col: CSV leaves it empty, JSON null. */
static inline int col_has_value(const struct row *r, const struct column *col)
{
	return !col->has || col->has(r);
}

/*
 * Whether @col's text is its render() of its value alone, uint() or
 * ratio(): a number whatever the row, as ids, totals, counts, shares and
 * rates are.  -b text keeps such cells from one frame to the next.
 */
static inline int col_by_value(const struct column *col)
{
	return !col->uint != !col->ratio && !col->text && !col->has;
}

/* "-", the cell of a row without a value, ending before @end; its start. */
char *col_dash(char *end);

/*
 * Column @col of @r as the screen and -b text show it (col->render(), or
 * "-" when the row has no value for it), ending before @end; its start.
 * Inline: -b text renders a cell per column and thread, every frame.
 */
static inline char *col_render(char *end, const struct row *r,
			       const struct column *col)
{
	return col_has_value(r, col) ? col->render(end, r, col) : col_dash(end);
}

/* Column by its key (case-insensitive), or -1. */
int column_by_key(const char *key);

/* Translated title and state name for the screen and -b text. */
const char *col_title(enum col c);
const char *col_state_name(unsigned int state);

/*
 * What a mark says of its row, for the screen to show in a colour of its
 * choosing (table.c).
 */
enum mark_role {
	MARK_PLAIN,		/* nothing happened */
	MARK_NEW,		/* new, or appeared between A and B */
	MARK_ENDED,		/* exited, or gone between A and B */
	MARK_CHANGED,		/* some counter or state moved in a diff */
};

/*
 * What happened to a row's thread: one character in front of it on the
 * screen and in -b text, a word in CSV and JSON, and its role.  mark_of()
 * gives the first of marks[] whose flag the row has.
 */
struct mark {
	unsigned int flag;	/* ROW_*; 0 for the blank mark */
	char ch;
	const char *key;
	enum mark_role role;
};

const struct mark *mark_of(const struct screen *s, const struct row *r);

#endif /* CSFTOP_COLUMNS_H */
