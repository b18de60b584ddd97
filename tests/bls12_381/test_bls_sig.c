/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * BLS signatures through the public API, both variants: key generation and key encodings,
 * sign / verify round trips with several DSTs (empty and longer than 255 bytes), rejection of
 * tampered signatures, keys, messages and DSTs, identity keys, aggregation, fast aggregate
 * verification, aggregate verification, randomized batch verification, proofs of possession,
 * the point-level API and argument checking.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bls12_381/bls_burn.h"
#include "bls12_381/fr.h"
#include "common/util.h"
#include "grove/hash.h"
#include "hash/hkdf.h"
#include "hash/sha2.h"
#include "grove/bls12_381.h"
#include "test.h"

static uint64_t rng = 0x5157;

static void keygen(grove_bls_sk *sk, int i)
{
    uint8_t ikm[32];
    memset(ikm, 0, sizeof ikm);
    ikm[0] = (uint8_t)i;
    ikm[31] = 0xa5;
    CHECK_EQ_INT(grove_bls_keygen(sk, ikm, sizeof ikm, NULL, 0), GROVE_OK);
}

static void test_keys(void)
{
    grove_bls_sk a, b;
    uint8_t ikm[40], out[32], out2[32];
    test_rand_bytes(&rng, ikm, sizeof ikm);
    CHECK_EQ_INT(grove_bls_keygen(&a, ikm, 31, NULL, 0), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_bls_keygen(&a, NULL, 32, NULL, 0), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_bls_keygen(&a, ikm, 32, NULL, 3), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_bls_keygen(&a, ikm, 32, NULL, 0), GROVE_OK);
    CHECK_EQ_INT(grove_bls_keygen(&b, ikm, 32, NULL, 0), GROVE_OK);
    grove_bls_sk_to_bytes(&a, out);
    grove_bls_sk_to_bytes(&b, out2);
    CHECK_MEM(out, out2, 32); /* deterministic */
    CHECK_EQ_INT(grove_bls_keygen(&b, ikm, 32, (const uint8_t *)"x", 1), GROVE_OK);
    grove_bls_sk_to_bytes(&b, out2);
    CHECK(memcmp(out, out2, 32) != 0); /* info matters */
    CHECK_EQ_INT(grove_bls_keygen(&b, ikm, 40, NULL, 0), GROVE_OK);
    grove_bls_sk_to_bytes(&b, out2);
    CHECK(memcmp(out, out2, 32) != 0);
    /* encodings: round trip, 0 and >= r refused */
    CHECK_EQ_INT(grove_bls_sk_from_bytes(&b, out), GROVE_OK);
    grove_bls_sk_to_bytes(&b, out2);
    CHECK_MEM(out, out2, 32);
    static const char *bad[] = {
        "0000000000000000000000000000000000000000000000000000000000000000",
        "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
        "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000002",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"};
    for (size_t i = 0; i < GROVE_ARRAY_LEN(bad); i++) {
        CHECK(test_unhex_into(out, 32, bad[i]));
        CHECK_EQ_INT(grove_bls_sk_from_bytes(&b, out), GROVE_ERR_ENCODING);
    }
    CHECK(test_unhex_into(out, 32,
                          "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000000"));
    CHECK_EQ_INT(grove_bls_sk_from_bytes(&b, out), GROVE_OK);
    memset(out, 0, 32);
    out[31] = 1;
    CHECK_EQ_INT(grove_bls_sk_from_bytes(&b, out), GROVE_OK);
    /* a key of 1 gives the generator */
    uint8_t pk[96], g[96];
    grove_bls_g2 gen;
    CHECK_EQ_INT(grove_bls_sk_to_pk(GROVE_BLS_MIN_SIG, pk, &b), GROVE_OK);
    grove_bls_g2_generator(&gen);
    grove_bls_g2_to_bytes(&gen, g);
    CHECK_MEM(pk, g, 96);
    CHECK_EQ_INT(grove_bls_sk_generate(&b), GROVE_OK);
    grove_bls_sk_wipe(&b);
    grove_bls_sk_to_bytes(&b, out);
    memset(out2, 0, 32);
    CHECK_MEM(out, out2, 32);
    /* a wiped (zero) key cannot sign */
    uint8_t sig[96];
    CHECK_EQ_INT(grove_bls_sign(GROVE_BLS_MIN_PK, sig, NULL, 0, &b, NULL, 0),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_bls_sk_to_pk(GROVE_BLS_MIN_SIG, pk, &b), GROVE_ERR_INVALID_ARG);
    /* variants by name */
    CHECK(grove_bls_variant_get("min-sig") == GROVE_BLS_MIN_SIG);
    CHECK(grove_bls_variant_get("min-pk") == GROVE_BLS_MIN_PK);
    CHECK_EQ_INT(grove_bls_variant_get("minsig"), 0);
    CHECK_EQ_INT(grove_bls_variant_get(NULL), 0);
    CHECK(strcmp(grove_bls_variant_name(GROVE_BLS_MIN_PK), "min-pk") == 0);
    CHECK(strcmp(grove_bls_variant_name((grove_bls_variant)0), "unknown") == 0);
    CHECK_EQ_INT(grove_bls_sk_bytes(GROVE_BLS_MIN_PK), GROVE_BLS_SK_BYTES);
    CHECK_EQ_INT(grove_bls_sk_bytes((grove_bls_variant)0), 0);
    CHECK_EQ_INT(grove_bls_pk_bytes((grove_bls_variant)0), 0);
    grove_bls_sk_wipe(&a);
}

static void test_sign_verify(grove_bls_variant v)
{
    size_t pkl = grove_bls_pk_bytes(v), sgl = grove_bls_sig_bytes(v);
    uint8_t long_dst[300];
    memset(long_dst, 'D', sizeof long_dst);
    const struct {
        const uint8_t *p;
        size_t n;
    } dsts[] = {{NULL, 0},
                {(const uint8_t *)GROVE_BLS_DST_MIN_SIG, strlen(GROVE_BLS_DST_MIN_SIG)},
                {long_dst, sizeof long_dst}};
    grove_bls_sk sk, sk2;
    uint8_t pk[96], pk2[96], sig[96], bad[96], msg[41];
    keygen(&sk, 1);
    keygen(&sk2, 2);
    CHECK_EQ_INT(grove_bls_sk_to_pk(v, pk, &sk), GROVE_OK);
    CHECK_EQ_INT(grove_bls_sk_to_pk(v, pk2, &sk2), GROVE_OK);
    for (size_t d = 0; d < GROVE_ARRAY_LEN(dsts); d++) {
        const uint8_t *dst = dsts[d].p;
        size_t dl = dsts[d].n;
        for (size_t ml = 0; ml <= 40; ml += 20) {
            test_rand_bytes(&rng, msg, ml);
            CHECK_EQ_INT(grove_bls_sign(v, sig, ml ? msg : NULL, ml, &sk, dst, dl), GROVE_OK);
            CHECK_EQ_INT(grove_bls_verify(v, sig, sgl, msg, ml, pk, pkl, dst, dl), GROVE_OK);
            /* wrong key, message, DST */
            CHECK_EQ_INT(grove_bls_verify(v, sig, sgl, msg, ml, pk2, pkl, dst, dl),
                         GROVE_ERR_VERIFY);
            msg[0] ^= 1;
            CHECK_EQ_INT(grove_bls_verify(v, sig, sgl, msg, ml + 1, pk, pkl, dst, dl),
                         GROVE_ERR_VERIFY);
            msg[0] ^= 1;
            CHECK_EQ_INT(grove_bls_verify(v, sig, sgl, msg, ml, pk, pkl, long_dst, 5),
                         GROVE_ERR_VERIFY);
            /* a flipped bit in any byte of the signature is refused */
            for (size_t byte = 0; byte < sgl; byte += (ml == 20 && d == 0 ? 1 : 7)) {
                memcpy(bad, sig, sgl);
                bad[byte] ^= (uint8_t)(1u << ((byte + ml) % 8));
                /* whether the bytes still decode or not: the signature does not verify */
                CHECK_EQ_INT(grove_bls_verify(v, bad, sgl, msg, ml, pk, pkl, dst, dl),
                             GROVE_ERR_VERIFY);
            }
            /* a truncated signature does not verify; a truncated key is malformed */
            CHECK_EQ_INT(grove_bls_verify(v, sig, sgl - 1, msg, ml, pk, pkl, dst, dl),
                         GROVE_ERR_VERIFY);
            CHECK_EQ_INT(grove_bls_verify(v, sig, sgl, msg, ml, pk, pkl - 1, dst, dl),
                         GROVE_ERR_ENCODING);
        }
    }
    /* identity key (KeyValidate) and identity signature */
    memset(bad, 0, sizeof bad);
    bad[0] = 0xc0;
    CHECK_EQ_INT(grove_bls_verify(v, sig, sgl, msg, 5, bad, pkl, NULL, 0), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_bls_verify(v, bad, sgl, msg, 5, pk, pkl, NULL, 0), GROVE_ERR_VERIFY);
    /* signing is deterministic and matches the point-level API */
    uint8_t sig2[96];
    CHECK_EQ_INT(grove_bls_sign(v, sig, msg, 5, &sk, NULL, 0), GROVE_OK);
    CHECK_EQ_INT(grove_bls_sign(v, sig2, msg, 5, &sk, NULL, 0), GROVE_OK);
    CHECK_MEM(sig, sig2, sgl);
    if (v == GROVE_BLS_MIN_SIG) {
        grove_bls_g1 s, h;
        grove_bls_g2 p;
        CHECK_EQ_INT(grove_bls_sign_g1(&s, msg, 5, &sk, NULL, 0), GROVE_OK);
        grove_bls_g1_to_bytes(&s, sig2);
        CHECK_MEM(sig, sig2, 48);
        CHECK_EQ_INT(grove_bls_g2_from_bytes(&p, pk, 96, GROVE_BLS_NO_INFINITY), GROVE_OK);
        CHECK_EQ_INT(grove_bls_verify_g1(&s, msg, 5, &p, NULL, 0), GROVE_OK);
        CHECK_EQ_INT(grove_bls_verify_g1(&s, msg, 4, &p, NULL, 0), GROVE_ERR_VERIFY);
        /* sk * H(msg) through the group API */
        grove_bls_g1_hash(&h, msg, 5, NULL, 0);
        grove_bls_g1_mul_sk(&h, &h, &sk);
        CHECK(grove_bls_g1_equal(&h, &s));
        grove_bls_g1_identity(&h);
        CHECK_EQ_INT(grove_bls_verify_g1(&h, msg, 5, &p, NULL, 0), GROVE_ERR_VERIFY);
    } else {
        grove_bls_g2 s, h;
        grove_bls_g1 p;
        CHECK_EQ_INT(grove_bls_sign_g2(&s, msg, 5, &sk, NULL, 0), GROVE_OK);
        grove_bls_g2_to_bytes(&s, sig2);
        CHECK_MEM(sig, sig2, 96);
        CHECK_EQ_INT(grove_bls_g1_from_bytes(&p, pk, 48, GROVE_BLS_NO_INFINITY), GROVE_OK);
        CHECK_EQ_INT(grove_bls_verify_g2(&s, msg, 5, &p, NULL, 0), GROVE_OK);
        CHECK_EQ_INT(grove_bls_verify_g2(&s, msg, 6, &p, NULL, 0), GROVE_ERR_VERIFY);
        grove_bls_g2_hash(&h, msg, 5, NULL, 0);
        grove_bls_g2_mul_sk(&h, &h, &sk);
        CHECK(grove_bls_g2_equal(&h, &s));
    }
    /* uncompressed inputs are accepted too */
    uint8_t unc[192];
    if (v == GROVE_BLS_MIN_SIG) {
        grove_bls_g1 s;
        CHECK_EQ_INT(grove_bls_g1_from_bytes(&s, sig, 48, 0), GROVE_OK);
        grove_bls_g1_to_bytes_uncompressed(&s, unc);
        CHECK_EQ_INT(grove_bls_verify(v, unc, 96, msg, 5, pk, pkl, NULL, 0), GROVE_OK);
    } else {
        grove_bls_g2 s;
        CHECK_EQ_INT(grove_bls_g2_from_bytes(&s, sig, 96, 0), GROVE_OK);
        grove_bls_g2_to_bytes_uncompressed(&s, unc);
        CHECK_EQ_INT(grove_bls_verify(v, unc, 192, msg, 5, pk, pkl, NULL, 0), GROVE_OK);
    }
    /* a signature of the other variant's size is refused */
    CHECK(grove_bls_verify(v, sig, sgl == 48 ? 96 : 48, msg, 5, pk, pkl, NULL, 0) != GROVE_OK);
    CHECK_EQ_INT(grove_bls_verify(v, sig, sgl, NULL, 5, pk, pkl, NULL, 0), GROVE_ERR_INVALID_ARG);
    grove_bls_sk_wipe(&sk);
    grove_bls_sk_wipe(&sk2);
}

static void test_aggregation(grove_bls_variant v)
{
    enum { N = 5 };
    size_t pkl = grove_bls_pk_bytes(v), sgl = grove_bls_sig_bytes(v);
    const uint8_t *dst = (const uint8_t *)(v == GROVE_BLS_MIN_SIG ? GROVE_BLS_DST_MIN_SIG
                                                                  : GROVE_BLS_DST_MIN_PK);
    size_t dl = strlen((const char *)dst);
    uint8_t pks[N * 96], sigs[N * 96], same[N * 96], agg[96], agg_same[96], apk[96];
    uint8_t msgs[N][8];
    const uint8_t *mp[N];
    size_t ml[N];
    grove_bls_sk sk[N];
    for (size_t i = 0; i < N; i++) {
        keygen(&sk[i], 10 + (int)i);
        CHECK_EQ_INT(grove_bls_sk_to_pk(v, pks + i * pkl, &sk[i]), GROVE_OK);
        memset(msgs[i], 'a' + (int)i, 8);
        mp[i] = msgs[i];
        ml[i] = 8;
        CHECK_EQ_INT(grove_bls_sign(v, sigs + i * sgl, mp[i], 8, &sk[i], dst, dl), GROVE_OK);
        CHECK_EQ_INT(grove_bls_sign(v, same + i * sgl, mp[0], 8, &sk[i], dst, dl), GROVE_OK);
    }
    CHECK_EQ_INT(grove_bls_aggregate_sigs(v, agg, sigs, N), GROVE_OK);
    CHECK_EQ_INT(grove_bls_aggregate_sigs(v, agg_same, same, N), GROVE_OK);
    CHECK_EQ_INT(grove_bls_aggregate_sigs(v, agg, sigs, 0), GROVE_ERR_INVALID_ARG);
    /* aggregate of one is itself */
    CHECK_EQ_INT(grove_bls_aggregate_sigs(v, apk, sigs, 1), GROVE_OK);
    CHECK_MEM(apk, sigs, sgl);
    /* aggregate verify (distinct messages) */
    CHECK_EQ_INT(grove_bls_aggregate_verify(v, agg, sgl, mp, ml, pks, N, dst, dl), GROVE_OK);
    CHECK_EQ_INT(grove_bls_aggregate_verify(v, agg, sgl, mp, ml, pks, N - 1, dst, dl),
                 GROVE_ERR_VERIFY);
    const uint8_t *swapped[N];
    memcpy(swapped, mp, sizeof swapped);
    swapped[0] = mp[1];
    swapped[1] = mp[0];
    CHECK_EQ_INT(grove_bls_aggregate_verify(v, agg, sgl, swapped, ml, pks, N, dst, dl),
                 GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_bls_aggregate_verify(v, agg, sgl, mp, ml, pks, 0, dst, dl),
                 GROVE_ERR_INVALID_ARG);
    /* fast aggregate verify (one message) and public-key aggregation */
    CHECK_EQ_INT(grove_bls_fast_aggregate_verify(v, agg_same, sgl, mp[0], 8, pks, N, dst, dl),
                 GROVE_OK);
    CHECK_EQ_INT(grove_bls_fast_aggregate_verify(v, agg_same, sgl, mp[0], 8, pks, N - 1, dst, dl),
                 GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_bls_fast_aggregate_verify(v, agg_same, sgl, mp[1], 8, pks, N, dst, dl),
                 GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_bls_fast_aggregate_verify(v, agg_same, sgl, mp[0], 8, pks, 0, dst, dl),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_bls_aggregate_pks(v, apk, pks, N), GROVE_OK);
    CHECK_EQ_INT(grove_bls_verify(v, agg_same, sgl, mp[0], 8, apk, pkl, dst, dl), GROVE_OK);
    /* an identity public key in the list is refused */
    uint8_t withinf[(N + 1) * 96];
    memcpy(withinf, pks, N * pkl);
    memset(withinf + N * pkl, 0, pkl);
    withinf[N * pkl] = 0xc0;
    CHECK_EQ_INT(
        grove_bls_fast_aggregate_verify(v, agg_same, sgl, mp[0], 8, withinf, N + 1, dst, dl),
        GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_bls_aggregate_pks(v, apk, withinf, N + 1), GROVE_ERR_ENCODING);
    /* identity signatures aggregate */
    uint8_t inf[96] = {0};
    inf[0] = 0xc0;
    CHECK_EQ_INT(grove_bls_aggregate_sigs(v, apk, inf, 1), GROVE_OK);
    CHECK_MEM(apk, inf, sgl);
    /* batch verification of independent signatures (repeated messages allowed) */
    CHECK_EQ_INT(grove_bls_batch_verify(v, sigs, mp, ml, pks, N, dst, dl), GROVE_OK);
    const uint8_t *firsts[N];
    for (int i = 0; i < N; i++)
        firsts[i] = mp[0];
    CHECK_EQ_INT(grove_bls_batch_verify(v, same, firsts, ml, pks, N, dst, dl), GROVE_OK);
    CHECK_EQ_INT(grove_bls_batch_verify(v, sigs, firsts, ml, pks, N, dst, dl), GROVE_ERR_VERIFY);
    /* two swapped signatures: the plain sum would still match, the weighted one does not */
    uint8_t sw[N * 96];
    memcpy(sw, sigs, N * sgl);
    memcpy(sw, sigs + sgl, sgl);
    memcpy(sw + sgl, sigs, sgl);
    CHECK_EQ_INT(grove_bls_batch_verify(v, sw, mp, ml, pks, N, dst, dl), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_bls_batch_verify(v, sigs, mp, ml, pks, 1, dst, dl), GROVE_OK);
    /* proofs of possession */
    const uint8_t *pdst = (const uint8_t *)(v == GROVE_BLS_MIN_SIG ? GROVE_BLS_POP_DST_MIN_SIG
                                                                   : GROVE_BLS_POP_DST_MIN_PK);
    size_t pdl = strlen((const char *)pdst);
    uint8_t proof[96];
    CHECK_EQ_INT(grove_bls_pop_prove(v, proof, &sk[0], pdst, pdl), GROVE_OK);
    CHECK_EQ_INT(grove_bls_pop_verify(v, proof, sgl, pks, pkl, pdst, pdl), GROVE_OK);
    CHECK_EQ_INT(grove_bls_pop_verify(v, proof, sgl, pks + pkl, pkl, pdst, pdl), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_bls_pop_verify(v, proof, sgl, pks, pkl, dst, dl), GROVE_ERR_VERIFY);
    for (int i = 0; i < N; i++)
        grove_bls_sk_wipe(&sk[i]);
}

/* A compressed encoding (len 48 or 96) of a point on the curve but outside the prime-order
 * subgroup: the first x = 1, 2, ... that decodes without the subgroup check (almost every
 * curve point is outside the subgroup). */
static void non_subgroup_point(uint8_t *out, size_t len)
{
    for (uint8_t x = 1; x < 255; x++) {
        memset(out, 0, len);
        out[0] = 0x80;
        out[len - 1] = x;
        if (len == 48) {
            grove_bls_g1 p;
            if (grove_bls_g1_from_bytes(&p, out, len, GROVE_BLS_NO_SUBGROUP_CHECK) == GROVE_OK &&
                !grove_bls_g1_in_group(&p))
                return;
        } else {
            grove_bls_g2 p;
            if (grove_bls_g2_from_bytes(&p, out, len, GROVE_BLS_NO_SUBGROUP_CHECK) == GROVE_OK &&
                !grove_bls_g2_in_group(&p))
                return;
        }
    }
    CHECK(0); /* not reached */
}

/*
 * grove/common.h: every verify function returns GROVE_ERR_VERIFY for a signature or proof of
 * the wrong length or a malformed one of the right length (non-canonical coordinate, bad
 * flags, not in the subgroup), and GROVE_ERR_ENCODING only for a malformed public key.
 */
static void test_status_rules(grove_bls_variant v)
{
    const size_t pkl = grove_bls_pk_bytes(v), sgl = grove_bls_sig_bytes(v);
    const uint8_t *dst = (const uint8_t *)"DST";
    const uint8_t msg[3] = {1, 2, 3}, *msgs[2] = {msg, msg};
    const size_t mls[2] = {3, 3};
    grove_bls_sk sk;
    uint8_t pk[96], pks[192], sig[96], sigs[192], agg[96], proof[96];
    keygen(&sk, 7);
    CHECK_EQ_INT(grove_bls_sk_to_pk(v, pk, &sk), GROVE_OK);
    CHECK_EQ_INT(grove_bls_sign(v, sig, msg, 3, &sk, dst, 3), GROVE_OK);
    CHECK_EQ_INT(grove_bls_pop_prove(v, proof, &sk, dst, 3), GROVE_OK);
    memcpy(pks, pk, pkl);
    memcpy(pks + pkl, pk, pkl);
    memcpy(sigs, sig, sgl);
    memcpy(sigs + sgl, sig, sgl);
    CHECK_EQ_INT(grove_bls_aggregate_sigs(v, agg, sigs, 2), GROVE_OK);
    /* the honest inputs verify */
    CHECK_EQ_INT(grove_bls_verify(v, sig, sgl, msg, 3, pk, pkl, dst, 3), GROVE_OK);
    CHECK_EQ_INT(grove_bls_fast_aggregate_verify(v, agg, sgl, msg, 3, pks, 2, dst, 3), GROVE_OK);
    CHECK_EQ_INT(grove_bls_aggregate_verify(v, agg, sgl, msgs, mls, pks, 2, dst, 3), GROVE_OK);
    CHECK_EQ_INT(grove_bls_batch_verify(v, sigs, msgs, mls, pks, 2, dst, 3), GROVE_OK);
    CHECK_EQ_INT(grove_bls_pop_verify(v, proof, sgl, pk, pkl, dst, 3), GROVE_OK);

    /* malformed signatures of the right length: x >= p, bad flags, outside the subgroup */
    uint8_t bad[4][96];
    memset(bad[0], 0xff, sizeof bad[0]);
    bad[0][0] = 0x9f; /* compressed, x far above p */
    memcpy(bad[1], sig, sgl);
    bad[1][0] &= 0x7f; /* the compression flag cleared at the compressed length */
    memset(bad[2], 0, sizeof bad[2]);
    bad[2][0] = 0xc0;
    bad[2][sgl - 1] = 1; /* "infinity" with a nonzero coordinate */
    non_subgroup_point(bad[3], sgl);
    for (size_t k = 0; k < 4; k++) {
        uint8_t two[192];
        memcpy(two, sig, sgl);
        memcpy(two + sgl, bad[k], sgl);
        CHECK_EQ_INT(grove_bls_verify(v, bad[k], sgl, msg, 3, pk, pkl, dst, 3), GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_bls_fast_aggregate_verify(v, bad[k], sgl, msg, 3, pks, 2, dst, 3),
                     GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_bls_aggregate_verify(v, bad[k], sgl, msgs, mls, pks, 2, dst, 3),
                     GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_bls_batch_verify(v, two, msgs, mls, pks, 2, dst, 3), GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_bls_pop_verify(v, bad[k], sgl, pk, pkl, dst, 3), GROVE_ERR_VERIFY);
    }
    /* signatures of a wrong length (one byte short, one too long, empty) */
    const size_t lens[3] = {sgl - 1, sgl + 1, 0};
    for (size_t k = 0; k < 3; k++) {
        CHECK_EQ_INT(grove_bls_verify(v, sig, lens[k], msg, 3, pk, pkl, dst, 3), GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_bls_fast_aggregate_verify(v, agg, lens[k], msg, 3, pks, 2, dst, 3),
                     GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_bls_aggregate_verify(v, agg, lens[k], msgs, mls, pks, 2, dst, 3),
                     GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_bls_pop_verify(v, proof, lens[k], pk, pkl, dst, 3), GROVE_ERR_VERIFY);
    }
    /* an identity signature in a batch does not verify */
    uint8_t idsigs[192] = {0};
    idsigs[0] = idsigs[sgl] = 0xc0;
    CHECK_EQ_INT(grove_bls_batch_verify(v, idsigs, msgs, mls, pks, 2, dst, 3), GROVE_ERR_VERIFY);

    /* malformed public keys (right length and wrong length): GROVE_ERR_ENCODING */
    uint8_t badpk[2][96], badpks[192];
    memset(badpk[0], 0xff, sizeof badpk[0]);
    badpk[0][0] = 0x9f;
    non_subgroup_point(badpk[1], pkl);
    for (size_t k = 0; k < 2; k++) {
        memcpy(badpks, pk, pkl);
        memcpy(badpks + pkl, badpk[k], pkl);
        CHECK_EQ_INT(grove_bls_verify(v, sig, sgl, msg, 3, badpk[k], pkl, dst, 3),
                     GROVE_ERR_ENCODING);
        CHECK_EQ_INT(grove_bls_fast_aggregate_verify(v, agg, sgl, msg, 3, badpks, 2, dst, 3),
                     GROVE_ERR_ENCODING);
        CHECK_EQ_INT(grove_bls_aggregate_verify(v, agg, sgl, msgs, mls, badpks, 2, dst, 3),
                     GROVE_ERR_ENCODING);
        CHECK_EQ_INT(grove_bls_batch_verify(v, sigs, msgs, mls, badpks, 2, dst, 3),
                     GROVE_ERR_ENCODING);
        CHECK_EQ_INT(grove_bls_pop_verify(v, proof, sgl, badpk[k], pkl, dst, 3),
                     GROVE_ERR_ENCODING);
    }
    CHECK_EQ_INT(grove_bls_verify(v, sig, sgl, msg, 3, pk, pkl - 1, dst, 3), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_bls_pop_verify(v, proof, sgl, pk, pkl + 1, dst, 3), GROVE_ERR_ENCODING);
    /* a malformed key and a malformed signature together: the key is reported */
    CHECK_EQ_INT(grove_bls_verify(v, bad[0], sgl, msg, 3, badpk[0], pkl, dst, 3),
                 GROVE_ERR_ENCODING);
    /* misuse stays GROVE_ERR_INVALID_ARG */
    CHECK_EQ_INT(grove_bls_verify(v, NULL, sgl, msg, 3, pk, pkl, dst, 3), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_bls_verify((grove_bls_variant)0, sig, sgl, msg, 3, pk, pkl, dst, 3),
                 GROVE_ERR_INVALID_ARG);
    grove_bls_sk_wipe(&sk);
}

static void test_groups_api(void)
{
    grove_bls_g1 g, p[40], r, s;
    grove_bls_g2 h, q[40], u, w;
    uint8_t ks[40 * 16];
    test_rand_bytes(&rng, ks, sizeof ks);
    grove_bls_g1_generator(&g);
    grove_bls_g2_generator(&h);
    for (int i = 0; i < 40; i++) {
        CHECK_EQ_INT(grove_bls_g1_mul(&p[i], &g, ks + 16 * ((i + 1) % 40), 16), GROVE_OK);
        CHECK_EQ_INT(grove_bls_g2_mul(&q[i], &h, ks + 16 * ((i + 1) % 40), 16), GROVE_OK);
    }
    /* MSM = sum of multiplications, 16-byte scalars (Mithril's Blake2b-128 weights) */
    CHECK_EQ_INT(grove_bls_g1_msm(&r, p, ks, 16, 40), GROVE_OK);
    CHECK_EQ_INT(grove_bls_g2_msm(&u, q, ks, 16, 40), GROVE_OK);
    grove_bls_g1_identity(&s);
    grove_bls_g2_identity(&w);
    for (int i = 0; i < 40; i++) {
        grove_bls_g1 t;
        grove_bls_g2 t2;
        CHECK_EQ_INT(grove_bls_g1_mul(&t, &p[i], ks + 16 * i, 16), GROVE_OK);
        grove_bls_g1_add(&s, &s, &t);
        CHECK_EQ_INT(grove_bls_g2_mul(&t2, &q[i], ks + 16 * i, 16), GROVE_OK);
        grove_bls_g2_add(&w, &w, &t2);
    }
    CHECK(grove_bls_g1_equal(&r, &s));
    CHECK(grove_bls_g2_equal(&u, &w));
    CHECK(grove_bls_g1_in_group(&r) && grove_bls_g2_in_group(&u));
    CHECK_EQ_INT(grove_bls_g1_msm(&r, NULL, NULL, 16, 0), GROVE_OK);
    CHECK(grove_bls_g1_is_identity(&r));
    CHECK_EQ_INT(grove_bls_g1_msm(&r, p, ks, 65, 2), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_bls_g1_mul(&r, &g, ks, 65), GROVE_ERR_INVALID_ARG);
    /* encodings round trip through the API */
    uint8_t c[192];
    grove_bls_g2_to_bytes_uncompressed(&u, c);
    CHECK_EQ_INT(grove_bls_g2_from_bytes(&w, c, 192, 0), GROVE_OK);
    CHECK(grove_bls_g2_equal(&u, &w));
    grove_bls_g1_to_bytes(&s, c);
    CHECK_EQ_INT(grove_bls_g1_from_bytes(&r, c, 48, 0), GROVE_OK);
    CHECK(grove_bls_g1_equal(&r, &s));
    /* negation */
    grove_bls_g1_neg(&r, &s);
    grove_bls_g1_add(&r, &r, &s);
    CHECK(grove_bls_g1_is_identity(&r));
    grove_bls_g2_neg(&w, &u);
    grove_bls_g2_add(&w, &w, &u);
    CHECK(grove_bls_g2_is_identity(&w));
    /* expand_message_xmd bounds */
    uint8_t out[64];
    CHECK_EQ_INT(grove_bls_expand_message_xmd(out, 64, NULL, 0, NULL, 0), GROVE_OK);
    uint8_t *big = malloc(8161);
    CHECK_EQ_INT(grove_bls_expand_message_xmd(big, 8160, NULL, 0, NULL, 0), GROVE_OK);
    CHECK_EQ_INT(grove_bls_expand_message_xmd(big, 8161, NULL, 0, NULL, 0),
                 GROVE_ERR_INVALID_ARG);
    free(big);
    /* hash and encode differ; the NU/RO maps are in the group */
    grove_bls_g1_hash(&r, (const uint8_t *)"m", 1, NULL, 0);
    grove_bls_g1_encode(&s, (const uint8_t *)"m", 1, NULL, 0);
    CHECK(!grove_bls_g1_equal(&r, &s) && grove_bls_g1_in_group(&r) && grove_bls_g1_in_group(&s));
    grove_bls_g2_hash(&u, (const uint8_t *)"m", 1, NULL, 0);
    grove_bls_g2_encode(&w, (const uint8_t *)"m", 1, NULL, 0);
    CHECK(!grove_bls_g2_equal(&u, &w) && grove_bls_g2_in_group(&u) && grove_bls_g2_in_group(&w));
}

/*
 * KeyGen's precomputed salt states: HKDF-Extract from grove_hkdf_sha256_salt_states equals the
 * plain extract for salts of every length class, and grove_bls_keygen equals the IETF KeyGen
 * written out with the plain HKDF (salt = SHA-256("BLS-SIG-KEYGEN-SALT-"), L = 48, mod r) for
 * several IKM lengths and infos.
 */
static void test_keygen_states(void)
{
    uint8_t salt[80], ikm[80], info[20], a[32], b[32];
    for (size_t i = 0; i < sizeof salt; i++)
        salt[i] = (uint8_t)(11 * i + 3);
    for (size_t i = 0; i < sizeof ikm; i++)
        ikm[i] = (uint8_t)(7 * i + 1);
    for (size_t i = 0; i < sizeof info; i++)
        info[i] = (uint8_t)(5 * i + 9);
    static const size_t salt_lens[] = {0, 1, 32, 63, 64, 65, 80};
    for (size_t i = 0; i < sizeof salt_lens / sizeof salt_lens[0]; i++) {
        grove_hkdf_salt_states st;
        grove_hkdf_part parts[2] = {{ikm, 33}, {info, 3}};
        grove_hkdf_sha256_salt_states(&st, salt, salt_lens[i]);
        grove_hkdf_sha256_extract_parts_states(a, &st, parts, 2);
        grove_hkdf_sha256_extract_parts(b, salt, salt_lens[i], parts, 2);
        CHECK(memcmp(a, b, 32) == 0);
    }
    uint8_t salt0[32];
    grove_sha256(salt0, (const uint8_t *)"BLS-SIG-KEYGEN-SALT-", 20);
    static const size_t ikm_lens[] = {32, 33, 55, 56, 64, 80};
    for (size_t i = 0; i < sizeof ikm_lens / sizeof ikm_lens[0]; i++)
        for (size_t info_len = 0; info_len <= sizeof info; info_len += 10) {
            const uint8_t zero = 0, l48[2] = {0, 48};
            grove_hkdf_part ip[2] = {{ikm, ikm_lens[i]}, {&zero, 1}};
            grove_hkdf_part fp[2] = {{info, info_len}, {l48, 2}};
            uint8_t prk[32], okm[48];
            uint64_t k[4];
            grove_bls_sk sk;
            grove_hkdf_sha256_extract_parts(prk, salt0, 32, ip, 2);
            CHECK(grove_hkdf_sha256_expand_parts(okm, 48, prk, fp, 2));
            fr_from_bytes_wide(k, okm, 48);
            CHECK(!fr_is_zero_mask(k));
            CHECK_EQ_INT(grove_bls_keygen(&sk, ikm, ikm_lens[i], info_len ? info : NULL, info_len),
                         GROVE_OK);
            CHECK(memcmp(sk.opaque, k, 32) == 0);
            ikm[0]++; /* a fresh key each round */
        }
}

/*
 * HKDF-SHA-256 (hkdf.c computes HMAC on the key's states itself): RFC 5869 test case 1, and
 * Expand against T(i) = HMAC(prk, T(i-1) || info || i) written out with the one-shot
 * grove_hmac_sha256, for output lengths around the block boundaries, infos cut into pieces,
 * and the 255 * 32 limit.
 */
static void test_hkdf(void)
{
    static const uint8_t prk1[32] = {
        0x07, 0x77, 0x09, 0x36, 0x2c, 0x2e, 0x32, 0xdf, 0x0d, 0xdc, 0x3f, 0x0d, 0xc4, 0x7b, 0xba, 0x63,
        0x90, 0xb6, 0xc7, 0x3b, 0xb5, 0x0f, 0x9c, 0x31, 0x22, 0xec, 0x84, 0x4a, 0xd7, 0xc2, 0xb3, 0xe5};
    static const uint8_t okm1[42] = {
        0x3c, 0xb2, 0x5f, 0x25, 0xfa, 0xac, 0xd5, 0x7a, 0x90, 0x43, 0x4f, 0x64, 0xd0, 0x36,
        0x2f, 0x2a, 0x2d, 0x2d, 0x0a, 0x90, 0xcf, 0x1a, 0x5a, 0x4c, 0x5d, 0xb0, 0x2d, 0x56,
        0xec, 0xc4, 0xc5, 0xbf, 0x34, 0x00, 0x72, 0x08, 0xd5, 0xb8, 0x87, 0x18, 0x58, 0x65};
    uint8_t ikm[22], salt[13], info[10], prk[32], okm[300], ref[300], msg[32 + 10 + 1];
    memset(ikm, 0x0b, sizeof ikm);
    for (size_t i = 0; i < sizeof salt; i++)
        salt[i] = (uint8_t)i;
    for (size_t i = 0; i < sizeof info; i++)
        info[i] = (uint8_t)(0xf0 + i);
    grove_hkdf_sha256_extract(prk, salt, sizeof salt, ikm, sizeof ikm);
    CHECK(memcmp(prk, prk1, 32) == 0);
    CHECK(grove_hkdf_sha256_expand(okm, sizeof okm1, prk, info, sizeof info));
    CHECK(memcmp(okm, okm1, sizeof okm1) == 0);
    static const size_t lens[] = {0, 1, 31, 32, 33, 48, 64, 65, 300};
    for (size_t n = 0; n < sizeof lens / sizeof lens[0]; n++)
        for (size_t info_len = 0; info_len <= sizeof info; info_len += 5) {
            size_t cut = info_len / 2;
            grove_hkdf_part parts[3] = {{info, cut}, {NULL, 0}, {info + cut, info_len - cut}};
            memset(okm, 0xee, sizeof okm);
            CHECK(grove_hkdf_sha256_expand_parts(okm, lens[n], prk, parts, 3));
            uint8_t t[32];
            size_t tlen = 0;
            for (size_t done = 0, i = 1; done < lens[n]; i++) {
                memcpy(msg, t, tlen);
                memcpy(msg + tlen, info, info_len);
                msg[tlen + info_len] = (uint8_t)i;
                grove_hmac_sha256(t, prk, 32, msg, tlen + info_len + 1);
                tlen = 32;
                size_t take = lens[n] - done < 32 ? lens[n] - done : 32;
                memcpy(ref + done, t, take);
                done += take;
            }
            CHECK(memcmp(okm, ref, lens[n]) == 0);
            CHECK(lens[n] == sizeof okm || okm[lens[n]] == 0xee); /* nothing past the end */
            prk[info_len % 32] ^= (uint8_t)(n + 1); /* another key each round */
        }
    uint8_t *big = malloc(255 * 32 + 1);
    CHECK(big != NULL);
    if (big != NULL) {
        CHECK(grove_hkdf_sha256_expand(big, 255 * 32, prk, info, 3));
        CHECK(!grove_hkdf_sha256_expand(big, 255 * 32 + 1, prk, info, 3));
        free(big);
    }
}

/*
 * KeyGen wipes only the stack its computation uses (bls_burn.h), not 32 KiB. Two checks, on
 * every CPU path ctest runs: (1) the stack depth of KeyGen's pieces (HKDF-Extract from the salt
 * states, HKDF-Expand, the reduction mod r), found by painting the stack below this frame and
 * looking for the deepest byte that lost the paint, plus BLS_BURN_MARGIN (which covers
 * keygen_impl's own frame) fits in BLS_BURN_KEYGEN; (2) after the real grove_bls_keygen, no
 * byte from 512 bytes below this frame (under the call's own frame headers) to the end of the
 * burn holds anything but the paint or zero (below that lie the burn's own call frames).
 */
#define PAINT_BYTES (64 * 1024)

static __attribute__((noinline)) void paint_stack(void)
{
    volatile uint8_t buf[PAINT_BYTES];
    for (size_t i = 0; i < PAINT_BYTES; i++)
        buf[i] = 0x5A;
    __asm__ volatile("" : : "r"(buf) : "memory");
}

/* For the bytes below this frame's top (a frame of a call from the same caller as
 * paint_stack): the deepest that lost the paint (return value), and in *dirty how many bytes
 * between lo and hi bytes deep hold neither the paint nor zero. */
static __attribute__((noinline)) size_t used_depth(size_t lo, size_t hi, size_t *dirty)
{
    uintptr_t top = (uintptr_t)__builtin_frame_address(0);
    size_t deepest = 0;
    *dirty = 0;
    for (size_t off = PAINT_BYTES - 4096; off > 0; off--) {
        uint8_t b = *(const volatile uint8_t *)(top - off);
        if (b != 0x5A && deepest == 0)
            deepest = off;
        if (b != 0x5A && b != 0 && off >= lo && off < hi)
            (*dirty)++;
    }
    return deepest;
}

static void test_keygen_stack(void)
{
    const uint8_t zero = 0, l48[2] = {0, 48};
    uint8_t ikm[32], prk[32], okm[48];
    uint64_t k[4];
    size_t depth = 0, d, dirty;
    for (size_t i = 0; i < sizeof ikm; i++)
        ikm[i] = (uint8_t)(3 * i + 5);
    grove_hkdf_part ip[2] = {{ikm, sizeof ikm}, {&zero, 1}};
    grove_hkdf_part fp[2] = {{ikm, 7}, {l48, 2}};
    grove_hkdf_salt_states st;
    grove_hkdf_sha256_salt_states(&st, ikm, 20); /* also the one-time CPU detection */
    for (int round = 0; round < 2; round++) {
        paint_stack();
        grove_hkdf_sha256_extract_parts_states(prk, &st, ip, 2);
        d = used_depth(0, 0, &dirty);
        depth = d > depth ? d : depth;
        paint_stack();
        CHECK(grove_hkdf_sha256_expand_parts(okm, sizeof okm, prk, round ? fp : fp + 1,
                                             round ? 2 : 1));
        d = used_depth(0, 0, &dirty);
        depth = d > depth ? d : depth;
        paint_stack();
        fr_from_bytes_wide(k, okm, sizeof okm);
        d = used_depth(0, 0, &dirty);
        depth = d > depth ? d : depth;
    }
    printf("KeyGen pieces' stack depth %zu bytes (+ margin %d, burn %d)\n", depth,
           BLS_BURN_MARGIN, BLS_BURN_KEYGEN);
    CHECK(depth > 256); /* the scan sees the pieces' frames */
    CHECK(depth + BLS_BURN_MARGIN <= BLS_BURN_KEYGEN);
    for (int round = 0; round < 2; round++) {
        grove_bls_sk sk;
        paint_stack();
        grove_status rc = round ? grove_bls_keygen(&sk, ikm, sizeof ikm, ikm, 7)
                                : grove_bls_keygen(&sk, ikm, sizeof ikm, NULL, 0);
        d = used_depth(512, BLS_BURN_KEYGEN, &dirty);
        CHECK_EQ_INT(rc, GROVE_OK);
        printf("KeyGen: stack touched to %zu bytes, %zu non-zero bytes left from 512 to %d\n",
               d, dirty, BLS_BURN_KEYGEN);
        CHECK(d >= BLS_BURN_KEYGEN); /* the burn ran below the call */
#ifndef BLS_BURN_ASAN
        CHECK(dirty == 0); /* (under ASan the burn's own frame keeps redzones it does not wipe) */
#endif
    }
}

int main(void)
{
    test_hkdf();
    test_keygen_stack();
    test_keygen_states();
    test_keys();
    test_sign_verify(GROVE_BLS_MIN_SIG);
    test_sign_verify(GROVE_BLS_MIN_PK);
    test_aggregation(GROVE_BLS_MIN_SIG);
    test_aggregation(GROVE_BLS_MIN_PK);
    test_status_rules(GROVE_BLS_MIN_SIG);
    test_status_rules(GROVE_BLS_MIN_PK);
    test_groups_api();
    return test_done();
}
