/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* grove hash: message digests with grove's own hash layer (handy for checking files). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/encoding.h"
#include "hash/keccak.h"
#include "hash/sha2.h"

static const cli_opt digest_opts[] = {
    {"alg", "NAME", "sha224, sha256, sha384, sha512, sha3-256, sha3-512, shake128, shake256"},
    {"msg", "FILE", "input file ('-' for stdin; default stdin)"},
    {"len", "BYTES", "output length for shake128/shake256 (default 32 / 64, at most 1024)"},
    {NULL, NULL, NULL},
};

static int cmd_digest(cli_ctx *c)
{
    const char *alg = cli_require(c, "alg");
    if (alg == NULL)
        return CLI_EXIT_USAGE;
    const char *path = cli_opt_str(c, "msg");
    uint64_t xlen;
    int shake128 = strcmp(alg, "shake128") == 0, shake256 = strcmp(alg, "shake256") == 0;
    if (cli_opt_u64(c, "len", 1, 1024, shake128 ? 32 : 64, &xlen) != 0)
        return CLI_EXIT_USAGE;
    if (!shake128 && !shake256 && cli_opt_str(c, "len") != NULL)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--len applies only to shake128/shake256");
    uint8_t *msg;
    size_t mlen, olen;
    uint8_t out[1024];
    static const struct {
        const char *name;
        size_t len;
    } fixed[] = {{"sha224", 28}, {"sha256", 32}, {"sha384", 48},
                 {"sha512", 64}, {"sha3-256", 32}, {"sha3-512", 64}};
    olen = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (strcmp(alg, fixed[i].name) == 0)
            olen = fixed[i].len;
    if (shake128 || shake256)
        olen = (size_t)xlen;
    if (olen == 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED, "unknown algorithm '%s'", alg);
    int rc = cli_read_file(c, path ? path : "-", CLI_MAX_INPUT, &msg, &mlen);
    if (rc)
        return rc;
    if (strcmp(alg, "sha224") == 0)
        grove_sha224(out, msg, mlen);
    else if (strcmp(alg, "sha256") == 0)
        grove_sha256(out, msg, mlen);
    else if (strcmp(alg, "sha384") == 0)
        grove_sha384(out, msg, mlen);
    else if (strcmp(alg, "sha512") == 0)
        grove_sha512(out, msg, mlen);
    else if (strcmp(alg, "sha3-256") == 0)
        grove_sha3_256(out, msg, mlen);
    else if (strcmp(alg, "sha3-512") == 0)
        grove_sha3_512(out, msg, mlen);
    else if (shake128)
        grove_shake128(out, olen, msg, mlen);
    else
        grove_shake256(out, olen, msg, mlen);
    free(msg);
    char hex[2 * 1024 + 1];
    grove_hex_encode(hex, out, olen);
    cli_out_str(c, "alg", alg);
    cli_out_str(c, "digest", hex);
    cli_say(c, "%s", hex);
    return 0;
}

static const cli_command hash_commands[] = {
    {"digest", cmd_digest, "hash a file with grove's SHA-2 / SHA-3 / SHAKE code", digest_opts},
    {NULL, NULL, NULL, NULL},
};

const cli_scheme cli_scheme_hash = {"hash", "SHA-2, SHA-3 and SHAKE digests", hash_commands};
