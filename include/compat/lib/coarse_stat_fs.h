/* SPDX-License-Identifier: MIT */
/*
 * Installed as $(includedir)/coarse_stat_fs/lib/coarse_stat_fs.h: with the
 * -I$(includedir)/coarse_stat_fs of `pkg-config --cflags coarse_stat_fs`,
 * the in-tree include form of the design brief's example,
 *
 *	#include "lib/coarse_stat_fs.h"
 *
 * compiles as written against the installed library.  New code should say
 * #include <coarse_stat_fs/coarse_stat_fs.h>.
 */
#include "../coarse_stat_fs.h"
