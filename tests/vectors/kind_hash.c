/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Kind "hash": files holding {"hash_tests": [{"alg": "sha256"|"sha224"|"sha384"|"sha512"|
 * "sha3-256"|"sha3-512"|"shake128"|"shake256", "msg": hex, "out": hex}]}. A small kind that lets
 * the runner's machinery be tested on its own; the output length of SHAKE is len(out).
 */
#include <stdlib.h>
#include <string.h>

#include "hash/keccak.h"
#include "hash/sha2.h"
#include "kinds.h"

int vec_kind_hash(json_t *root, vec_report *r)
{
    json_t *tests = json_object_get(root, "hash_tests");
    if (!json_is_array(tests))
        return 0;
    size_t i;
    json_t *t;
    json_array_foreach(tests, i, t)
    {
        const char *alg = vec_str(t, "alg");
        size_t mlen = 0, olen = 0;
        uint8_t *msg = vec_hex(t, "msg", &mlen), *want = vec_hex(t, "out", &olen);
        uint8_t got[512];
        int known = 1;
        if (alg == NULL || msg == NULL || want == NULL || olen > sizeof got) {
            vec_fail(r, "case %zu: malformed entry", i);
            free(msg);
            free(want);
            continue;
        }
        if (strcmp(alg, "sha256") == 0 && olen == 32)
            grove_sha256(got, msg, mlen);
        else if (strcmp(alg, "sha224") == 0 && olen == 28)
            grove_sha224(got, msg, mlen);
        else if (strcmp(alg, "sha384") == 0 && olen == 48)
            grove_sha384(got, msg, mlen);
        else if (strcmp(alg, "sha512") == 0 && olen == 64)
            grove_sha512(got, msg, mlen);
        else if (strcmp(alg, "sha3-256") == 0 && olen == 32)
            grove_sha3_256(got, msg, mlen);
        else if (strcmp(alg, "sha3-512") == 0 && olen == 64)
            grove_sha3_512(got, msg, mlen);
        else if (strcmp(alg, "shake128") == 0)
            grove_shake128(got, olen, msg, mlen);
        else if (strcmp(alg, "shake256") == 0)
            grove_shake256(got, olen, msg, mlen);
        else
            known = 0;
        if (!known)
            vec_fail(r, "case %zu: unknown algorithm or output length (%s)", i, alg);
        else
            vec_check(r, memcmp(got, want, olen) == 0, "case %zu (%s)", i, alg);
        free(msg);
        free(want);
    }
    return 1;
}
