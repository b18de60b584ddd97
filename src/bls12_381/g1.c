/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* G1 on E(Fp): y^2 = x^3 + 4. Generic arithmetic and serialization from ec_tmpl.h, plus
 * G1 specifics. */
#include "bls12_381/constants.h"
#include "bls12_381/ec.h"

/* [z^2] (x, y) = (beta x, -y) on G1 (beta x, y) = [-z^2](x, y) */
static void g1_endo_z2(g1_p *r, const g1_p *a)
{
    fp_mul(&r->x, &a->x, &BLS_G1_BETA);
    fp_neg(&r->y, &a->y);
    r->z = a->z;
}

#define ENDO_Z2 g1_endo_z2
#define FE fp
#define FE_(op) fp_##op
#define PT g1_p
#define AFF g1_a
#define P_(op) g1_##op
#define CURVE_B BLS_G1_B
#define CURVE_B3 BLS_G1_B3
#define GEN_X BLS_G1_GEN_X
#define GEN_Y BLS_G1_GEN_Y
#define FE_ONE BLS_FP_ONE
#define FE_BYTES 48
#define FE_TO_BYTES fp_to_bytes
#define FE_FROM_BYTES fp_from_bytes
#define FE_SQRT fp_sqrt
#include "bls12_381/ec_tmpl.h"

void g1_phi(g1_p *r, const g1_p *a)
{
    fp_mul(&r->x, &a->x, &BLS_G1_BETA);
    r->y = a->y;
    r->z = a->z;
}

/* Scott, "A note on group membership tests for G1, G2 and GT on BLS pairing-friendly curves"
 * (ePrint 2021/1130): a point of E(Fp) is in G1 iff phi(P) = [-z^2] P. */
int g1_in_subgroup_vartime(const g1_p *a)
{
    g1_p t, p;
    if (!g1_on_curve(a))
        return 0;
    g1_mul_z_abs_vartime(&t, a);
    g1_mul_z_abs_vartime(&t, &t); /* [z^2] a */
    g1_phi(&p, a);
    g1_add_vartime(&t, &t, &p); /* phi(a) + [z^2] a must be infinity */
    return g1_is_inf(&t);
}

void g1_clear_cofactor(g1_p *r, const g1_p *a)
{
    g1_p t;
    g1_mul_z_abs_vartime(&t, a);
    g1_add_vartime(r, &t, a); /* [1 - z] a = [1 + |z|] a */
}
