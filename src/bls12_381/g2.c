/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* G2 on E'(Fp2): y^2 = x^3 + 4(1+u). Generic arithmetic and serialization from ec_tmpl.h,
 * plus G2 specifics. */
#include "bls12_381/constants.h"
#include "bls12_381/ec.h"

/* Long straight-line formulas: the products as calls (fp2.h, fp2_mul_call). */
#define fp2_mul fp2_mul_call
#define fp2_sqr fp2_sqr_call

/* [z^2] = psi^2 on G2: (x, y) -> (c x, -y), c = 1 / 2^((p-1)/3) */
static void g2_endo_z2(g2_p *r, const g2_p *a)
{
    fp2_mul_fp(&r->x, &a->x, &BLS_PSI2_C1);
    fp2_neg(&r->y, &a->y);
    r->z = a->z;
}

/* [|z|] = -psi on G2, for projective (or Jacobian) points: (c1 conj X, -c2 conj Y, conj Z) */
static void g2_endo_zabs(g2_p *r, const g2_p *a)
{
    fp2 t;
    fp2_conj(&t, &a->x);
    fp2_mul(&r->x, &t, &BLS_PSI_C1);
    fp2_conj(&t, &a->y);
    fp2_mul(&r->y, &t, &BLS_PSI_C2);
    fp2_neg(&r->y, &r->y);
    fp2_conj(&r->z, &a->z);
}

/* -psi(P) for an affine point (identity (0, 0) stays) */
static void g2_neg_psi_affine(g2_a *r, const g2_a *a)
{
    fp2 t;
    fp2_conj(&t, &a->x);
    fp2_mul(&r->x, &t, &BLS_PSI_C1);
    fp2_conj(&t, &a->y);
    fp2_mul(&r->y, &t, &BLS_PSI_C2);
    fp2_neg(&r->y, &r->y);
}

/* Fp2 as ZCash bytes: c1 (48 bytes) then c0 (48 bytes). */
static void fp2_to_bytes96(uint8_t out[96], const fp2 *a)
{
    fp_to_bytes(out, &a->c1);
    fp_to_bytes(out + 48, &a->c0);
}

static int fp2_from_bytes96(fp2 *r, const uint8_t in[96])
{
    return fp_from_bytes(&r->c1, in) & fp_from_bytes(&r->c0, in + 48);
}

/* r = 3b a = 12 (1 + u) a by additions (the complete formulas' constant) */
static void g2_mul_b3(fp2 *r, const fp2 *a)
{
    fp2 t, u;
    fp2_mul_by_xi(&t, a);
    fp2_mul3(&u, &t);
    fp2_mul4(r, &u);
}

#define ENDO_Z2 g2_endo_z2
#define MUL_B3 g2_mul_b3
#define CT_JACOBIAN_DBL 1 /* cheaper doublings in Fp2, ec_tmpl.h mul_ct4 */
#define ENDO_ZABS g2_endo_zabs
#define MSM_SPLIT_Z g2_neg_psi_affine
#define FE fp2
#define FE_(op) fp2_##op
#define PT g2_p
#define AFF g2_a
#define P_(op) g2_##op
#define CURVE_B BLS_G2_B
#define CURVE_B3 BLS_G2_B3
#define GEN_X BLS_G2_GEN_X
#define GEN_Y BLS_G2_GEN_Y
#define FE_ONE BLS_FP2_ONE
#define FE_BYTES 96
#define FE_TO_BYTES fp2_to_bytes96
#define FE_FROM_BYTES fp2_from_bytes96
#define FE_SQRT fp2_sqrt_vartime
#include "bls12_381/ec_tmpl.h"

/* psi = twist^-1 o Frobenius o twist: (x, y) -> (c1 conj(x), c2 conj(y)). */
void g2_psi(g2_p *r, const g2_p *a)
{
    fp2 t;
    fp2_conj(&t, &a->x);
    fp2_mul(&r->x, &t, &BLS_PSI_C1);
    fp2_conj(&t, &a->y);
    fp2_mul(&r->y, &t, &BLS_PSI_C2);
    fp2_conj(&r->z, &a->z);
}

/* psi^2(x, y) = (c x, -y) with c in Fp. */
static void g2_psi2(g2_p *r, const g2_p *a)
{
    fp2_mul_fp(&r->x, &a->x, &BLS_PSI2_C1);
    fp2_neg(&r->y, &a->y);
    r->z = a->z;
}

/* Scott (ePrint 2021/1130): a point of E'(Fp2) is in G2 iff psi(P) = [z] P. */
int g2_in_subgroup_vartime(const g2_p *a)
{
    g2_p t, p;
    if (!g2_on_curve(a))
        return 0;
    g2_mul_z_abs_vartime(&t, a); /* [|z|] a = -[z] a */
    g2_psi(&p, a);
    g2_add_vartime(&t, &t, &p); /* psi(a) - [z] a */
    return g2_is_inf(&t);
}

/* RFC 9380 appendix G.3 (Budroni-Pintore): h_eff * P with c1 = z. */
void g2_clear_cofactor(g2_p *r, const g2_p *a)
{
    g2_p t1, t2, t3, na;
    g2_mul_z_abs_vartime(&t1, a);
    g2_neg(&t1, &t1); /* t1 = [z] P */
    g2_psi(&t2, a);
    g2_dbl(&t3, a);
    g2_psi2(&t3, &t3);
    g2_neg(&na, &t2);
    g2_add_vartime(&t3, &t3, &na); /* t3 = psi2(2P) - psi(P) */
    g2_add_vartime(&t2, &t1, &t2);
    g2_mul_z_abs_vartime(&t2, &t2);
    g2_neg(&t2, &t2); /* t2 = [z](t1 + psi(P)) */
    g2_add_vartime(&t3, &t3, &t2);
    g2_neg(&na, &t1);
    g2_add_vartime(&t3, &t3, &na);
    g2_neg(&na, a);
    g2_add_vartime(r, &t3, &na);
}
