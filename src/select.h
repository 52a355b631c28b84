/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * select.h - which rows of a screen a table shows, and in what order:
 * csftop's filter (PIDs or part of a name) and sort, for the screen and
 * for -b alike.  No curses.
 */
#ifndef CSFTOP_SELECT_H
#define CSFTOP_SELECT_H

#include <stddef.h>
#include <sys/types.h>

#include "columns.h"
#include "model.h"

/* Filter: a list of PIDs/TIDs, or a substring of the thread name. */
#define FILTER_MAX_PIDS 64
struct filter {
	size_t npids;
	pid_t pids[FILTER_MAX_PIDS];
	char name[64];			/* empty: no name filter */
	char text[128];			/* as the user typed it */
};

/*
 * filter_set - parse @text: "123" or "1,2,3" filters by PID (or TID), any
 * other text by a case-insensitive substring of COMM, "" clears.  Returns 0
 * or -EINVAL (bad PID list; the filter is unchanged).
 */
int filter_set(struct filter *f, const char *text);
/* filter_set_pids - strictly a PID list, for -p: -EINVAL unless one. */
int filter_set_pids(struct filter *f, const char *text);
int filter_active(const struct filter *f);
int filter_match(const struct filter *f, const struct row *r);

/* PID list parser shared with -p: returns count or -EINVAL. */
int parse_pid_list(const char *text, pid_t *pids, size_t max);

/*
 * select_rows - the rows of @s that pass @f (all rows when NULL), sorted
 * on @col (descending when @desc), ties broken by TID.  Writes indices into
 * @idx (room for s->nrows) and returns how many.
 */
size_t select_rows(const struct screen *s, const struct filter *f,
		   enum col col, int desc, size_t *idx);

#endif /* CSFTOP_SELECT_H */
