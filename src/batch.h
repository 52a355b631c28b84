/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * batch.h - csftop -b: the model's screens as text, CSV or JSON lines.
 */
#ifndef CSFTOP_BATCH_H
#define CSFTOP_BATCH_H

#include <stdio.h>

#include "model.h"

enum batch_format { BATCH_TEXT, BATCH_CSV, BATCH_JSON };

struct batch_opts {
	enum batch_format format;
	enum col sort_col;
	int sort_desc;
	const struct filter *filter;
	const char *clock_name;		/* untranslated, for CSV/JSON */
	const char *clock_label;	/* translated, for text */
	double time_s;			/* wall clock of the sample */
};

/* Print one screen; returns 0 or -errno (e.g. -EPIPE, -ENOMEM). */
int batch_print(FILE *out, const struct screen *s,
		const struct batch_opts *o);

#endif /* CSFTOP_BATCH_H */
