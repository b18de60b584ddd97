/* Fp: exponentiation, inversion, square roots, conversions (see fp.h). */
#include "bls12_381/fp.h"

#include <string.h>

#include "bls12_381/constants.h"

const fp BLS_FP_P = {{BLS_P0, BLS_P1, BLS_P2, BLS_P3, BLS_P4, BLS_P5}};
const uint64_t bls_p_limbs[6] = {BLS_P0, BLS_P1, BLS_P2, BLS_P3, BLS_P4, BLS_P5};

void fp_pow(fp *r, const fp *a, const uint64_t *e, size_t nlimbs)
{
    /* Fixed 4-bit windows from the top; the exponent is public, the base may be secret. */
    fp tab[16], acc;
    tab[0] = BLS_FP_ONE;
    tab[1] = *a;
    for (int i = 2; i < 16; i++)
        fp_mul(&tab[i], &tab[i - 1], a);
    int started = 0;
    acc = BLS_FP_ONE;
    for (size_t i = nlimbs; i-- > 0;) {
        for (int sh = 60; sh >= 0; sh -= 4) {
            unsigned w = (unsigned)(e[i] >> sh) & 15;
            if (started) {
                fp_sqr(&acc, &acc);
                fp_sqr(&acc, &acc);
                fp_sqr(&acc, &acc);
                fp_sqr(&acc, &acc);
                if (w)
                    fp_mul(&acc, &acc, &tab[w]);
            } else if (w) {
                acc = tab[w];
                started = 1;
            }
        }
    }
    *r = acc;
    grove_wipe(tab, sizeof tab);
    grove_wipe(&acc, sizeof acc);
}

void fp_inv(fp *r, const fp *a)
{
    fp_pow(r, a, BLS_EXP_P_MINUS_2, 6);
}

/* ---- variable-time inversion: binary extended Euclid on plain integers ------------------- */

static int limbs_is_one(const uint64_t x[6])
{
    return x[0] == 1 && (x[1] | x[2] | x[3] | x[4] | x[5]) == 0;
}

static void limbs_shr1(uint64_t x[6])
{
    for (int i = 0; i < 5; i++)
        x[i] = (x[i] >> 1) | (x[i + 1] << 63);
    x[5] >>= 1;
}

/* x >= y */
static int limbs_geq(const uint64_t x[6], const uint64_t y[6])
{
    for (int i = 5; i >= 0; i--)
        if (x[i] != y[i])
            return x[i] > y[i];
    return 1;
}

static void limbs_sub(uint64_t x[6], const uint64_t y[6])
{
    uint64_t b = 0;
    for (int i = 0; i < 6; i++)
        x[i] = bls_sbb(x[i], y[i], &b);
}

/*
 * r = 1/a for a public a. The binary extended Euclidean algorithm runs on A = aR (the
 * Montgomery representative as an integer) with the invariants x1 A == u, x2 A == v (mod p),
 * and ends with A^-1 = a^-1 R^-1 mod p; one Montgomery multiplication by R^3 gives a^-1 R.
 * 0 gives 0.
 */
void fp_inv_vartime(fp *r, const fp *a)
{
    uint64_t u[6], v[6];
    fp x1 = {{1, 0, 0, 0, 0, 0}}, x2 = {{0}};
    if (fp_is_zero(a)) {
        fp_set_zero(r);
        return;
    }
    memcpy(u, a->l, sizeof u);
    memcpy(v, BLS_FP_P.l, sizeof v);
    while (!limbs_is_one(u) && !limbs_is_one(v)) {
        while (!(u[0] & 1)) {
            limbs_shr1(u);
            fp_half(&x1, &x1);
        }
        while (!(v[0] & 1)) {
            limbs_shr1(v);
            fp_half(&x2, &x2);
        }
        if (limbs_geq(u, v)) {
            limbs_sub(u, v);
            fp_sub(&x1, &x1, &x2);
        } else {
            limbs_sub(v, u);
            fp_sub(&x2, &x2, &x1);
        }
    }
    const fp *x = limbs_is_one(u) ? &x1 : &x2;
    fp_mul(r, x, &BLS_FP_R3); /* x R^3 / R = (aR)^-1 R^2 = a^-1 R */
}

int fp_sqrt(fp *r, const fp *a)
{
    fp s, t;
    fp_pow(&s, a, BLS_EXP_P_PLUS_1_DIV_4, 6);
    fp_sqr(&t, &s);
    *r = s;
    return fp_eq(&t, a);
}

int fp_is_square(const fp *a)
{
    fp t;
    fp_pow(&t, a, BLS_EXP_P_MINUS_1_DIV_2, 6);
    /* a^((p-1)/2) is 1 for nonzero squares, 0 for 0, -1 otherwise */
    return (int)((fp_eq_mask(&t, &BLS_FP_ONE) | fp_is_zero_mask(&t)) & 1);
}

void fp_to_mont(fp *r, const fp *a)
{
    fp_mul(r, &BLS_FP_R2, a);
}

void fp_from_mont(fp *r, const fp *a)
{
    static const fp one_plain = {{1, 0, 0, 0, 0, 0}};
    fp_mul(r, a, &one_plain);
}

void fp_from_u64(fp *r, uint64_t v)
{
    fp t = {{v, 0, 0, 0, 0, 0}};
    fp_to_mont(r, &t);
}

static void load48(fp *r, const uint8_t in[48])
{
    for (int i = 0; i < 6; i++)
        r->l[i] = grove_load64_be(in + 8 * (5 - i));
}

int fp_from_bytes(fp *r, const uint8_t in[48])
{
    fp t;
    uint64_t b = 0;
    load48(&t, in);
    for (int i = 0; i < 6; i++)
        (void)bls_sbb(t.l[i], BLS_FP_P.l[i], &b);
    if (!b)
        return 0; /* t >= p */
    fp_to_mont(r, &t);
    return 1;
}

void fp_to_bytes(uint8_t out[48], const fp *a)
{
    fp t;
    fp_from_mont(&t, a);
    for (int i = 0; i < 6; i++)
        grove_store64_be(out + 8 * (5 - i), t.l[i]);
}

void fp_from_bytes_wide(fp *r, const uint8_t *in, size_t len)
{
    uint8_t buf[96] = {0};
    fp hi, lo;
    if (len > 96)
        len = 96;
    memcpy(buf + 96 - len, in, len);
    load48(&hi, buf);
    load48(&lo, buf + 48);
    /* (hi * 2^384 + lo) * R = hi * R^2 + lo * R; fp_mul accepts any 6-limb second operand */
    fp_mul(&hi, &BLS_FP_R3, &hi);
    fp_mul(&lo, &BLS_FP_R2, &lo);
    fp_add(r, &hi, &lo);
    grove_wipe(buf, sizeof buf);
}

int fp_sgn0(const fp *a)
{
    fp t;
    fp_from_mont(&t, a);
    return (int)(t.l[0] & 1);
}

int fp_is_lexicographically_largest(const fp *a)
{
    fp t;
    uint64_t b = 0;
    fp_from_mont(&t, a);
    /* (p-1)/2 - t borrows iff t > (p-1)/2 */
    for (int i = 0; i < 6; i++)
        (void)bls_sbb(BLS_EXP_P_MINUS_1_DIV_2[i], t.l[i], &b);
    return (int)b;
}
