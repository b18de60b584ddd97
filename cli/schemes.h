/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The schemes the grove command knows. One line each: X(variable). */
#ifndef GROVE_CLI_SCHEMES_H
#define GROVE_CLI_SCHEMES_H

#include "cli.h"
#include "grove/config.h"

/* DGSP's commands need its wallets (SQLite); STM is optional too (grove/config.h). */
#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
#define GROVE_CLI_DGSP(X) X(cli_scheme_dgsp)
#else
#define GROVE_CLI_DGSP(X)
#endif
#if GROVE_HAVE_STM
#define GROVE_CLI_STM(X) X(cli_scheme_stm)
#else
#define GROVE_CLI_STM(X)
#endif

#if GROVE_HAVE_MITHRIL
#define GROVE_CLI_MITHRIL(X) X(cli_scheme_mithril)
#else
#define GROVE_CLI_MITHRIL(X)
#endif

#define GROVE_CLI_SCHEMES(X)                                                                \
    GROVE_CLI_DGSP(X) X(cli_scheme_slhdsa) X(cli_scheme_sphincs) X(cli_scheme_xmss)           \
        X(cli_scheme_cross) GROVE_CLI_STM(X) GROVE_CLI_MITHRIL(X) X(cli_scheme_hash)

#define GROVE_DECLARE_SCHEME(v) extern const cli_scheme v;
GROVE_CLI_SCHEMES(GROVE_DECLARE_SCHEME)
#undef GROVE_DECLARE_SCHEME

/* grove hash ALG [FILE]..., like sha256sum (cmd_hash.c): argv[0] is ALG. Its exit code, or -1
 * if argv[0] is no algorithm name (then it is a command of the hash scheme, e.g. digest). */
int cli_hash_sum(cli_ctx *c, int argc, char **argv);

#endif
