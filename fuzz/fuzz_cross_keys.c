/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * CROSS key files. A secret key is any seed of the set's size (the file is the seed); a public
 * key file holds seed_pk and the packed syndrome. Input: a byte choosing one of the 18
 * parameter sets, the secret key, a public key of the set's size (for the seeds: the secret
 * key's own, which the fuzzer mutates), the root seed and the salt of signing, then the message.
 *
 * Keygen from the secret key is deterministic; a signature made with it verifies under the
 * derived public key, and the fast and small-memory strategies produce the same bytes. Under
 * the given public key the signature verifies iff that key equals the derived one byte for
 * byte: no second encoding of a key (padding bits, a syndrome entry >= p) is accepted, and both
 * strategies agree on every key.
 */
#include <stdlib.h>
#include <string.h>

#include "cross/cross_internal.h"
#include "fuzz.h"
#include "grove/cross.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    const grove_cross_params *p = grove_cross_params_at(fuzz_byte(&in) % grove_cross_params_count());
    cross_sizes z;
    cross_sizes_of(p, &z);
    const size_t pkb = grove_cross_pk_bytes(p), skb = grove_cross_sk_bytes(p),
                 sgb = grove_cross_sig_bytes(p);
    const uint8_t *sk, *pk_in, *root, *salt;
    if (!fuzz_take(&in, skb, &sk) || !fuzz_take(&in, pkb, &pk_in) ||
        !fuzz_take(&in, z.seed, &root) || !fuzz_take(&in, z.digest, &salt))
        return 0;
    uint8_t *pk = malloc(pkb), *pk2 = malloc(pkb), *skc = malloc(skb), *sig = malloc(sgb),
            *sig2 = malloc(sgb);
    if (pk == NULL || pk2 == NULL || skc == NULL || sig == NULL || sig2 == NULL)
        abort();
    /* keygen: deterministic; the secret key written is the seed */
    if (grove_cross_keygen_from_seed(p, pk, skc, sk) != GROVE_OK || memcmp(skc, sk, skb) != 0)
        abort();
    if (grove_cross_keygen_from_seed(p, pk2, skc, sk) != GROVE_OK || memcmp(pk, pk2, pkb) != 0)
        abort();
    /* signing with the key file: both strategies give the same signature */
    if (cross_sign_derand(p, GROVE_CROSS_FAST, sig, in.p, in.left, sk, root, salt, NULL, 0) !=
            GROVE_OK ||
        cross_sign_derand(p, GROVE_CROSS_SMALL_MEMORY, sig2, in.p, in.left, sk, root, salt, NULL,
                          0) != GROVE_OK ||
        memcmp(sig, sig2, sgb) != 0)
        abort();
    if (grove_cross_verify(p, GROVE_CROSS_FAST, sig, sgb, in.p, in.left, pk) != GROVE_OK)
        abort();
    /* the given public key: decoded by verification, by both strategies */
    int same = memcmp(pk_in, pk, pkb) == 0;
    int rf = grove_cross_verify(p, GROVE_CROSS_FAST, sig, sgb, in.p, in.left, pk_in);
    int rs = grove_cross_verify(p, GROVE_CROSS_SMALL_MEMORY, sig, sgb, in.p, in.left, pk_in);
    /* a malformed public key is an encoding error, any other a failed verification */
    if (rf != rs || (rf == GROVE_OK) != same ||
        (rf != GROVE_OK && rf != GROVE_ERR_VERIFY && rf != GROVE_ERR_ENCODING))
        abort();
    free(pk);
    free(pk2);
    free(skc);
    free(sig);
    free(sig2);
    return 0;
}
