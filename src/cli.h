/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - what csftop and csf-run say alike on their command lines.
 */
#ifndef CSF_CLI_H
#define CSF_CLI_H

/* "Try 'PROG --help' for more information." on stderr. */
void cli_try_help(const char *prog);

/* --version: name, package, version and licence on stdout. */
void cli_version(const char *prog);

#endif /* CSF_CLI_H */
