/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* grove hash: message digests with grove's own hash layer (handy for checking files). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grove/hash.h"
#include "grove/io.h"

static const cli_opt digest_opts[] = {
    {"alg", "NAME", "sha224, sha256, sha384, sha512, sha3-256, sha3-512, shake128, shake256"},
    {"msg", "FILE", "input file ('-' for stdin; default stdin)"},
    {"len", "BYTES", "output length for shake128/shake256 (default 32 / 64, at most 1024)"},
    {NULL, NULL, NULL},
};

static int cmd_digest(cli_ctx *c)
{
    const char *name = cli_require(c, "alg");
    if (name == NULL)
        return CLI_EXIT_USAGE;
    grove_hash_alg alg;
    if (grove_hash_alg_from_name(name, &alg) != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED, "unknown algorithm '%s'", name);
    /* digest_bytes is 0 for the extendable-output functions: their length is --len */
    size_t olen = grove_hash_digest_bytes(alg);
    uint64_t xlen;
    if (cli_opt_u64(c, "len", 1, 1024, alg == GROVE_HASH_SHAKE128 ? 32 : 64, &xlen) != 0)
        return CLI_EXIT_USAGE;
    if (olen != 0 && cli_opt_str(c, "len") != NULL)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--len applies only to shake128/shake256");
    if (olen == 0)
        olen = (size_t)xlen;
    const char *path = cli_opt_str(c, "msg");
    uint8_t *msg, out[1024];
    size_t mlen;
    int rc = cli_read_file(c, path ? path : "-", CLI_MAX_INPUT, &msg, &mlen);
    if (rc)
        return rc;
    grove_status st = grove_hash(alg, out, olen, msg, mlen);
    free(msg);
    if (st != GROVE_OK)
        return cli_fail_status(c, st, "hash");
    char hex[2 * sizeof out + 1];
    grove_hex_encode(hex, out, olen);
    cli_out_str(c, "alg", name);
    cli_out_str(c, "digest", hex);
    cli_say(c, "%s", hex);
    return 0;
}

static const cli_command hash_commands[] = {
    {"digest", cmd_digest, "hash a file with grove's SHA-2 / SHA-3 / SHAKE code", digest_opts},
    {NULL, NULL, NULL, NULL},
};

const cli_scheme cli_scheme_hash = {"hash", "SHA-2, SHA-3 and SHAKE digests", hash_commands};
