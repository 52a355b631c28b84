// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli.c - what csftop and csf-run say alike on their command lines.
 */
#include <config.h>

#include <stdio.h>

#include "cli.h"
#include "i18n.h"

void cli_try_help(const char *prog)
{
	fprintf(stderr, _("Try '%s --help' for more information.\n"), prog);
}

void cli_version(const char *prog)
{
	printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
	puts(_("License GPLv2+: GNU GPL version 2 or later "
	       "<https://gnu.org/licenses/gpl.html>.\n"
	       "This is free software: you are free to change and "
	       "redistribute it.\nThere is NO WARRANTY, to the extent "
	       "permitted by law."));
}
