/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Buffer discipline: every public function that writes to a caller's buffer is called with its
 * inputs and outputs at deliberately unaligned addresses (offsets 0..7), each output surrounded
 * by canary bytes. The test fails if a function writes one byte outside its stated size, or if
 * an unaligned call gives a different result from the aligned one.
 */
#include <stdlib.h>
#include <string.h>

#include "grove/grove.h"
#include "test.h"

#define GUARD 64
#define CANARY 0xA5

/* A buffer of len bytes at offset `off` from a 64-byte aligned position, with canaries. */
typedef struct {
    uint8_t *base;
    uint8_t *p;
    size_t len, off;
} gbuf;

static gbuf gb_new(size_t len, size_t off)
{
    gbuf g = {NULL, NULL, len, off};
    g.base = aligned_alloc(64, (GUARD + off + len + GUARD + 63) / 64 * 64);
    if (g.base == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    memset(g.base, CANARY, GUARD + off + len + GUARD);
    g.p = g.base + GUARD + off;
    return g;
}

/* A guarded copy of an input. */
static gbuf gb_from(const uint8_t *src, size_t len, size_t off)
{
    gbuf g = gb_new(len, off);
    memcpy(g.p, src, len);
    return g;
}

static int gb_intact(const gbuf *g)
{
    for (size_t i = 0; i < GUARD + g->off; i++)
        if (g->base[i] != CANARY)
            return 0;
    for (size_t i = 0; i < GUARD; i++)
        if (g->p[g->len + i] != CANARY)
            return 0;
    return 1;
}

#define CHECK_GUARD(g)                                                                      \
    do {                                                                                    \
        CHECK(gb_intact(&(g)));                                                             \
        free((g).base);                                                                     \
    } while (0)

static const size_t offsets[] = {0, 1, 3, 7};
#define NOFF (sizeof offsets / sizeof *offsets)

static void slhdsa(const char *name)
{
    const grove_slhdsa_params *p = grove_slhdsa_params_get(name);
    CHECK(p != NULL);
    const size_t n = grove_slhdsa_n(p), pkb = grove_slhdsa_pk_bytes(p),
                 skb = grove_slhdsa_sk_bytes(p), sigb = grove_slhdsa_sig_bytes(p);
    uint8_t seed[96], msg[33], ref_pk[64], ref_sk[128];
    uint8_t *ref_sig = malloc(sigb);
    uint64_t st = 7;
    test_rand_bytes(&st, seed, sizeof seed);
    test_rand_bytes(&st, msg, sizeof msg);
    CHECK_EQ_INT(grove_slhdsa_keygen_from_seed(p, ref_pk, ref_sk, seed, seed + n, seed + 2 * n),
                 GROVE_OK);
    const int fips = grove_slhdsa_params_is_fips205(p);
    if (fips)
        CHECK_EQ_INT(grove_slhdsa_sign(p, ref_sig, msg, sizeof msg, msg, 5, ref_sk, 0), GROVE_OK);
    else
        CHECK_EQ_INT(grove_slhdsa_sign_internal(p, ref_sig, msg, sizeof msg, ref_sk, seed), GROVE_OK);
    for (size_t i = 0; i < NOFF; i++) {
        size_t o = offsets[i];
        gbuf s = gb_from(seed, 3 * n, o), pk = gb_new(pkb, o), sk = gb_new(skb, (o + 1) % 8);
        CHECK_EQ_INT(grove_slhdsa_keygen_from_seed(p, pk.p, sk.p, s.p, s.p + n, s.p + 2 * n),
                     GROVE_OK);
        CHECK_MEM(pk.p, ref_pk, pkb);
        CHECK_MEM(sk.p, ref_sk, skb);
        gbuf m = gb_from(msg, sizeof msg, (o + 3) % 8), sig = gb_new(sigb, o);
        if (fips) {
            CHECK_EQ_INT(grove_slhdsa_sign(p, sig.p, m.p, m.len, m.p, 5, sk.p, 0), GROVE_OK);
            CHECK_EQ_INT(grove_slhdsa_verify(p, sig.p, sigb, m.p, m.len, m.p, 5, pk.p), GROVE_OK);
        } else {
            CHECK_EQ_INT(grove_slhdsa_sign_internal(p, sig.p, m.p, m.len, sk.p, s.p), GROVE_OK);
            CHECK_EQ_INT(grove_slhdsa_verify_internal(p, sig.p, sigb, m.p, m.len, pk.p), GROVE_OK);
        }
        CHECK_MEM(sig.p, ref_sig, sigb);
        CHECK_GUARD(s);
        CHECK_GUARD(pk);
        CHECK_GUARD(sk);
        CHECK_GUARD(m);
        CHECK_GUARD(sig);
    }
    free(ref_sig);
}

static void cross(const char *name)
{
    const grove_cross_params *p = grove_cross_params_get(name);
    CHECK(p != NULL);
    const size_t pkb = grove_cross_pk_bytes(p), skb = grove_cross_sk_bytes(p),
                 sigb = grove_cross_sig_bytes(p);
    uint8_t seed[64], msg[21];
    uint64_t st = 11;
    test_rand_bytes(&st, seed, sizeof seed);
    test_rand_bytes(&st, msg, sizeof msg);
    uint8_t *ref_pk = malloc(pkb), *ref_sk = malloc(skb);
    CHECK_EQ_INT(grove_cross_keygen_from_seed(p, ref_pk, ref_sk, seed), GROVE_OK);
    for (size_t i = 0; i < NOFF; i++) {
        size_t o = offsets[i];
        for (int strat = 0; strat < 2; strat++) {
            grove_cross_strategy s = strat ? GROVE_CROSS_SMALL_MEMORY : GROVE_CROSS_FAST;
            gbuf sd = gb_from(seed, skb, o), pk = gb_new(pkb, (o + 5) % 8), sk = gb_new(skb, o);
            CHECK_EQ_INT(grove_cross_keygen_from_seed(p, pk.p, sk.p, sd.p), GROVE_OK);
            CHECK_MEM(pk.p, ref_pk, pkb);
            CHECK_MEM(sk.p, ref_sk, skb);
            gbuf m = gb_from(msg, sizeof msg, (o + 2) % 8), sig = gb_new(sigb, o);
            CHECK_EQ_INT(grove_cross_sign(p, s, sig.p, m.p, m.len, sk.p), GROVE_OK);
            CHECK_EQ_INT(grove_cross_verify(p, s, sig.p, sigb, m.p, m.len, pk.p), GROVE_OK);
            /* attached form: exactly msg_len + sigb written, open writes exactly msg_len */
            size_t smlen = 0, mlen = 0;
            gbuf sm = gb_new(sizeof msg + sigb, (o + 1) % 8), out = gb_new(sizeof msg, o);
            CHECK_EQ_INT(grove_cross_sign_attached(p, s, sm.p, sm.len, &smlen, m.p, m.len, sk.p),
                         GROVE_OK);
            CHECK_EQ_INT(smlen, sm.len);
            CHECK_EQ_INT(grove_cross_open(p, s, out.p, out.len, &mlen, sm.p, smlen, pk.p),
                         GROVE_OK);
            CHECK_EQ_INT(mlen, sizeof msg);
            CHECK_MEM(out.p, msg, sizeof msg);
            /* an attached capacity one short is refused without writing */
            gbuf small = gb_new(sizeof msg + sigb - 1, o);
            CHECK_EQ_INT(
                grove_cross_sign_attached(p, s, small.p, small.len, &smlen, m.p, m.len, sk.p),
                GROVE_ERR_BUFFER_TOO_SMALL);
            CHECK_GUARD(small);
            CHECK_GUARD(sd);
            CHECK_GUARD(pk);
            CHECK_GUARD(sk);
            CHECK_GUARD(m);
            CHECK_GUARD(sig);
            CHECK_GUARD(sm);
            CHECK_GUARD(out);
        }
    }
    free(ref_pk);
    free(ref_sk);
}

#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
static void dgsp(const char *params)
{
    grove_dgsp_cfg cfg;
    CHECK_EQ_INT(grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get(params), GROVE_DGSP_FLAVOUR_R31,
                                     GROVE_DGSP_PROFILE_GROVE),
                 GROVE_OK);
    const size_t n = cfg.n, pkb = grove_dgsp_pk_bytes(&cfg), skb = grove_dgsp_sk_bytes(&cfg),
                 certb = grove_dgsp_cert_bytes(&cfg), sigb = grove_dgsp_sig_bytes(&cfg);
    uint8_t seed[5 * 32], su[32], msg[17];
    uint64_t st = 13;
    test_rand_bytes(&st, seed, sizeof seed);
    test_rand_bytes(&st, su, sizeof su);
    test_rand_bytes(&st, msg, sizeof msg);
    uint8_t ref_pk[64], *ref_sk = malloc(skb);
    CHECK_EQ_INT(grove_dgsp_keygen_manager_from_seed(&cfg, ref_pk, ref_sk, seed), GROVE_OK);
    for (size_t i = 0; i < NOFF; i++) {
        size_t o = offsets[i];
        grove_dgsp_store *store;
        CHECK_EQ_INT(grove_dgsp_store_memory_open(&store), GROVE_OK);
        gbuf sd = gb_from(seed, 5 * n, o), pk = gb_new(pkb, (o + 3) % 8), sk = gb_new(skb, o);
        CHECK_EQ_INT(grove_dgsp_keygen_manager_from_seed(&cfg, pk.p, sk.p, sd.p), GROVE_OK);
        CHECK_MEM(pk.p, ref_pk, pkb);
        CHECK_MEM(sk.p, ref_sk, skb);
        uint64_t id = 0;
        gbuf cid = gb_new(n, (o + 1) % 8);
        CHECK_EQ_INT(grove_dgsp_join(&cfg, store, &id, cid.p, "carol", sk.p), GROVE_OK);
        gbuf cid2 = gb_new(n, o);
        CHECK_EQ_INT(grove_dgsp_credential(&cfg, cid2.p, id, sk.p), GROVE_OK);
        CHECK_MEM(cid2.p, cid.p, n);
        /* member: two one-time keys */
        gbuf u = gb_from(su, n, (o + 6) % 8), wpk = gb_new(2 * n, o), wsd = gb_new(2 * n, (o + 2) % 8);
        CHECK_EQ_INT(grove_dgsp_csr(&cfg, wpk.p, wsd.p, 2, u.p), GROVE_OK);
        gbuf certs = gb_new(2 * certb, (o + 5) % 8);
        CHECK_EQ_INT(grove_dgsp_gen_cert(&cfg, store, certs.p, wpk.p, 2, id, cid.p, sk.p, 2),
                     GROVE_OK);
        CHECK_EQ_INT(grove_dgsp_check_cert(&cfg, certs.p, wpk.p, 2, id, pk.p), GROVE_OK);
        grove_dgsp_wallet *w;
        CHECK_EQ_INT(grove_dgsp_wallet_memory_open(&cfg, &w, u.p, id, cid.p), GROVE_OK);
        CHECK_EQ_INT(grove_dgsp_wallet_add(w, wsd.p, certs.p), GROVE_OK);
        gbuf m = gb_from(msg, sizeof msg, (o + 7) % 8), sig = gb_new(sigb, o);
        CHECK_EQ_INT(grove_dgsp_wallet_sign(w, sig.p, m.p, m.len), GROVE_OK);
        CHECK_EQ_INT(grove_dgsp_verify(&cfg, sig.p, sigb, m.p, m.len, pk.p, store), GROVE_OK);
        uint64_t who = 0;
        char uname[GROVE_DGSP_MAX_USERNAME + 1 + GUARD];
        memset(uname, CANARY, sizeof uname);
        gbuf pi = gb_new(n, (o + 4) % 8);
        CHECK_EQ_INT(grove_dgsp_open(&cfg, store, &who, uname, pi.p, sig.p, sigb, m.p, m.len, sk.p),
                     GROVE_OK);
        CHECK_EQ_INT(who, id);
        CHECK(strcmp(uname, "carol") == 0);
        for (size_t k = GROVE_DGSP_MAX_USERNAME + 1; k < sizeof uname; k++)
            CHECK((uint8_t)uname[k] == CANARY);
        CHECK_EQ_INT(grove_dgsp_judge(&cfg, sig.p, sigb, m.p, m.len, id, pi.p), GROVE_OK);
        /* signed revocation list of one zeta (any 16 bytes) */
        size_t rlb = grove_dgsp_revocations_bytes(&cfg, 1), rllen = 0;
        gbuf z = gb_from(seed, 16, o), rl = gb_new(rlb, (o + 1) % 8);
        CHECK_EQ_INT(grove_dgsp_revocations_sign(&cfg, rl.p, rlb, &rllen, 1, 2, z.p, 1, sk.p),
                     GROVE_OK);
        CHECK_EQ_INT(rllen, rlb);
        uint64_t seq, when, cnt;
        const uint8_t *zs;
        CHECK_EQ_INT(grove_dgsp_revocations_verify(&cfg, &seq, &when, &zs, &cnt, rl.p, rllen, pk.p),
                     GROVE_OK);
        CHECK_EQ_INT(cnt, 1);
        CHECK(zs != NULL && memcmp(zs, seed, 16) == 0);
        grove_dgsp_wallet_close(w);
        grove_dgsp_store_close(store);
        CHECK_GUARD(sd);
        CHECK_GUARD(pk);
        CHECK_GUARD(sk);
        CHECK_GUARD(cid);
        CHECK_GUARD(cid2);
        CHECK_GUARD(u);
        CHECK_GUARD(wpk);
        CHECK_GUARD(wsd);
        CHECK_GUARD(certs);
        CHECK_GUARD(m);
        CHECK_GUARD(sig);
        CHECK_GUARD(pi);
        CHECK_GUARD(z);
        CHECK_GUARD(rl);
    }
    free(ref_sk);
}
#endif

/*
 * BLS12-381, byte-level functions of one variant: keys, signing, verification (single, fast
 * aggregate, aggregate, batch), aggregation, proofs of possession, point encodings, public
 * scalar multiplication and MSM (scalars from unaligned bytes), expand_message_xmd. Outputs of
 * point type are guarded too (at their natural alignment).
 */
static void bls(const char *name)
{
    const grove_bls_variant v = grove_bls_variant_get(name);
    CHECK(v != 0);
    const size_t pkb = grove_bls_pk_bytes(v), sgb = grove_bls_sig_bytes(v);
    const uint8_t *dst0 = (const uint8_t *)(v == GROVE_BLS_MIN_SIG ? GROVE_BLS_DST_MIN_SIG
                                                                    : GROVE_BLS_DST_MIN_PK);
    const size_t dstl = strlen((const char *)dst0);
    uint8_t ikm[40], msg[19], ref_skb[GROVE_BLS_SK_BYTES], ref_pk[2][96], ref_sig[2][96];
    uint8_t ref_pop[96], ref_aggpk[96], ref_aggsig[96], ref_xmd[77];
    uint64_t st = 17;
    test_rand_bytes(&st, ikm, sizeof ikm);
    test_rand_bytes(&st, msg, sizeof msg);
    grove_bls_sk ref_sk[2];
    for (int j = 0; j < 2; j++) {
        ikm[0] ^= (uint8_t)j;
        CHECK_EQ_INT(grove_bls_keygen(&ref_sk[j], ikm, sizeof ikm, msg, 3), GROVE_OK);
        ikm[0] ^= (uint8_t)j;
        CHECK_EQ_INT(grove_bls_sk_to_pk(v, ref_pk[j], &ref_sk[j]), GROVE_OK);
        CHECK_EQ_INT(grove_bls_sign(v, ref_sig[j], msg, sizeof msg, &ref_sk[j], dst0, dstl),
                     GROVE_OK);
    }
    grove_bls_sk_to_bytes(&ref_sk[0], ref_skb);
    CHECK_EQ_INT(grove_bls_pop_prove(v, ref_pop, &ref_sk[0], dst0, dstl), GROVE_OK);
    uint8_t cat[2 * 96];
    memcpy(cat, ref_pk[0], pkb);
    memcpy(cat + pkb, ref_pk[1], pkb);
    CHECK_EQ_INT(grove_bls_aggregate_pks(v, ref_aggpk, cat, 2), GROVE_OK);
    memcpy(cat, ref_sig[0], sgb);
    memcpy(cat + sgb, ref_sig[1], sgb);
    CHECK_EQ_INT(grove_bls_aggregate_sigs(v, ref_aggsig, cat, 2), GROVE_OK);
    CHECK_EQ_INT(grove_bls_expand_message_xmd(ref_xmd, sizeof ref_xmd, msg, sizeof msg, dst0,
                                              dstl),
                 GROVE_OK);
    grove_bls_g1 g1, ref_m1;
    grove_bls_g2 g2, ref_m2;
    grove_bls_g1_generator(&g1);
    grove_bls_g2_generator(&g2);
    CHECK_EQ_INT(grove_bls_g1_mul(&ref_m1, &g1, msg, 17), GROVE_OK);
    CHECK_EQ_INT(grove_bls_g2_mul(&ref_m2, &g2, msg, 17), GROVE_OK);

    for (size_t i = 0; i < NOFF; i++) {
        size_t o = offsets[i];
        /* keys */
        gbuf ik = gb_from(ikm, sizeof ikm, o), info = gb_from(msg, 3, (o + 5) % 8);
        gbuf skp = gb_new(sizeof(grove_bls_sk), 0);
        grove_bls_sk *sk = (grove_bls_sk *)(void *)skp.p;
        CHECK_EQ_INT(grove_bls_keygen(sk, ik.p, ik.len, info.p, info.len), GROVE_OK);
        gbuf skb = gb_new(GROVE_BLS_SK_BYTES, (o + 1) % 8);
        grove_bls_sk_to_bytes(sk, skb.p);
        CHECK_MEM(skb.p, ref_skb, GROVE_BLS_SK_BYTES);
        CHECK_EQ_INT(grove_bls_sk_from_bytes(sk, skb.p), GROVE_OK);
        gbuf pk = gb_new(pkb, (o + 3) % 8), sig = gb_new(sgb, o), pop = gb_new(sgb, (o + 6) % 8);
        gbuf m = gb_from(msg, sizeof msg, (o + 2) % 8), dst = gb_from(dst0, dstl, (o + 7) % 8);
        CHECK_EQ_INT(grove_bls_sk_to_pk(v, pk.p, sk), GROVE_OK);
        CHECK_MEM(pk.p, ref_pk[0], pkb);
        CHECK_EQ_INT(grove_bls_sign(v, sig.p, m.p, m.len, sk, dst.p, dst.len), GROVE_OK);
        CHECK_MEM(sig.p, ref_sig[0], sgb);
        CHECK_EQ_INT(grove_bls_verify(v, sig.p, sgb, m.p, m.len, pk.p, pkb, dst.p, dst.len),
                     GROVE_OK);
        CHECK_EQ_INT(grove_bls_pop_prove(v, pop.p, sk, dst.p, dst.len), GROVE_OK);
        CHECK_MEM(pop.p, ref_pop, sgb);
        CHECK_EQ_INT(grove_bls_pop_verify(v, pop.p, sgb, pk.p, pkb, dst.p, dst.len), GROVE_OK);
        /* (fixed-size outputs take no length: the exact-size guarded buffers show that
         * nothing is written past grove_bls_sig_bytes / grove_bls_pk_bytes) */
        /* aggregation and the multi-key verifications */
        gbuf pks = gb_new(2 * pkb, (o + 4) % 8), sigs = gb_new(2 * sgb, (o + 1) % 8);
        memcpy(pks.p, ref_pk[0], pkb);
        memcpy(pks.p + pkb, ref_pk[1], pkb);
        memcpy(sigs.p, ref_sig[0], sgb);
        memcpy(sigs.p + sgb, ref_sig[1], sgb);
        gbuf apk = gb_new(pkb, o), asig = gb_new(sgb, (o + 5) % 8);
        CHECK_EQ_INT(grove_bls_aggregate_pks(v, apk.p, pks.p, 2), GROVE_OK);
        CHECK_MEM(apk.p, ref_aggpk, pkb);
        CHECK_EQ_INT(grove_bls_aggregate_sigs(v, asig.p, sigs.p, 2), GROVE_OK);
        CHECK_MEM(asig.p, ref_aggsig, sgb);
        CHECK_EQ_INT(
            grove_bls_fast_aggregate_verify(v, asig.p, sgb, m.p, m.len, pks.p, 2, dst.p, dst.len),
            GROVE_OK);
        const uint8_t *msgs[2] = {m.p, m.p};
        const size_t lens[2] = {m.len, m.len};
        CHECK_EQ_INT(
            grove_bls_aggregate_verify(v, asig.p, sgb, msgs, lens, pks.p, 2, dst.p, dst.len),
            GROVE_OK);
        CHECK_EQ_INT(grove_bls_batch_verify(v, sigs.p, msgs, lens, pks.p, 2, dst.p, dst.len),
                     GROVE_OK);
        /* point encodings: decode from unaligned bytes, encode into guarded buffers */
        gbuf q1 = gb_new(sizeof(grove_bls_g1), 0), q2 = gb_new(sizeof(grove_bls_g2), 0);
        grove_bls_g1 *P1 = (grove_bls_g1 *)(void *)q1.p;
        grove_bls_g2 *P2 = (grove_bls_g2 *)(void *)q2.p;
        const uint8_t *e1 = v == GROVE_BLS_MIN_SIG ? sig.p : pk.p;
        const uint8_t *e2 = v == GROVE_BLS_MIN_SIG ? pk.p : sig.p;
        CHECK_EQ_INT(grove_bls_g1_from_bytes(P1, e1, 48, GROVE_BLS_NO_INFINITY), GROVE_OK);
        CHECK_EQ_INT(grove_bls_g2_from_bytes(P2, e2, 96, GROVE_BLS_NO_INFINITY), GROVE_OK);
        gbuf c1 = gb_new(48, (o + 3) % 8), u1 = gb_new(96, o), c2 = gb_new(96, (o + 6) % 8),
             u2 = gb_new(192, (o + 1) % 8);
        grove_bls_g1_to_bytes(P1, c1.p);
        CHECK_MEM(c1.p, e1, 48);
        grove_bls_g1_to_bytes_uncompressed(P1, u1.p);
        grove_bls_g2_to_bytes(P2, c2.p);
        CHECK_MEM(c2.p, e2, 96);
        grove_bls_g2_to_bytes_uncompressed(P2, u2.p);
        grove_bls_g1 back1;
        grove_bls_g2 back2;
        CHECK_EQ_INT(grove_bls_g1_from_bytes(&back1, u1.p, 96, 0), GROVE_OK);
        CHECK_EQ_INT(grove_bls_g2_from_bytes(&back2, u2.p, 192, 0), GROVE_OK);
        CHECK(grove_bls_g1_equal(&back1, P1));
        CHECK(grove_bls_g2_equal(&back2, P2));
        /* public scalars from unaligned bytes; MSM of one point equals mul */
        gbuf k = gb_from(msg, 17, (o + 5) % 8);
        CHECK_EQ_INT(grove_bls_g1_mul(P1, &g1, k.p, k.len), GROVE_OK);
        CHECK(grove_bls_g1_equal(P1, &ref_m1));
        CHECK_EQ_INT(grove_bls_g2_mul(P2, &g2, k.p, k.len), GROVE_OK);
        CHECK(grove_bls_g2_equal(P2, &ref_m2));
        CHECK_EQ_INT(grove_bls_g1_msm(P1, &g1, k.p, k.len, 1), GROVE_OK);
        CHECK(grove_bls_g1_equal(P1, &ref_m1));
        CHECK_EQ_INT(grove_bls_g2_msm(P2, &g2, k.p, k.len, 1), GROVE_OK);
        CHECK(grove_bls_g2_equal(P2, &ref_m2));
        grove_bls_g1_hash(P1, m.p, m.len, dst.p, dst.len);
        grove_bls_g2_hash(P2, m.p, m.len, dst.p, dst.len);
        gbuf xmd = gb_new(sizeof ref_xmd, (o + 2) % 8);
        CHECK_EQ_INT(grove_bls_expand_message_xmd(xmd.p, xmd.len, m.p, m.len, dst.p, dst.len),
                     GROVE_OK);
        CHECK_MEM(xmd.p, ref_xmd, sizeof ref_xmd);
        grove_bls_sk_wipe(sk);
        CHECK_GUARD(ik);
        CHECK_GUARD(info);
        CHECK_GUARD(skp);
        CHECK_GUARD(skb);
        CHECK_GUARD(pk);
        CHECK_GUARD(sig);
        CHECK_GUARD(pop);
        CHECK_GUARD(m);
        CHECK_GUARD(dst);
        CHECK_GUARD(pks);
        CHECK_GUARD(sigs);
        CHECK_GUARD(apk);
        CHECK_GUARD(asig);
        CHECK_GUARD(q1);
        CHECK_GUARD(q2);
        CHECK_GUARD(c1);
        CHECK_GUARD(u1);
        CHECK_GUARD(c2);
        CHECK_GUARD(u2);
        CHECK_GUARD(k);
        CHECK_GUARD(xmd);
    }
    grove_bls_sk_wipe(&ref_sk[0]);
    grove_bls_sk_wipe(&ref_sk[1]);
}

/* Mithril STM: every byte-level function with guarded, unaligned inputs and outputs, results
 * compared with an aligned reference run. */
#if GROVE_HAVE_STM
static void stm(void)
{
    const grove_stm_params prm = {40, 8, 0.6};
    uint8_t seed[3][32], ref_sk[3][32], ref_vkpop[3][192], msg[21];
    uint64_t st = 23, stakes[3] = {3, 9, 5};
    test_rand_bytes(&st, &seed[0][0], sizeof seed);
    test_rand_bytes(&st, msg, sizeof msg);
    for (int j = 0; j < 3; j++)
        CHECK_EQ_INT(grove_stm_keygen(ref_vkpop[j], ref_sk[j], seed[j]), GROVE_OK);
    grove_stm_keyreg *reg = NULL;
    grove_stm_closed *closed = NULL;
    CHECK_EQ_INT(grove_stm_keyreg_new(&reg), GROVE_OK);
    CHECK_EQ_INT(grove_stm_keyreg_add_many(reg, NULL, stakes, &ref_vkpop[0][0], 3, 1), GROVE_OK);
    CHECK_EQ_INT(grove_stm_keyreg_close(reg, &closed), GROVE_OK);
    grove_stm_keyreg_free(reg);
    grove_stm_sig sigs[3];
    size_t ns = 0;
    for (int j = 0; j < 3; j++) {
        grove_stm_signer *s;
        CHECK_EQ_INT(grove_stm_signer_new(&prm, &s, ref_sk[j], closed), GROVE_OK);
        if (grove_stm_sign(s, &sigs[ns], msg, sizeof msg) == GROVE_OK)
            ns++;
        grove_stm_signer_free(s);
    }
    grove_stm_aggregate *agg = NULL;
    int arc = grove_stm_aggregate_new(&prm, &agg, NULL, sigs, ns, msg, sizeof msg, closed, 1);
    grove_stm_avk avk;
    grove_stm_closed_avk(closed, &avk);
    uint8_t ref_root[32], ref_avk[48], ref_prm[24], ref_ev[64];
    grove_stm_closed_root(closed, ref_root);
    grove_stm_avk_to_bytes(&avk, ref_avk);
    grove_stm_params_to_bytes(&prm, ref_prm);
    grove_stm_lottery_ev(ref_ev, msg, sizeof msg, 7, ref_vkpop[0] + 96);

    for (size_t i = 0; i < NOFF; i++) {
        size_t o = offsets[i];
        gbuf sd = gb_from(seed[0], 32, o), sk = gb_new(32, (o + 1) % 8),
             vp = gb_new(192, (o + 2) % 8), vp2 = gb_new(192, (o + 5) % 8);
        CHECK_EQ_INT(grove_stm_keygen(vp.p, sk.p, sd.p), GROVE_OK);
        CHECK_MEM(sk.p, ref_sk[0], 32);
        CHECK_MEM(vp.p, ref_vkpop[0], 192);
        CHECK_EQ_INT(grove_stm_vkpop_from_sk(vp2.p, sk.p), GROVE_OK);
        CHECK_MEM(vp2.p, ref_vkpop[0], 192);
        CHECK_EQ_INT(grove_stm_vkpop_check(vp2.p), GROVE_OK);
        gbuf pb = gb_new(24, o), ab = gb_new(48, (o + 3) % 8), rt = gb_new(32, (o + 4) % 8),
             ev = gb_new(64, (o + 6) % 8), m = gb_from(msg, sizeof msg, (o + 7) % 8);
        grove_stm_params_to_bytes(&prm, pb.p);
        CHECK_MEM(pb.p, ref_prm, 24);
        grove_stm_params q;
        CHECK_EQ_INT(grove_stm_params_from_bytes(&q, pb.p, pb.len), GROVE_OK);
        grove_stm_avk_to_bytes(&avk, ab.p);
        CHECK_MEM(ab.p, ref_avk, 48);
        grove_stm_avk a2;
        CHECK_EQ_INT(grove_stm_avk_from_bytes(&a2, ab.p, ab.len), GROVE_OK);
        grove_stm_closed_root(closed, rt.p);
        CHECK_MEM(rt.p, ref_root, 32);
        grove_stm_lottery_ev(ev.p, m.p, m.len, 7, vp.p + 96);
        CHECK_MEM(ev.p, ref_ev, 64);
        /* variable-size encodings: exact-size guarded buffers, one byte short refused */
        size_t cl = grove_stm_closed_encoded_bytes(closed);
        gbuf cb = gb_new(cl, o);
        size_t wlen = 0;
        CHECK_EQ_INT(grove_stm_closed_to_bytes(closed, cb.p, cl, &wlen), GROVE_OK);
        CHECK_EQ_INT(wlen, cl);
        wlen = 0; /* one byte short: refused, and out_len tells the size needed */
        CHECK_EQ_INT(grove_stm_closed_to_bytes(closed, cb.p, cl - 1, &wlen),
                     GROVE_ERR_BUFFER_TOO_SMALL);
        CHECK_EQ_INT(wlen, cl);
        CHECK_EQ_INT(grove_stm_closed_to_bytes(closed, NULL, 0, &wlen), GROVE_ERR_BUFFER_TOO_SMALL);
        CHECK_EQ_INT(wlen, cl);
        grove_stm_closed *c2 = NULL;
        CHECK_EQ_INT(grove_stm_closed_from_bytes(&c2, cb.p, cb.len), GROVE_OK);
        grove_stm_closed_free(c2);
        for (size_t k = 0; k < ns; k++) {
            size_t sl = grove_stm_sig_encoded_bytes(&sigs[k]);
            gbuf sb = gb_new(sl, (o + k) % 8);
            CHECK_EQ_INT(grove_stm_sig_to_bytes(&sigs[k], sb.p, sl, &wlen), GROVE_OK);
            CHECK_EQ_INT(wlen, sl);
            wlen = 0;
            CHECK_EQ_INT(grove_stm_sig_to_bytes(&sigs[k], sb.p, sl - 1, &wlen),
                         GROVE_ERR_BUFFER_TOO_SMALL);
            CHECK_EQ_INT(wlen, sl);
            grove_stm_sig back;
            CHECK_EQ_INT(grove_stm_sig_from_bytes(&back, sb.p, sb.len), GROVE_OK);
            CHECK_EQ_INT(grove_stm_sig_verify(&prm, &back, m.p, m.len, closed), GROVE_OK);
            grove_stm_sig_clear(&back);
            CHECK_GUARD(sb);
        }
        if (arc == GROVE_OK) {
            size_t al = grove_stm_aggregate_encoded_bytes(agg);
            gbuf gb = gb_new(al, (o + 2) % 8);
            CHECK_EQ_INT(grove_stm_aggregate_to_bytes(agg, gb.p, al, &wlen), GROVE_OK);
            CHECK_EQ_INT(wlen, al);
            wlen = 0;
            CHECK_EQ_INT(grove_stm_aggregate_to_bytes(agg, gb.p, al - 1, &wlen),
                         GROVE_ERR_BUFFER_TOO_SMALL);
            CHECK_EQ_INT(wlen, al);
            grove_stm_aggregate *a3 = NULL;
            CHECK_EQ_INT(grove_stm_aggregate_from_bytes(&a3, gb.p, gb.len), GROVE_OK);
            CHECK_EQ_INT(grove_stm_aggregate_verify(&prm, a3, m.p, m.len, &a2), GROVE_OK);
            grove_stm_aggregate_free(a3);
            CHECK_GUARD(gb);
        }
        CHECK_GUARD(sd);
        CHECK_GUARD(sk);
        CHECK_GUARD(vp);
        CHECK_GUARD(vp2);
        CHECK_GUARD(pb);
        CHECK_GUARD(ab);
        CHECK_GUARD(rt);
        CHECK_GUARD(ev);
        CHECK_GUARD(m);
        CHECK_GUARD(cb);
    }
    CHECK_EQ_INT(arc, GROVE_OK);
    grove_stm_aggregate_free(agg);
    for (size_t k = 0; k < ns; k++)
        grove_stm_sig_clear(&sigs[k]);
    grove_stm_closed_free(closed);
}
#endif

/* The canary check itself must see a one-byte overrun. */
/* grove/pkix.h: every output exactly as large as needed (out_cap = the length reported). */
static void pkix(void)
{
    const grove_slhdsa_params *p = grove_slhdsa_params_get("SLH-DSA-SHAKE-256s"), *got;
    uint8_t key[GROVE_SLHDSA_MAX_SK_BYTES];
    uint64_t st = 11;
    test_rand_bytes(&st, key, sizeof key);
    key[0] = key[1] = key[2] = 0, key[3] = 1; /* also an XMSS-SHA2_10_256 public key (68 bytes) */
    size_t spki_len = 0, p8_len = 0, x_len = 0, len = 0;
    CHECK_EQ_INT(grove_pkix_slhdsa_pk_to_der(p, 0, NULL, 0, &spki_len, key),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(grove_pkix_slhdsa_sk_to_der(p, 0, NULL, 0, &p8_len, key),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(grove_pkix_xmss_pk_to_der(GROVE_XMSS_FAMILY_XMSS, NULL, 0, &x_len, key, 68),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    for (size_t i = 0; i < NOFF; i++) {
        size_t o = offsets[i];
        gbuf in = gb_from(key, sizeof key, o), spki = gb_new(spki_len, (o + 1) % 8);
        gbuf p8 = gb_new(p8_len, (o + 2) % 8), x = gb_new(x_len, (o + 3) % 8);
        gbuf pk = gb_new(64, (o + 5) % 8), sk = gb_new(128, (o + 6) % 8), xpk = gb_new(68, o);
        CHECK_EQ_INT(grove_pkix_slhdsa_pk_to_der(p, 0, spki.p, spki.len, &len, in.p), GROVE_OK);
        CHECK_EQ_INT(grove_pkix_slhdsa_sk_to_der(p, 0, p8.p, p8.len, &len, in.p), GROVE_OK);
        CHECK_EQ_INT(grove_pkix_xmss_pk_to_der(GROVE_XMSS_FAMILY_XMSS, x.p, x.len, &len, in.p, 68),
                     GROVE_OK);
        CHECK_EQ_INT(grove_pkix_slhdsa_pk_from_der(&got, NULL, pk.p, pk.len, &len, spki.p,
                                                   spki.len),
                     GROVE_OK);
        CHECK_MEM(pk.p, key, 64);
        CHECK_EQ_INT(grove_pkix_slhdsa_sk_from_der(&got, NULL, sk.p, sk.len, &len, p8.p, p8.len),
                     GROVE_OK);
        CHECK_MEM(sk.p, key, 128);
        grove_xmss_family fam;
        CHECK_EQ_INT(grove_pkix_xmss_pk_from_der(&fam, xpk.p, xpk.len, &len, x.p, x.len),
                     GROVE_OK);
        CHECK_MEM(xpk.p, key, 68);
        /* PEM: the text plus its NUL, then back into exactly p8_len bytes */
        size_t pem_len = 0;
        CHECK_EQ_INT(grove_pkix_pem_encode(NULL, 0, &pem_len, "PRIVATE KEY", p8.p, p8.len),
                     GROVE_ERR_BUFFER_TOO_SMALL);
        gbuf pem = gb_new(pem_len + 1, (o + 4) % 8), back = gb_new(p8_len, (o + 7) % 8);
        CHECK_EQ_INT(grove_pkix_pem_encode((char *)pem.p, pem.len, &len, "PRIVATE KEY", p8.p,
                                           p8.len),
                     GROVE_OK);
        CHECK_EQ_INT(grove_pkix_pem_decode(back.p, back.len, &len, "PRIVATE KEY",
                                           (const char *)pem.p, pem_len),
                     GROVE_OK);
        CHECK_MEM(back.p, p8.p, p8_len);
        CHECK_GUARD(in);
        CHECK_GUARD(spki);
        CHECK_GUARD(p8);
        CHECK_GUARD(x);
        CHECK_GUARD(pk);
        CHECK_GUARD(sk);
        CHECK_GUARD(xpk);
        CHECK_GUARD(pem);
        CHECK_GUARD(back);
    }
}

static void self_test(void)
{
    gbuf g = gb_new(10, 3);
    CHECK(gb_intact(&g));
    g.p[10] = 0;
    CHECK(!gb_intact(&g));
    g.p[10] = CANARY;
    g.p[-1] = 0;
    CHECK(!gb_intact(&g));
    free(g.base);
}

int main(void)
{
    self_test();
    slhdsa("SLH-DSA-SHAKE-128f");
    slhdsa("SLH-DSA-SHA2-128f");
    slhdsa("sphincs-sha2-192f-simple");
    cross("CROSS-RSDP-1-fast");
    cross("CROSS-RSDPG-3-balanced");
#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
    dgsp("shake-128f");
#endif
#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
    dgsp("sha2-128f");
#endif
    bls("min-sig");
    bls("min-pk");
    pkix();
#if GROVE_HAVE_STM
    stm();
#endif
    return test_done();
}
