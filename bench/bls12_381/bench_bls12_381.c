/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * BLS12-381: the operations blst is compared with (hash to G1 of a 48-byte message with the
 * empty DST, hash + sign, one pairing, signature verification, subgroup checks), plus the
 * pieces of a verification, decoding, key generation, min-pk signing and the multi-scalar
 * multiplications Mithril STM's aggregate check uses (128-bit scalars).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bls12_381/ec.h"
#include "bls12_381/hash_to_curve.h"
#include "bls12_381/pairing.h"
#include "grove/bls12_381.h"

#define MSM_N 256

static struct {
    grove_bls_sk sk;
    uint8_t msg[48], sig[48], pk[96], sig_pk[96], pk_pk[48], ikm[32];
    uint8_t sig_out[96];
    grove_bls_g1 sig_pt;
    grove_bls_g2 pk_pt;
    g1_p p1;
    g2_p p2;
    g1_a a1;
    g2_a a2;
    fp12 f;
    grove_bls_g1 m1[MSM_N];
    grove_bls_g2 m2[MSM_N];
    uint8_t ks[MSM_N * 16];
    uint8_t k32[32];
    grove_bls_sk ksk;
    void *scr1, *scr2;
    fp fsq;
    volatile unsigned sink;
} B;

static int setup(void *ctx)
{
    (void)ctx;
    static int done;
    if (done)
        return 0;
    done = 1;
    for (int i = 0; i < 48; i++)
        B.msg[i] = (uint8_t)(7 * i + 1);
    for (int i = 0; i < 32; i++)
        B.ikm[i] = (uint8_t)(3 * i + 5);
    if (grove_bls_keygen(&B.sk, B.ikm, 32, NULL, 0) != GROVE_OK ||
        grove_bls_sk_to_pk(GROVE_BLS_MIN_SIG, B.pk, &B.sk) != GROVE_OK ||
        grove_bls_sign(GROVE_BLS_MIN_SIG, B.sig, B.msg, 48, &B.sk, NULL, 0) != GROVE_OK ||
        grove_bls_sk_to_pk(GROVE_BLS_MIN_PK, B.pk_pk, &B.sk) != GROVE_OK ||
        grove_bls_sign(GROVE_BLS_MIN_PK, B.sig_pk, B.msg, 48, &B.sk, NULL, 0) != GROVE_OK ||
        grove_bls_g1_from_bytes(&B.sig_pt, B.sig, 48, 0) != GROVE_OK ||
        grove_bls_g2_from_bytes(&B.pk_pt, B.pk, 96, 0) != GROVE_OK)
        return 1;
    memcpy(&B.p1, B.sig_pt.opaque, sizeof B.p1);
    memcpy(&B.p2, B.pk_pt.opaque, sizeof B.p2);
    fp_sqr(&B.fsq, &B.p1.x);
    g1_to_affine_vartime(&B.a1, &B.p1);
    g2_to_affine_vartime(&B.a2, &B.p2);
    bls_miller_loop(&B.f, &B.a1, &B.a2, 1);
    grove_bls_g1 g;
    grove_bls_g2 h;
    grove_bls_g1_generator(&g);
    grove_bls_g2_generator(&h);
    uint64_t x = 0x9e3779b97f4a7c15ULL; /* random-looking scalars, like Blake2b outputs */
    for (int i = 0; i < MSM_N * 16; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        B.ks[i] = (uint8_t)(x >> 24);
    }
    for (int i = 0; i < 32; i++) /* the scalar blst's driver multiplies by */
        B.k32[i] = (uint8_t)(0x91 * i + 13);
    B.k32[31] &= 0x3f;
    {
        uint8_t be[32];
        for (int i = 0; i < 32; i++)
            be[i] = B.k32[31 - i];
        if (grove_bls_sk_from_bytes(&B.ksk, be) != GROVE_OK)
            return 1;
    }
    B.scr1 = malloc(grove_bls_g1_msm_scratch_size(MSM_N, 16));
    B.scr2 = malloc(grove_bls_g2_msm_scratch_size(MSM_N, 16));
    if (B.scr1 == NULL || B.scr2 == NULL)
        return 1;
    for (int i = 0; i < MSM_N; i++) {
        if (grove_bls_g1_mul(&B.m1[i], &g, B.ks + 16 * ((i + 1) % MSM_N), 16) != GROVE_OK ||
            grove_bls_g2_mul(&B.m2[i], &h, B.ks + 16 * ((i + 1) % MSM_N), 16) != GROVE_OK)
            return 1;
    }
    return 0;
}

static int op_hash_g1(void *ctx)
{
    (void)ctx;
    g1_p r;
    bls_hash_to_g1(&r, B.msg, 48, NULL, 0);
    B.sink += (unsigned)r.x.l[0];
    return 0;
}

static int op_hash_g2(void *ctx)
{
    (void)ctx;
    g2_p r;
    bls_hash_to_g2(&r, B.msg, 48, NULL, 0);
    B.sink += (unsigned)r.x.c0.l[0];
    return 0;
}

static int op_sign(void *ctx)
{
    (void)ctx;
    return grove_bls_sign(GROVE_BLS_MIN_SIG, B.sig_out, B.msg, 48, &B.sk, NULL, 0);
}

static int op_sign_min_pk(void *ctx)
{
    (void)ctx;
    return grove_bls_sign(GROVE_BLS_MIN_PK, B.sig_out, B.msg, 48, &B.sk, NULL, 0);
}

static int op_pairing(void *ctx)
{
    (void)ctx;
    fp12 r;
    bls_pairing(&r, &B.a1, &B.a2, 1);
    B.sink += (unsigned)r.c0.c0.c0.l[0];
    return 0;
}

static int op_miller(void *ctx)
{
    (void)ctx;
    fp12 r;
    bls_miller_loop(&r, &B.a1, &B.a2, 1);
    B.sink += (unsigned)r.c0.c0.c0.l[0];
    return 0;
}

static int op_final_exp(void *ctx)
{
    (void)ctx;
    fp12 r;
    bls_final_exp(&r, &B.f);
    B.sink += (unsigned)r.c0.c0.c0.l[0];
    return 0;
}

/* blst's "core verify": signature group check + hash + 2-pairing product, key decoded */
static int op_core_verify(void *ctx)
{
    (void)ctx;
    if (!grove_bls_g1_in_group(&B.sig_pt))
        return 1;
    return grove_bls_verify_g1(&B.sig_pt, B.msg, 48, &B.pk_pt, NULL, 0);
}

/* everything from bytes: both points decompressed and group-checked */
static int op_verify(void *ctx)
{
    (void)ctx;
    return grove_bls_verify(GROVE_BLS_MIN_SIG, B.sig, 48, B.msg, 48, B.pk, 96, NULL, 0);
}

static int op_verify_min_pk(void *ctx)
{
    (void)ctx;
    return grove_bls_verify(GROVE_BLS_MIN_PK, B.sig_pk, 96, B.msg, 48, B.pk_pk, 48, NULL, 0);
}

static int op_g1_check(void *ctx)
{
    (void)ctx;
    return g1_in_subgroup_vartime(&B.p1) ? 0 : 1;
}

static int op_g2_check(void *ctx)
{
    (void)ctx;
    return g2_in_subgroup_vartime(&B.p2) ? 0 : 1;
}

static int op_g1_decompress(void *ctx)
{
    (void)ctx;
    grove_bls_g1 p;
    return grove_bls_g1_from_bytes(&p, B.sig, 48, 0);
}

static int op_g2_decompress(void *ctx)
{
    (void)ctx;
    grove_bls_g2 p;
    return grove_bls_g2_from_bytes(&p, B.pk, 96, 0);
}

static int op_keygen(void *ctx)
{
    (void)ctx;
    grove_bls_sk sk;
    int rc = grove_bls_keygen(&sk, B.ikm, 32, NULL, 0);
    grove_bls_sk_wipe(&sk);
    return rc;
}

static int op_sk_to_pk(void *ctx)
{
    (void)ctx;
    return grove_bls_sk_to_pk(GROVE_BLS_MIN_SIG, B.sig_out, &B.sk);
}

static int op_msm_g1(void *ctx)
{
    (void)ctx;
    grove_bls_g1 r;
    return grove_bls_g1_msm(&r, B.m1, B.ks, 16, MSM_N);
}

static int op_msm_g2(void *ctx)
{
    (void)ctx;
    grove_bls_g2 r;
    return grove_bls_g2_msm(&r, B.m2, B.ks, 16, MSM_N);
}

static int op_pairing_std(void *ctx)
{
    (void)ctx;
    grove_bls_gt r;
    return grove_bls_pairing(&r, &B.sig_pt, &B.pk_pt, 1);
}
static int op_g1_mul_ct(void *ctx)
{
    (void)ctx;
    grove_bls_g1 r;
    grove_bls_g1_mul_sk(&r, &B.sig_pt, &B.ksk);
    B.sink += (unsigned)r.opaque[0];
    return 0;
}
static int op_g2_mul_ct(void *ctx)
{
    (void)ctx;
    grove_bls_g2 r;
    grove_bls_g2_mul_sk(&r, &B.pk_pt, &B.ksk);
    B.sink += (unsigned)r.opaque[0];
    return 0;
}
/* the subgroup-only GLV / GLS multiplications signing uses (blst_p1_mult / blst_p2_mult assume
 * the subgroup too); Jacobian result, like blst's */
static int op_g1_mul_glv(void *ctx)
{
    (void)ctx;
    g1_p r;
    g1_mul_ct(&r, &B.p1, B.ksk.opaque);
    B.sink += (unsigned)r.x.l[0];
    return 0;
}
static int op_g2_mul_gls(void *ctx)
{
    (void)ctx;
    g2_p r;
    g2_mul_ct(&r, &B.p2, B.ksk.opaque);
    B.sink += (unsigned)r.x.c0.l[0];
    return 0;
}
static int op_g1_mul_vt(void *ctx)
{
    (void)ctx;
    grove_bls_g1 r;
    return grove_bls_g1_mul(&r, &B.sig_pt, B.k32, 32);
}
static int op_g2_mul_vt(void *ctx)
{
    (void)ctx;
    grove_bls_g2 r;
    return grove_bls_g2_mul(&r, &B.pk_pt, B.k32, 32);
}
static int op_fp_inv(void *ctx)
{
    (void)ctx;
    fp r;
    fp_inv(&r, &B.p1.x);
    B.sink += (unsigned)r.l[0];
    return 0;
}
static int op_fp2_inv(void *ctx)
{
    (void)ctx;
    fp2 r;
    fp2_inv(&r, &B.p2.x);
    B.sink += (unsigned)r.c0.l[0];
    return 0;
}
static int op_fp_sqrt(void *ctx)
{
    (void)ctx;
    fp r;
    int ok = fp_sqrt(&r, &B.fsq);
    B.sink += (unsigned)r.l[0];
    return ok ? 0 : 1;
}

static int op_msm_g1_scratch(void *ctx)
{
    (void)ctx;
    grove_bls_g1 r;
    return grove_bls_g1_msm_with_scratch(&r, B.m1, B.ks, 16, MSM_N, B.scr1);
}
static int op_msm_g2_scratch(void *ctx)
{
    (void)ctx;
    grove_bls_g2 r;
    return grove_bls_g2_msm_with_scratch(&r, B.m2, B.ks, 16, MSM_N, B.scr2);
}

/*
 * `bench_bls12_381 --count N SET OP`: the setup, one warm call, then N calls; prints
 * "cpu_ns_per_op <ns>" (process CPU time / N), for alternating runs against another program.
 */
static int count_mode(const bench_suite *s, const char *count, const char *set, const char *op)
{
    char *end;
    long n = strtol(count, &end, 10);
    for (size_t i = 0; i < s->ncases; i++) {
        const bench_case *c = &s->cases[i];
        double per = 0;
        if (strcmp(c->set, set) != 0 || strcmp(c->op, op) != 0)
            continue;
        if (*end != '\0' || n < 1 || n > 10000000)
            break;
        int rc = c->setup(NULL) || c->fn(NULL);
        if (rc == 0)
            rc = bench_count_calls(c->fn, NULL, n, &per);
        if (rc != 0) {
            fprintf(stderr, "bench_bls12_381: %s %s failed\n", set, op);
            return 1;
        }
        printf("cpu_ns_per_op %.0f\n", per);
        return 0;
    }
    fprintf(stderr, "usage: bench_bls12_381 --count N SET OP (sets and ops as in the JSON)\n");
    return 2;
}

int main(int argc, char **argv)
{
    bench_suite s = {.name = "bls12_381"};
#if GROVE_BLS_MULX
    /* valgrind hides ADX from cpuid but executes adcx/adox: GROVE_BLS_FORCE_MULX=1 lets
     * callgrind count the mulx field. Set it only on a CPU that has BMI2 and ADX. */
    if (getenv("GROVE_BLS_FORCE_MULX") != NULL)
        bls_fp_mulx_on = 1;
#endif
    fprintf(stderr, "bench_bls12_381: field path %s\n", bls_fp_path());
    bench_add(&s, "g1", "hash_to_g1", op_hash_g1, NULL, setup);
    bench_add(&s, "min-sig", "hash_and_sign", op_sign, NULL, setup);
    bench_add(&s, "pairing", "pairing", op_pairing, NULL, setup);
    bench_add(&s, "min-sig", "core_verify", op_core_verify, NULL, setup);
    bench_add(&s, "min-sig", "verify", op_verify, NULL, setup);
    bench_add(&s, "g1", "subgroup_check", op_g1_check, NULL, setup);
    bench_add(&s, "g2", "subgroup_check", op_g2_check, NULL, setup);
    bench_add(&s, "pairing", "miller_loop", op_miller, NULL, setup);
    bench_add(&s, "pairing", "final_exp", op_final_exp, NULL, setup);
    bench_add(&s, "g1", "decompress", op_g1_decompress, NULL, setup);
    bench_add(&s, "g2", "decompress", op_g2_decompress, NULL, setup);
    bench_add(&s, "g2", "hash_to_g2", op_hash_g2, NULL, setup);
    bench_add(&s, "keys", "keygen", op_keygen, NULL, setup);
    bench_add(&s, "min-sig", "sk_to_pk", op_sk_to_pk, NULL, setup);
    bench_add(&s, "min-pk", "hash_and_sign", op_sign_min_pk, NULL, setup);
    bench_add(&s, "min-pk", "verify", op_verify_min_pk, NULL, setup);
    bench_add(&s, "g1", "msm_256x128", op_msm_g1, NULL, setup);
    bench_add(&s, "g2", "msm_256x128", op_msm_g2, NULL, setup);
    bench_add(&s, "pairing", "pairing_standard", op_pairing_std, NULL, setup);
    bench_add(&s, "g1", "mul_ct", op_g1_mul_ct, NULL, setup);
    bench_add(&s, "g2", "mul_ct", op_g2_mul_ct, NULL, setup);
    bench_add(&s, "g1", "mul_ct_subgroup", op_g1_mul_glv, NULL, setup);
    bench_add(&s, "g2", "mul_ct_subgroup", op_g2_mul_gls, NULL, setup);
    bench_add(&s, "g1", "mul_vartime", op_g1_mul_vt, NULL, setup);
    bench_add(&s, "g2", "mul_vartime", op_g2_mul_vt, NULL, setup);
    bench_add(&s, "g1", "msm_256x128_scratch", op_msm_g1_scratch, NULL, setup);
    bench_add(&s, "g2", "msm_256x128_scratch", op_msm_g2_scratch, NULL, setup);
    bench_add(&s, "fp", "inverse", op_fp_inv, NULL, setup);
    bench_add(&s, "fp2", "inverse", op_fp2_inv, NULL, setup);
    bench_add(&s, "fp", "sqrt", op_fp_sqrt, NULL, setup);
    int rc = argc == 5 && strcmp(argv[1], "--count") == 0
                 ? count_mode(&s, argv[2], argv[3], argv[4])
                 : bench_main(&s, argc, argv);
    free(s.cases);
    return rc;
}
