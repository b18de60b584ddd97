/* The schemes the grove command knows. One line each: X(variable). */
#ifndef GROVE_CLI_SCHEMES_H
#define GROVE_CLI_SCHEMES_H

#include "cli.h"

#define GROVE_CLI_SCHEMES(X)                                                                \
    X(cli_scheme_dgsp) X(cli_scheme_slhdsa) X(cli_scheme_sphincs) X(cli_scheme_xmss)          \
        X(cli_scheme_cross) X(cli_scheme_stm) X(cli_scheme_hash)

#define GROVE_DECLARE_SCHEME(v) extern const cli_scheme v;
GROVE_CLI_SCHEMES(GROVE_DECLARE_SCHEME)
#undef GROVE_DECLARE_SCHEME

#endif
