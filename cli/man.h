/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Manual pages in roff (man(7)), printed by the hidden `grove help --man [SCHEME]` from the
 * same scheme, command and option tables that --help prints, so the two cannot drift. The build
 * writes them to <build>/man (cmake/GroveMan.cmake) and `cmake --install` installs them.
 */
#ifndef GROVE_CLI_MAN_H
#define GROVE_CLI_MAN_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"

/* What grove(1) lists: every scheme, and the commands that belong to no scheme (bench, demo),
 * each with the usage line its --help prints. */
typedef struct cli_man_tables {
    const cli_scheme *const *schemes;
    size_t nschemes;
    const cli_command *const *globals;
    const char *const *global_usage; /* e.g. "grove bench [scheme] [options]" */
    size_t nglobals;
} cli_man_tables;

/* Print grove(1) (s == NULL) or grove-<scheme>(1) to f. */
void cli_man_page(FILE *f, const cli_man_tables *t, const cli_scheme *s);

#endif
