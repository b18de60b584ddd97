/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Secrets in memory: after a secret-key operation returns, no copy of the secret key material
 * may be left in the stack memory it used. The test clears a large stack region, runs the
 * operation, then scans the dead region below its own frame for the secret bytes (any 16-byte
 * window of SK.seed / SK.prf / hash_secret / aes_key / member seeds). Representative operations:
 * SLH-DSA keygen and sign, DGSP join, gen_cert, open and member signing, CROSS keygen and sign,
 * BLS12-381 keygen, public key, signing (bytes and points), proof of possession, mul_sk.
 * It runs on the calling thread (threads = 1). Skipped under sanitizers (their own stack layout).
 * DGSP wipes only the stack its secret computations use (grove_burn_stack_bytes with a size per
 * call site, DGSP_BURN_*): the test paints the stack, runs each of those computations, finds
 * the deepest byte written, and fails if the call site's size does not cover it with
 * DGSP_BURN_MARGIN to spare. ctest runs it on the default, the avx2 and the portable path.
 */
#include <stdlib.h>
#include <string.h>

#include "grove/grove.h"
#include "test.h"
#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
#include "dgsp/dgsp_int.h"
#endif


#define CHECK_CLEAN(what, secret, len)                                                      \
    do {                                                                                    \
        size_t off_ = test_stack_residue((secret), (len));                                  \
        if (off_) {                                                                         \
            char m_[160];                                                                   \
            snprintf(m_, sizeof m_, "%s leaves secret bytes on the stack (%zu below)", what, \
                     off_);                                                                 \
            test_fail(__FILE__, __LINE__, m_);                                              \
        }                                                                                   \
        test_checks++;                                                                      \
    } while (0)

static uint8_t seed[5 * 32], su[32];

static void slhdsa(const char *name)
{
    const grove_slhdsa_params *p = grove_slhdsa_params_get(name);
    size_t n = grove_slhdsa_n(p);
    uint8_t pk[64], sk[128], *sig = malloc(grove_slhdsa_sig_bytes(p));
    test_stack_clear();
    CHECK_EQ_INT(grove_slhdsa_keygen_from_seed(p, pk, sk, seed, seed + n, seed + 2 * n), GROVE_OK);
    CHECK_CLEAN("SLH-DSA keygen", seed, 2 * n);
    test_stack_clear();
    CHECK_EQ_INT(grove_slhdsa_sign(p, sig, (const uint8_t *)"msg", 3, NULL, 0, sk, 1), GROVE_OK);
    CHECK_CLEAN("SLH-DSA sign", seed, 2 * n);
    free(sig);
}

/* pem_decode one frame deeper: test_stack_residue skips the 256 bytes below its own frame (its
 * own locals), which is where pem_decode's helpers would otherwise have run. */
static __attribute__((noinline)) grove_status deep_pem_decode(uint8_t *der, size_t cap,
                                                              size_t *len, const char *pem,
                                                              size_t pem_len)
{
    volatile uint8_t pad[512];
    pad[0] = 0;
    grove_status st = grove_pkix_pem_decode(der, cap, len, "PRIVATE KEY", pem, pem_len);
    __asm__ volatile("" : : "r"(pad) : "memory");
    return st;
}

/* grove/pkix.h: a private key through PKCS#8 and PEM and back (PEM is checked line by line in
 * a scratch buffer on the stack, which must be wiped). The secret key is seed[0..128). */
static void pkix(void)
{
    const grove_slhdsa_params *p = grove_slhdsa_params_get("SLH-DSA-SHA2-256f"), *got;
    uint8_t *der = malloc(GROVE_PKIX_SLHDSA_MAX_PKCS8_BYTES), *sk = malloc(128);
    char *pem = malloc(512);
    size_t der_len = 0, pem_len = 0, len = 0;
    /* Warm-up on public bytes: the first call of a libc function through the PLT runs the
     * dynamic linker, which saves the vector registers (still holding earlier data) on the
     * stack. */
    uint8_t pub[4] = {1, 2, 3, 4};
    CHECK_EQ_INT(grove_pkix_pem_encode(pem, 512, &pem_len, "PRIVATE KEY", pub, 4), GROVE_OK);
    CHECK_EQ_INT(grove_pkix_pem_decode(der, 4, &len, "PRIVATE KEY", pem, pem_len), GROVE_OK);
    test_stack_clear();
    CHECK_EQ_INT(grove_pkix_slhdsa_sk_to_der(p, 0, der, GROVE_PKIX_SLHDSA_MAX_PKCS8_BYTES,
                                             &der_len, seed),
                 GROVE_OK);
    CHECK_CLEAN("PKCS#8 encode", seed, 128);
    test_stack_clear();
    CHECK_EQ_INT(grove_pkix_pem_encode(pem, 512, &pem_len, "PRIVATE KEY", der, der_len), GROVE_OK);
    CHECK_CLEAN("PEM encode", seed, 128);
    test_stack_clear();
    CHECK_EQ_INT(deep_pem_decode(der, der_len, &len, pem, pem_len), GROVE_OK);
    CHECK_CLEAN("PEM decode", seed, 128);
    test_stack_clear();
    CHECK_EQ_INT(grove_pkix_slhdsa_sk_from_der(&got, NULL, sk, 128, &len, der, der_len), GROVE_OK);
    CHECK_CLEAN("PKCS#8 decode", seed, 128);
    CHECK_MEM(sk, seed, 128);
    free(der);
    free(sk);
    free(pem);
}

#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
/* ---- stack depth of DGSP's secret computations -------------------------------------------- */
#define PAINT_REGION (256 * 1024)

static __attribute__((noinline)) void stack_paint(void)
{
    volatile uint8_t buf[PAINT_REGION];
    for (size_t i = 0; i < PAINT_REGION; i++)
        buf[i] = 0xA5;
    __asm__ volatile("" : : "r"(buf) : "memory");
}

/* How far below its own frame (that of a call from the same caller as stack_paint) the
 * deepest byte no longer holding the paint lies: the stack depth of what ran in between. */
static __attribute__((noinline)) size_t stack_depth(void)
{
    uintptr_t top = (uintptr_t)__builtin_frame_address(0);
    for (size_t off = PAINT_REGION - 4096; off > 0; off--)
        if (*(const volatile uint8_t *)(top - off) != 0xA5)
            return off;
    return 0;
}

/* depth = max(depth, stack depth of expr) */
#define DEPTH(depth, expr)                                                                  \
    do {                                                                                    \
        stack_paint();                                                                      \
        int r_ = (int)(expr);                                                               \
        size_t d_ = stack_depth();                                                          \
        CHECK_EQ_INT(r_, GROVE_OK);                                                         \
        if (d_ > (depth))                                                                   \
            (depth) = d_;                                                                   \
    } while (0)

static int cid_op(const grove_dgsp_cfg *cfg, const uint8_t *sk, uint8_t *cid, uint8_t *cs)
{
    dgsp_cid(cfg, sk, 7, cid, cs);
    return GROVE_OK;
}

static int hash_op(const grove_dgsp_cfg *cfg, uint8_t *out, const uint8_t *a, const uint8_t *b)
{
    dgsp_hash(cfg, out, a, cfg->n, b, cfg->n, NULL, 0);
    return GROVE_OK;
}

static int spx_sign_op(const grove_dgsp_cfg *cfg, uint8_t *sig, const uint8_t *spx_sk)
{
    static const uint8_t msg[2 * 32 + 16];
    if (grove_slhdsa_params_is_fips205(cfg->spx))
        return grove_slhdsa_sign(cfg->spx, sig, msg, 2 * cfg->n + 16, (const uint8_t *)"c", 1,
                                 spx_sk, 1);
    return grove_sphincs_sign(cfg->spx, sig, msg, 2 * cfg->n + 16, spx_sk);
}

static void check_burn(const char *params, const char *site, size_t depth, size_t burn)
{
    printf("%s %s (%s path): secret stack depth %zu, burn %zu\n", params, site, grove_cpu_path(),
           depth, burn);
    if (depth + DGSP_BURN_MARGIN > burn) {
        char m[200];
        snprintf(m, sizeof m, "%s %s: stack depth %zu + margin %d exceeds the burn of %zu",
                 params, site, depth, DGSP_BURN_MARGIN, burn);
        test_fail(__FILE__, __LINE__, m);
    }
    test_checks++;
}

/* Every DGSP call site's burn covers the stack its secret computations use. sk is the
 * manager's secret key, (su, ws, cert) a member's seed, one-time seed and certificate. */
static void dgsp_depths(const char *params, const grove_dgsp_cfg *cfg, const uint8_t *sk,
                        const uint8_t *seed_u, const uint8_t *wots_seed, const uint8_t *cert, uint64_t id)
{
    const size_t n = cfg->n;
    uint8_t cid[32], cs[32], zeta[16 * 64], pk[64], spx_sk[128], wpk[32], h[32];
    uint8_t *sig = malloc(grove_dgsp_sig_bytes(cfg) + grove_dgsp_cert_bytes(cfg));
    uint64_t who;
    size_t cid_d = 0, keygen = 0, gen_cert = 0, open = 0, revoke = 0, csr = 0, sign = 0;
    DEPTH(cid_d, cid_op(cfg, sk, cid, cs));
    DEPTH(keygen, grove_slhdsa_keygen_from_seed(cfg->spx, pk, spx_sk, seed, seed + n, seed + 2 * n));
    DEPTH(gen_cert, cid_op(cfg, sk, cid, cs));
    DEPTH(gen_cert, dgsp_zetas(cfg, sk + n, 7, 0, 1, zeta));
    DEPTH(gen_cert, hash_op(cfg, h, wpk, cid));
    DEPTH(gen_cert, spx_sign_op(cfg, sig, sk + 2 * n));
    DEPTH(open, dgsp_unzeta(cfg, sk + n, zeta, &who, NULL));
    DEPTH(open, cid_op(cfg, sk, cid, cs));
    DEPTH(open, hash_op(cfg, h, wpk, cid));
    DEPTH(revoke, dgsp_zetas(cfg, sk + n, 7, 0, 64, zeta));
    DEPTH(csr, dgsp_csr_from_seeds(cfg, seed_u, 1, wots_seed, wpk));
    DEPTH(sign, dgsp_sign_raw(cfg, (const uint8_t *)"msg", 3, seed_u, id, wots_seed, cert, sig, 0));
    check_burn(params, "credential/join", cid_d, DGSP_BURN_CID);
    check_burn(params, "keygen_manager", keygen, DGSP_BURN_KEYGEN);
    check_burn(params, "gen_cert", gen_cert, DGSP_BURN_GEN_CERT);
    check_burn(params, "open", open, DGSP_BURN_OPEN);
    check_burn(params, "revoke", revoke, DGSP_BURN_REVOKE);
    check_burn(params, "csr", csr, DGSP_BURN_CSR);
    check_burn(params, "sign", sign, DGSP_BURN_SIGN);
    grove_wipe(cid, sizeof cid);
    grove_wipe(spx_sk, sizeof spx_sk);
    free(sig);
}
#endif

#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
static void dgsp(const char *params)
{
    grove_dgsp_cfg cfg;
    CHECK_EQ_INT(grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get(params), GROVE_DGSP_FLAVOUR_R31,
                                     GROVE_DGSP_PROFILE_GROVE),
                 GROVE_OK);
    const size_t n = cfg.n;
    uint8_t pk[64], *sk = malloc(grove_dgsp_sk_bytes(&cfg)), cid[32], wpk[32], ws[32], pi[32];
    uint8_t *cert = malloc(grove_dgsp_cert_bytes(&cfg)), *sig = malloc(grove_dgsp_sig_bytes(&cfg));
    /* manager secrets: SK.seed, SK.prf (seed[0..2n)), hash_secret, aes_key (seed[3n..5n)) */
    uint8_t msecret[4 * 32];
    memcpy(msecret, seed, 2 * n);
    memcpy(msecret + 2 * n, seed + 3 * n, 2 * n);
    grove_dgsp_store *st;
    uint64_t id, who;
    CHECK_EQ_INT(grove_dgsp_store_memory_open(&st), GROVE_OK);
    test_stack_clear();
    CHECK_EQ_INT(grove_dgsp_keygen_manager_from_seed(&cfg, pk, sk, seed), GROVE_OK);
    CHECK_CLEAN("DGSP manager keygen", msecret, 4 * n);
    test_stack_clear();
    CHECK_EQ_INT(grove_dgsp_join(&cfg, st, &id, cid, "dave", sk), GROVE_OK);
    CHECK_CLEAN("DGSP join", msecret, 4 * n);
    test_stack_clear();
    CHECK_EQ_INT(grove_dgsp_csr(&cfg, wpk, ws, 1, su), GROVE_OK);
    CHECK_CLEAN("DGSP csr", su, n);
    test_stack_clear();
    CHECK_EQ_INT(grove_dgsp_gen_cert(&cfg, st, cert, wpk, 1, id, cid, sk, 1), GROVE_OK);
    CHECK_CLEAN("DGSP gen_cert", msecret, 4 * n);
    CHECK_CLEAN("DGSP gen_cert (cid*)", cid, n);
    grove_dgsp_wallet *w;
    CHECK_EQ_INT(grove_dgsp_wallet_memory_open(&cfg, &w, su, id, cid), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_add(w, ws, cert), GROVE_OK);
    test_stack_clear();
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, sig, (const uint8_t *)"msg", 3), GROVE_OK);
    CHECK_CLEAN("DGSP sign (seed_u)", su, n);
    CHECK_CLEAN("DGSP sign (wots seed)", ws, n);
    test_stack_clear();
    CHECK_EQ_INT(grove_dgsp_open(&cfg, st, &who, NULL, pi, sig, grove_dgsp_sig_bytes(&cfg),
                                 (const uint8_t *)"msg", 3, sk),
                 GROVE_OK);
    CHECK_CLEAN("DGSP open", msecret, 4 * n);
    dgsp_depths(params, &cfg, sk, su, ws, cert, id);
    grove_dgsp_wallet_close(w);
    grove_dgsp_store_close(st);
    grove_wipe(sk, grove_dgsp_sk_bytes(&cfg));
    free(sk);
    free(cert);
    free(sig);
}
#endif

static void cross(const char *name)
{
    const grove_cross_params *p = grove_cross_params_get(name);
    size_t pkb = grove_cross_pk_bytes(p), skb = grove_cross_sk_bytes(p),
           sigb = grove_cross_sig_bytes(p);
    uint8_t *pk = malloc(pkb), *sk = malloc(skb), *sig = malloc(sigb);
    for (int s = 0; s < 2; s++) {
        grove_cross_strategy strat = s ? GROVE_CROSS_SMALL_MEMORY : GROVE_CROSS_FAST;
        test_stack_clear();
        CHECK_EQ_INT(grove_cross_keygen_from_seed(p, pk, sk, seed), GROVE_OK);
        CHECK_CLEAN("CROSS keygen", seed, skb);
        test_stack_clear();
        CHECK_EQ_INT(grove_cross_sign(p, strat, sig, (const uint8_t *)"m", 1, sk), GROVE_OK);
        CHECK_CLEAN(s ? "CROSS sign (small-memory)" : "CROSS sign (fast)", seed, skb);
    }
    free(pk);
    free(sk);
    free(sig);
}

/* BLS12-381: the IKM and the scalar, as big-endian bytes and as the key's limbs. */
static void bls(const char *variant)
{
    grove_bls_variant v;
    grove_bls_sk sk, ref;
    grove_bls_g1 p1;
    grove_bls_g2 p2;
    uint8_t ikm[32], skb[GROVE_BLS_SK_BYTES], pk[96], sig[96];
    uint8_t limbs[sizeof ref.opaque];
    const uint8_t *dst = (const uint8_t *)GROVE_BLS_DST_MIN_SIG;
    const size_t dstl = strlen(GROVE_BLS_DST_MIN_SIG);
    CHECK((v = grove_bls_variant_get(variant)) != 0);
    memcpy(ikm, seed + 64, sizeof ikm);
    CHECK_EQ_INT(grove_bls_keygen(&ref, ikm, sizeof ikm, NULL, 0), GROVE_OK);
    grove_bls_sk_to_bytes(&ref, skb);
    memcpy(limbs, ref.opaque, sizeof limbs);
#define CHECK_BLS_CLEAN(what)                                                               \
    do {                                                                                    \
        CHECK_CLEAN(what " (ikm)", ikm, sizeof ikm);                                        \
        CHECK_CLEAN(what " (sk bytes)", skb, sizeof skb);                                   \
        CHECK_CLEAN(what " (sk limbs)", limbs, sizeof limbs);                               \
    } while (0)
    test_stack_clear();
    CHECK_EQ_INT(grove_bls_keygen(&sk, ikm, sizeof ikm, NULL, 0), GROVE_OK);
    CHECK_BLS_CLEAN("BLS keygen");
    CHECK_MEM(sk.opaque, limbs, sizeof limbs);
    test_stack_clear();
    CHECK_EQ_INT(grove_bls_sk_to_pk(v, pk, &sk), GROVE_OK);
    CHECK_BLS_CLEAN("BLS sk_to_pk");
    test_stack_clear();
    CHECK_EQ_INT(grove_bls_sign(v, sig, (const uint8_t *)"msg", 3, &sk, dst, dstl), GROVE_OK);
    CHECK_BLS_CLEAN("BLS sign");
    test_stack_clear();
    CHECK_EQ_INT(grove_bls_pop_prove(v, sig, &sk, dst, dstl), GROVE_OK);
    CHECK_BLS_CLEAN("BLS pop_prove");
    test_stack_clear();
    if (v == GROVE_BLS_MIN_SIG) {
        CHECK_EQ_INT(grove_bls_sign_g1(&p1, (const uint8_t *)"msg", 3, &sk, dst, dstl), GROVE_OK);
        CHECK_BLS_CLEAN("BLS sign_g1");
        test_stack_clear();
        grove_bls_g2_generator(&p2);
        grove_bls_g2_mul_sk(&p2, &p2, &sk);
        CHECK_BLS_CLEAN("BLS g2_mul_sk");
    } else {
        CHECK_EQ_INT(grove_bls_sign_g2(&p2, (const uint8_t *)"msg", 3, &sk, dst, dstl), GROVE_OK);
        CHECK_BLS_CLEAN("BLS sign_g2");
        test_stack_clear();
        grove_bls_g1_generator(&p1);
        grove_bls_g1_mul_sk(&p1, &p1, &sk);
        CHECK_BLS_CLEAN("BLS g1_mul_sk");
    }
#undef CHECK_BLS_CLEAN
    grove_bls_sk_wipe(&sk);
    grove_bls_sk_wipe(&ref);
}

/* Mithril STM: key generation, signer creation and signing leave no copy of the key. */
#if GROVE_HAVE_STM
static void stm(void)
{
    uint8_t ikm[32], sk[32], vkpop[2][192], sk2[32];
    grove_bls_sk ref;
    uint8_t limbs[sizeof ref.opaque];
    memcpy(ikm, seed + 96, sizeof ikm);
    CHECK_EQ_INT(grove_bls_keygen(&ref, ikm, sizeof ikm, NULL, 0), GROVE_OK);
    memcpy(limbs, ref.opaque, sizeof limbs);
    grove_bls_sk_wipe(&ref);
#define CHECK_STM_CLEAN(what)                                                               \
    do {                                                                                    \
        CHECK_CLEAN(what " (ikm)", ikm, sizeof ikm);                                        \
        CHECK_CLEAN(what " (sk bytes)", sk, sizeof sk);                                     \
        CHECK_CLEAN(what " (sk limbs)", limbs, sizeof limbs);                               \
    } while (0)
    test_stack_clear();
    CHECK_EQ_INT(grove_stm_keygen(vkpop[0], sk, ikm), GROVE_OK);
    CHECK_STM_CLEAN("STM keygen");
    uint8_t other[32] = {1, 2, 3};
    CHECK_EQ_INT(grove_stm_keygen(vkpop[1], sk2, other), GROVE_OK);
    grove_stm_keyreg *reg = NULL;
    grove_stm_closed *closed = NULL;
    grove_stm_signer *signer = NULL;
    uint64_t stakes[2] = {5, 5};
    grove_stm_params prm = {20, 2, 0.9};
    CHECK_EQ_INT(grove_stm_keyreg_new(&reg), GROVE_OK);
    CHECK_EQ_INT(grove_stm_keyreg_add_many(reg, NULL, stakes, &vkpop[0][0], 2, 1), GROVE_OK);
    CHECK_EQ_INT(grove_stm_keyreg_close(reg, &closed), GROVE_OK);
    test_stack_clear();
    CHECK_EQ_INT(grove_stm_signer_new(&prm, &signer, sk, closed), GROVE_OK);
    CHECK_STM_CLEAN("STM signer_new");
    grove_stm_sig sig;
    test_stack_clear();
    int rc = grove_stm_sign(signer, &sig, (const uint8_t *)"msg", 3);
    CHECK(rc == GROVE_OK || rc == GROVE_ERR_LOTTERY_LOST);
    CHECK_STM_CLEAN("STM sign");
    if (rc == GROVE_OK)
        grove_stm_sig_clear(&sig);
    grove_stm_signer_free(signer);
    grove_stm_closed_free(closed);
    grove_stm_keyreg_free(reg);
    grove_wipe(sk, sizeof sk);
    grove_wipe(sk2, sizeof sk2);
#undef CHECK_STM_CLEAN
}
#endif

/* The scan itself must find a secret left on purpose. */
static __attribute__((noinline)) void leave_secret(void)
{
    volatile uint8_t buf[2048];
    for (size_t i = 0; i < 32; i++)
        buf[i + 512] = seed[i];
    __asm__ volatile("" : : "r"(buf) : "memory");
}

int main(void)
{
#if GROVE_TEST_ASAN
    if (getenv("GROVE_WIPE_FORCE") == NULL) {
        printf("SKIP: stack residue scan is not meaningful under AddressSanitizer\n");
        return 77;
    }
#endif
    uint64_t st = 99;
    test_rand_bytes(&st, seed, sizeof seed);
    test_rand_bytes(&st, su, sizeof su);
    test_stack_clear();
    leave_secret();
    CHECK(test_stack_residue(seed, 32) != 0);
#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
    size_t depth = 0; /* the depth scan is not blind */
    DEPTH(depth, (leave_secret(), GROVE_OK));
    CHECK(depth >= 1024 && depth < 4096); /* the secret lies ~1.5 KiB below */
#endif
    slhdsa("SLH-DSA-SHA2-128f");
    slhdsa("SLH-DSA-SHAKE-192f");
    pkix();
#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
    dgsp("sha2-128f");
#endif
#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
    dgsp("shake-128f");
    dgsp("sha2-256f");
    dgsp("shake-256f");
#endif
    cross("CROSS-RSDP-1-fast");
    cross("CROSS-RSDPG-1-balanced");
    bls("min-sig");
    bls("min-pk");
#if GROVE_HAVE_STM
    stm();
#endif
    return test_done();
}
