/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The optimal ate pairing e: G1 x G2 -> GT (a subgroup of Fp12*). The Miller loop runs over
 * |z| = 0xd201000000010000 with homogeneous projective coordinates on the twist; the final
 * exponentiation bls_final_exp uses the Hayashida-Hayasaka-Teruya hard part with compressed
 * cyclotomic squarings, which computes the reduced pairing raised to the fixed power 3 (as
 * blst's blst_final_exp does: the same exponent 3 (p^4 - p^2 + 1)/r); pairing products compare
 * equal exactly when the standard ones do, so every check uses it. bls_final_exp_exact gives
 * the standard reduced pairing f^((p^12 - 1)/r), for GT values handed out (grove_bls_pairing).
 * Variable time: inputs are public.
 */
#ifndef GROVE_BLS12_381_PAIRING_H
#define GROVE_BLS12_381_PAIRING_H

#include "bls12_381/ec.h"
#include "bls12_381/fp12.h"

/* f = prod_i f_{|z|, Q_i}(P_i) (conjugated for z < 0); pairs with an infinity are skipped. */
void bls_miller_loop(fp12 *f, const g1_a *p, const g2_a *q, size_t n);
void bls_final_exp(fp12 *r, const fp12 *f);       /* f^(3 (p^12 - 1)/r) */
void bls_final_exp_exact(fp12 *r, const fp12 *f); /* f^((p^12 - 1)/r)   */
/* r = prod e(p_i, q_i). */
void bls_pairing(fp12 *r, const g1_a *p, const g2_a *q, size_t n);

#endif
