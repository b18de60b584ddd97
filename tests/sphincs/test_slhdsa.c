/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SPHINCS+ / SLH-DSA engine: parameter lookup and sizes, round trips for all 12 sets in both
 * flavours, determinism, rejection of every kind of tampering (signature bits in each part,
 * message, context, public key, length), API misuse.
 */
#include <stdlib.h>
#include <string.h>

#include "grove/slhdsa.h"
#include "test.h"

static const struct {
    const char *fips, *r3;
    size_t n, sig;
} expected[] = {
    {"SLH-DSA-SHA2-128s", "sphincs-sha2-128s-simple", 16, 7856},
    {"SLH-DSA-SHAKE-128s", "sphincs-shake-128s-simple", 16, 7856},
    {"SLH-DSA-SHA2-128f", "sphincs-sha2-128f-simple", 16, 17088},
    {"SLH-DSA-SHAKE-128f", "sphincs-shake-128f-simple", 16, 17088},
    {"SLH-DSA-SHA2-192s", "sphincs-sha2-192s-simple", 24, 16224},
    {"SLH-DSA-SHAKE-192s", "sphincs-shake-192s-simple", 24, 16224},
    {"SLH-DSA-SHA2-192f", "sphincs-sha2-192f-simple", 24, 35664},
    {"SLH-DSA-SHAKE-192f", "sphincs-shake-192f-simple", 24, 35664},
    {"SLH-DSA-SHA2-256s", "sphincs-sha2-256s-simple", 32, 29792},
    {"SLH-DSA-SHAKE-256s", "sphincs-shake-256s-simple", 32, 29792},
    {"SLH-DSA-SHA2-256f", "sphincs-sha2-256f-simple", 32, 49856},
    {"SLH-DSA-SHAKE-256f", "sphincs-shake-256f-simple", 32, 49856},
};

static void params_table(void)
{
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        const grove_slhdsa_params *f = grove_slhdsa_params_get(expected[i].fips);
        const grove_slhdsa_params *r = grove_slhdsa_params_get(expected[i].r3);
        CHECK(f != NULL && r != NULL && f != r);
        if (!f || !r)
            continue;
        CHECK(grove_slhdsa_params_is_fips205(f));
        CHECK(!grove_slhdsa_params_is_fips205(r));
        CHECK(grove_slhdsa_params_other_flavour(f) == r);
        CHECK(grove_slhdsa_params_other_flavour(r) == f);
        CHECK_EQ_INT(grove_slhdsa_n(f), expected[i].n);
        CHECK_EQ_INT(grove_slhdsa_pk_bytes(f), 2 * expected[i].n);
        CHECK_EQ_INT(grove_slhdsa_sk_bytes(r), 4 * expected[i].n);
        CHECK_EQ_INT(grove_slhdsa_sig_bytes(f), expected[i].sig);
        CHECK_EQ_INT(grove_slhdsa_sig_bytes(r), expected[i].sig);
        CHECK(grove_slhdsa_sig_bytes(f) <= GROVE_SLHDSA_MAX_SIG_BYTES);
        CHECK(strcmp(grove_slhdsa_params_name(f), expected[i].fips) == 0);
    }
    CHECK(grove_slhdsa_params_get("SLH-DSA-SHA2-128x") == NULL);
    CHECK(grove_slhdsa_params_get("sphincs-sha2-128f-robust") == NULL);
    CHECK(grove_slhdsa_params_get(NULL) == NULL);
    CHECK_EQ_INT(grove_slhdsa_params_count(), 24);
    CHECK(!grove_slhdsa_params_is_fips205(NULL));
    CHECK(grove_slhdsa_params_at(24) == NULL);
    CHECK(grove_slhdsa_params_at(23) != NULL);
    CHECK(grove_slhdsa_prehash_get("SHA2-256") == GROVE_PREHASH_SHA2_256);
    CHECK(grove_slhdsa_prehash_get("SHAKE128") == GROVE_PREHASH_SHAKE128);
    CHECK(grove_slhdsa_prehash_get("SHAKE-256") == GROVE_PREHASH_SHAKE256);
    CHECK(grove_slhdsa_prehash_get("MD5") == 0);
}

/* Flip one bit at byte `pos` and check the verifier rejects it. */
static int verify_any(const grove_slhdsa_params *p, const uint8_t *sig, size_t siglen,
                      const uint8_t *msg, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                      const uint8_t *pk)
{
    if (grove_slhdsa_params_is_fips205(p))
        return grove_slhdsa_verify(p, sig, siglen, msg, mlen, ctx, ctxlen, pk);
    return grove_sphincs_verify(p, sig, siglen, msg, mlen, pk);
}

static void one_set(const grove_slhdsa_params *p, uint64_t *rng, int thorough)
{
    size_t n = grove_slhdsa_n(p), siglen = grove_slhdsa_sig_bytes(p);
    int fips = grove_slhdsa_params_is_fips205(p);
    uint8_t pk[64], sk[128], pk2[64], sk2[128], seed[96];
    uint8_t msg[100], ctx[255];
    uint8_t *sig = malloc(siglen + 1), *sig2 = malloc(siglen + 1);
    size_t mlen = (size_t)(test_rand_u64(rng) % sizeof msg), ctxlen = fips ? 7 : 0;
    test_rand_bytes(rng, msg, mlen);
    test_rand_bytes(rng, ctx, sizeof ctx);
    test_rand_bytes(rng, seed, sizeof seed);

    /* keygen from seed is deterministic and lays the key out as specified */
    CHECK_EQ_INT(grove_slhdsa_keygen_from_seed(p, pk, sk, seed, seed + n, seed + 2 * n), GROVE_OK);
    CHECK_EQ_INT(grove_slhdsa_keygen_from_seed(p, pk2, sk2, seed, seed + n, seed + 2 * n), GROVE_OK);
    CHECK_MEM(pk, pk2, 2 * n);
    CHECK_MEM(sk, sk2, 4 * n);
    CHECK_MEM(sk, seed, 3 * n);
    CHECK_MEM(sk + 2 * n, pk, 2 * n);
    /* the other flavour has the same keys */
    CHECK_EQ_INT(grove_slhdsa_keygen_from_seed(grove_slhdsa_params_other_flavour(p), pk2, sk2, seed,
                                               seed + n, seed + 2 * n),
                 GROVE_OK);
    CHECK_MEM(pk, pk2, 2 * n);

    int st = fips ? grove_slhdsa_sign(p, sig, msg, mlen, ctx, ctxlen, sk, 0)
                  : grove_sphincs_sign(p, sig, msg, mlen, sk);
    CHECK_EQ_INT(st, GROVE_OK);
    CHECK_EQ_INT(verify_any(p, sig, siglen, msg, mlen, ctx, ctxlen, pk), GROVE_OK);

    if (fips) {
        /* deterministic: same signature twice; hedged: a different one that verifies */
        CHECK_EQ_INT(grove_slhdsa_sign(p, sig2, msg, mlen, ctx, ctxlen, sk, 0), GROVE_OK);
        CHECK_MEM(sig, sig2, siglen);
        if (thorough) {
            CHECK_EQ_INT(grove_slhdsa_sign(p, sig2, msg, mlen, ctx, ctxlen, sk, 1), GROVE_OK);
            CHECK(memcmp(sig, sig2, n) != 0);
            CHECK_EQ_INT(grove_slhdsa_verify(p, sig2, siglen, msg, mlen, ctx, ctxlen, pk), GROVE_OK);
        }
        /* context: another context, a context that is a prefix, > 255 bytes */
        ctx[0] ^= 1;
        CHECK_EQ_INT(grove_slhdsa_verify(p, sig, siglen, msg, mlen, ctx, ctxlen, pk), GROVE_ERR_VERIFY);
        ctx[0] ^= 1;
        CHECK_EQ_INT(grove_slhdsa_verify(p, sig, siglen, msg, mlen, ctx, ctxlen - 1, pk), GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_slhdsa_verify(p, sig, siglen, msg, mlen, ctx, 256, pk), GROVE_ERR_INVALID_ARG);
        CHECK_EQ_INT(grove_slhdsa_sign(p, sig2, msg, mlen, ctx, 256, sk, 0), GROVE_ERR_INVALID_ARG);
        /* the internal interface does not accept a pure signature on the raw message */
        CHECK_EQ_INT(grove_slhdsa_verify_internal(p, sig, siglen, msg, mlen, pk), GROVE_ERR_VERIFY);
        /* the round-3.1 entry points refuse a FIPS descriptor */
        CHECK_EQ_INT(grove_sphincs_verify(p, sig, siglen, msg, mlen, pk), GROVE_ERR_UNSUPPORTED);
        /* pre-hash round trip; pure and pre-hash do not cross */
        if (thorough) {
            CHECK_EQ_INT(grove_hashslhdsa_sign(p, sig2, msg, mlen, ctx, ctxlen,
                                               GROVE_PREHASH_SHAKE256, sk, 0),
                         GROVE_OK);
            CHECK_EQ_INT(grove_hashslhdsa_verify(p, sig2, siglen, msg, mlen, ctx, ctxlen,
                                                 GROVE_PREHASH_SHAKE256, pk),
                         GROVE_OK);
            CHECK_EQ_INT(grove_hashslhdsa_verify(p, sig2, siglen, msg, mlen, ctx, ctxlen,
                                                 GROVE_PREHASH_SHA2_512, pk),
                         GROVE_ERR_VERIFY);
            CHECK_EQ_INT(grove_slhdsa_verify(p, sig2, siglen, msg, mlen, ctx, ctxlen, pk),
                         GROVE_ERR_VERIFY);
        }
    } else {
        /* round 3.1 signs with fresh optrand: two signatures differ and both verify */
        if (thorough) {
            CHECK_EQ_INT(grove_sphincs_sign(p, sig2, msg, mlen, sk), GROVE_OK);
            CHECK(memcmp(sig, sig2, n) != 0);
            CHECK_EQ_INT(grove_sphincs_verify(p, sig2, siglen, msg, mlen, pk), GROVE_OK);
        }
        CHECK_EQ_INT(grove_slhdsa_verify(p, sig, siglen, msg, mlen, NULL, 0, pk), GROVE_ERR_UNSUPPORTED);
        CHECK_EQ_INT(grove_slhdsa_sign(p, sig2, msg, mlen, NULL, 0, sk, 0), GROVE_ERR_UNSUPPORTED);
    }
    /* the signature does not verify in the other flavour (the framing differs at least) */
    {
        const grove_slhdsa_params *o = grove_slhdsa_params_other_flavour(p);
        CHECK(verify_any(o, sig, siglen, msg, mlen, ctx, ctxlen, pk) != GROVE_OK);
    }

    /* bit flips in every part of the signature: R, FORS, each hypertree layer, last byte */
    size_t positions[12];
    size_t np = 0;
    positions[np++] = 0;
    positions[np++] = n;                       /* first FORS secret */
    positions[np++] = n + n + 3;               /* FORS auth path */
    positions[np++] = siglen / 3;
    positions[np++] = siglen / 2;
    positions[np++] = siglen - n - 1;          /* top auth path */
    positions[np++] = siglen - 1;
    for (int i = 0; i < (thorough ? 5 : 1); i++)
        positions[np++] = (size_t)(test_rand_u64(rng) % siglen);
    for (size_t i = 0; i < np; i++) {
        uint8_t bit = (uint8_t)(1u << (test_rand_u64(rng) & 7));
        sig[positions[i]] ^= bit;
        CHECK_EQ_INT(verify_any(p, sig, siglen, msg, mlen, ctx, ctxlen, pk), GROVE_ERR_VERIFY);
        sig[positions[i]] ^= bit;
    }
    /* message bit flip, message extended, public key bit flips (seed and root) */
    if (mlen) {
        msg[mlen - 1] ^= 0x80;
        CHECK_EQ_INT(verify_any(p, sig, siglen, msg, mlen, ctx, ctxlen, pk), GROVE_ERR_VERIFY);
        msg[mlen - 1] ^= 0x80;
    }
    CHECK_EQ_INT(verify_any(p, sig, siglen, msg, mlen + 1, ctx, ctxlen, pk), GROVE_ERR_VERIFY);
    pk[0] ^= 1;
    CHECK_EQ_INT(verify_any(p, sig, siglen, msg, mlen, ctx, ctxlen, pk), GROVE_ERR_VERIFY);
    pk[0] ^= 1;
    pk[2 * n - 1] ^= 0x40;
    CHECK_EQ_INT(verify_any(p, sig, siglen, msg, mlen, ctx, ctxlen, pk), GROVE_ERR_VERIFY);
    pk[2 * n - 1] ^= 0x40;
    /* truncated and extended signatures */
    CHECK_EQ_INT(verify_any(p, sig, siglen - 1, msg, mlen, ctx, ctxlen, pk), GROVE_ERR_VERIFY);
    sig[siglen] = 0;
    CHECK_EQ_INT(verify_any(p, sig, siglen + 1, msg, mlen, ctx, ctxlen, pk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(verify_any(p, sig, 0, msg, mlen, ctx, ctxlen, pk), GROVE_ERR_VERIFY);
    /* still valid after all that */
    CHECK_EQ_INT(verify_any(p, sig, siglen, msg, mlen, ctx, ctxlen, pk), GROVE_OK);

    /* a secret key whose PK.root does not match is refused, and the output is wiped */
    if (thorough) {
        sk[4 * n - 1] ^= 1;
        memset(sig2, 0xAA, siglen);
        st = fips ? grove_slhdsa_sign(p, sig2, msg, mlen, ctx, ctxlen, sk, 0)
                  : grove_sphincs_sign(p, sig2, msg, mlen, sk);
        CHECK_EQ_INT(st, GROVE_ERR_INVALID_ARG);
        uint8_t zero[64] = {0};
        CHECK_MEM(sig2, zero, 64);
        sk[4 * n - 1] ^= 1;
    }
    /* NULL arguments */
    CHECK_EQ_INT(grove_slhdsa_keygen(p, NULL, sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_slhdsa_verify_internal(p, NULL, siglen, msg, mlen, pk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_slhdsa_sign_internal(NULL, sig, msg, mlen, sk, seed), GROVE_ERR_INVALID_ARG);
    free(sig);
    free(sig2);
}

/*
 * Every verify function answers GROVE_ERR_VERIFY for a signature of the wrong length (0, 1,
 * one short, one long, huge) and for a right-length signature that is garbage (grove/common.h).
 */
static void verify_lengths(const char *fips_name)
{
    const grove_slhdsa_params *f = grove_slhdsa_params_get(fips_name);
    const grove_slhdsa_params *r = grove_slhdsa_params_other_flavour(f);
    CHECK(f != NULL && r != NULL);
    if (f == NULL || r == NULL)
        return;
    const size_t n = grove_slhdsa_n(f), sl = grove_slhdsa_sig_bytes(f);
    uint8_t pk[64], sk[128], seed[96], msg[9] = "a message";
    uint8_t *sig = calloc(1, sl + 1), *garbage = malloc(sl);
    uint64_t rng = 5;
    test_rand_bytes(&rng, seed, sizeof seed);
    test_rand_bytes(&rng, garbage, sl);
    CHECK_EQ_INT(grove_slhdsa_keygen_from_seed(f, pk, sk, seed, seed + n, seed + 2 * n), GROVE_OK);
    const size_t bad[] = {0, 1, sl - 1, sl + 1, SIZE_MAX};
    for (int which = 0; which < 4; which++) {
        const grove_slhdsa_params *p = which == 3 ? r : f;
        grove_status st = GROVE_ERR_INTERNAL;
        if (which == 0)
            st = grove_slhdsa_sign(p, sig, msg, sizeof msg, NULL, 0, sk, false);
        else if (which == 1)
            st = grove_hashslhdsa_sign(p, sig, msg, sizeof msg, NULL, 0, GROVE_PREHASH_SHA2_256, sk,
                                       false);
        else
            st = grove_slhdsa_sign_internal(p, sig, msg, sizeof msg, sk, seed);
        if (which == 3)
            st = grove_sphincs_sign(p, sig, msg, sizeof msg, sk);
        CHECK_EQ_INT(st, GROVE_OK);
        for (size_t k = 0; k <= sizeof bad / sizeof bad[0]; k++) {
            const int right = k == sizeof bad / sizeof bad[0];
            const uint8_t *s = right ? garbage : sig; /* right length: garbage bytes */
            const size_t len = right ? sl : bad[k];
            if (which == 0)
                st = grove_slhdsa_verify(p, s, len, msg, sizeof msg, NULL, 0, pk);
            else if (which == 1)
                st = grove_hashslhdsa_verify(p, s, len, msg, sizeof msg, NULL, 0,
                                             GROVE_PREHASH_SHA2_256, pk);
            else if (which == 2)
                st = grove_slhdsa_verify_internal(p, s, len, msg, sizeof msg, pk);
            else
                st = grove_sphincs_verify(p, s, len, msg, sizeof msg, pk);
            CHECK_EQ_INT(st, GROVE_ERR_VERIFY);
        }
    }
    /* a pre-hash that is not one: misuse, not a failed verification */
    CHECK_EQ_INT(
        grove_hashslhdsa_verify(f, sig, sl, msg, sizeof msg, NULL, 0, (grove_slhdsa_prehash)0, pk),
        GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_hashslhdsa_sign(f, sig, msg, sizeof msg, NULL, 0, (grove_slhdsa_prehash)99,
                                       sk, false),
                 GROVE_ERR_INVALID_ARG);
    grove_wipe(sk, sizeof sk);
    free(sig);
    free(garbage);
}

int main(int argc, char **argv)
{
    /* "all": every set in both flavours with every check; default: the same, fewer extras
     * for the slow-signing "s" sets. */
    int all = argc > 1 && strcmp(argv[1], "all") == 0;
    uint64_t rng = 2024;
    params_table();
    verify_lengths("SLH-DSA-SHAKE-128f");
    verify_lengths("SLH-DSA-SHA2-128f");
    for (size_t i = 0; grove_slhdsa_params_at(i) != NULL; i++) {
        const grove_slhdsa_params *p = grove_slhdsa_params_at(i);
        const char *name = grove_slhdsa_params_name(p);
        int small = strstr(name, "s-simple") != NULL || name[strlen(name) - 1] == 's';
        one_set(p, &rng, all || !small);
    }
    /* random key generation gives distinct keys that work */
    const grove_slhdsa_params *p = grove_slhdsa_params_get("SLH-DSA-SHAKE-128f");
    uint8_t pk1[32], sk1[64], pk2[32], sk2[64];
    CHECK_EQ_INT(grove_slhdsa_keygen(p, pk1, sk1), GROVE_OK);
    CHECK_EQ_INT(grove_slhdsa_keygen(p, pk2, sk2), GROVE_OK);
    CHECK(memcmp(pk1, pk2, 32) != 0);
    return test_done();
}
