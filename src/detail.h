/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * detail.h - the detail view (Enter on a thread): its waits over the
 * interval or its whole life, runqlat's way, and its last waker and
 * preemptor.
 */
#ifndef CSFTOP_DETAIL_H
#define CSFTOP_DETAIL_H

#include "ui.h"

/* The view of thread ui->detail_tid over the whole screen. */
void detail_draw(struct ui *ui);

#endif /* CSFTOP_DETAIL_H */
