/* SPDX-License-Identifier: MIT */
/*
 * i18n.h - gettext macros shared by the library and the programs.
 *
 * Strings go through dgettext(PACKAGE, ...) rather than gettext(): the
 * library runs inside programs that have their own text domain, and its
 * messages must still come from coarse_stat_fs's catalogue.  The programs of
 * this package use the same domain, so the same macro serves them too.
 *
 * Include "config.h" first: ENABLE_NLS comes from there.
 */
#ifndef CSF_I18N_H
#define CSF_I18N_H

#ifdef ENABLE_NLS
#include <libintl.h>
#define _(s)		dgettext(PACKAGE, s)
#else
#define _(s)		(s)
/* Plurals: call dngettext(PACKAGE, ...) directly, xgettext knows it. */
#define dngettext(domain, s, p, n)	((n) == 1 ? (s) : (p))
#endif

/* Marks a string for extraction; translate it where it is shown. */
#define N_(s)		(s)

#endif /* CSF_I18N_H */
