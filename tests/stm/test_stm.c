/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Mithril STM: Blake2b (RFC 7693 and OpenSSL as oracle), the lottery's fast path against the
 * exact rule, parameters, registration, the protocol end to end (the seed README's example:
 * 32 parties, k = 357, m = 2642, phi_f = 0.2), determinism of aggregation, tampering of every
 * byte of an aggregate, encodings and hostile encodings, batch verification.
 * The shared vectors are checked by grove-vectors (kind stm).
 */
#include <math.h>
#if GROVE_TEST_HAVE_OPENSSL
#include <openssl/evp.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "grove/stm.h"
#include "hash/blake2b.h"
#include "stm/stm_internal.h"
#include "test.h"

static uint64_t rng = 0x53544d31ULL;

/* ---- Blake2b ----------------------------------------------------------------------------- */

/* RFC 7693 appendix E: a deterministic input sequence. */
static void selftest_seq(uint8_t *out, size_t len, uint32_t seed)
{
    uint32_t a = 0xDEAD4BADu * seed, b = 1;
    for (size_t i = 0; i < len; i++) {
        uint32_t t = a + b;
        a = b;
        b = t;
        out[i] = (uint8_t)(t >> 24);
    }
}

static void test_blake2b(void)
{
    /* RFC 7693 appendix A: BLAKE2b-512("abc") */
    static const char *abc512 = "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                                "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923";
    uint8_t want[64], got[64];
    CHECK(test_unhex_into(want, 64, abc512));
    grove_blake2b(got, 64, "abc", 3);
    CHECK_MEM(got, want, 64);

    /* RFC 7693 appendix E: the self-test over digest lengths 20..64, keyed and unkeyed */
    static const size_t md_len[4] = {20, 32, 48, 64};
    static const size_t in_len[6] = {0, 3, 128, 129, 255, 1024};
    static const char *grand = "c23a7800d98123bd10f506c61e29da5603d763b8bbad2e737f5e765a7bccd475";
    grove_blake2b_ctx all, c;
    uint8_t in[1024], key[64], md[64];
    grove_blake2b_init(&all, 32);
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 6; j++) {
            selftest_seq(in, in_len[j], (uint32_t)in_len[j]);
            grove_blake2b(md, md_len[i], in, in_len[j]);
            grove_blake2b_update(&all, md, md_len[i]);
            selftest_seq(key, md_len[i], (uint32_t)md_len[i]);
            grove_blake2b_init_key(&c, md_len[i], key, md_len[i]);
            grove_blake2b_update(&c, in, in_len[j]);
            grove_blake2b_final(&c, md);
            grove_blake2b_update(&all, md, md_len[i]);
        }
    grove_blake2b_final(&all, got);
    CHECK(test_unhex_into(want, 32, grand));
    CHECK_MEM(got, want, 32);

#if GROVE_TEST_HAVE_OPENSSL /* not in the cross builds (tests/port/fallbacks.cmake) */
    /* OpenSSL BLAKE2B-512 as oracle, random lengths and random update splits */
    EVP_MD *md512 = EVP_MD_fetch(NULL, "BLAKE2B-512", NULL);
    CHECK(md512 != NULL);
    uint8_t buf[700];
    for (int t = 0; md512 && t < 300; t++) {
        size_t len = (size_t)(test_rand_u64(&rng) % sizeof buf);
        test_rand_bytes(&rng, buf, len);
        unsigned int ol = 0;
        EVP_Digest(buf, len, want, &ol, md512, NULL);
        grove_blake2b_init(&c, 64);
        size_t pos = 0;
        while (pos < len) {
            size_t step = (size_t)(test_rand_u64(&rng) % 200);
            if (step > len - pos)
                step = len - pos;
            grove_blake2b_update(&c, buf + pos, step);
            pos += step;
        }
        grove_blake2b_final(&c, got);
        CHECK(ol == 64);
        CHECK_MEM(got, want, 64);
    }
    EVP_MD_free(md512);
#endif
    /* the digest length is a parameter, not a truncation */
    uint8_t d256[32], d512[64];
    grove_blake2b(d256, 32, "abc", 3);
    grove_blake2b(d512, 64, "abc", 3);
    CHECK(memcmp(d256, d512, 32) != 0);
}

/* ---- lottery ----------------------------------------------------------------------------- */

/* ev (little-endian) whose value is close to t * 2^512 for t in [0, 1). */
static void ev_near(uint8_t ev[64], long double t, uint64_t *st)
{
    test_rand_bytes(st, ev, 64);
    long double hi = t * 18446744073709551616.0L; /* t * 2^64 */
    uint64_t top = hi >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)hi;
    grove_store64_le(ev + 56, top);
}

static void test_lottery(void)
{
    /* the fast path agrees with the exact rule everywhere, including near the threshold */
    const double phis[] = {0.2, 0.5, 0.8, 0.95, 0.05, 1e-6};
    long agree = 0, exact_used = 0;
    for (int t = 0; t < 3000; t++) {
        double phi = phis[t % 6];
        uint64_t total = 1 + test_rand_u64(&rng) % (t % 3 == 0 ? 10 : UINT64_C(45000000000000000));
        uint64_t stake = test_rand_u64(&rng) % (total + 1);
        stm_lottery lot;
        CHECK_EQ_INT(stm_lottery_init(&lot, phi, stake, total), GROVE_OK);
        uint8_t ev[64];
        long double w = (long double)stake / (long double)total;
        long double thr = 1.0L - powl(1.0L - (long double)phi, w);
        if (t % 2)
            ev_near(ev, thr, &rng);
        else
            test_rand_bytes(&rng, ev, 64);
        int fast = stm_lottery_decide(&lot, ev);
        int exact = lot.mode == 2 ? 0 : stm_lottery_exact(&lot, ev);
        if (fast == exact)
            agree++;
        else
            CHECK(fast == exact);
        exact_used += t % 2;
    }
    CHECK_EQ_INT(agree, 3000);
    (void)exact_used;
    /* limits */
    uint8_t ev[64] = {0};
    CHECK(grove_stm_lottery_won(0.2, ev, 1, 2));  /* ev = 0 wins with stake > 0 */
    CHECK(!grove_stm_lottery_won(0.2, ev, 0, 2)); /* stake 0 never wins */
    memset(ev, 0xff, 64);
    CHECK(!grove_stm_lottery_won(0.95, ev, 2, 2));
    CHECK(grove_stm_lottery_won(1.0, ev, 1, 1000));
    /* no lottery exists for these (stake > total, total 0, phi_f out of range): never won */
    CHECK(!grove_stm_lottery_won(0.2, ev, 3, 2));
    CHECK(!grove_stm_lottery_won(0.2, ev, 0, 0));
    CHECK(!grove_stm_lottery_won(0.96, ev, 1, 2));
    CHECK(!grove_stm_lottery_won(NAN, ev, 1, 2));
    CHECK(!grove_stm_lottery_won(0.0, ev, 1, 2));
    CHECK(!grove_stm_lottery_won(1.0, NULL, 1, 1000));
}

static void test_params(void)
{
    grove_stm_params p = {2642, 357, 0.2}, q;
    uint8_t b[24];
    CHECK_EQ_INT(grove_stm_params_check(&p), GROVE_OK);
    grove_stm_params_to_bytes(&p, b);
    CHECK_EQ_INT(grove_stm_params_from_bytes(&q, b, 24), GROVE_OK);
    CHECK(q.m == p.m && q.k == p.k && q.phi_f == p.phi_f);
    const grove_stm_params bad[] = {{0, 0, 0.2},   {10, 11, 0.2},  {10, 0, 0.2}, {10, 5, 0.0},
                                    {10, 5, -0.1}, {10, 5, 0.951}, {10, 5, 1.5}, {10, 5, NAN},
                                    {10, 5, INFINITY}, {GROVE_STM_MAX_M + 1, 5, 0.2}};
    for (size_t i = 0; i < GROVE_ARRAY_LEN(bad); i++) {
        CHECK_EQ_INT(grove_stm_params_check(&bad[i]), GROVE_ERR_INVALID_ARG);
        grove_stm_params_to_bytes(&bad[i], b);
        /* a serialized parameter object with bad values is malformed (grove/common.h) */
        CHECK_EQ_INT(grove_stm_params_from_bytes(&q, b, 24), GROVE_ERR_ENCODING);
    }
    p.phi_f = 1.0;
    CHECK_EQ_INT(grove_stm_params_check(&p), GROVE_OK);
    p.phi_f = 0.95;
    CHECK_EQ_INT(grove_stm_params_check(&p), GROVE_OK);
}

/* ---- a protocol run ------------------------------------------------------------------------ */

typedef struct {
    size_t n;
    uint8_t (*sk)[32];
    uint8_t *vkpop;
    uint64_t *stake;
    grove_stm_closed *closed;
} party_set;

static void parties_make(party_set *ps, size_t n, uint64_t max_stake, int zero_first)
{
    ps->n = n;
    ps->sk = calloc(n, 32);
    ps->vkpop = calloc(n, GROVE_STM_VKPOP_BYTES);
    ps->stake = calloc(n, sizeof(uint64_t));
    for (size_t i = 0; i < n; i++) {
        uint8_t seed[32];
        test_rand_bytes(&rng, seed, 32);
        CHECK_EQ_INT(grove_stm_keygen(ps->vkpop + GROVE_STM_VKPOP_BYTES * i, ps->sk[i], seed),
                     GROVE_OK);
        ps->stake[i] = 1 + test_rand_u64(&rng) % max_stake;
    }
    if (zero_first)
        ps->stake[0] = 0;
    grove_stm_keyreg *reg;
    CHECK_EQ_INT(grove_stm_keyreg_new(&reg), GROVE_OK);
    CHECK_EQ_INT(grove_stm_keyreg_add_many(reg, NULL, ps->stake, ps->vkpop, n, 2), GROVE_OK);
    CHECK_EQ_INT(grove_stm_keyreg_close(reg, &ps->closed), GROVE_OK);
    grove_stm_keyreg_free(reg);
}

static void parties_free(party_set *ps)
{
    grove_stm_closed_free(ps->closed);
    free(ps->sk);
    free(ps->vkpop);
    free(ps->stake);
}

/* Signs msg by every party; returns the number of signatures (lottery winners). */
static size_t sign_all(const party_set *ps, const grove_stm_params *p, const uint8_t *msg,
                       size_t ml, grove_stm_sig *sigs)
{
    size_t ns = 0;
    for (size_t i = 0; i < ps->n; i++) {
        grove_stm_signer *s;
        CHECK_EQ_INT(grove_stm_signer_new(p, &s, ps->sk[i], ps->closed), GROVE_OK);
        int rc = grove_stm_sign(s, &sigs[ns], msg, ml);
        if (grove_stm_signer_stake(s) == 0)
            CHECK_EQ_INT(rc, GROVE_ERR_LOTTERY_LOST);
        CHECK(rc == GROVE_OK || rc == GROVE_ERR_LOTTERY_LOST);
        if (rc == GROVE_OK) {
            CHECK(sigs[ns].signer_index == grove_stm_signer_index(s));
            CHECK_EQ_INT(grove_stm_sig_verify(p, &sigs[ns], msg, ml, ps->closed), GROVE_OK);
            ns++;
        }
        grove_stm_signer_free(s);
    }
    return ns;
}

/*
 * grove_stm_aggregate_verify's verdict, checked to be the same on 1, 2 and 3 threads
 * (grove_stm_aggregate_verify_threads; from 16 signatures on, 2+ threads split the MSMs).
 */
static grove_status verify_each(const grove_stm_params *p, const grove_stm_aggregate *a,
                                const uint8_t *msg, size_t msg_len, const grove_stm_avk *avk)
{
    grove_status r = grove_stm_aggregate_verify(p, a, msg, msg_len, avk);
    for (unsigned t = 1; t <= 3; t++)
        CHECK_EQ_INT(grove_stm_aggregate_verify_threads(p, a, msg, msg_len, avk, t), r);
    return r;
}

static uint8_t *agg_encode(const grove_stm_aggregate *a, size_t *len)
{
    *len = grove_stm_aggregate_encoded_bytes(a);
    uint8_t *b = malloc(*len);
    CHECK_EQ_INT(grove_stm_aggregate_to_bytes(a, b, *len, len), GROVE_OK);
    return b;
}

static void test_seed_example(void)
{
    /* the seed README: 32 parties, k = 357, m = 2642, phi_f = 0.2, random stakes */
    grove_stm_params p = {2642, 357, 0.2};
    party_set ps;
    parties_make(&ps, 32, 1000000, 1);
    const uint8_t msg[] = "the seed README's example message";
    grove_stm_sig sigs[32];
    size_t ns = sign_all(&ps, &p, msg, sizeof msg, sigs);
    size_t claimed = 0;
    for (size_t i = 0; i < ns; i++)
        claimed += sigs[i].n_indexes;
    grove_stm_aggregate *a = NULL;
    uint64_t have = 0;
    int rc = grove_stm_aggregate_new(&p, &a, &have, sigs, ns, msg, sizeof msg, ps.closed, 2);
    grove_stm_avk avk;
    grove_stm_closed_avk(ps.closed, &avk);
    if (rc == GROVE_OK) {
        CHECK(have >= p.k);
        CHECK_EQ_INT(grove_stm_aggregate_verify(&p, a, msg, sizeof msg, &avk), GROVE_OK);
    } else {
        CHECK_EQ_INT(rc, GROVE_ERR_NOT_ENOUGH);
        CHECK(have < p.k && have <= claimed);
    }
    printf("seed example: %zu of 32 signers won, %zu indexes claimed, aggregate: %s (%llu)\n", ns,
           claimed, rc == GROVE_OK ? "ok" : "not enough", (unsigned long long)have);
    /* with k lowered to what was collected the aggregate must exist */
    grove_stm_aggregate_free(a);
    for (size_t i = 0; i < ns; i++)
        grove_stm_sig_clear(&sigs[i]);
    parties_free(&ps);
}

/*
 * The aggregate readers decode each sigma once (in stm_aggregate_assemble, not also while
 * parsing the single signature): a sigma that is not a point, or a point on the curve outside
 * the subgroup, put in place of one valid sigma of a valid aggregate, is still refused by the
 * binary, CBOR (both forms) and JSON readers, and the untouched aggregate still decodes.
 */
static void check_bad_sigma_refused(grove_stm_aggregate *a, const grove_stm_params *p,
                                    const uint8_t *msg, size_t msg_len, const grove_stm_avk *avk)
{
    uint8_t bad[2][GROVE_STM_SIGMA_BYTES];
    /* [0]: x with x^3 + 4 a square (on the curve), almost surely outside the subgroup */
    int found = 0;
    for (uint8_t x = 1; x < 200 && !found; x++) {
        memset(bad[0], 0, sizeof bad[0]);
        bad[0][0] = 0x80; /* compressed, y flag 0 */
        bad[0][47] = x;
        grove_bls_g1 pt;
        found = grove_bls_g1_from_bytes(&pt, bad[0], 48, GROVE_BLS_NO_SUBGROUP_CHECK) ==
                    GROVE_OK &&
                grove_bls_g1_from_bytes(&pt, bad[0], 48, 0) == GROVE_ERR_ENCODING;
    }
    CHECK(found);
    memset(bad[1], 0xff, sizeof bad[1]); /* x >= p */
    bad[1][0] = 0x9f;
    for (size_t w = 0; w < a->n && w < 3; w += a->n > 1 ? a->n - 1 : 1) { /* first and last */
        for (int k = 0; k < 2; k++) {
            uint8_t keep[GROVE_STM_SIGMA_BYTES];
            memcpy(keep, a->sigs[w].sigma, sizeof keep);
            memcpy(a->sigs[w].sigma, bad[k], sizeof keep);
            grove_stm_aggregate *b = NULL;
            size_t len = grove_stm_aggregate_encoded_bytes(a), l2;
            uint8_t *enc = malloc(len);
            CHECK(enc != NULL);
            CHECK_EQ_INT(grove_stm_aggregate_to_bytes(a, enc, len, &len), GROVE_OK);
            CHECK_EQ_INT(grove_stm_aggregate_from_bytes(&b, enc, len), GROVE_ERR_ENCODING);
            CHECK(b == NULL);
            free(enc);
            for (int form = 0; form < 2; form++) {
                grove_stm_cbor_form f = form ? GROVE_STM_CBOR_0_12 : GROVE_STM_CBOR_0_11;
                CHECK_EQ_INT(grove_stm_aggregate_to_cbor(a, NULL, 0, &l2, f),
                             GROVE_ERR_BUFFER_TOO_SMALL);
                enc = malloc(l2);
                CHECK(enc != NULL);
                CHECK_EQ_INT(grove_stm_aggregate_to_cbor(a, enc, l2, &l2, f), GROVE_OK);
                CHECK_EQ_INT(grove_stm_aggregate_from_cbor(&b, NULL, enc, l2), GROVE_ERR_ENCODING);
                CHECK(b == NULL);
                free(enc);
            }
            char *js = NULL;
            CHECK_EQ_INT(grove_stm_aggregate_to_json(a, &js), GROVE_OK);
            if (js) {
                CHECK_EQ_INT(grove_stm_aggregate_from_json(&b, js, strlen(js)),
                             GROVE_ERR_ENCODING);
                CHECK(b == NULL);
                free(js);
            }
            memcpy(a->sigs[w].sigma, keep, sizeof keep);
        }
    }
    /* restored: every reader gives back an aggregate that verifies */
    size_t len = grove_stm_aggregate_encoded_bytes(a);
    uint8_t *enc = malloc(len);
    grove_stm_aggregate *b = NULL;
    CHECK_EQ_INT(grove_stm_aggregate_to_bytes(a, enc, len, &len), GROVE_OK);
    CHECK_EQ_INT(grove_stm_aggregate_from_bytes(&b, enc, len), GROVE_OK);
    CHECK_EQ_INT(verify_each(p, b, msg, msg_len, avk), GROVE_OK);
    grove_stm_aggregate_free(b);
    b = NULL;
    free(enc);
    size_t l2 = 0;
    CHECK_EQ_INT(grove_stm_aggregate_to_cbor(a, NULL, 0, &l2, GROVE_STM_CBOR_0_11),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    enc = malloc(l2);
    CHECK_EQ_INT(grove_stm_aggregate_to_cbor(a, enc, l2, &l2, GROVE_STM_CBOR_0_11), GROVE_OK);
    CHECK_EQ_INT(grove_stm_aggregate_from_cbor(&b, NULL, enc, l2), GROVE_OK);
    CHECK_EQ_INT(verify_each(p, b, msg, msg_len, avk), GROVE_OK);
    grove_stm_aggregate_free(b);
    free(enc);
}

/*
 * An aggregate's signer keys are decoded on the curve only: their subgroup follows from the
 * batch path verification checks first (src/stm/aggregate.c says why). A vk on the twist but
 * outside G2, put in place of a registered key of a valid aggregate, decodes (binary, CBOR) but
 * the batch path refuses it and so does verification (one vk that is not on the curve is still
 * an encoding error); the aggregate restored verifies again.
 */
static void check_bad_vk_refused(grove_stm_aggregate *a, const grove_stm_params *p,
                                 const uint8_t *msg, size_t msg_len, const grove_stm_avk *avk)
{
    uint8_t bad[GROVE_STM_VK_BYTES];
    int found = 0;
    for (unsigned x = 1; x < 400 && !found; x++) {
        memset(bad, 0, sizeof bad);
        bad[0] = 0x80; /* compressed, y flag 0; x = x_c1 u + x_c0 with x_c1 = 0 */
        bad[94] = (uint8_t)(x >> 8);
        bad[95] = (uint8_t)x;
        grove_bls_g2 pt;
        found = grove_bls_g2_from_bytes(&pt, bad, 96, GROVE_BLS_NO_SUBGROUP_CHECK) == GROVE_OK &&
                grove_bls_g2_from_bytes(&pt, bad, 96, 0) == GROVE_ERR_ENCODING;
    }
    CHECK(found);
    size_t w = a->n / 2;
    uint8_t *vk = a->entries + GROVE_STM_ENTRY_BYTES * w, keep[GROVE_STM_VK_BYTES];
    memcpy(keep, vk, sizeof keep);
    for (int k = 0; k < 2; k++) {
        memcpy(vk, bad, sizeof bad);
        if (k == 1)
            vk[95] ^= 1; /* most x are not on the twist: find one that is not */
        size_t len = grove_stm_aggregate_encoded_bytes(a), l2 = 0;
        uint8_t *enc = malloc(len);
        CHECK(enc != NULL);
        grove_stm_aggregate *b = NULL;
        CHECK_EQ_INT(grove_stm_aggregate_to_bytes(a, enc, len, &len), GROVE_OK);
        grove_bls_g2 pt;
        int on_curve = grove_bls_g2_from_bytes(&pt, vk, 96, GROVE_BLS_NO_SUBGROUP_CHECK) ==
                       GROVE_OK;
        CHECK(k == 0 ? on_curve : 1);
        int rc = grove_stm_aggregate_from_bytes(&b, enc, len);
        CHECK_EQ_INT(rc, on_curve ? GROVE_OK : GROVE_ERR_ENCODING);
        if (b != NULL) {
            CHECK(!stm_merkle_batch_verify(avk->root, avk->nr_leaves, b->entries, b->indices,
                                           b->n, b->values, b->n_values));
            CHECK_EQ_INT(verify_each(p, b, msg, msg_len, avk), GROVE_ERR_VERIFY);
            grove_stm_aggregate_free(b);
            b = NULL;
        }
        free(enc);
        CHECK_EQ_INT(grove_stm_aggregate_to_cbor(a, NULL, 0, &l2, GROVE_STM_CBOR_0_12),
                     GROVE_ERR_BUFFER_TOO_SMALL);
        enc = malloc(l2);
        CHECK(enc != NULL);
        CHECK_EQ_INT(grove_stm_aggregate_to_cbor(a, enc, l2, &l2, GROVE_STM_CBOR_0_12), GROVE_OK);
        rc = grove_stm_aggregate_from_cbor(&b, NULL, enc, l2);
        CHECK_EQ_INT(rc, on_curve ? GROVE_OK : GROVE_ERR_ENCODING);
        if (b != NULL)
            CHECK_EQ_INT(verify_each(p, b, msg, msg_len, avk), GROVE_ERR_VERIFY);
        grove_stm_aggregate_free(b);
        free(enc);
    }
    memcpy(vk, keep, sizeof keep);
    CHECK(stm_merkle_batch_verify(avk->root, avk->nr_leaves, a->entries, a->indices, a->n,
                                  a->values, a->n_values));
    CHECK_EQ_INT(verify_each(p, a, msg, msg_len, avk), GROVE_OK);
}

/*
 * The vk cache (a Mithril chain decodes each signer's key once): an aggregate decoded through a
 * cache has the same points as without one and verifies; a vk the cache does not hold (one byte
 * changed: not a point, or another point) is still decoded and checked.
 */
static void check_vk_cache(const grove_stm_aggregate *a, const grove_stm_params *p,
                           const uint8_t *msg, size_t msg_len, const grove_stm_avk *avk)
{
    stm_vk_cache *cache = stm_vk_cache_new();
    CHECK(cache != NULL);
    size_t len = grove_stm_aggregate_encoded_bytes(a);
    uint8_t *enc = malloc(len);
    CHECK(enc != NULL && cache != NULL);
    if (enc == NULL || cache == NULL) {
        free(enc);
        stm_vk_cache_free(cache);
        return;
    }
    CHECK_EQ_INT(grove_stm_aggregate_to_bytes(a, enc, len, &len), GROVE_OK);
    for (int round = 0; round < 2; round++) { /* round 1: every vk from the cache */
        grove_stm_aggregate *b = NULL;
        CHECK_EQ_INT(stm_aggregate_from_bytes_cached(&b, enc, len, cache), GROVE_OK);
        if (b == NULL)
            continue;
        CHECK(b->n == a->n);
        for (size_t i = 0; i < b->n && i < a->n; i++)
            CHECK(grove_bls_g2_equal(&b->vks[i], &a->vks[i]));
        CHECK_EQ_INT(grove_stm_aggregate_verify(p, b, msg, msg_len, avk), GROVE_OK);
        grove_stm_aggregate_free(b);
    }
    /* the first signature's vk: its last byte changed (the cache holds only the real one) */
    size_t vk_at = 1 + 8 + 8 + 8; /* 0x00, n, the signature's total and entry lengths */
    size_t refused = 0;
    for (unsigned d = 1; d < 9; d++) {
        enc[vk_at + 95] ^= (uint8_t)d;
        grove_stm_aggregate *b = NULL;
        int rc = stm_aggregate_from_bytes_cached(&b, enc, len, cache);
        if (rc == GROVE_OK) { /* another valid point: the aggregate no longer verifies */
            CHECK(!grove_bls_g2_equal(&b->vks[0], &a->vks[0]));
            CHECK(grove_stm_aggregate_verify(p, b, msg, msg_len, avk) != GROVE_OK);
        } else {
            CHECK_EQ_INT(rc, GROVE_ERR_ENCODING);
            refused++;
        }
        grove_stm_aggregate_free(b);
        enc[vk_at + 95] ^= (uint8_t)d;
    }
    CHECK(refused > 0); /* most x coordinates are not on the twist */
    free(enc);
    stm_vk_cache_free(cache);
}

static void test_protocol_and_tampering(void)
{
    grove_stm_params p = {60, 20, 0.5};
    party_set ps;
    parties_make(&ps, 8, 100, 1);
    const uint8_t msg[] = "certificate 1";
    grove_stm_sig sigs[8];
    size_t ns = sign_all(&ps, &p, msg, sizeof msg, sigs);
    CHECK(ns >= 2);
    grove_stm_avk avk;
    grove_stm_closed_avk(ps.closed, &avk);
    grove_stm_aggregate *a = NULL;
    uint64_t have;
    int rc = grove_stm_aggregate_new(&p, &a, &have, sigs, ns, msg, sizeof msg, ps.closed, 1);
    CHECK_EQ_INT(rc, GROVE_OK);
    if (rc != GROVE_OK)
        goto done;
    CHECK_EQ_INT(grove_stm_aggregate_verify(&p, a, msg, sizeof msg, &avk), GROVE_OK);
    size_t len;
    uint8_t *enc = agg_encode(a, &len);

    /* determinism: shuffled input, 1, 2 or GROVE_THREADS_AUTO threads, same bytes */
    for (int t = 0; t < 6; t++) {
        grove_stm_sig sh[8];
        memcpy(sh, sigs, ns * sizeof *sh);
        for (size_t i = ns; i > 1; i--) {
            size_t j = (size_t)(test_rand_u64(&rng) % i);
            grove_stm_sig x = sh[i - 1];
            sh[i - 1] = sh[j];
            sh[j] = x;
        }
        grove_stm_aggregate *b = NULL;
        CHECK_EQ_INT(grove_stm_aggregate_new(&p, &b, NULL, sh, ns, msg, sizeof msg, ps.closed,
                                             (unsigned)(t % 3)),
                     GROVE_OK);
        size_t bl;
        uint8_t *be = agg_encode(b, &bl);
        CHECK(bl == len && memcmp(be, enc, len) == 0);
        free(be);
        grove_stm_aggregate_free(b);
    }
    /* an invalid submission (signature on another message, duplicate) changes nothing */
    {
        grove_stm_sig extra[10];
        memcpy(extra, sigs, ns * sizeof *extra);
        grove_stm_signer *s;
        CHECK_EQ_INT(grove_stm_signer_new(&p, &s, ps.sk[ps.n - 1], ps.closed), GROVE_OK);
        grove_stm_sig other;
        const uint8_t msg2[] = "another message";
        int r2 = grove_stm_sign(s, &other, msg2, sizeof msg2);
        grove_stm_signer_free(s);
        size_t ne = ns;
        if (r2 == GROVE_OK)
            extra[ne++] = other;
        extra[ne++] = sigs[0];
        grove_stm_aggregate *b = NULL;
        CHECK_EQ_INT(
            grove_stm_aggregate_new(&p, &b, NULL, extra, ne, msg, sizeof msg, ps.closed, 2),
            GROVE_OK);
        size_t bl;
        uint8_t *be = agg_encode(b, &bl);
        CHECK(bl == len && memcmp(be, enc, len) == 0);
        free(be);
        grove_stm_aggregate_free(b);
        if (r2 == GROVE_OK)
            grove_stm_sig_clear(&other);
    }
    /* every byte of the encoding changed: decoding or verification fails, except where the
     * change turns one claimed lottery index into another index the same signer really won
     * (indexes are not signed: any set of won indexes makes a valid aggregate) */
    {
        long refused = 0, reclaimed = 0;
        for (size_t i = 0; i < len; i++) {
            enc[i] ^= (uint8_t)(1u << (i % 8));
            grove_stm_aggregate *b = NULL;
            rc = grove_stm_aggregate_from_bytes(&b, enc, len);
            if (rc == GROVE_OK)
                rc = grove_stm_aggregate_verify(&p, b, msg, sizeof msg, &avk);
            if (rc != GROVE_OK) {
                refused++;
            } else {
                int only_index = b->n == a->n && b->n_values == a->n_values &&
                                 !memcmp(b->values, a->values, 32 * a->n_values) &&
                                 !memcmp(b->indices, a->indices, 8 * a->n) &&
                                 !memcmp(b->entries, a->entries, 104 * a->n);
                for (size_t k = 0; only_index && k < a->n; k++)
                    only_index = !memcmp(b->sigs[k].sigma, a->sigs[k].sigma, 48) &&
                                 b->sigs[k].signer_index == a->sigs[k].signer_index &&
                                 b->sigs[k].n_indexes == a->sigs[k].n_indexes;
                CHECK(only_index);
                reclaimed += only_index;
            }
            grove_stm_aggregate_free(b);
            enc[i] ^= (uint8_t)(1u << (i % 8));
        }
        printf("tampering: %ld of %zu one-bit changes refused, %ld re-claim another won index\n",
               refused, len, reclaimed);
        refused += reclaimed;
        CHECK_EQ_INT(refused, (long)len);
        /* every truncation refused, trailing bytes refused */
        for (size_t l = 0; l < len; l++) {
            grove_stm_aggregate *b = NULL;
            CHECK(grove_stm_aggregate_from_bytes(&b, enc, l) != GROVE_OK);
            CHECK(b == NULL);
        }
        uint8_t *longer = malloc(len + 1);
        memcpy(longer, enc, len);
        longer[len] = 0;
        grove_stm_aggregate *b = NULL;
        CHECK(grove_stm_aggregate_from_bytes(&b, longer, len + 1) != GROVE_OK);
        free(longer);
    }
    /* wrong message, AVK, parameters */
    {
        grove_stm_avk bad = avk;
        const uint8_t other[] = "certificate 2";
        CHECK(grove_stm_aggregate_verify(&p, a, other, sizeof other, &avk) != GROVE_OK);
        bad.total_stake *= 1000; /* the AVK is trusted input: only a big change must show */
        CHECK(grove_stm_aggregate_verify(&p, a, msg, sizeof msg, &bad) != GROVE_OK);
        bad = avk;
        bad.root[5] ^= 1;
        CHECK(grove_stm_aggregate_verify(&p, a, msg, sizeof msg, &bad) != GROVE_OK);
        grove_stm_params q = p;
        q.k = have + 1 <= q.m ? have + 1 : q.m;
        if (q.k > have) { /* the reason is "not enough"; verify reports it as VERIFY */
            CHECK_EQ_INT(stm_aggregate_verify_reason(&q, a, msg, sizeof msg, &avk),
                         GROVE_ERR_NOT_ENOUGH);
            CHECK_EQ_INT(grove_stm_aggregate_verify(&q, a, msg, sizeof msg, &avk),
                         GROVE_ERR_VERIFY);
        }
        q = p;
        q.phi_f = 0.01; /* far fewer indexes are won at this rate */
        CHECK(grove_stm_aggregate_verify(&q, a, msg, sizeof msg, &avk) != GROVE_OK);
    }
    /* batch verification: two good aggregates pass, a bad one fails the batch */
    {
        const uint8_t msg2[] = "certificate 2";
        grove_stm_sig s2[8];
        size_t n2 = sign_all(&ps, &p, msg2, sizeof msg2, s2);
        grove_stm_aggregate *b = NULL;
        if (grove_stm_aggregate_new(&p, &b, NULL, s2, n2, msg2, sizeof msg2, ps.closed, 2) ==
            GROVE_OK) {
            const grove_stm_aggregate *list[2] = {a, b};
            grove_stm_params pp[2] = {p, p};
            grove_stm_avk aa[2] = {avk, avk};
            const uint8_t *mm[2] = {msg, msg2};
            size_t ll[2] = {sizeof msg, sizeof msg2};
            CHECK_EQ_INT(grove_stm_aggregate_verify_batch(pp, list, mm, ll, aa, 2), GROVE_OK);
            mm[1] = msg;
            ll[1] = sizeof msg;
            CHECK(grove_stm_aggregate_verify_batch(pp, list, mm, ll, aa, 2) != GROVE_OK);
            grove_stm_aggregate_free(b);
        }
        for (size_t i = 0; i < n2; i++)
            grove_stm_sig_clear(&s2[i]);
    }
    /* single signatures: tampered fields refused; encodings round-trip */
    for (size_t i = 0; i < ns; i++) {
        grove_stm_sig t;
        CHECK_EQ_INT(grove_stm_sig_copy(&t, &sigs[i]), GROVE_OK);
        t.signer_index = (t.signer_index + 1) % ps.n;
        CHECK(grove_stm_sig_verify(&p, &t, msg, sizeof msg, ps.closed) != GROVE_OK);
        t.signer_index = sigs[i].signer_index;
        t.indexes[0] = p.m; /* index == m: upstream accepts it, grove does not */
        CHECK(grove_stm_sig_verify(&p, &t, msg, sizeof msg, ps.closed) != GROVE_OK);
        t.indexes[0] = sigs[i].indexes[0];
        t.sigma[10] ^= 1;
        CHECK(grove_stm_sig_verify(&p, &t, msg, sizeof msg, ps.closed) != GROVE_OK);
        grove_stm_sig_clear(&t);
        size_t sl = grove_stm_sig_encoded_bytes(&sigs[i]);
        uint8_t *sb = malloc(sl);
        CHECK_EQ_INT(grove_stm_sig_to_bytes(&sigs[i], sb, sl, &sl), GROVE_OK);
        CHECK_EQ_INT(grove_stm_sig_from_bytes(&t, sb, sl), GROVE_OK);
        CHECK(t.n_indexes == sigs[i].n_indexes && t.signer_index == sigs[i].signer_index);
        grove_stm_sig_clear(&t);
        for (size_t l = 0; l < sl; l++)
            CHECK(grove_stm_sig_from_bytes(&t, sb, l) != GROVE_OK);
        free(sb);
    }
    check_bad_sigma_refused(a, &p, msg, sizeof msg, &avk);
    check_bad_vk_refused(a, &p, msg, sizeof msg, &avk);
    check_vk_cache(a, &p, msg, sizeof msg, &avk);
    free(enc);
done:
    grove_stm_aggregate_free(a);
    for (size_t i = 0; i < ns; i++)
        grove_stm_sig_clear(&sigs[i]);
    parties_free(&ps);
}

static void test_registration(void)
{
    uint8_t sk[3][32], vkpop[3][192];
    for (int i = 0; i < 3; i++) {
        uint8_t seed[32];
        test_rand_bytes(&rng, seed, 32);
        CHECK_EQ_INT(grove_stm_keygen(vkpop[i], sk[i], seed), GROVE_OK);
        uint8_t again[192];
        CHECK_EQ_INT(grove_stm_vkpop_from_sk(again, sk[i]), GROVE_OK);
        CHECK_MEM(again, vkpop[i], 192);
    }
    grove_stm_keyreg *reg;
    CHECK_EQ_INT(grove_stm_keyreg_new(&reg), GROVE_OK);
    grove_stm_closed *c = NULL;
    CHECK_EQ_INT(grove_stm_keyreg_close(reg, &c), GROVE_ERR_INVALID_ARG); /* empty */
    CHECK_EQ_INT(grove_stm_keyreg_add(reg, 0, vkpop[0]), GROVE_OK);
    CHECK_EQ_INT(grove_stm_keyreg_close(reg, &c), GROVE_ERR_INVALID_ARG); /* total stake 0 */
    CHECK_EQ_INT(grove_stm_keyreg_add(reg, 5, vkpop[0]), GROVE_ERR_EXISTS);
    CHECK_EQ_INT(grove_stm_keyreg_count(reg), 1);
    /* a PoP of another key: refused, named, nothing added */
    uint8_t mixed[2][192];
    memcpy(mixed[0], vkpop[1], 192);
    memcpy(mixed[1], vkpop[2], 96);
    memcpy(mixed[1] + 96, vkpop[1] + 96, 96);
    uint64_t st[2] = {1, 2};
    size_t bad = 99;
    CHECK_EQ_INT(grove_stm_keyreg_add_many(reg, &bad, st, &mixed[0][0], 2, 2), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(bad, 1);
    CHECK_EQ_INT(grove_stm_keyreg_count(reg), 1);
    /* k1 and k2 swapped: not a valid PoP */
    memcpy(mixed[1], vkpop[2], 96);
    memcpy(mixed[1] + 96, vkpop[2] + 144, 48);
    memcpy(mixed[1] + 144, vkpop[2] + 96, 48);
    CHECK_EQ_INT(grove_stm_keyreg_add(reg, 1, mixed[1]), GROVE_ERR_VERIFY);
    /* a point that does not decode */
    memcpy(mixed[1], vkpop[2], 192);
    mixed[1][0] &= 0x7f;
    CHECK_EQ_INT(grove_stm_keyreg_add(reg, 1, mixed[1]), GROVE_ERR_ENCODING);
    /* duplicates within one batch: the later one is named */
    memcpy(mixed[0], vkpop[1], 192);
    memcpy(mixed[1], vkpop[1], 192);
    CHECK_EQ_INT(grove_stm_keyreg_add_many(reg, &bad, st, &mixed[0][0], 2, 1), GROVE_ERR_EXISTS);
    CHECK_EQ_INT(bad, 1);
    /* total stake overflow */
    uint64_t big[2] = {UINT64_MAX, 1};
    memcpy(mixed[0], vkpop[1], 192);
    memcpy(mixed[1], vkpop[2], 192);
    CHECK_EQ_INT(grove_stm_keyreg_add_many(reg, NULL, big, &mixed[0][0], 2, 2), GROVE_OK);
    CHECK_EQ_INT(grove_stm_keyreg_close(reg, &c), GROVE_ERR_OVERFLOW);
    CHECK(c == NULL);
    grove_stm_keyreg_free(reg);

    /* closed registration: order (stake, vk), encoding round trip, hostile encodings */
    CHECK_EQ_INT(grove_stm_keyreg_new(&reg), GROVE_OK);
    uint64_t stakes[3] = {7, 3, 7};
    CHECK_EQ_INT(grove_stm_keyreg_add_many(reg, NULL, stakes, &vkpop[0][0], 3, 2), GROVE_OK);
    CHECK_EQ_INT(grove_stm_keyreg_close(reg, &c), GROVE_OK);
    grove_stm_keyreg_free(reg);
    uint64_t s0, s1, s2, idx;
    uint8_t v1[96], v2[96];
    CHECK_EQ_INT(grove_stm_closed_entry(c, NULL, &s0, 0), GROVE_OK);
    CHECK_EQ_INT(grove_stm_closed_entry(c, v1, &s1, 1), GROVE_OK);
    CHECK_EQ_INT(grove_stm_closed_entry(c, v2, &s2, 2), GROVE_OK);
    CHECK_EQ_INT(grove_stm_closed_entry(c, v2, &s2, 3), GROVE_ERR_NOT_FOUND);
    CHECK(s0 == 3 && s1 == 7 && s2 == 7 && memcmp(v1, v2, 96) < 0);
    CHECK_EQ_INT(grove_stm_closed_find(c, &idx, vkpop[1]), GROVE_OK);
    CHECK_EQ_INT(idx, 0);
    CHECK_EQ_INT(grove_stm_closed_total_stake(c), 17);
    size_t cl = grove_stm_closed_encoded_bytes(c);
    uint8_t *cb = malloc(cl);
    CHECK_EQ_INT(grove_stm_closed_to_bytes(c, cb, cl, &cl), GROVE_OK);
    grove_stm_closed *d = NULL;
    CHECK_EQ_INT(grove_stm_closed_from_bytes(&d, cb, cl), GROVE_OK);
    uint8_t r1[32], r2[32];
    grove_stm_closed_root(c, r1);
    grove_stm_closed_root(d, r2);
    CHECK_MEM(r1, r2, 32);
    grove_stm_closed_free(d);
    for (size_t l = 0; l < cl; l++) {
        d = NULL;
        CHECK(grove_stm_closed_from_bytes(&d, cb, l) != GROVE_OK && d == NULL);
    }
    /* out of order (swap two entries) and a bad point are refused */
    uint8_t tmp[104];
    memcpy(tmp, cb + 16, 104);
    memcpy(cb + 16, cb + 16 + 104, 104);
    memcpy(cb + 16 + 104, tmp, 104);
    CHECK(grove_stm_closed_from_bytes(&d, cb, cl) == GROVE_ERR_ENCODING);
    memcpy(cb + 16 + 104, cb + 16, 104);
    memcpy(cb + 16, tmp, 104);
    cb[16 + 5] ^= 0x40;
    CHECK(grove_stm_closed_from_bytes(&d, cb, cl) == GROVE_ERR_ENCODING);
    free(cb);

    /* a signer whose key is not registered */
    uint8_t skx[32], vx[192], seed[32] = {9};
    CHECK_EQ_INT(grove_stm_keygen(vx, skx, seed), GROVE_OK);
    grove_stm_params p = {10, 2, 0.5};
    grove_stm_signer *s = NULL;
    CHECK_EQ_INT(grove_stm_signer_new(&p, &s, skx, c), GROVE_ERR_NOT_FOUND);
    CHECK(s == NULL);
    grove_stm_closed_free(c);

    /* AVK encoding */
    grove_stm_avk avk = {{1, 2, 3}, 5, 77}, back;
    uint8_t ab[48];
    grove_stm_avk_to_bytes(&avk, ab);
    CHECK_EQ_INT(grove_stm_avk_from_bytes(&back, ab, 48), GROVE_OK);
    CHECK(back.nr_leaves == 5 && back.total_stake == 77 && !memcmp(back.root, avk.root, 32));
    CHECK_EQ_INT(grove_stm_avk_from_bytes(&back, ab, 47), GROVE_ERR_ENCODING);
    memset(ab + 40, 0, 8);
    CHECK_EQ_INT(grove_stm_avk_from_bytes(&back, ab, 48), GROVE_ERR_ENCODING);
}

static void test_merkle_shapes(void)
{
    /* every tree size up to 40 and random leaf subsets: paths verify, wrong leaves do not */
    uint8_t entries[40 * 104];
    test_rand_bytes(&rng, entries, sizeof entries);
    for (uint64_t n = 1; n <= 40; n++) {
        uint8_t *tree = malloc((size_t)stm_merkle_nodes(n) * 32);
        stm_merkle_build(tree, entries, n);
        for (int t = 0; t < 8; t++) {
            uint64_t idx[40];
            uint8_t sel[40 * 104];
            size_t cnt = 0;
            for (uint64_t i = 0; i < n; i++)
                if (test_rand_u64(&rng) % 3 == 0 || (cnt == 0 && i == n - 1))
                    idx[cnt++] = i;
            for (size_t i = 0; i < cnt; i++)
                memcpy(sel + 104 * i, entries + 104 * idx[i], 104);
            uint8_t *vals;
            size_t nv;
            CHECK_EQ_INT(stm_merkle_batch_path(tree, n, idx, cnt, &vals, &nv), GROVE_OK);
            CHECK(stm_merkle_batch_verify(tree, n, sel, idx, cnt, vals, nv));
            sel[104 * (cnt - 1) + 100] ^= 1;
            CHECK(!stm_merkle_batch_verify(tree, n, sel, idx, cnt, vals, nv));
            sel[104 * (cnt - 1) + 100] ^= 1;
            free(vals);
        }
        free(tree);
    }
}

/*
 * grove/common.h: a malformed signature (a sigma that is not a G1 point of the subgroup, the
 * identity) does not verify: GROVE_ERR_VERIFY; a malformed verification key is
 * GROVE_ERR_ENCODING; a malformed PoP is a proof that does not verify.
 */
static void test_status_rules(void)
{
    grove_stm_params p = {40, 4, 0.8};
    party_set ps;
    parties_make(&ps, 4, 100, 0);
    const uint8_t msg[] = "status rules";
    grove_stm_sig sigs[4];
    size_t ns = sign_all(&ps, &p, msg, sizeof msg, sigs);
    CHECK(ns >= 1);
    grove_stm_avk avk;
    grove_stm_closed_avk(ps.closed, &avk);
    if (ns >= 1) {
        grove_stm_sig t;
        uint8_t vk[GROVE_STM_VK_BYTES], badvk[GROVE_STM_VK_BYTES];
        uint64_t stake;
        CHECK_EQ_INT(grove_stm_closed_entry(ps.closed, vk, &stake, sigs[0].signer_index),
                     GROVE_OK);
        CHECK_EQ_INT(grove_stm_sig_verify_entry(&p, &sigs[0], msg, sizeof msg, vk, stake, &avk),
                     GROVE_OK);
        /* sigma: x >= p, the identity, flags cleared: the signature does not verify */
        uint8_t sigmas[3][GROVE_STM_SIGMA_BYTES];
        memset(sigmas[0], 0xff, GROVE_STM_SIGMA_BYTES);
        sigmas[0][0] = 0x9f;
        memset(sigmas[1], 0, GROVE_STM_SIGMA_BYTES);
        sigmas[1][0] = 0xc0;
        memcpy(sigmas[2], sigs[0].sigma, GROVE_STM_SIGMA_BYTES);
        sigmas[2][0] &= 0x1f;
        for (size_t k = 0; k < 3; k++) {
            CHECK_EQ_INT(grove_stm_sig_copy(&t, &sigs[0]), GROVE_OK);
            memcpy(t.sigma, sigmas[k], GROVE_STM_SIGMA_BYTES);
            CHECK_EQ_INT(grove_stm_sig_verify(&p, &t, msg, sizeof msg, ps.closed),
                         GROVE_ERR_VERIFY);
            CHECK_EQ_INT(grove_stm_sig_verify_entry(&p, &t, msg, sizeof msg, vk, stake, &avk),
                         GROVE_ERR_VERIFY);
            grove_stm_sig_clear(&t);
        }
        /* a malformed verification key is a configuration error */
        memset(badvk, 0xff, sizeof badvk);
        badvk[0] = 0x9f;
        CHECK_EQ_INT(grove_stm_sig_verify_entry(&p, &sigs[0], msg, sizeof msg, badvk, stake, &avk),
                     GROVE_ERR_ENCODING);
        /* an index >= m, or no index: the reason is the lottery, the verdict VERIFY */
        CHECK_EQ_INT(grove_stm_sig_copy(&t, &sigs[0]), GROVE_OK);
        t.indexes[t.n_indexes - 1] = p.m;
        CHECK_EQ_INT(stm_sig_verify_reason(&p, &t, msg, sizeof msg, vk, stake, &avk),
                     GROVE_ERR_LOTTERY_LOST);
        CHECK_EQ_INT(grove_stm_sig_verify(&p, &t, msg, sizeof msg, ps.closed), GROVE_ERR_VERIFY);
        t.n_indexes = 0;
        CHECK_EQ_INT(grove_stm_sig_verify(&p, &t, msg, sizeof msg, ps.closed), GROVE_ERR_VERIFY);
        grove_stm_sig_clear(&t);
        /* a signer index outside the registration: does not verify */
        CHECK_EQ_INT(grove_stm_sig_copy(&t, &sigs[0]), GROVE_OK);
        t.signer_index = ps.n;
        CHECK_EQ_INT(grove_stm_sig_verify(&p, &t, msg, sizeof msg, ps.closed), GROVE_ERR_VERIFY);
        grove_stm_sig_clear(&t);
    }
    /* vk+pop: a malformed vk is GROVE_ERR_ENCODING, a malformed PoP half GROVE_ERR_VERIFY */
    uint8_t vp[GROVE_STM_VKPOP_BYTES];
    CHECK_EQ_INT(grove_stm_vkpop_check(ps.vkpop), GROVE_OK);
    memcpy(vp, ps.vkpop, sizeof vp);
    vp[96] &= 0x7f; /* k1 without its compression flag */
    CHECK_EQ_INT(grove_stm_vkpop_check(vp), GROVE_ERR_VERIFY);
    memcpy(vp, ps.vkpop, sizeof vp);
    memset(vp + 144, 0, 48);
    vp[144] = 0xc0; /* k2 the identity */
    CHECK_EQ_INT(grove_stm_vkpop_check(vp), GROVE_ERR_VERIFY);
    memcpy(vp, ps.vkpop, sizeof vp);
    vp[0] &= 0x7f; /* vk without its compression flag */
    CHECK_EQ_INT(grove_stm_vkpop_check(vp), GROVE_ERR_ENCODING);
    /* registration with threads = GROVE_THREADS_AUTO gives the same closed registration */
    grove_stm_keyreg *reg;
    grove_stm_closed *c = NULL;
    CHECK_EQ_INT(grove_stm_keyreg_new(&reg), GROVE_OK);
    CHECK_EQ_INT(
        grove_stm_keyreg_add_many(reg, NULL, ps.stake, ps.vkpop, ps.n, GROVE_THREADS_AUTO),
        GROVE_OK);
    CHECK_EQ_INT(grove_stm_keyreg_close(reg, &c), GROVE_OK);
    if (c != NULL) {
        uint8_t r1[32], r2[32];
        grove_stm_closed_root(c, r1);
        grove_stm_closed_root(ps.closed, r2);
        CHECK_MEM(r1, r2, 32);
    }
    grove_stm_closed_free(c);
    grove_stm_keyreg_free(reg);
    for (size_t i = 0; i < ns; i++)
        grove_stm_sig_clear(&sigs[i]);
    parties_free(&ps);
}

/*
 * Aggregate verification on 1, 2 and 3 threads with enough signatures (>= 16) for the split
 * MSMs: the valid aggregate verifies; one wrong sigma (the negation of a valid one, a G1 point)
 * or one wrong vk (negated: its Merkle path still holds, the pairing does not) at the first,
 * middle or last position is refused on every thread count; so are a sigma and a vk outside
 * their subgroups (check_bad_sigma_refused, check_bad_vk_refused); restored, it verifies.
 */
static void test_verify_threads(void)
{
    grove_stm_params p = {200, 30, 0.5};
    party_set ps;
    parties_make(&ps, 40, 100, 0);
    const uint8_t msg[] = "certificate threads";
    grove_stm_sig sigs[40];
    size_t ns = sign_all(&ps, &p, msg, sizeof msg, sigs);
    CHECK(ns >= 16);
    /* k: 7/8 of the distinct indexes won (the lottery does not depend on k), so that the clerk
     * needs most signatures */
    uint8_t won[200] = {0};
    uint64_t distinct = 0;
    for (size_t i = 0; i < ns; i++)
        for (size_t j = 0; j < sigs[i].n_indexes; j++)
            if (sigs[i].indexes[j] < p.m && !won[sigs[i].indexes[j]]++)
                distinct++;
    p.k = distinct - distinct / 8;
    grove_stm_avk avk;
    grove_stm_closed_avk(ps.closed, &avk);
    grove_stm_aggregate *a = NULL;
    uint64_t have;
    int rc = grove_stm_aggregate_new(&p, &a, &have, sigs, ns, msg, sizeof msg, ps.closed, 2);
    CHECK_EQ_INT(rc, GROVE_OK);
    if (rc != GROVE_OK)
        goto done;
    printf("verify threads: %zu signatures, k = %llu\n", a->n, (unsigned long long)p.k);
    CHECK(a->n >= 16);
    CHECK_EQ_INT(verify_each(&p, a, msg, sizeof msg, &avk), GROVE_OK);
    size_t pos[3] = {0, a->n / 2, a->n - 1};
    for (size_t i = 0; i < 3; i++) {
        grove_bls_g1 s = a->sigmas[pos[i]];
        grove_bls_g1_neg(&a->sigmas[pos[i]], &s);
        CHECK_EQ_INT(verify_each(&p, a, msg, sizeof msg, &avk), GROVE_ERR_VERIFY);
        a->sigmas[pos[i]] = s;
        grove_bls_g2 v = a->vks[pos[i]];
        grove_bls_g2_neg(&a->vks[pos[i]], &v);
        CHECK_EQ_INT(verify_each(&p, a, msg, sizeof msg, &avk), GROVE_ERR_VERIFY);
        a->vks[pos[i]] = v;
    }
    CHECK_EQ_INT(verify_each(&p, a, msg, sizeof msg, &avk), GROVE_OK);
    const uint8_t other[] = "certificate thread5";
    CHECK_EQ_INT(verify_each(&p, a, other, sizeof other, &avk), GROVE_ERR_VERIFY);
    check_bad_sigma_refused(a, &p, msg, sizeof msg, &avk);
    check_bad_vk_refused(a, &p, msg, sizeof msg, &avk);
    CHECK_EQ_INT(verify_each(&p, a, msg, sizeof msg, &avk), GROVE_OK);
done:
    grove_stm_aggregate_free(a);
    for (size_t i = 0; i < ns; i++)
        grove_stm_sig_clear(&sigs[i]);
    parties_free(&ps);
}

int main(void)
{
    test_blake2b();
    test_lottery();
    test_params();
    test_merkle_shapes();
    test_registration();
    test_protocol_and_tampering();
    test_status_rules();
    test_seed_example();
    test_verify_threads();
    return test_done();
}
