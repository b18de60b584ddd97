/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The pairing tower: Fp6 = Fp2[v] / (v^3 - xi), xi = 1 + u, and Fp12 = Fp6[w] / (w^2 - v).
 * Fp6 elements c0 + c1 v + c2 v^2, Fp12 elements c0 + c1 w. Constant time throughout except
 * for the functions named _vartime.
 */
#ifndef GROVE_BLS12_381_FP12_H
#define GROVE_BLS12_381_FP12_H

#include "bls12_381/fp2.h"

typedef struct {
    fp2 c0, c1, c2;
} fp6;

typedef struct {
    fp6 c0, c1;
} fp12;

void fp6_add(fp6 *r, const fp6 *a, const fp6 *b);
void fp6_sub(fp6 *r, const fp6 *a, const fp6 *b);
void fp6_neg(fp6 *r, const fp6 *a);
void fp6_mul(fp6 *r, const fp6 *a, const fp6 *b);
void fp6_sqr(fp6 *r, const fp6 *a);
void fp6_mul_by_v(fp6 *r, const fp6 *a);
void fp6_inv(fp6 *r, const fp6 *a);

extern const fp12 BLS_FP12_ONE;
void fp12_mul(fp12 *r, const fp12 *a, const fp12 *b);
void fp12_sqr(fp12 *r, const fp12 *a);
void fp12_conj(fp12 *r, const fp12 *a);
void fp12_inv(fp12 *r, const fp12 *a);
void fp12_inv_vartime(fp12 *r, const fp12 *a);
/* r = a^(p^k), k in 1..3. */
void fp12_frobenius(fp12 *r, const fp12 *a, int k);
/* r = a * (l0 + l1 v + l4 v w): multiplication by a sparse line value. */
void fp12_mul_by_014(fp12 *r, const fp12 *a, const fp2 *l0, const fp2 *l1, const fp2 *l4);
/* Squaring of an element of the cyclotomic subgroup (norm 1 over Fp6 and over Fp4). */
void fp12_cyclotomic_sqr(fp12 *r, const fp12 *a);
int fp12_eq(const fp12 *a, const fp12 *b);
int fp12_is_one(const fp12 *a);

#endif
