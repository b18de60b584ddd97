/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Constant-time check: run under valgrind memcheck in a -DGROVE_CT_CHECK build (tests/ct/run.sh).
 * Secret inputs are marked undefined; memcheck then reports any branch or memory index that
 * depends on them. Values the algorithms publish are declassified inside the library
 * (GROVE_DECLASSIFY). Usage: ct_check [case ...] (default: all).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ct.h"
#include "cross/cross_internal.h"
#include "grove/grove.h"
#if GROVE_HAVE_DGSP
#include "dgsp/dgsp_int.h"
#endif

static uint8_t seed[192];

static int slhdsa(const char *name)
{
    const grove_slhdsa_params *p = grove_slhdsa_params_get(name);
    size_t n = grove_slhdsa_n(p);
    uint8_t pk[64], sk[128], opt[32];
    uint8_t *sig = malloc(grove_slhdsa_sig_bytes(p));
    memcpy(opt, seed + 100, n);
    GROVE_SECRET(seed, 2 * n); /* SK.seed, SK.prf */
    GROVE_SECRET(opt, n);      /* hedged randomness */
    int r = grove_slhdsa_keygen_from_seed(p, pk, sk, seed, seed + n, seed + 2 * n);
    if (r == GROVE_OK)
        r = grove_slhdsa_sign_internal(p, sig, (const uint8_t *)"m", 1, sk, opt);
    GROVE_DECLASSIFY(seed, sizeof seed);
    free(sig);
    return r;
}

#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
static int dgsp(const char *params)
{
    grove_dgsp_cfg cfg;
    int r = grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get(params), GROVE_DGSP_FLAVOUR_R31,
                                GROVE_DGSP_PROFILE_GROVE);
    if (r)
        return r;
    const size_t n = cfg.n;
    uint8_t pk[64], sk[192], cs[32], su[32], ws[32], wpk[32];
    uint8_t *cert = malloc(grove_dgsp_cert_bytes(&cfg)), *sig = malloc(grove_dgsp_sig_bytes(&cfg));
    grove_dgsp_store *st;
    uint64_t id;
    /* SK.seed, SK.prf, (PK.seed is public), hash_secret, aes_key */
    GROVE_SECRET(seed, 2 * n);
    GROVE_SECRET(seed + 3 * n, 2 * n);
    r = grove_dgsp_keygen_manager_from_seed(&cfg, pk, sk, seed);
    if (r == GROVE_OK)
        r = grove_dgsp_store_memory_open(&st);
    if (r != GROVE_OK)
        return r;
    r = grove_dgsp_join(&cfg, st, &id, cs, "alice", sk);
    /* member side: the long-term seed and the one-time seed are secret */
    memcpy(su, seed + 160, n);
    memcpy(ws, seed + 128, n);
    GROVE_SECRET(su, n);
    GROVE_SECRET(ws, n);
    if (r == GROVE_OK)
        r = dgsp_csr_from_seeds(&cfg, su, 1, ws, wpk);
    GROVE_DECLASSIFY(wpk, n); /* the CSR is sent to the manager */
    GROVE_DECLASSIFY(cs, n);  /* the member holds cid*; the manager compares it in constant time */
    if (r == GROVE_OK)
        r = grove_dgsp_gen_cert(&cfg, st, cert, wpk, 1, id, cs, sk, 1);
    if (r == GROVE_OK)
        r = dgsp_sign_raw(&cfg, (const uint8_t *)"m", 1, su, id, ws, cert, sig, 0);
    uint64_t who;
    uint8_t pi[32];
    if (r == GROVE_OK)
        r = grove_dgsp_open(&cfg, st, &who, NULL, pi, sig, grove_dgsp_sig_bytes(&cfg),
                            (const uint8_t *)"m", 1, sk);
    if (r == GROVE_OK)
        r = grove_dgsp_revoke(&cfg, st, NULL, &id, 1, sk);
    grove_dgsp_store_close(st);
    GROVE_DECLASSIFY(seed, sizeof seed);
    free(cert);
    free(sig);
    return r;
}
#endif

static int cross(const char *name)
{
    const grove_cross_params *p = grove_cross_params_get(name);
    size_t pkb = grove_cross_pk_bytes(p), skb = grove_cross_sk_bytes(p),
           sb = grove_cross_sig_bytes(p);
    uint8_t *pk = malloc(pkb), *sk = malloc(skb), *sig = malloc(sb), rnd[96];
    memcpy(rnd, seed + 64, sizeof rnd);
    GROVE_SECRET(seed, skb); /* the secret key is the seed */
    GROVE_SECRET(rnd, sizeof rnd); /* root seed (secret); salt (published) */
    int r = grove_cross_keygen_from_seed(p, pk, sk, seed);
    GROVE_DECLASSIFY(pk, pkb);
    for (int s = 0; s < 2 && r == GROVE_OK; s++)
        r = cross_sign_derand(p, s ? GROVE_CROSS_SMALL_MEMORY : GROVE_CROSS_FAST, sig,
                              (const uint8_t *)"m", 1, sk, rnd, rnd + 32, NULL, 0);
    GROVE_DECLASSIFY(seed, sizeof seed);
    free(pk);
    free(sk);
    free(sig);
    return r;
}

static grove_status persist_ok(void *arg, const uint8_t *state, size_t len)
{
    (void)arg;
    (void)state;
    (void)len;
    return GROVE_OK;
}

static int xmss(const char *name)
{
    const grove_xmss_params *p = grove_xmss_params_get(name);
    unsigned n = grove_xmss_params_n(p);
    uint8_t *sig = malloc(grove_xmss_sig_bytes(p));
    grove_xmss_key *k = NULL;
    GROVE_SECRET(seed, 2 * n); /* SK_SEED, SK_PRF (PUB_SEED is public) */
    int r = grove_xmss_keygen_from_seed(p, &k, seed, seed + n, seed + 2 * n, NULL);
    if (r == GROVE_OK)
        r = grove_xmss_key_set_persist(k, persist_ok, NULL);
    for (int i = 0; i < 2 && r == GROVE_OK; i++)
        r = grove_xmss_key_sign(k, sig, NULL, (const uint8_t *)"m", 1);
    grove_xmss_key_free(k);
    GROVE_DECLASSIFY(seed, sizeof seed);
    free(sig);
    return r;
}

/* BLS12-381: IKM and the secret scalar are secret; the public key, signatures and proofs of
 * possession are declassified by the library when they are published. */
static int bls(const char *name)
{
    grove_bls_variant v;
    grove_bls_sk sk, sk2;
    uint8_t ikm[32], skb[GROVE_BLS_SK_BYTES], pk[96], sig[96], pop[96];
    grove_bls_g1 p1, s1;
    grove_bls_g2 p2, s2;
    const uint8_t dst[] = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_POP_";
    int r;
    if ((v = grove_bls_variant_get(name)) == 0)
        return GROVE_ERR_UNSUPPORTED;
    memcpy(ikm, seed, sizeof ikm);
    GROVE_SECRET(ikm, sizeof ikm);
    r = grove_bls_keygen(&sk, ikm, sizeof ikm, (const uint8_t *)"info", 4);
    if (r == GROVE_OK) {
        grove_bls_sk_to_bytes(&sk, skb);
        r = grove_bls_sk_from_bytes(&sk2, skb);
    }
    if (r == GROVE_OK)
        r = grove_bls_sk_to_pk(v, pk, &sk2);
    if (r == GROVE_OK)
        r = grove_bls_sign(v, sig, (const uint8_t *)"m", 1, &sk2, dst, sizeof dst - 1);
    if (r == GROVE_OK)
        r = grove_bls_pop_prove(v, pop, &sk2, dst, sizeof dst - 1);
    /* the point-level API: G1 signatures for min-sig, G2 for min-pk; a secret multiple of a
     * public point (the caller decides whether the result is public) */
    if (r == GROVE_OK && v == GROVE_BLS_MIN_SIG) {
        r = grove_bls_sign_g1(&s1, (const uint8_t *)"m", 1, &sk2, dst, sizeof dst - 1);
        grove_bls_g1_generator(&p1);
        grove_bls_g1_mul_sk(&p1, &p1, &sk2);
        GROVE_DECLASSIFY(&p1, sizeof p1);
    } else if (r == GROVE_OK) {
        r = grove_bls_sign_g2(&s2, (const uint8_t *)"m", 1, &sk2, dst, sizeof dst - 1);
        grove_bls_g2_generator(&p2);
        grove_bls_g2_mul_sk(&p2, &p2, &sk2);
        GROVE_DECLASSIFY(&p2, sizeof p2);
    }
    /* what was published must be usable without touching a secret */
    if (r == GROVE_OK)
        r = grove_bls_verify(v, sig, grove_bls_sig_bytes(v), (const uint8_t *)"m", 1, pk,
                             grove_bls_pk_bytes(v), dst, sizeof dst - 1);
    if (r == GROVE_OK)
        r = grove_bls_pop_verify(v, pop, grove_bls_sig_bytes(v), pk, grove_bls_pk_bytes(v), dst,
                                 sizeof dst - 1);
    grove_bls_sk_wipe(&sk);
    grove_bls_sk_wipe(&sk2);
    GROVE_DECLASSIFY(ikm, sizeof ikm);
    GROVE_DECLASSIFY(skb, sizeof skb);
    return r;
}

/* Mithril STM: keygen from a secret seed, then a signer (secret key) signs; the registration,
 * the vk+PoP and the signature (sigma, won indexes) are public. */
#if GROVE_HAVE_STM
static int stm(const char *name)
{
    (void)name;
    grove_stm_params prm = {30, 5, 0.5};
    uint8_t sk[2][32], vkpop[2][192], ikm[2][32];
    uint64_t stakes[2] = {10, 20};
    memcpy(ikm, seed, sizeof ikm);
    GROVE_SECRET(ikm, sizeof ikm);
    int r = grove_stm_keygen(vkpop[0], sk[0], ikm[0]);
    if (r == GROVE_OK)
        r = grove_stm_keygen(vkpop[1], sk[1], ikm[1]);
    GROVE_DECLASSIFY(vkpop, sizeof vkpop);
    grove_stm_keyreg *reg = NULL;
    grove_stm_closed *closed = NULL;
    grove_stm_signer *signer = NULL;
    grove_stm_sig sig = {0};
    if (r == GROVE_OK)
        r = grove_stm_keyreg_new(&reg);
    if (r == GROVE_OK)
        r = grove_stm_keyreg_add_many(reg, NULL, stakes, &vkpop[0][0], 2, 1);
    if (r == GROVE_OK)
        r = grove_stm_keyreg_close(reg, &closed);
    if (r == GROVE_OK)
        r = grove_stm_signer_new(&prm, &signer, sk[1], closed);
    if (r == GROVE_OK)
        r = grove_stm_sign(signer, &sig, (const uint8_t *)"m", 1);
    if (r == GROVE_ERR_LOTTERY_LOST)
        r = GROVE_OK;
    else if (r == GROVE_OK)
        r = grove_stm_sig_verify(&prm, &sig, (const uint8_t *)"m", 1, closed);
    grove_stm_sig_clear(&sig);
    grove_stm_signer_free(signer);
    grove_stm_closed_free(closed);
    grove_stm_keyreg_free(reg);
    GROVE_DECLASSIFY(sk, sizeof sk);
    GROVE_DECLASSIFY(ikm, sizeof ikm);
    return r;
}
#endif

/* Negative control: a deliberate secret-dependent branch. run.sh requires valgrind to flag it,
 * so a broken marking (e.g. GROVE_SECRET compiled out) cannot pass silently. */
static int leak(void)
{
    uint8_t k[1] = {seed[0]};
    GROVE_SECRET(k, 1);
    volatile int v = 0;
    if (k[0] & 1)
        v = 1;
    GROVE_DECLASSIFY(k, 1);
    return v - v;
}

/*
 * The generic API (grove/sig.h): keygen from the system's randomness, then the secret key
 * marked secret (for SLH-DSA / SPHINCS+ its first half, SK.seed || SK.prf; the rest is the
 * public key) and one signature.
 */
static int sig_generic(const char *name)
{
    const grove_sig_alg *a = grove_sig_alg_get(name);
    if (a == NULL)
        return GROVE_ERR_INVALID_ARG;
    size_t skb = grove_sig_sk_bytes(a), sb = grove_sig_sig_bytes(a), len = 0;
    size_t secret = strncmp(name, "SLH-DSA", 7) == 0 || strncmp(name, "sphincs", 7) == 0
                        ? skb / 2
                        : skb;
    uint8_t *pk = malloc(grove_sig_pk_bytes(a)), *sk = malloc(skb), *sig = malloc(sb);
    int r = grove_sig_keygen(a, pk, sk);
    GROVE_SECRET(sk, secret);
    if (r == GROVE_OK)
        r = grove_sig_sign(a, sig, sb, &len, (const uint8_t *)"m", 1, sk);
    GROVE_DECLASSIFY(sk, skb);
    grove_wipe(sk, skb);
    free(pk);
    free(sk);
    free(sig);
    return r;
}

/* The cases: scheme (selectable on the command line), parameter set, function. */
static const struct {
    const char *scheme, *params;
    int (*run)(const char *);
} cases[] = {
    {"slhdsa", "SLH-DSA-SHAKE-128f", slhdsa},
    {"slhdsa", "SLH-DSA-SHA2-128f", slhdsa},
    {"slhdsa", "SLH-DSA-SHA2-192f", slhdsa},
    {"slhdsa", "sphincs-shake-256f-simple", slhdsa},
#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
    {"dgsp", "shake-128f", dgsp},
    {"dgsp", "sha2-128f", dgsp},
    {"dgsp", "sha2-256f", dgsp},
#endif
    {"cross", "CROSS-RSDP-1-fast", cross},
    {"cross", "CROSS-RSDPG-1-balanced", cross},
    {"xmss", "XMSSMT-SHA2_20/4_256", xmss},
    {"xmss", "XMSSMT-SHAKE_20/4_256", xmss},
    {"bls", "min-sig", bls},
    {"bls", "min-pk", bls},
#if GROVE_HAVE_STM
    {"stm", "m=30,k=5,phi_f=0.5", stm},
#endif
    /* grove/sig.h: one entry per family and hash (SLH-DSA / SPHINCS+ x SHA2 / SHAKE, CROSS
     * RSDP / RSDP-G, both BLS variants); `ct_check sig-all` runs every registry entry */
    {"sig", "SLH-DSA-SHA2-128f", sig_generic},
    {"sig", "SLH-DSA-SHAKE-128f", sig_generic},
    {"sig", "sphincs-shake-128f-simple", sig_generic},
    {"sig", "sphincs-sha2-128f-simple", sig_generic},
    {"sig", "CROSS-RSDP-1-fast", sig_generic},
    {"sig", "CROSS-RSDPG-1-fast", sig_generic},
    {"sig", "BLS12-381-min-pk", sig_generic},
    {"sig", "BLS12-381-min-sig", sig_generic},
};

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "leak") == 0)
        return leak();
    for (size_t i = 0; i < sizeof seed; i++)
        seed[i] = (uint8_t)(i * 31 + 7);
    int fails = 0;
    if (argc > 1 && strcmp(argv[1], "sig-all") == 0) {
        for (size_t i = 0; i < grove_sig_alg_count(); i++) {
            const char *name = grove_sig_alg_name(grove_sig_alg_at(i));
            int r = sig_generic(name);
            printf("sig %s: %s\n", name, grove_strerror(r));
            fails += r != GROVE_OK;
        }
        return fails ? 1 : 0;
    }
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (argc > 1 && strcmp(argv[1], cases[i].scheme) != 0)
            continue;
        int r = cases[i].run(cases[i].params);
        printf("%s %s: %s\n", cases[i].scheme, cases[i].params, grove_strerror(r));
        fails += r != GROVE_OK;
    }
    return fails ? 1 : 0;
}
