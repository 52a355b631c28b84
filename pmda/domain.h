/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The agent's PMDA domain number, for pmdacsf.c and Install (which reads
 * it from this line).  From the range stdpmid leaves free (256..510).
 */
#define CSF 300
