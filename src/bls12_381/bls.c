/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Public API of grove/bls12_381.h: groups, pairing, hashing, BLS signatures. */
#include "grove/bls12_381.h"

#include <stdlib.h>
#include <string.h>

#include "bls12_381/bls_burn.h"
#include "bls12_381/constants.h"
#include "bls12_381/ec.h"
#include "bls12_381/fr.h"
#include "bls12_381/hash_to_curve.h"
#include "bls12_381/pairing.h"
#include "common/ct.h"
#include "common/util.h"
#include "hash/hkdf.h"
#include "hash/sha2.h"

_Static_assert(sizeof(g1_p) == sizeof(((grove_bls_g1 *)0)->opaque), "g1 size");
_Static_assert(sizeof(g2_p) == sizeof(((grove_bls_g2 *)0)->opaque), "g2 size");
_Static_assert(sizeof(fp12) == sizeof(((grove_bls_gt *)0)->opaque), "gt size");

/* ---- conversions between the public opaque types and the internal ones ------------------- */

static void ld1(g1_p *r, const grove_bls_g1 *p)
{
    memcpy(r, p->opaque, sizeof *r);
}
static void st1(grove_bls_g1 *r, const g1_p *p)
{
    memcpy(r->opaque, p, sizeof *p);
}
static void ld2(g2_p *r, const grove_bls_g2 *p)
{
    memcpy(r, p->opaque, sizeof *r);
}
static void st2(grove_bls_g2 *r, const g2_p *p)
{
    memcpy(r->opaque, p, sizeof *p);
}

/*
 * A secret multiple of a point leaves the library: convert it to affine coordinates in constant
 * time (the Jacobian Z of a ladder's output depends on the scalar in ways the point itself does
 * not: "projective coordinates leak") and keep the point with Z = 1. publish also declassifies
 * the affine point (for the constant-time check), for values that are published: public keys,
 * signatures, proofs of possession.
 */
static void normalize_g1(g1_p *p)
{
    g1_a a;
    g1_to_affine(&a, p);
    g1_from_affine(p, &a);
}
static void normalize_g2(g2_p *p)
{
    g2_a a;
    g2_to_affine(&a, p);
    g2_from_affine(p, &a);
}
static void publish1(g1_p *p)
{
    g1_a a;
    g1_to_affine(&a, p);
    GROVE_DECLASSIFY(&a, sizeof a); /* a public key or a signature */
    g1_from_affine(p, &a);
}
static void publish2(g2_p *p)
{
    g2_a a;
    g2_to_affine(&a, p);
    GROVE_DECLASSIFY(&a, sizeof a); /* a public key or a signature */
    g2_from_affine(p, &a);
}

/* A byte-string argument is fine if it is non-NULL or empty. */
#define BYTES_OK(p, n) ((p) != NULL || (n) == 0)

/* ---- variants ----------------------------------------------------------------------------- */

grove_bls_variant grove_bls_variant_get(const char *name)
{
    if (name != NULL && strcmp(name, "min-sig") == 0)
        return GROVE_BLS_MIN_SIG;
    if (name != NULL && strcmp(name, "min-pk") == 0)
        return GROVE_BLS_MIN_PK;
    return (grove_bls_variant)0;
}

const char *grove_bls_variant_name(grove_bls_variant variant)
{
    switch (variant) {
    case GROVE_BLS_MIN_SIG:
        return "min-sig";
    case GROVE_BLS_MIN_PK:
        return "min-pk";
    }
    return "unknown";
}

size_t grove_bls_pk_bytes(grove_bls_variant variant)
{
    return variant == GROVE_BLS_MIN_SIG ? 96 : variant == GROVE_BLS_MIN_PK ? 48 : 0;
}

size_t grove_bls_sk_bytes(grove_bls_variant variant)
{
    return variant == GROVE_BLS_MIN_SIG || variant == GROVE_BLS_MIN_PK ? GROVE_BLS_SK_BYTES : 0;
}

size_t grove_bls_sig_bytes(grove_bls_variant variant)
{
    return variant == GROVE_BLS_MIN_SIG ? 48 : variant == GROVE_BLS_MIN_PK ? 96 : 0;
}

static int variant_ok(grove_bls_variant v)
{
    return v == GROVE_BLS_MIN_SIG || v == GROVE_BLS_MIN_PK;
}

/* ---- secret keys -------------------------------------------------------------------------- */

static grove_status keygen_impl(grove_bls_sk *sk, const uint8_t *ikm, size_t ikm_len,
                                const uint8_t *info, size_t info_len)
{
    /* SHA-256("BLS-SIG-KEYGEN-SALT-"), the first salt of the draft's KeyGen (the KeyGen
     * vectors of vectors_bls12381 check it) */
    static const uint8_t salt0[32] = {
        0xaf, 0xf1, 0xb7, 0x03, 0x64, 0x7f, 0xe4, 0xbd, 0x43, 0x3a, 0x89,
        0x3a, 0x3d, 0x2b, 0xa5, 0x1a, 0xbe, 0x26, 0xef, 0x79, 0x4a, 0x83,
        0x56, 0xfe, 0xa6, 0x2e, 0x8e, 0x7c, 0x7c, 0x87, 0x75, 0x46};
    /* the SHA-256 states after salt0 ^ ipad and salt0 ^ opad (HMAC's key blocks, computed
     * once outside; every KeyGen vector and test_bls_sig check them): two compressions fewer */
    static const grove_hkdf_salt_states salt0_states = {
        {0x92d71b48, 0xda68c2eb, 0xbb608121, 0xd7bbc6f3, 0x6ac83f4e, 0x18f85a58, 0xd5c8d08f,
         0x07e943c4},
        {0x36776f7f, 0x41543188, 0x38ad84c6, 0x65826fe9, 0x949fc0ff, 0x81e90fbf, 0xcf2c588d,
         0x3ea56e2b}};
    uint8_t salt[32], prk[32], okm[48];
    int first = 1;
    const uint8_t zero = 0, l48[2] = {0, 48};
    uint64_t k[4];
    if (sk == NULL || ikm == NULL || ikm_len < 32 || !BYTES_OK(info, info_len))
        return GROVE_ERR_INVALID_ARG;
    memcpy(salt, salt0, sizeof salt);
    for (;;) {
        grove_hkdf_part ikm_parts[2] = {{ikm, ikm_len}, {&zero, 1}};
        grove_hkdf_part info_parts[2] = {{info, info_len}, {l48, 2}};
        if (first)
            grove_hkdf_sha256_extract_parts_states(prk, &salt0_states, ikm_parts, 2);
        else
            grove_hkdf_sha256_extract_parts(prk, salt, sizeof salt, ikm_parts, 2);
        first = 0;
        (void)grove_hkdf_sha256_expand_parts(okm, sizeof okm, prk, info_parts, 2);
        fr_from_bytes_wide(k, okm, sizeof okm);
        uint64_t zero_key = fr_is_zero_mask(k) & 1;
        /* Retrying reveals only that a discarded key was zero (probability 2^-255). */
        GROVE_DECLASSIFY(&zero_key, sizeof zero_key);
        if (!zero_key)
            break;
        grove_sha256(salt, salt, sizeof salt);
    }
    memcpy(sk->opaque, k, sizeof k);
    grove_wipe(prk, sizeof prk);
    grove_wipe(okm, sizeof okm);
    grove_wipe(k, sizeof k);
    return GROVE_OK;
}

grove_status grove_bls_keygen(grove_bls_sk *sk, const uint8_t *ikm, size_t ikm_len,
                              const uint8_t *info, size_t info_len)
{
    grove_status rc = keygen_impl(sk, ikm, ikm_len, info, info_len);
    /* spilled copies of secrets in the frames below: only the stack KeyGen uses (bls_burn.h) */
    BLS_BURN_KEYGEN_STACK();
    return rc;
}

grove_status grove_bls_sk_generate(grove_bls_sk *sk)
{
    uint8_t ikm[32];
    grove_status rc;
    if (sk == NULL)
        return GROVE_ERR_INVALID_ARG;
    rc = grove_randombytes(ikm, sizeof ikm);
    if (rc == GROVE_OK)
        rc = grove_bls_keygen(sk, ikm, sizeof ikm, NULL, 0);
    grove_wipe(ikm, sizeof ikm);
    return rc;
}

grove_status grove_bls_sk_from_bytes(grove_bls_sk *sk, const uint8_t in[GROVE_BLS_SK_BYTES])
{
    uint64_t k[4];
    if (sk == NULL || in == NULL)
        return GROVE_ERR_INVALID_ARG;
    fr_load_be(k, in);
    uint64_t ok = fr_is_canonical_mask(k) & ~fr_is_zero_mask(k) & 1;
    /* Whether the bytes are a key (0 < sk < r) is the public outcome of decoding; a key that
     * decodes reveals nothing more through this branch. */
    GROVE_DECLASSIFY(&ok, sizeof ok);
    if (!ok) {
        grove_wipe(k, sizeof k);
        return GROVE_ERR_ENCODING;
    }
    memcpy(sk->opaque, k, sizeof k);
    grove_wipe(k, sizeof k);
    return GROVE_OK;
}

void grove_bls_sk_to_bytes(const grove_bls_sk *sk, uint8_t out[GROVE_BLS_SK_BYTES])
{
    if (out == NULL || sk == NULL)
        return;
    fr_store_be(out, sk->opaque);
}

void grove_bls_sk_wipe(grove_bls_sk *sk)
{
    if (sk != NULL)
        grove_wipe(sk, sizeof *sk);
}

/* 1 if the key is a usable scalar (0 < sk < r); constant time in the key. The result decides
 * between an error and the operation, so it is public (it is 1 for every key grove makes). */
static int sk_valid(const grove_bls_sk *sk)
{
    int ok = (int)((fr_is_canonical_mask(sk->opaque) & ~fr_is_zero_mask(sk->opaque)) & 1);
    GROVE_DECLASSIFY(&ok, sizeof ok);
    return ok;
}

/* ---- decoding helpers --------------------------------------------------------------------- */

static grove_status dec1(g1_p *r, const uint8_t *in, size_t len, unsigned flags)
{
    if (in == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (g1_decode(r, in, len, (flags & GROVE_BLS_NO_SUBGROUP_CHECK) != 0) != BLS_DECODE_OK)
        return GROVE_ERR_ENCODING;
    if ((flags & GROVE_BLS_NO_INFINITY) && g1_is_inf(r))
        return GROVE_ERR_ENCODING;
    return GROVE_OK;
}

static grove_status dec2(g2_p *r, const uint8_t *in, size_t len, unsigned flags)
{
    if (in == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (g2_decode(r, in, len, (flags & GROVE_BLS_NO_SUBGROUP_CHECK) != 0) != BLS_DECODE_OK)
        return GROVE_ERR_ENCODING;
    if ((flags & GROVE_BLS_NO_INFINITY) && g2_is_inf(r))
        return GROVE_ERR_ENCODING;
    return GROVE_OK;
}

/* Decoding the signature (or proof, or aggregate) of a verify function: whatever is wrong with
 * it (length, encoding, curve, subgroup) it does not verify (grove/common.h). */
static grove_status dec_sig1(g1_p *r, const uint8_t *in, size_t len, unsigned flags)
{
    grove_status rc = dec1(r, in, len, flags);
    return rc == GROVE_ERR_ENCODING ? GROVE_ERR_VERIFY : rc;
}

static grove_status dec_sig2(g2_p *r, const uint8_t *in, size_t len, unsigned flags)
{
    grove_status rc = dec2(r, in, len, flags);
    return rc == GROVE_ERR_ENCODING ? GROVE_ERR_VERIFY : rc;
}

/* ---- pairing helpers ---------------------------------------------------------------------- */

/* prod e(p_i, q_i) into *r (Jacobian inputs, converted to affine in two batches). */
static grove_status multi_pairing(fp12 *r, const g1_p *p, const g2_p *q, size_t n)
{
    g1_a pa_s[4];
    g2_a qa_s[4];
    g1_a *pa = pa_s;
    g2_a *qa = qa_s;
    int ok = 1;
    if (n > 4) {
        pa = malloc(n * sizeof *pa);
        qa = malloc(n * sizeof *qa);
        if (pa == NULL || qa == NULL) {
            free(pa);
            free(qa);
            return GROVE_ERR_NOMEM;
        }
    }
    ok = g1_batch_to_affine_vartime(pa, p, n) && g2_batch_to_affine_vartime(qa, q, n);
    if (ok)
        bls_pairing(r, pa, qa, n);
    if (n > 4) {
        free(pa);
        free(qa);
    }
    return ok ? GROVE_OK : GROVE_ERR_NOMEM;
}

static grove_status check_one(const g1_p *p, const g2_p *q, size_t n)
{
    fp12 f;
    grove_status rc = multi_pairing(&f, p, q, n);
    if (rc != GROVE_OK)
        return rc;
    return fp12_is_one(&f) ? GROVE_OK : GROVE_ERR_VERIFY;
}

/* e(sig, g2) == e(H(msg), pk) */
static grove_status core_verify_min_sig(const g2_p *pk, const uint8_t *msg, size_t msg_len,
                                        const g1_p *sig, const uint8_t *dst, size_t dst_len)
{
    g1_p p[2];
    g2_p q[2];
    if (g2_is_inf(pk) || g1_is_inf(sig))
        return GROVE_ERR_VERIFY;
    p[0] = *sig;
    g2_generator(&q[0]);
    g2_neg(&q[0], &q[0]);
    bls_hash_to_g1(&p[1], msg, msg_len, dst, dst_len);
    q[1] = *pk;
    return check_one(p, q, 2);
}

/* e(g1, sig) == e(pk, H(msg)) */
static grove_status core_verify_min_pk(const g1_p *pk, const uint8_t *msg, size_t msg_len,
                                       const g2_p *sig, const uint8_t *dst, size_t dst_len)
{
    g1_p p[2];
    g2_p q[2];
    if (g1_is_inf(pk) || g2_is_inf(sig))
        return GROVE_ERR_VERIFY;
    g1_generator(&p[0]);
    g1_neg(&p[0], &p[0]);
    q[0] = *sig;
    p[1] = *pk;
    bls_hash_to_g2(&q[1], msg, msg_len, dst, dst_len);
    return check_one(p, q, 2);
}

/* ---- BLS on bytes ------------------------------------------------------------------------- */

static grove_status sk_to_pk_impl(grove_bls_variant variant, uint8_t *pk, const grove_bls_sk *sk)
{
    if (pk == NULL || sk == NULL || !variant_ok(variant) || !sk_valid(sk))
        return GROVE_ERR_INVALID_ARG;
    if (variant == GROVE_BLS_MIN_SIG) {
        g2_p g, r;
        g2_generator(&g);
        g2_mul_ct(&r, &g, sk->opaque);
        publish2(&r);
        g2_compress(pk, &r);
    } else {
        g1_p g, r;
        g1_generator(&g);
        g1_mul_ct(&r, &g, sk->opaque);
        publish1(&r);
        g1_compress(pk, &r);
    }
    return GROVE_OK;
}

grove_status grove_bls_sk_to_pk(grove_bls_variant variant, uint8_t *pk, const grove_bls_sk *sk)
{
    grove_status rc = sk_to_pk_impl(variant, pk, sk);
    grove_burn_stack(); /* spilled copies of secrets in the frames below */
    return rc;
}

static grove_status sign_impl(grove_bls_variant variant, uint8_t *sig, const uint8_t *msg,
                              size_t msg_len, const grove_bls_sk *sk, const uint8_t *dst,
                              size_t dst_len)
{
    if (sig == NULL || sk == NULL || !variant_ok(variant) || !BYTES_OK(msg, msg_len) ||
        !BYTES_OK(dst, dst_len) || !sk_valid(sk))
        return GROVE_ERR_INVALID_ARG;
    if (variant == GROVE_BLS_MIN_SIG) {
        g1_p h, s;
        bls_hash_to_g1(&h, msg, msg_len, dst, dst_len);
        g1_mul_ct(&s, &h, sk->opaque);
        publish1(&s);
        g1_compress(sig, &s);
    } else {
        g2_p h, s;
        bls_hash_to_g2(&h, msg, msg_len, dst, dst_len);
        g2_mul_ct(&s, &h, sk->opaque);
        publish2(&s);
        g2_compress(sig, &s);
    }
    return GROVE_OK;
}

grove_status grove_bls_sign(grove_bls_variant variant, uint8_t *sig, const uint8_t *msg,
                            size_t msg_len, const grove_bls_sk *sk, const uint8_t *dst,
                            size_t dst_len)
{
    grove_status rc = sign_impl(variant, sig, msg, msg_len, sk, dst, dst_len);
    grove_burn_stack(); /* spilled copies of secrets in the frames below */
    return rc;
}

grove_status grove_bls_verify(grove_bls_variant variant, const uint8_t *sig, size_t sig_len,
                              const uint8_t *msg, size_t msg_len, const uint8_t *pk, size_t pk_len,
                              const uint8_t *dst, size_t dst_len)
{
    grove_status rc;
    if (!variant_ok(variant) || sig == NULL || !BYTES_OK(msg, msg_len) || !BYTES_OK(dst, dst_len))
        return GROVE_ERR_INVALID_ARG;
    if (variant == GROVE_BLS_MIN_SIG) {
        g2_p P;
        g1_p S;
        if ((rc = dec2(&P, pk, pk_len, GROVE_BLS_NO_INFINITY)) != GROVE_OK ||
            (rc = dec_sig1(&S, sig, sig_len, 0)) != GROVE_OK)
            return rc;
        return core_verify_min_sig(&P, msg, msg_len, &S, dst, dst_len);
    } else {
        g1_p P;
        g2_p S;
        if ((rc = dec1(&P, pk, pk_len, GROVE_BLS_NO_INFINITY)) != GROVE_OK ||
            (rc = dec_sig2(&S, sig, sig_len, 0)) != GROVE_OK)
            return rc;
        return core_verify_min_pk(&P, msg, msg_len, &S, dst, dst_len);
    }
}

/* Sum of n compressed points of one group (in_g2), decoded with the given flags. */
static grove_status sum_points(g1_p *r1, g2_p *r2, int in_g2, const uint8_t *in, size_t n,
                               unsigned flags)
{
    size_t len = in_g2 ? 96 : 48;
    grove_status rc;
    if (in == NULL || n == 0)
        return GROVE_ERR_INVALID_ARG;
    if (in_g2)
        g2_set_inf(r2);
    else
        g1_set_inf(r1);
    for (size_t i = 0; i < n; i++) {
        if (in_g2) {
            g2_p t;
            if ((rc = dec2(&t, in + i * len, len, flags)) != GROVE_OK)
                return rc;
            g2_add_vartime(r2, r2, &t);
        } else {
            g1_p t;
            if ((rc = dec1(&t, in + i * len, len, flags)) != GROVE_OK)
                return rc;
            g1_add_vartime(r1, r1, &t);
        }
    }
    return GROVE_OK;
}

static grove_status aggregate(uint8_t *out, int in_g2, const uint8_t *in, size_t n, unsigned flags)
{
    g1_p s1;
    g2_p s2;
    grove_status rc;
    if (out == NULL)
        return GROVE_ERR_INVALID_ARG;
    if ((rc = sum_points(&s1, &s2, in_g2, in, n, flags)) != GROVE_OK)
        return rc;
    if (in_g2)
        g2_compress(out, &s2);
    else
        g1_compress(out, &s1);
    return GROVE_OK;
}

grove_status grove_bls_aggregate_sigs(grove_bls_variant variant, uint8_t *out, const uint8_t *sigs,
                                      size_t n)
{
    if (!variant_ok(variant))
        return GROVE_ERR_INVALID_ARG;
    return aggregate(out, variant == GROVE_BLS_MIN_PK, sigs, n, 0);
}

grove_status grove_bls_aggregate_pks(grove_bls_variant variant, uint8_t *out, const uint8_t *pks,
                                     size_t n)
{
    if (!variant_ok(variant))
        return GROVE_ERR_INVALID_ARG;
    return aggregate(out, variant == GROVE_BLS_MIN_SIG, pks, n, GROVE_BLS_NO_INFINITY);
}

grove_status grove_bls_fast_aggregate_verify(grove_bls_variant variant, const uint8_t *sig,
                                             size_t sig_len, const uint8_t *msg, size_t msg_len,
                                             const uint8_t *pks, size_t n, const uint8_t *dst,
                                             size_t dst_len)
{
    g1_p a1, s1;
    g2_p a2, s2;
    grove_status rc;
    if (!variant_ok(variant) || sig == NULL || !BYTES_OK(msg, msg_len) || !BYTES_OK(dst, dst_len))
        return GROVE_ERR_INVALID_ARG;
    if (variant == GROVE_BLS_MIN_SIG) {
        if ((rc = sum_points(&a1, &a2, 1, pks, n, GROVE_BLS_NO_INFINITY)) != GROVE_OK ||
            (rc = dec_sig1(&s1, sig, sig_len, 0)) != GROVE_OK)
            return rc;
        return core_verify_min_sig(&a2, msg, msg_len, &s1, dst, dst_len);
    }
    if ((rc = sum_points(&a1, &a2, 0, pks, n, GROVE_BLS_NO_INFINITY)) != GROVE_OK ||
        (rc = dec_sig2(&s2, sig, sig_len, 0)) != GROVE_OK)
        return rc;
    return core_verify_min_pk(&a1, msg, msg_len, &s2, dst, dst_len);
}

grove_status grove_bls_aggregate_verify(grove_bls_variant variant, const uint8_t *sig,
                                        size_t sig_len, const uint8_t *const *msgs,
                                        const size_t *msg_lens, const uint8_t *pks, size_t n,
                                        const uint8_t *dst, size_t dst_len)
{
    g1_p *p;
    g2_p *q;
    grove_status rc = GROVE_OK;
    size_t pkl = grove_bls_pk_bytes(variant);
    if (!variant_ok(variant) || sig == NULL || pks == NULL || n == 0 || msgs == NULL ||
        msg_lens == NULL || !BYTES_OK(dst, dst_len) || n > ((size_t)-1) / sizeof(g2_p) - 1)
        return GROVE_ERR_INVALID_ARG;
    for (size_t i = 0; i < n; i++)
        if (!BYTES_OK(msgs[i], msg_lens[i]))
            return GROVE_ERR_INVALID_ARG;
    p = malloc((n + 1) * sizeof *p);
    q = malloc((n + 1) * sizeof *q);
    if (p == NULL || q == NULL) {
        rc = GROVE_ERR_NOMEM;
        goto out;
    }
    if (variant == GROVE_BLS_MIN_SIG) {
        if ((rc = dec_sig1(&p[n], sig, sig_len, 0)) != GROVE_OK)
            goto out;
        g2_generator(&q[n]);
        g2_neg(&q[n], &q[n]);
        for (size_t i = 0; i < n && rc == GROVE_OK; i++) {
            rc = dec2(&q[i], pks + i * pkl, pkl, GROVE_BLS_NO_INFINITY);
            if (rc == GROVE_OK)
                bls_hash_to_g1(&p[i], msgs[i], msg_lens[i], dst, dst_len);
        }
        if (rc == GROVE_OK && g1_is_inf(&p[n]))
            rc = GROVE_ERR_VERIFY;
    } else {
        if ((rc = dec_sig2(&q[n], sig, sig_len, 0)) != GROVE_OK)
            goto out;
        g1_generator(&p[n]);
        g1_neg(&p[n], &p[n]);
        for (size_t i = 0; i < n && rc == GROVE_OK; i++) {
            rc = dec1(&p[i], pks + i * pkl, pkl, GROVE_BLS_NO_INFINITY);
            if (rc == GROVE_OK)
                bls_hash_to_g2(&q[i], msgs[i], msg_lens[i], dst, dst_len);
        }
        if (rc == GROVE_OK && g2_is_inf(&q[n]))
            rc = GROVE_ERR_VERIFY;
    }
    if (rc == GROVE_OK)
        rc = check_one(p, q, n + 1);
out:
    free(p);
    free(q);
    return rc;
}

grove_status grove_bls_batch_verify(grove_bls_variant variant, const uint8_t *sigs,
                                    const uint8_t *const *msgs, const size_t *msg_lens,
                                    const uint8_t *pks, size_t n, const uint8_t *dst,
                                    size_t dst_len)
{
    g1_p *p = NULL, *s1 = NULL;
    g2_p *q = NULL, *s2 = NULL;
    uint8_t *w = NULL;
    grove_status rc = GROVE_OK;
    size_t pkl = grove_bls_pk_bytes(variant), sgl = grove_bls_sig_bytes(variant);
    if (!variant_ok(variant) || pks == NULL || sigs == NULL || n == 0 || msgs == NULL ||
        msg_lens == NULL || !BYTES_OK(dst, dst_len) || n > ((size_t)-1) / sizeof(g2_p) - 1)
        return GROVE_ERR_INVALID_ARG;
    for (size_t i = 0; i < n; i++)
        if (!BYTES_OK(msgs[i], msg_lens[i]))
            return GROVE_ERR_INVALID_ARG;
    p = malloc((n + 1) * sizeof *p);
    q = malloc((n + 1) * sizeof *q);
    w = malloc(16 * n);
    if (variant == GROVE_BLS_MIN_SIG)
        s1 = malloc(n * sizeof *s1);
    else
        s2 = malloc(n * sizeof *s2);
    if (p == NULL || q == NULL || w == NULL || (s1 == NULL && s2 == NULL)) {
        rc = GROVE_ERR_NOMEM;
        goto out;
    }
    if ((rc = grove_randombytes(w, 16 * n)) != GROVE_OK)
        goto out;
    for (size_t i = 0; i < n; i++)
        w[16 * i] |= 1; /* nonzero weights */
    if (variant == GROVE_BLS_MIN_SIG) {
        /* prod e(w_i H(m_i), pk_i) * e(-sum w_i sig_i, g2) == 1 */
        for (size_t i = 0; i < n && rc == GROVE_OK; i++) {
            rc = dec2(&q[i], pks + i * pkl, pkl, GROVE_BLS_NO_INFINITY);
            if (rc == GROVE_OK)
                rc = dec_sig1(&s1[i], sigs + i * sgl, sgl, GROVE_BLS_NO_INFINITY);
            if (rc == GROVE_OK) {
                g1_p h;
                bls_hash_to_g1(&h, msgs[i], msg_lens[i], dst, dst_len);
                g1_mul_vartime(&p[i], &h, w + 16 * i, 128);
            }
        }
        if (rc == GROVE_OK && !g1_msm_vartime(&p[n], s1, w, 16, n))
            rc = GROVE_ERR_NOMEM;
        g1_neg(&p[n], &p[n]);
        g2_generator(&q[n]);
    } else {
        /* prod e(w_i pk_i, H(m_i)) * e(-g1, sum w_i sig_i) == 1 */
        for (size_t i = 0; i < n && rc == GROVE_OK; i++) {
            g1_p pk;
            rc = dec1(&pk, pks + i * pkl, pkl, GROVE_BLS_NO_INFINITY);
            if (rc == GROVE_OK)
                rc = dec_sig2(&s2[i], sigs + i * sgl, sgl, GROVE_BLS_NO_INFINITY);
            if (rc == GROVE_OK) {
                g1_mul_vartime(&p[i], &pk, w + 16 * i, 128);
                bls_hash_to_g2(&q[i], msgs[i], msg_lens[i], dst, dst_len);
            }
        }
        if (rc == GROVE_OK && !g2_msm_vartime(&q[n], s2, w, 16, n))
            rc = GROVE_ERR_NOMEM;
        g1_generator(&p[n]);
        g1_neg(&p[n], &p[n]);
    }
    if (rc == GROVE_OK)
        rc = check_one(p, q, n + 1);
out:
    free(p);
    free(q);
    free(w);
    free(s1);
    free(s2);
    return rc;
}

grove_status grove_bls_pop_prove(grove_bls_variant variant, uint8_t *proof, const grove_bls_sk *sk,
                                 const uint8_t *dst, size_t dst_len)
{
    uint8_t pk[96];
    grove_status rc;
    if (proof == NULL)
        return GROVE_ERR_INVALID_ARG;
    if ((rc = grove_bls_sk_to_pk(variant, pk, sk)) != GROVE_OK)
        return rc;
    return grove_bls_sign(variant, proof, pk, grove_bls_pk_bytes(variant), sk, dst, dst_len);
}

grove_status grove_bls_pop_verify(grove_bls_variant variant, const uint8_t *proof, size_t proof_len,
                                  const uint8_t *pk, size_t pk_len, const uint8_t *dst,
                                  size_t dst_len)
{
    uint8_t canon[96];
    grove_status rc;
    if (!variant_ok(variant) || pk == NULL)
        return GROVE_ERR_INVALID_ARG;
    /* the proof signs the compressed encoding of the key */
    if (variant == GROVE_BLS_MIN_SIG) {
        g2_p P;
        if ((rc = dec2(&P, pk, pk_len, GROVE_BLS_NO_INFINITY)) != GROVE_OK)
            return rc;
        g2_compress(canon, &P);
    } else {
        g1_p P;
        if ((rc = dec1(&P, pk, pk_len, GROVE_BLS_NO_INFINITY)) != GROVE_OK)
            return rc;
        g1_compress(canon, &P);
    }
    return grove_bls_verify(variant, proof, proof_len, canon, grove_bls_pk_bytes(variant), pk,
                            pk_len, dst, dst_len);
}

/* ---- BLS on points ------------------------------------------------------------------------ */

/*
 * sign_G: sig = sk * H_G(msg, dst) in group G; verify_G: the core verification with the public
 * key in the other group OG. One definition for min-sig (G = g1) and min-pk (G = g2).
 */
#define POINT_SIGN_API(G, PT, LD, ST, PUBLISH, OG, OPT, LDO, CORE)                                 \
    static grove_status sign_##G##_impl(grove_bls_##G *sig, const uint8_t *msg, size_t msg_len,    \
                                        const grove_bls_sk *sk, const uint8_t *dst,                \
                                        size_t dst_len)                                            \
    {                                                                                              \
        PT h, s;                                                                                   \
        if (sig == NULL || sk == NULL || !BYTES_OK(msg, msg_len) || !BYTES_OK(dst, dst_len) ||     \
            !sk_valid(sk))                                                                         \
            return GROVE_ERR_INVALID_ARG;                                                          \
        bls_hash_to_##G(&h, msg, msg_len, dst, dst_len);                                           \
        G##_mul_ct(&s, &h, sk->opaque);                                                            \
        PUBLISH(&s);                                                                               \
        ST(sig, &s);                                                                               \
        return GROVE_OK;                                                                           \
    }                                                                                              \
    grove_status grove_bls_sign_##G(grove_bls_##G *sig, const uint8_t *msg, size_t msg_len,        \
                                    const grove_bls_sk *sk, const uint8_t *dst, size_t dst_len)    \
    {                                                                                              \
        grove_status rc = sign_##G##_impl(sig, msg, msg_len, sk, dst, dst_len);                    \
        grove_burn_stack(); /* spilled copies of secrets in the frames below */                    \
        return rc;                                                                                 \
    }                                                                                              \
    grove_status grove_bls_verify_##G(const grove_bls_##G *sig, const uint8_t *msg,                \
                                      size_t msg_len, const grove_bls_##OG *pk,                    \
                                      const uint8_t *dst, size_t dst_len)                          \
    {                                                                                              \
        OPT P;                                                                                     \
        PT S;                                                                                      \
        if (pk == NULL || sig == NULL || !BYTES_OK(msg, msg_len) || !BYTES_OK(dst, dst_len))       \
            return GROVE_ERR_INVALID_ARG;                                                          \
        LDO(&P, pk);                                                                               \
        LD(&S, sig);                                                                               \
        return CORE(&P, msg, msg_len, &S, dst, dst_len);                                           \
    }

POINT_SIGN_API(g1, g1_p, ld1, st1, publish1, g2, g2_p, ld2, core_verify_min_sig)
POINT_SIGN_API(g2, g2_p, ld2, st2, publish2, g1, g1_p, ld1, core_verify_min_pk)
#undef POINT_SIGN_API

/* ---- groups ------------------------------------------------------------------------------- */

grove_status grove_bls_g1_from_bytes(grove_bls_g1 *p, const uint8_t *in, size_t in_len,
                                     unsigned flags)
{
    g1_p t;
    grove_status rc;
    if (p == NULL)
        return GROVE_ERR_INVALID_ARG;
    if ((rc = dec1(&t, in, in_len, flags)) == GROVE_OK)
        st1(p, &t);
    return rc;
}

void grove_bls_g1_to_bytes(const grove_bls_g1 *p, uint8_t out[GROVE_BLS_G1_BYTES])
{
    g1_p t;
    ld1(&t, p);
    g1_compress(out, &t);
}

void grove_bls_g1_to_bytes_uncompressed(const grove_bls_g1 *p,
                                        uint8_t out[GROVE_BLS_G1_UNCOMPRESSED_BYTES])
{
    g1_p t;
    ld1(&t, p);
    g1_serialize(out, &t);
}

grove_status grove_bls_g2_from_bytes(grove_bls_g2 *p, const uint8_t *in, size_t in_len,
                                     unsigned flags)
{
    g2_p t;
    grove_status rc;
    if (p == NULL)
        return GROVE_ERR_INVALID_ARG;
    if ((rc = dec2(&t, in, in_len, flags)) == GROVE_OK)
        st2(p, &t);
    return rc;
}

void grove_bls_g2_to_bytes(const grove_bls_g2 *p, uint8_t out[GROVE_BLS_G2_BYTES])
{
    g2_p t;
    ld2(&t, p);
    g2_compress(out, &t);
}

void grove_bls_g2_to_bytes_uncompressed(const grove_bls_g2 *p,
                                        uint8_t out[GROVE_BLS_G2_UNCOMPRESSED_BYTES])
{
    g2_p t;
    ld2(&t, p);
    g2_serialize(out, &t);
}

#define GROUP_API(G, PT, LD, ST)                                                                   \
    void grove_bls_##G##_generator(grove_bls_##G *p)                                               \
    {                                                                                              \
        PT t;                                                                                      \
        G##_generator(&t);                                                                         \
        ST(p, &t);                                                                                 \
    }                                                                                              \
    void grove_bls_##G##_identity(grove_bls_##G *p)                                                \
    {                                                                                              \
        PT t;                                                                                      \
        G##_set_inf(&t);                                                                           \
        ST(p, &t);                                                                                 \
    }                                                                                              \
    bool grove_bls_##G##_is_identity(const grove_bls_##G *p)                                       \
    {                                                                                              \
        PT t;                                                                                      \
        LD(&t, p);                                                                                 \
        return G##_is_inf(&t) != 0;                                                                \
    }                                                                                              \
    bool grove_bls_##G##_equal(const grove_bls_##G *a, const grove_bls_##G *b)                     \
    {                                                                                              \
        PT x, y;                                                                                   \
        LD(&x, a);                                                                                 \
        LD(&y, b);                                                                                 \
        return G##_eq_vartime(&x, &y) != 0;                                                        \
    }                                                                                              \
    bool grove_bls_##G##_in_group(const grove_bls_##G *p)                                          \
    {                                                                                              \
        PT t;                                                                                      \
        LD(&t, p);                                                                                 \
        return G##_in_subgroup_vartime(&t) != 0;                                                   \
    }                                                                                              \
    void grove_bls_##G##_add(grove_bls_##G *r, const grove_bls_##G *a, const grove_bls_##G *b)     \
    {                                                                                              \
        PT x, y;                                                                                   \
        LD(&x, a);                                                                                 \
        LD(&y, b);                                                                                 \
        G##_add_vartime(&x, &x, &y);                                                               \
        ST(r, &x);                                                                                 \
    }                                                                                              \
    void grove_bls_##G##_neg(grove_bls_##G *r, const grove_bls_##G *a)                             \
    {                                                                                              \
        PT x;                                                                                      \
        LD(&x, a);                                                                                 \
        G##_neg(&x, &x);                                                                           \
        ST(r, &x);                                                                                 \
    }                                                                                              \
    grove_status grove_bls_##G##_mul(grove_bls_##G *r, const grove_bls_##G *p, const uint8_t *k,   \
                                     size_t k_len)                                                 \
    {                                                                                              \
        PT x;                                                                                      \
        if (r == NULL || p == NULL || !BYTES_OK(k, k_len) || k_len > GROVE_BLS_MAX_SCALAR_BYTES)   \
            return GROVE_ERR_INVALID_ARG;                                                          \
        LD(&x, p);                                                                                 \
        G##_mul_vartime(&x, &x, k, 8 * k_len);                                                     \
        ST(r, &x);                                                                                 \
        return GROVE_OK;                                                                           \
    }                                                                                              \
    void grove_bls_##G##_mul_sk(grove_bls_##G *r, const grove_bls_##G *p, const grove_bls_sk *sk)  \
    {                                                                                              \
        PT x;                                                                                      \
        LD(&x, p);                                                                                 \
        /* p is public: the four-dimensional ladder on public bases ([|z|^i] p through the         \
         * endomorphism in the group, variable-time multiples outside it); only sk is secret */    \
        G##_mul_ct_public(&x, &x, sk->opaque);                                                     \
        normalize_##G(&x); /* the result may be published: no scalar-dependent Z */                \
        ST(r, &x);                                                                                 \
        grove_burn_stack(); /* spilled copies of the scalar in the frames below */                 \
    }                                                                                              \
    size_t grove_bls_##G##_msm_scratch_size(size_t n, size_t k_len)                            \
    {                                                                                              \
        if (k_len > GROVE_BLS_MAX_SCALAR_BYTES || n > GROVE_BLS_MSM_MAX_POINTS)                    \
            return 0;                                                                              \
        return G##_msm_scratch_bytes(n, k_len);                                                    \
    }                                                                                              \
    grove_status grove_bls_##G##_msm_with_scratch(grove_bls_##G *r, const grove_bls_##G *points,  \
                                                  const uint8_t *ks, size_t k_len, size_t n,       \
                                                  void *scratch)                                   \
    {                                                                                              \
        PT acc;                                                                                    \
        if (r == NULL || (n > 0 && (points == NULL || ks == NULL)) ||                              \
            k_len > GROVE_BLS_MAX_SCALAR_BYTES || n > GROVE_BLS_MSM_MAX_POINTS ||                  \
            (scratch == NULL && G##_msm_scratch_bytes(n, k_len) > 0))                              \
            return GROVE_ERR_INVALID_ARG;                                                          \
        /* the opaque points hold the internal Jacobian points byte for byte (ld/st) */            \
        G##_msm_scratch_vartime(&acc, points, ks, k_len, n, scratch);                              \
        ST(r, &acc);                                                                               \
        return GROVE_OK;                                                                           \
    }                                                                                              \
    grove_status grove_bls_##G##_msm(grove_bls_##G *r, const grove_bls_##G *points,                \
                                     const uint8_t *ks, size_t k_len, size_t n)                    \
    {                                                                                              \
        size_t bytes;                                                                              \
        void *scratch = NULL;                                                                      \
        grove_status rc;                                                                           \
        if (r == NULL || (n > 0 && (points == NULL || ks == NULL)) ||                              \
            k_len > GROVE_BLS_MAX_SCALAR_BYTES || n > GROVE_BLS_MSM_MAX_POINTS)                    \
            return GROVE_ERR_INVALID_ARG;                                                          \
        bytes = G##_msm_scratch_bytes(n, k_len);                                                   \
        if (bytes > 0 && (scratch = malloc(bytes)) == NULL)                                        \
            return GROVE_ERR_NOMEM;                                                                \
        rc = grove_bls_##G##_msm_with_scratch(r, points, ks, k_len, n, scratch);                   \
        free(scratch);                                                                             \
        return rc;                                                                                 \
    }                                                                                              \
    void grove_bls_##G##_hash(grove_bls_##G *r, const uint8_t *msg, size_t msg_len,                \
                              const uint8_t *dst, size_t dst_len)                                  \
    {                                                                                              \
        PT x;                                                                                      \
        bls_hash_to_##G(&x, msg, msg_len, dst, dst_len);                                           \
        ST(r, &x);                                                                                 \
    }                                                                                              \
    void grove_bls_##G##_encode(grove_bls_##G *r, const uint8_t *msg, size_t msg_len,              \
                                const uint8_t *dst, size_t dst_len)                                \
    {                                                                                              \
        PT x;                                                                                      \
        bls_encode_to_##G(&x, msg, msg_len, dst, dst_len);                                         \
        ST(r, &x);                                                                                 \
    }

GROUP_API(g1, g1_p, ld1, st1)
GROUP_API(g2, g2_p, ld2, st2)

/* ---- pairing ------------------------------------------------------------------------------ */

#define PAIRING_ALIGN(x) (((x) + 63u) & ~(size_t)63u)

size_t grove_bls_pairing_scratch_size(size_t n)
{
    if (n > GROVE_BLS_PAIRING_MAX_PAIRS)
        return 0;
    /* affine copies of both sides, then the batch inversion's running products */
    return PAIRING_ALIGN(n * sizeof(g1_a)) + PAIRING_ALIGN(n * sizeof(g2_a)) +
           PAIRING_ALIGN(n * sizeof(fp2)) + 63;
}

/* f = prod e(p_i, q_i): exact (the standard value) or cubed (for checks) */
static grove_status pairing_points(fp12 *f, const grove_bls_g1 *p, const grove_bls_g2 *q, size_t n,
                                   void *scratch, int exact)
{
    unsigned char *scr = scratch;
    fp12 m;
    if (n > GROVE_BLS_PAIRING_MAX_PAIRS || (n > 0 && scratch == NULL))
        return GROVE_ERR_INVALID_ARG;
    if (n == 0) {
        *f = BLS_FP12_ONE;
        return GROVE_OK;
    }
    scr += (64 - ((uintptr_t)scr & 63)) & 63;
    g1_a *pa = (g1_a *)(void *)scr;
    g2_a *qa = (g2_a *)(void *)(scr + PAIRING_ALIGN(n * sizeof(g1_a)));
    void *acc = scr + PAIRING_ALIGN(n * sizeof(g1_a)) + PAIRING_ALIGN(n * sizeof(g2_a));
    /* the opaque points hold the internal Jacobian points byte for byte (ld1/ld2) */
    g1_batch_to_affine_scratch_vartime(pa, p, n, (fp *)acc);
    g2_batch_to_affine_scratch_vartime(qa, q, n, (fp2 *)acc);
    bls_miller_loop(&m, pa, qa, n);
    if (exact)
        bls_final_exp_exact(f, &m);
    else
        bls_final_exp(f, &m);
    return GROVE_OK;
}

grove_status grove_bls_pairing_with_scratch(grove_bls_gt *r, const grove_bls_g1 *p,
                                            const grove_bls_g2 *q, size_t n, void *scratch)
{
    fp12 f;
    grove_status rc;
    if (r == NULL || (n > 0 && (p == NULL || q == NULL)))
        return GROVE_ERR_INVALID_ARG;
    if ((rc = pairing_points(&f, p, q, n, scratch, 1)) == GROVE_OK)
        memcpy(r->opaque, &f, sizeof f);
    return rc;
}

grove_status grove_bls_pairing_check_with_scratch(const grove_bls_g1 *p, const grove_bls_g2 *q,
                                                  size_t n, void *scratch)
{
    fp12 f;
    grove_status rc;
    if (n > 0 && (p == NULL || q == NULL))
        return GROVE_ERR_INVALID_ARG;
    if ((rc = pairing_points(&f, p, q, n, scratch, 0)) != GROVE_OK)
        return rc;
    return fp12_is_one(&f) ? GROVE_OK : GROVE_ERR_VERIFY;
}

/* the allocating forms: scratch on the stack for a few pairs, else on the heap */
#define PAIRING_STACK_PAIRS 4
static grove_status pairing_alloc(grove_bls_gt *r, const grove_bls_g1 *p, const grove_bls_g2 *q,
                                  size_t n)
{
    _Alignas(64) unsigned char stack[PAIRING_STACK_PAIRS * (sizeof(g1_a) + sizeof(g2_a) +
                                                            sizeof(fp2)) + 3 * 64 + 64];
    void *scratch = stack;
    grove_status rc;
    if (n > GROVE_BLS_PAIRING_MAX_PAIRS)
        return GROVE_ERR_INVALID_ARG;
    if (grove_bls_pairing_scratch_size(n) > sizeof stack &&
        (scratch = malloc(grove_bls_pairing_scratch_size(n))) == NULL)
        return GROVE_ERR_NOMEM;
    rc = r != NULL ? grove_bls_pairing_with_scratch(r, p, q, n, scratch)
                   : grove_bls_pairing_check_with_scratch(p, q, n, scratch);
    if (scratch != stack)
        free(scratch);
    return rc;
}

grove_status grove_bls_pairing(grove_bls_gt *r, const grove_bls_g1 *p, const grove_bls_g2 *q,
                               size_t n)
{
    if (r == NULL)
        return GROVE_ERR_INVALID_ARG;
    return pairing_alloc(r, p, q, n);
}

grove_status grove_bls_pairing_check(const grove_bls_g1 *p, const grove_bls_g2 *q, size_t n)
{
    return pairing_alloc(NULL, p, q, n);
}

bool grove_bls_gt_equal(const grove_bls_gt *a, const grove_bls_gt *b)
{
    fp12 x, y;
    memcpy(&x, a->opaque, sizeof x);
    memcpy(&y, b->opaque, sizeof y);
    return fp12_eq(&x, &y) != 0;
}

bool grove_bls_gt_is_one(const grove_bls_gt *a)
{
    fp12 x;
    memcpy(&x, a->opaque, sizeof x);
    return fp12_is_one(&x) != 0;
}

void grove_bls_gt_mul(grove_bls_gt *r, const grove_bls_gt *a, const grove_bls_gt *b)
{
    fp12 x, y;
    memcpy(&x, a->opaque, sizeof x);
    memcpy(&y, b->opaque, sizeof y);
    fp12_mul(&x, &x, &y);
    memcpy(r->opaque, &x, sizeof x);
}

/* ---- hashing ------------------------------------------------------------------------------ */

grove_status grove_bls_expand_message_xmd(uint8_t *out, size_t out_len, const uint8_t *msg,
                                          size_t msg_len, const uint8_t *dst, size_t dst_len)
{
    if (!BYTES_OK(out, out_len) || !BYTES_OK(msg, msg_len) || !BYTES_OK(dst, dst_len))
        return GROVE_ERR_INVALID_ARG;
    if (!bls_expand_message_xmd(out, out_len, msg, msg_len, dst, dst_len, BLS_XMD_SHA256))
        return GROVE_ERR_INVALID_ARG;
    return GROVE_OK;
}
