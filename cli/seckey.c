/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Secret key files of the grove command (slhdsa, sphincs, cross, stm): the raw secret key
 * followed by the library's integrity trailer (grove_sk_trailer in grove/sig.h, where its
 * format is documented). The check binds the key to its parameter set and to its public key
 * (stored in the key or derived from it), so any corruption of the file is refused before
 * signing. Raw
 * keys without a trailer (e.g. from a reference implementation) are still accepted, with a
 * warning.
 */
#include <string.h>

#include "cli.h"
#include "grove/io.h"

static const uint8_t sk_magic[8] = {'G', 'R', 'V', 'S', 'K', 'C', 'K', '1'};

int cli_read_secret_key(cli_ctx *c, const char *path, size_t sklen, uint8_t *sk,
                        uint8_t trailer[CLI_SK_TRAILER_BYTES], int *sealed)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    *sealed = 0;
    int rc = cli_read_file(c, path, sklen + CLI_SK_TRAILER_BYTES, &buf, &len);
    if (rc)
        return rc;
    if (len != sklen && len != sklen + CLI_SK_TRAILER_BYTES) {
        cli_free_secret(buf, len);
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "%s: a secret key of this parameter set has %zu bytes (%zu with grove's "
                        "integrity trailer), the file has %zu",
                        path, sklen, sklen + CLI_SK_TRAILER_BYTES, len);
    }
    memcpy(sk, buf, sklen);
    if (len > sklen) {
        memcpy(trailer, buf + sklen, CLI_SK_TRAILER_BYTES);
        *sealed = 1;
    }
    cli_free_secret(buf, len);
    return 0;
}

int cli_check_secret_key(cli_ctx *c, const char *path, const char *set, const uint8_t *sk,
                         size_t sklen, const uint8_t *pk, size_t pklen,
                         const uint8_t trailer[CLI_SK_TRAILER_BYTES], int sealed)
{
    if (!sealed) {
        cli_warn(c, "%s is a raw secret key without grove's integrity trailer: its integrity "
                    "cannot be checked (re-create it with grove, or keep it where it cannot "
                    "be damaged)",
                 path);
        return 0;
    }
    if (memcmp(trailer, sk_magic, sizeof sk_magic) != 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "%s: the secret key's integrity trailer is damaged; refusing to use the "
                        "key (nothing signed)",
                        path);
    grove_status st = grove_sk_trailer_check(trailer, set, sk, sklen, pk, pklen);
    if (st != GROVE_OK && st != GROVE_ERR_ENCODING)
        return cli_fail_status(c, st, "secret key integrity check");
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "%s: secret key integrity check failed: the file is corrupted or is not "
                        "a key of %s; refusing to use it (nothing signed)",
                        path, set);
    return 0;
}

int cli_write_secret_key(cli_ctx *c, const char *path, const char *set, const uint8_t *sk,
                         size_t sklen, const uint8_t *pk, size_t pklen)
{
    uint8_t buf[CLI_SK_MAX_BYTES + CLI_SK_TRAILER_BYTES];
    if (sklen > CLI_SK_MAX_BYTES)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG, "secret key too large");
    memcpy(buf, sk, sklen);
    grove_status st = grove_sk_trailer(buf + sklen, set, sk, sklen, pk, pklen);
    unsigned flags = CLI_WRITE_SECRET | (cli_opt_flag(c, "force") ? 0u : CLI_WRITE_NO_REPLACE);
    int rc = st != GROVE_OK ? cli_fail_status(c, st, "secret key integrity trailer")
                            : cli_write_file_ex(c, path, buf, sklen + CLI_SK_TRAILER_BYTES, flags);
    grove_wipe(buf, sizeof buf);
    return rc;
}

int cli_fail_self_check(cli_ctx *c, int status)
{
    return cli_fail(c, CLI_EXIT_USAGE, status,
                    "signature self-check failed: the secret key or the machine is faulty; "
                    "nothing written");
}
