/* G1 on E(Fp): y^2 = x^3 + 4. Generic arithmetic from ec_tmpl.h, plus G1 specifics. */
#include <string.h>

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

void g1_compress(uint8_t out[48], const g1_p *a)
{
    g1_a aff;
    if (g1_is_inf(a)) {
        memset(out, 0, 48);
        out[0] = 0xc0;
        return;
    }
    g1_to_affine(&aff, a);
    fp_to_bytes(out, &aff.x);
    out[0] |= 0x80;
    if (fp_is_lexicographically_largest(&aff.y))
        out[0] |= 0x20;
}

void g1_serialize(uint8_t out[96], const g1_p *a)
{
    g1_a aff;
    if (g1_is_inf(a)) {
        memset(out, 0, 96);
        out[0] = 0x40;
        return;
    }
    g1_to_affine(&aff, a);
    fp_to_bytes(out, &aff.x);
    fp_to_bytes(out + 48, &aff.y);
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

int g1_decode(g1_p *r, const uint8_t *in, size_t len, int no_subgroup_check)
{
    uint8_t buf[48];
    g1_a aff;
    int compressed;
    if (len == 48)
        compressed = 1;
    else if (len == 96)
        compressed = 0;
    else
        return BLS_DECODE_BAD_LENGTH;
    if (((in[0] & 0x80) != 0) != compressed)
        return BLS_DECODE_BAD_FLAGS;
    if (in[0] & 0x40) {
        if (in[0] & 0x20)
            return BLS_DECODE_BAD_FLAGS;
        if ((in[0] & 0x1f) != 0 || !all_zero(in + 1, len - 1))
            return BLS_DECODE_BAD_INFINITY;
        g1_set_inf(r);
        return BLS_DECODE_OK;
    }
    if (!compressed && (in[0] & 0x20))
        return BLS_DECODE_BAD_FLAGS;
    memcpy(buf, in, 48);
    buf[0] &= 0x1f;
    if (!fp_from_bytes(&aff.x, buf))
        return BLS_DECODE_NOT_CANONICAL;
    if (compressed) {
        fp y2;
        fp_sqr(&y2, &aff.x);
        fp_mul(&y2, &y2, &aff.x);
        fp_add(&y2, &y2, &BLS_G1_B);
        if (!fp_sqrt(&aff.y, &y2))
            return BLS_DECODE_NOT_ON_CURVE;
        if (fp_is_lexicographically_largest(&aff.y) != ((in[0] & 0x20) != 0))
            fp_neg(&aff.y, &aff.y);
    } else {
        if (!fp_from_bytes(&aff.y, in + 48))
            return BLS_DECODE_NOT_CANONICAL;
        if (!g1_affine_on_curve(&aff))
            return BLS_DECODE_NOT_ON_CURVE;
    }
    g1_from_affine(r, &aff);
    if (!no_subgroup_check && !g1_in_subgroup_vartime(r))
        return BLS_DECODE_NOT_IN_SUBGROUP;
    return BLS_DECODE_OK;
}
