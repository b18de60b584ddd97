/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* RFC 9380 hash to curve for BLS12-381 (see hash_to_curve.h). */
#include "bls12_381/hash_to_curve.h"

#include <string.h>

#include "bls12_381/constants.h"
#include "hash/sha2.h"

/* Long straight-line formulas: the products as calls (fp2.h, fp2_mul_call). */
#define fp_mul fp_mul_call
#define fp_sqr(r, a) fp_mul_call(r, a, a)
#define fp2_mul fp2_mul_call
#define fp2_sqr fp2_sqr_call

/* ---- expand_message_xmd ------------------------------------------------------------------- */

typedef struct {
    int which;
    grove_sha256_ctx s256;
    grove_sha512_ctx s512;
} xmd_hash;

static void xh_init(xmd_hash *h, int which)
{
    h->which = which;
    if (which == BLS_XMD_SHA256)
        grove_sha256_init(&h->s256);
    else
        grove_sha512_init(&h->s512);
}

static void xh_update(xmd_hash *h, const uint8_t *p, size_t n)
{
    if (n == 0)
        return;
    if (h->which == BLS_XMD_SHA256)
        grove_sha256_update(&h->s256, p, n);
    else
        grove_sha512_update(&h->s512, p, n);
}

static void xh_final(xmd_hash *h, uint8_t *out)
{
    if (h->which == BLS_XMD_SHA256)
        grove_sha256_final(&h->s256, out, 32);
    else
        grove_sha512_final(&h->s512, out, 64);
}

int bls_expand_message_xmd(uint8_t *out, size_t len, const uint8_t *msg, size_t msg_len,
                           const uint8_t *dst, size_t dst_len, int hash)
{
    static const uint8_t zeros[128] = {0};
    static const char oversize[] = "H2C-OVERSIZE-DST-";
    const size_t b_in = hash == BLS_XMD_SHA256 ? 32 : 64;
    const size_t s_in = hash == BLS_XMD_SHA256 ? 64 : 128;
    uint8_t dst_buf[64], b0[64], bi[64], tmp[64], lib[3], dlen;
    xmd_hash h;
    size_t ell = (len + b_in - 1) / b_in;
    if (len > 65535 || ell > 255 || (hash != BLS_XMD_SHA256 && hash != BLS_XMD_SHA512))
        return 0;
    if (dst_len > 255) {
        xh_init(&h, hash);
        xh_update(&h, (const uint8_t *)oversize, sizeof oversize - 1);
        xh_update(&h, dst, dst_len);
        xh_final(&h, dst_buf);
        dst = dst_buf;
        dst_len = b_in;
    }
    dlen = (uint8_t)dst_len;
    /* b_0 = H(Z_pad || msg || I2OSP(len, 2) || 0x00 || DST || I2OSP(len(DST), 1)) */
    lib[0] = (uint8_t)(len >> 8);
    lib[1] = (uint8_t)len;
    lib[2] = 0;
    xh_init(&h, hash);
    xh_update(&h, zeros, s_in);
    xh_update(&h, msg, msg_len);
    xh_update(&h, lib, 3);
    xh_update(&h, dst, dst_len);
    xh_update(&h, &dlen, 1);
    xh_final(&h, b0);
    memset(bi, 0, sizeof bi);
    for (size_t i = 1; i <= ell; i++) {
        uint8_t ib = (uint8_t)i;
        for (size_t j = 0; j < b_in; j++)
            tmp[j] = (uint8_t)(b0[j] ^ bi[j]); /* bi = 0 before the first block: b_0 */
        xh_init(&h, hash);
        xh_update(&h, tmp, b_in);
        xh_update(&h, &ib, 1);
        xh_update(&h, dst, dst_len);
        xh_update(&h, &dlen, 1);
        xh_final(&h, bi);
        size_t off = (i - 1) * b_in, n = len - off < b_in ? len - off : b_in;
        memcpy(out + off, bi, n);
    }
    grove_wipe(b0, sizeof b0);
    grove_wipe(bi, sizeof bi);
    grove_wipe(tmp, sizeof tmp);
    return 1;
}

/* ---- hash_to_field ------------------------------------------------------------------------ */

void bls_hash_to_fp(fp *u, size_t count, const uint8_t *msg, size_t msg_len, const uint8_t *dst,
                    size_t dst_len)
{
    uint8_t buf[128];
    if (count > 2)
        count = 2;
    (void)bls_expand_message_xmd(buf, 64 * count, msg, msg_len, dst, dst_len, BLS_XMD_SHA256);
    for (size_t i = 0; i < count; i++)
        fp_from_bytes_wide(&u[i], buf + 64 * i, 64);
    grove_wipe(buf, sizeof buf);
}

void bls_hash_to_fp2(fp2 *u, size_t count, const uint8_t *msg, size_t msg_len,
                     const uint8_t *dst, size_t dst_len)
{
    uint8_t buf[256];
    if (count > 2)
        count = 2;
    (void)bls_expand_message_xmd(buf, 128 * count, msg, msg_len, dst, dst_len, BLS_XMD_SHA256);
    for (size_t i = 0; i < count; i++) {
        fp_from_bytes_wide(&u[i].c0, buf + 128 * i, 64);
        fp_from_bytes_wide(&u[i].c1, buf + 128 * i + 64, 64);
    }
    grove_wipe(buf, sizeof buf);
}

/* ---- simplified SWU, G1 ------------------------------------------------------------------- */

/* sqrt_ratio for q = 3 mod 4 (RFC 9380 F.2.1.2): returns isQR, y = sqrt(u/v) or sqrt(Z u/v). */
static uint64_t sqrt_ratio_fp(fp *y, const fp *u, const fp *v)
{
    fp tv1, tv2, tv3, y1, y2;
    fp_sqr(&tv1, v);
    fp_mul(&tv2, u, v);
    fp_mul(&tv1, &tv1, &tv2);
    fp_pow(&y1, &tv1, BLS_EXP_P_MINUS_3_DIV_4, 6);
    fp_mul(&y1, &y1, &tv2);
    fp_mul(&y2, &y1, &BLS_SSWU1_C2);
    fp_sqr(&tv3, &y1);
    fp_mul(&tv3, &tv3, v);
    uint64_t is_qr = fp_eq_mask(&tv3, u);
    *y = y2;
    fp_cmov(y, &y1, is_qr);
    return is_qr;
}

/* RFC 9380 6.6.2 straight-line SSWU onto E': returns x = xn / xd and y. */
static void sswu_fp(fp *xn, fp *xd, fp *y, const fp *u)
{
    fp tv1, tv2, tv3, tv4, tv5, tv6, x, y1, t;
    fp_sqr(&tv1, u);
    fp_mul(&tv1, &BLS_SSWU1_Z, &tv1);
    fp_sqr(&tv2, &tv1);
    fp_add(&tv2, &tv2, &tv1);
    fp_add(&tv3, &tv2, &BLS_FP_ONE);
    fp_mul(&tv3, &BLS_SSWU1_B, &tv3);
    fp_neg(&t, &tv2);
    tv4 = BLS_SSWU1_Z;
    fp_cmov(&tv4, &t, ~fp_is_zero_mask(&tv2));
    fp_mul(&tv4, &BLS_SSWU1_A, &tv4);
    fp_sqr(&tv2, &tv3);
    fp_sqr(&tv6, &tv4);
    fp_mul(&tv5, &BLS_SSWU1_A, &tv6);
    fp_add(&tv2, &tv2, &tv5);
    fp_mul(&tv2, &tv2, &tv3);
    fp_mul(&tv6, &tv6, &tv4);
    fp_mul(&tv5, &BLS_SSWU1_B, &tv6);
    fp_add(&tv2, &tv2, &tv5);
    fp_mul(&x, &tv1, &tv3);
    uint64_t is_gx1_square = sqrt_ratio_fp(&y1, &tv2, &tv6);
    fp_mul(y, &tv1, u);
    fp_mul(y, y, &y1);
    fp_cmov(&x, &tv3, is_gx1_square);
    fp_cmov(y, &y1, is_gx1_square);
    uint64_t e1 = 0 - (uint64_t)(fp_sgn0(u) == fp_sgn0(y));
    fp_neg(&t, y);
    fp_cmov(&t, y, e1);
    *y = t;
    *xn = x;
    *xd = tv4;
}

/* sum_{i=0}^{d} k_i n^i dd^(d-i), with dpow[j] = dd^j. */
static void horner_fp(fp *r, const fp *k, int d, const fp *n, const fp *dpow)
{
    fp acc = k[d], t;
    for (int i = d - 1; i >= 0; i--) {
        fp_mul(&acc, &acc, n);
        fp_mul(&t, &k[i], &dpow[d - i]);
        fp_add(&acc, &acc, &t);
    }
    *r = acc;
}

/* The 11-isogeny E' -> E on x' = xn/xd, y', giving a Jacobian point of E. */
static void iso_map_g1(g1_p *r, const fp *xn, const fp *xd, const fp *y)
{
    fp dpow[16], XN, XD, YN, YD, t;
    dpow[0] = BLS_FP_ONE;
    dpow[1] = *xd;
    for (int i = 2; i < 16; i++)
        fp_mul(&dpow[i], &dpow[i - 1], xd);
    horner_fp(&XN, BLS_ISO1_XNUM, 11, xn, dpow);
    horner_fp(&XD, BLS_ISO1_XDEN, 10, xn, dpow);
    fp_mul(&XD, &XD, xd);
    horner_fp(&YN, BLS_ISO1_YNUM, 15, xn, dpow);
    horner_fp(&YD, BLS_ISO1_YDEN, 15, xn, dpow);
    /* Z = XD YD, X = XN XD YD^2, Y = y YN XD^3 YD^2 */
    fp_mul(&r->z, &XD, &YD);
    fp_mul(&t, &XN, &YD);
    fp_mul(&r->x, &t, &r->z);
    fp_sqr(&t, &r->z);
    fp_mul(&t, &t, &XD);
    fp_mul(&t, &t, &YN);
    fp_mul(&r->y, &t, y);
}

void bls_map_to_g1(g1_p *r, const fp *u)
{
    fp xn, xd, y;
    sswu_fp(&xn, &xd, &y, u);
    iso_map_g1(r, &xn, &xd, &y);
}

/* ---- simplified SWU, G2 ------------------------------------------------------------------- */

/* Generic sqrt_ratio (RFC 9380 F.2.1.1) for q = p^2, c1 = 3: one exponentiation in Fp2 by a
 * 758-bit exponent, constant time. The tests' reference for bls_sqrt_ratio_fp2_vartime. */
uint64_t bls_sqrt_ratio_fp2_ref(fp2 *y, const fp2 *u, const fp2 *v)
{
    fp2 tv1, tv2, tv3, tv4, tv5;
    uint64_t is_qr, e1;
    tv1 = BLS_SSWU2_C6;
    /* tv2 = v^7 */
    fp2_sqr(&tv2, v);
    fp2_mul(&tv2, &tv2, v);
    fp2_sqr(&tv2, &tv2);
    fp2_mul(&tv2, &tv2, v);
    fp2_sqr(&tv3, &tv2);
    fp2_mul(&tv3, &tv3, v);
    fp2_mul(&tv5, u, &tv3);
    fp2_pow(&tv5, &tv5, BLS_SSWU2_C3, 12);
    fp2_mul(&tv5, &tv5, &tv2);
    fp2_mul(&tv2, &tv5, v);
    fp2_mul(&tv3, &tv5, u);
    fp2_mul(&tv4, &tv3, &tv2);
    fp2_sqr(&tv5, &tv4);
    fp2_sqr(&tv5, &tv5); /* tv4^4 */
    is_qr = fp2_eq_mask(&tv5, &BLS_FP2_ONE);
    fp2_mul(&tv2, &tv3, &BLS_SSWU2_C7);
    fp2_mul(&tv5, &tv4, &tv1);
    fp2_cmov(&tv2, &tv3, is_qr);
    tv3 = tv2;
    fp2_cmov(&tv5, &tv4, is_qr);
    tv4 = tv5;
    for (int i = 3; i >= 2; i--) {
        tv5 = tv4;
        for (int j = 0; j < i - 2; j++)
            fp2_sqr(&tv5, &tv5);
        e1 = fp2_eq_mask(&tv5, &BLS_FP2_ONE);
        fp2_mul(&tv2, &tv3, &tv1);
        fp2_sqr(&tv1, &tv1);
        fp2_mul(&tv5, &tv4, &tv1);
        fp2_cmov(&tv2, &tv3, e1);
        tv3 = tv2;
        fp2_cmov(&tv5, &tv4, e1);
        tv4 = tv5;
    }
    *y = tv3;
    return is_qr;
}

/*
 * sqrt_ratio for the hash to G2 of public messages: x = u / v (one Fp inversion), then the
 * Fp2 square root through the norm (two Fp exponentiations, fp2.c) of x or, when x is not a
 * square, of Z x (Z is not a square, so Z x is). The root may differ in sign from the RFC's
 * (SSWU fixes the sign of y afterwards). v != 0 (SSWU's denominator never is); u = 0 gives
 * (false, 0) like the RFC's generic algorithm.
 */
uint64_t bls_sqrt_ratio_fp2_vartime(fp2 *y, const fp2 *u, const fp2 *v)
{
    fp2 x, zx;
    if (fp2_is_zero(u)) { /* as the RFC's algorithm: (false, 0) */
        fp2_set_zero(y);
        return 0;
    }
    fp2_inv_vartime(&x, v);
    fp2_mul(&x, &x, u);
    if (fp2_sqrt_vartime(y, &x))
        return ~(uint64_t)0;
    fp2_mul(&zx, &BLS_SSWU2_Z, &x);
    if (!fp2_sqrt_vartime(y, &zx))
        fp2_set_zero(y); /* unreachable: Z x is a square when x is not */
    return 0;
}

static void sswu_fp2(fp2 *xn, fp2 *xd, fp2 *y, const fp2 *u)
{
    fp2 tv1, tv2, tv3, tv4, tv5, tv6, x, y1, t;
    fp2_sqr(&tv1, u);
    fp2_mul(&tv1, &BLS_SSWU2_Z, &tv1);
    fp2_sqr(&tv2, &tv1);
    fp2_add(&tv2, &tv2, &tv1);
    fp2_add(&tv3, &tv2, &BLS_FP2_ONE);
    fp2_mul(&tv3, &BLS_SSWU2_B, &tv3);
    fp2_neg(&t, &tv2);
    tv4 = BLS_SSWU2_Z;
    fp2_cmov(&tv4, &t, ~fp2_is_zero_mask(&tv2));
    fp2_mul(&tv4, &BLS_SSWU2_A, &tv4);
    fp2_sqr(&tv2, &tv3);
    fp2_sqr(&tv6, &tv4);
    fp2_mul(&tv5, &BLS_SSWU2_A, &tv6);
    fp2_add(&tv2, &tv2, &tv5);
    fp2_mul(&tv2, &tv2, &tv3);
    fp2_mul(&tv6, &tv6, &tv4);
    fp2_mul(&tv5, &BLS_SSWU2_B, &tv6);
    fp2_add(&tv2, &tv2, &tv5);
    fp2_mul(&x, &tv1, &tv3);
    uint64_t is_gx1_square = bls_sqrt_ratio_fp2_vartime(&y1, &tv2, &tv6);
    fp2_mul(y, &tv1, u);
    fp2_mul(y, y, &y1);
    fp2_cmov(&x, &tv3, is_gx1_square);
    fp2_cmov(y, &y1, is_gx1_square);
    uint64_t e1 = 0 - (uint64_t)(fp2_sgn0(u) == fp2_sgn0(y));
    fp2_neg(&t, y);
    fp2_cmov(&t, y, e1);
    *y = t;
    *xn = x;
    *xd = tv4;
}

static void horner_fp2(fp2 *r, const fp2 *k, int d, const fp2 *n, const fp2 *dpow)
{
    fp2 acc = k[d], t;
    for (int i = d - 1; i >= 0; i--) {
        fp2_mul(&acc, &acc, n);
        fp2_mul(&t, &k[i], &dpow[d - i]);
        fp2_add(&acc, &acc, &t);
    }
    *r = acc;
}

static void iso_map_g2(g2_p *r, const fp2 *xn, const fp2 *xd, const fp2 *y)
{
    fp2 dpow[4], XN, XD, YN, YD, t;
    dpow[0] = BLS_FP2_ONE;
    dpow[1] = *xd;
    fp2_sqr(&dpow[2], xd);
    fp2_mul(&dpow[3], &dpow[2], xd);
    horner_fp2(&XN, BLS_ISO2_XNUM, 3, xn, dpow);
    horner_fp2(&XD, BLS_ISO2_XDEN, 2, xn, dpow);
    fp2_mul(&XD, &XD, xd);
    horner_fp2(&YN, BLS_ISO2_YNUM, 3, xn, dpow);
    horner_fp2(&YD, BLS_ISO2_YDEN, 3, xn, dpow);
    fp2_mul(&r->z, &XD, &YD);
    fp2_mul(&t, &XN, &YD);
    fp2_mul(&r->x, &t, &r->z);
    fp2_sqr(&t, &r->z);
    fp2_mul(&t, &t, &XD);
    fp2_mul(&t, &t, &YN);
    fp2_mul(&r->y, &t, y);
}

void bls_map_to_g2(g2_p *r, const fp2 *u)
{
    fp2 xn, xd, y;
    sswu_fp2(&xn, &xd, &y, u);
    iso_map_g2(r, &xn, &xd, &y);
}

/* ---- hash_to_curve / encode_to_curve ------------------------------------------------------ */

void bls_hash_to_g1(g1_p *r, const uint8_t *msg, size_t msg_len, const uint8_t *dst,
                    size_t dst_len)
{
    fp u[2];
    g1_p q0, q1;
    bls_hash_to_fp(u, 2, msg, msg_len, dst, dst_len);
    bls_map_to_g1(&q0, &u[0]);
    bls_map_to_g1(&q1, &u[1]);
    g1_add_vartime(&q0, &q0, &q1);
    g1_clear_cofactor(r, &q0);
}

void bls_encode_to_g1(g1_p *r, const uint8_t *msg, size_t msg_len, const uint8_t *dst,
                      size_t dst_len)
{
    fp u;
    g1_p q;
    bls_hash_to_fp(&u, 1, msg, msg_len, dst, dst_len);
    bls_map_to_g1(&q, &u);
    g1_clear_cofactor(r, &q);
}

void bls_hash_to_g2(g2_p *r, const uint8_t *msg, size_t msg_len, const uint8_t *dst,
                    size_t dst_len)
{
    fp2 u[2];
    g2_p q0, q1;
    bls_hash_to_fp2(u, 2, msg, msg_len, dst, dst_len);
    bls_map_to_g2(&q0, &u[0]);
    bls_map_to_g2(&q1, &u[1]);
    g2_add_vartime(&q0, &q0, &q1);
    g2_clear_cofactor(r, &q0);
}

void bls_encode_to_g2(g2_p *r, const uint8_t *msg, size_t msg_len, const uint8_t *dst,
                      size_t dst_len)
{
    fp2 u;
    g2_p q;
    bls_hash_to_fp2(&u, 1, msg, msg_len, dst, dst_len);
    bls_map_to_g2(&q, &u);
    g2_clear_cofactor(r, &q);
}
