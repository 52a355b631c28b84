#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sparse.sh - sparse as `make sparse` runs it (CHECK=).
#
# sparse 0.6.4, the newest in Debian 12 and 13, predates two things that
# 7.x headers use under __CHECKER__: __typeof_unqual__ (forced for sparse
# by compiler_types.h) and __builtin_strlen() in MODULE_INFO()'s
# static_assert; without these it reports hundreds of errors in the
# kernel's headers and none in ours.  They only steer the analysis: the
# module itself is compiled by gcc as usual.
exec sparse '-D__typeof_unqual__=__typeof__' \
	'-D__builtin_strlen(x)=(sizeof(x)-1)' "$@"
