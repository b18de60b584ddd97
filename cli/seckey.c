/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Secret key files of the grove command (slhdsa, sphincs, cross, stm): the raw secret key
 * followed by a 40-byte integrity trailer
 *
 *   "GRVSKCK1" || SHA-256(label || set name || secret key || public key)
 *
 * (every field of the hash input after the label is preceded by its length, 4 bytes
 * big-endian). The check binds the key to its parameter set and to its public key (stored in
 * the key or derived from it), so any corruption of the file is refused before signing. Raw
 * keys without a trailer (e.g. from a reference implementation) are still accepted, with a
 * warning.
 */
#include <string.h>

#include "cli.h"
#include "grove/hash.h"
#include "grove/io.h"

static const uint8_t sk_magic[8] = {'G', 'R', 'V', 'S', 'K', 'C', 'K', '1'};
static const char sk_label[] = "grove secret key file integrity check v1";

static void put_field(grove_hash_ctx *h, const uint8_t *p, size_t len)
{
    uint8_t l[4] = {(uint8_t)(len >> 24), (uint8_t)(len >> 16), (uint8_t)(len >> 8),
                    (uint8_t)len};
    grove_hash_update(h, l, sizeof l);
    grove_hash_update(h, p, len);
}

grove_status cli_sk_trailer(uint8_t out[CLI_SK_TRAILER_BYTES], const char *set, const uint8_t *sk,
                            size_t sklen, const uint8_t *pk, size_t pklen)
{
    grove_hash_ctx h;
    grove_status st = grove_hash_init(&h, GROVE_HASH_SHA256);
    if (st == GROVE_OK) {
        grove_hash_update(&h, (const uint8_t *)sk_label, sizeof sk_label - 1);
        put_field(&h, (const uint8_t *)set, strlen(set));
        put_field(&h, sk, sklen);
        put_field(&h, pk, pklen);
        memcpy(out, sk_magic, sizeof sk_magic);
        st = grove_hash_final(&h, out + sizeof sk_magic, 32);
    }
    grove_wipe(&h, sizeof h);
    return st;
}

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
    uint8_t want[CLI_SK_TRAILER_BYTES];
    grove_status st = cli_sk_trailer(want, set, sk, sklen, pk, pklen);
    bool ok = st == GROVE_OK && grove_ct_equal(want, trailer, CLI_SK_TRAILER_BYTES);
    grove_wipe(want, sizeof want);
    if (st != GROVE_OK)
        return cli_fail_status(c, st, "secret key integrity check");
    if (!ok)
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
    grove_status st = cli_sk_trailer(buf + sklen, set, sk, sklen, pk, pklen);
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
