// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The table of input formats. A format is one descriptor (sink.h, struct
 * p2d_import) in its reader's files and one line here; nothing else in the
 * library names it. This file holds the table alone, so that a program
 * linked with the convenience library (the unit tests) can bring a table of
 * its own.
 */
#include "read-perf.h"

const struct p2d_import *const p2d_importers[] = {
	&p2d_import_perf,
	NULL
};
