/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The shared hash-based core (src/hashsig): WOTS+ sizes, digits and checksum against
 * hand-computed cases and an independent nibble implementation; both ADRS forms byte by byte;
 * the chain walk against sequential chains for every lane count and every start/stop pair;
 * SPHINCS+ chains through the hash layer's fused kernels against the step-by-step walk.
 */
#include <stdlib.h>
#include <string.h>

#include "hash/sha2.h"
#include "hashsig/adrs.h"
#include "hashsig/wots.h"
#include "sphincs/spx.h"
#include "test.h"

static void dims_case(unsigned n, unsigned lg_w, unsigned len1, unsigned len2)
{
    hs_wots_dims d;
    hs_wots_dims_init(&d, n, lg_w);
    CHECK_EQ_INT(d.w, 1u << lg_w);
    CHECK_EQ_INT(d.len1, len1);
    CHECK_EQ_INT(d.len2, len2);
    CHECK_EQ_INT(d.len, len1 + len2);
}

static void test_dims(void)
{
    dims_case(16, 4, 32, 3); /* SPHINCS+-128, DGSP */
    dims_case(24, 4, 48, 3);
    dims_case(32, 4, 64, 3); /* len 67 */
    dims_case(64, 4, 128, 3); /* XMSS SHA-512: len 131 = HS_WOTS_MAX_LEN */
    dims_case(32, 2, 128, 5); /* w = 4: 384 < 4^5 */
    dims_case(32, 8, 32, 2);  /* w = 256: 8160 < 256^2 */
    dims_case(16, 8, 16, 2);  /* 4080 */
    hs_wots_dims d;
    hs_wots_dims_init(&d, 64, 4);
    CHECK_EQ_INT(d.len, HS_WOTS_MAX_LEN);
}

static void digits_case(unsigned n, unsigned lg_w, const uint8_t *msg, const uint8_t *want,
                        const char *what)
{
    hs_wots_dims d;
    uint8_t got[300];
    hs_wots_dims_init(&d, n, lg_w);
    memset(got, 0xEE, sizeof got);
    hs_wots_digits(&d, msg, got);
    test_checks++;
    if (memcmp(got, want, d.len) != 0)
        test_fail(__FILE__, __LINE__, what);
    CHECK_EQ_INT(got[d.len], 0xEE); /* nothing written past len */
}

static void test_digits_by_hand(void)
{
    uint8_t msg[64], want[300];

    /* w = 16, n = 16, zero message: csum 32 * 15 = 480 = 0x1E0, << 4 = 0x1E00 -> 1, 14, 0 */
    memset(msg, 0, 16);
    memset(want, 0, 32);
    want[32] = 1, want[33] = 14, want[34] = 0;
    digits_case(16, 4, msg, want, "w16 zero");

    /* all 0xFF: every digit 15, checksum 0 */
    memset(msg, 0xFF, 32);
    memset(want, 15, 64);
    want[64] = want[65] = want[66] = 0;
    digits_case(32, 4, msg, want, "w16 ones");

    /* msg[i] = 0x11 i: digits i, i; csum 2 * (15 + ... + 0) = 240 = 0xF0 -> 0xF00 -> 0, 15, 0 */
    for (unsigned i = 0; i < 16; i++) {
        msg[i] = (uint8_t)(0x11 * i);
        want[2 * i] = want[2 * i + 1] = (uint8_t)i;
    }
    want[32] = 0, want[33] = 15, want[34] = 0;
    digits_case(16, 4, msg, want, "w16 ramp");

    /* 0xA5 0x3C then 0xFF: csum (15-10)+(15-5)+(15-3)+(15-12) = 30 = 0x1E -> 0x1E0 -> 0, 1, 14 */
    memset(msg, 0xFF, 16);
    msg[0] = 0xA5, msg[1] = 0x3C;
    memset(want, 15, 32);
    want[0] = 10, want[1] = 5, want[2] = 3, want[3] = 12;
    want[32] = 0, want[33] = 1, want[34] = 14;
    digits_case(16, 4, msg, want, "w16 mixed");

    /* w = 4, n = 32, zero: csum 128 * 3 = 384 = 1200 in base 4; << 6 in two bytes 0x60 0x00 */
    memset(msg, 0, 32);
    memset(want, 0, 128);
    want[128] = 1, want[129] = 2, want[130] = 0, want[131] = 0, want[132] = 0;
    digits_case(32, 2, msg, want, "w4 zero");

    /* w = 4: 0x1B = 00 01 10 11 -> 0, 1, 2, 3; the rest 0xFF (csum 3 + 2 + 1 = 6 = 00012) */
    memset(msg, 0xFF, 32);
    msg[0] = 0x1B;
    memset(want, 3, 128);
    want[0] = 0, want[1] = 1, want[2] = 2, want[3] = 3;
    want[128] = 0, want[129] = 0, want[130] = 0, want[131] = 1, want[132] = 2;
    digits_case(32, 2, msg, want, "w4 mixed");

    /* w = 256, n = 32, zero: csum 32 * 255 = 8160 = 0x1FE0 (16 bits, no shift) -> 31, 224 */
    memset(msg, 0, 32);
    memset(want, 0, 32);
    want[32] = 0x1F, want[33] = 0xE0;
    digits_case(32, 8, msg, want, "w256 zero");

    /* w = 256: 0xAB then 0xFF: csum 255 - 171 = 84 -> 0, 84 */
    memset(msg, 0xFF, 32);
    msg[0] = 0xAB;
    memcpy(want, msg, 32);
    want[32] = 0, want[33] = 84;
    digits_case(32, 8, msg, want, "w256 mixed");
}

/* An independent w = 16 implementation: nibbles, then the checksum's top three nibbles. */
static void nibbles_ref(unsigned n, const uint8_t *msg, uint8_t *digits)
{
    unsigned csum = 0;
    for (unsigned i = 0; i < 2 * n; i++) {
        digits[i] = (uint8_t)(i % 2 ? msg[i / 2] & 15 : msg[i / 2] >> 4);
        csum += 15u - digits[i];
    }
    for (unsigned j = 0; j < 3; j++)
        digits[2 * n + j] = (uint8_t)((csum >> (8 - 4 * j)) & 15);
}

static void test_digits_random(void)
{
    static const unsigned ns[] = {16, 24, 32, 64};
    uint8_t msg[64], got[HS_WOTS_MAX_LEN], want[HS_WOTS_MAX_LEN];
    srand(17);
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        hs_wots_dims d;
        hs_wots_dims_init(&d, ns[k], 4);
        for (int t = 0; t < 2000; t++) {
            for (unsigned i = 0; i < ns[k]; i++)
                msg[i] = (uint8_t)(t < 256 ? t : rand());
            hs_wots_digits(&d, msg, got);
            nibbles_ref(ns[k], msg, want);
            CHECK_MEM(got, want, d.len);
        }
    }
}

static void test_adrs(void)
{
    hs_adrs a;
    uint8_t want[32];
    static const uint8_t tree[8] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};

    /* SPHINCS+: layer | 0 | tree | type | key pair | chain | hash */
    hs_adrs_init(&a, HS_ADRS_SPHINCS);
    memset(a.b, 0xAA, 32); /* set_tree and set_type must clear what they own */
    hs_adrs_set_layer(&a, 0x01020304);
    hs_adrs_set_tree(&a, 0x1122334455667788ull);
    hs_adrs_set_type(&a, 5);
    hs_adrs_set_keypair(&a, 0x0A);
    hs_adrs_set_chain(&a, 0x0B);
    hs_adrs_set_hash(&a, 0x0C);
    memset(want, 0, 32);
    want[0] = 1, want[1] = 2, want[2] = 3, want[3] = 4;
    memcpy(want + 8, tree, 8);
    want[19] = 5, want[23] = 0x0A, want[27] = 0x0B, want[31] = 0x0C;
    CHECK_MEM(a.b, want, 32);
    hs_adrs_set_tree_height(&a, 7);
    hs_adrs_set_tree_index(&a, 0x01000000);
    want[27] = 7, want[28] = 1, want[31] = 0;
    CHECK_MEM(a.b, want, 32);
    hs_adrs_set_type(&a, 2); /* clears key pair, height, index */
    memset(want + 20, 0, 12);
    want[19] = 2;
    CHECK_MEM(a.b, want, 32);
    CHECK_EQ_INT(hs_adrs_hash_off(HS_ADRS_SPHINCS), 28);
    CHECK_EQ_INT(hs_adrs_chain_off(HS_ADRS_SPHINCS), 24);

    /* XMSS (RFC 8391 2.5): layer | tree | type | OTS | chain | hash | keyAndMask */
    hs_adrs_init(&a, HS_ADRS_XMSS);
    memset(a.b, 0xAA, 32);
    hs_adrs_set_layer(&a, 0x01020304);
    hs_adrs_set_tree(&a, 0x1122334455667788ull);
    hs_adrs_set_type(&a, 0);
    hs_adrs_set_keypair(&a, 0x0A);
    hs_adrs_set_chain(&a, 0x0B);
    hs_adrs_set_hash(&a, 0x0C);
    hs_adrs_set_key_and_mask(&a, 1);
    memset(want, 0, 32);
    want[0] = 1, want[1] = 2, want[2] = 3, want[3] = 4;
    memcpy(want + 4, tree, 8);
    want[19] = 0x0A, want[23] = 0x0B, want[27] = 0x0C, want[31] = 1;
    CHECK_MEM(a.b, want, 32);
    hs_adrs_set_type(&a, 1); /* L-tree: clears OTS .. keyAndMask */
    memset(want + 16, 0, 16);
    want[15] = 1;
    CHECK_MEM(a.b, want, 32);
    CHECK_EQ_INT(hs_adrs_hash_off(HS_ADRS_XMSS), 24);
}

/* ---- the chain walk on a toy hash ----------------------------------------------------------- */

#define TOY_N 8
#define TOY_MAX 40

typedef struct {
    uint8_t v[TOY_MAX][TOY_N];
    unsigned calls;
    int bad_batch; /* set when a step call is empty or names a lane twice */
} toy;

/* The toy step: v = SHA-256(lane || pos || v) truncated to TOY_N bytes. */
static void toy_hash(uint8_t *v, size_t lane, uint32_t pos)
{
    uint8_t in[8 + TOY_N], out[32];
    grove_store32_be(in, (uint32_t)lane);
    grove_store32_be(in + 4, pos);
    memcpy(in + 8, v, TOY_N);
    grove_sha256(out, in, sizeof in);
    memcpy(v, out, TOY_N);
}

static void toy_step(void *ctx, const uint32_t *lane, size_t count, uint32_t pos)
{
    toy *t = ctx;
    t->calls++;
    if (count == 0)
        t->bad_batch = 1;
    uint8_t seen[TOY_MAX] = {0};
    for (size_t k = 0; k < count; k++) {
        if (lane[k] >= TOY_MAX || seen[lane[k]]++)
            t->bad_batch = 1; /* a lane out of range or twice in one call */
        else
            toy_hash(t->v[lane[k]], lane[k], pos);
    }
}

static uint8_t *toy_value(void *ctx, size_t lane)
{
    return ((toy *)ctx)->v[lane];
}

static void toy_start(toy *t, size_t count)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < count; i++)
        memset(t->v[i], (int)(i + 1), TOY_N);
}

/*
 * Every lane count, random start/stop/capture per lane, against sequential chains. Trials
 * cycle through both ends given, start only (verification), stop only (signing) and neither.
 */
static void test_walk_random(void)
{
    static const hs_chain_ops ops = {toy_step, toy_value, NULL};
    const unsigned w = 16;
    srand(4242);
    for (size_t count = 1; count <= TOY_MAX; count++) {
        for (unsigned t = 0; t < 60; t++) {
            const int give_from = t % 4 < 2, give_to = t % 4 == 0 || t % 4 == 2;
            uint8_t from[TOY_MAX], to[TOY_MAX], cap[TOY_MAX];
            uint8_t got_cap[TOY_MAX][TOY_N], want_cap[TOY_MAX][TOY_N];
            uint8_t *capout[TOY_MAX];
            uint32_t idx[TOY_MAX];
            unsigned lo = w, hi = 0;
            for (size_t i = 0; i < count; i++) {
                unsigned a = (unsigned)rand() % w, b = (unsigned)rand() % w;
                from[i] = give_from ? (uint8_t)(a < b ? a : b) : 0;
                to[i] = give_to ? (uint8_t)(a < b ? b : a) : (uint8_t)(w - 1);
                cap[i] = rand() % 4 == 0 ? (uint8_t)HS_NO_CAPTURE : (uint8_t)((unsigned)rand() % w);
                capout[i] = got_cap[i];
                lo = from[i] < lo ? from[i] : lo;
                hi = to[i] > hi ? to[i] : hi;
            }
            memset(got_cap, 0x5A, sizeof got_cap);
            memset(want_cap, 0x5A, sizeof want_cap);
            toy walked, seq;
            toy_start(&walked, count);
            toy_start(&seq, count);
            hs_chains_walk(&ops, &walked, TOY_N, w, count, give_from ? from : NULL,
                           give_to ? to : NULL, cap, capout, idx);
            for (size_t i = 0; i < count; i++) {
                for (unsigned p = from[i]; p <= to[i]; p++) {
                    if (cap[i] == p)
                        memcpy(want_cap[i], seq.v[i], TOY_N);
                    if (p < to[i])
                        toy_hash(seq.v[i], i, p);
                }
            }
            CHECK_MEM(walked.v, seq.v, count * TOY_N);
            CHECK_MEM(got_cap, want_cap, count * TOY_N);
            CHECK(!walked.bad_batch);
            /* one step call per position that has a walking lane, at most hi - lo */
            CHECK(walked.calls <= hi - lo);
        }
    }
}

/* Every (start, stop) pair on one lane and on all lanes at once; NULL from/to mean 0 / w-1. */
static void test_walk_all_pairs(void)
{
    static const hs_chain_ops ops = {toy_step, toy_value, NULL};
    const unsigned w = 16;
    for (unsigned a = 0; a < w; a++) {
        for (unsigned b = a; b < w; b++) {
            for (size_t count = 1; count <= 9; count += 4) {
                uint8_t from[TOY_MAX], to[TOY_MAX];
                uint32_t idx[TOY_MAX];
                memset(from, (int)a, count);
                memset(to, (int)b, count);
                toy walked, seq;
                toy_start(&walked, count);
                toy_start(&seq, count);
                hs_chains_walk(&ops, &walked, TOY_N, w, count, a == 0 ? NULL : from,
                               b == w - 1 ? NULL : to, NULL, NULL, idx);
                for (size_t i = 0; i < count; i++)
                    for (unsigned p = a; p < b; p++)
                        toy_hash(seq.v[i], i, p);
                CHECK_MEM(walked.v, seq.v, count * TOY_N);
                CHECK_EQ_INT(walked.calls, b - a); /* all lanes in one call per position */
            }
        }
    }
}

/* ---- SPHINCS+ chains: the fused kernels against the step-by-step walk ---------------------- */

static void spx_chains_case(unsigned n, unsigned sha2, size_t count)
{
    uint8_t seed[32], sk[32];
    for (unsigned i = 0; i < 32; i++)
        seed[i] = (uint8_t)(i * 7 + n), sk[i] = (uint8_t)(i + 100);
    spx_ctx c;
    spx_ctx_init(&c, n, sha2, 0, seed, sk);
    const size_t lane_len = c.pre + n;
    uint8_t *mem = malloc(2 * count * lane_len + 4 * count * n);
    uint8_t **lp = malloc(2 * count * sizeof *lp), **cout = malloc(2 * count * sizeof *cout);
    uint8_t *cap = malloc(count), *zero = calloc(count, 1), *last = malloc(count);
    if (!mem || !lp || !cout || !cap || !zero || !last) {
        CHECK(0);
        goto out;
    }
    uint8_t *caps = mem + 2 * count * lane_len;
    memset(caps, 0, 4 * count * n);
    memset(last, 15, count);
    for (size_t i = 0; i < count; i++) {
        hs_adrs a;
        hs_adrs_init(&a, HS_ADRS_SPHINCS);
        hs_adrs_set_layer(&a, 3);
        hs_adrs_set_tree(&a, 0x123456789ull);
        hs_adrs_set_type(&a, SPX_ADRS_WOTS_HASH);
        hs_adrs_set_keypair(&a, (uint32_t)(i / 67));
        hs_adrs_set_chain(&a, (uint32_t)(i % 67));
        for (size_t k = 0; k < 2; k++) {
            uint8_t *l = mem + (2 * i + k) * lane_len;
            spx_lane_init(&c, l, &a);
            for (unsigned j = 0; j < n; j++)
                l[c.pre + j] = (uint8_t)(i * 31 + j);
            lp[k * count + i] = l;
            cout[k * count + i] = caps + (2 * i + k) * n;
        }
        cap[i] = i % 5 == 4 ? HS_NO_CAPTURE : (uint8_t)((i * 7) % 16);
    }
    /* lanes [0, count): fused (from/to NULL); [count, 2 count): stepped (explicit 0 / 15) */
    spx_chains_walk(&c, lp, count, 1, NULL, NULL, cap, cout);
    spx_chains_walk(&c, lp + count, count, 1, zero, last, cap, cout + count);
    for (size_t i = 0; i < count; i++) {
        CHECK_MEM(lp[i] + c.pre, lp[count + i] + c.pre, n);
        CHECK_MEM(cout[i], cout[count + i], n);
    }
out:
    spx_ctx_wipe(&c);
    free(mem), free(lp), free(cout), free(cap), free(zero), free(last);
}

static void test_spx_chains(void)
{
    static const unsigned ns[] = {16, 24, 32};
    for (size_t k = 0; k < 3; k++)
        for (unsigned sha2 = 0; sha2 < 2; sha2++) {
            for (size_t count = 1; count <= 20; count++)
                spx_chains_case(ns[k], sha2, count);
            spx_chains_case(ns[k], sha2, 8 * 67);
            spx_chains_case(ns[k], sha2, SPX_CHAINS_MAX + 5); /* two slices */
        }
}

int main(void)
{
    test_dims();
    test_digits_by_hand();
    test_digits_random();
    test_adrs();
    test_walk_random();
    test_walk_all_pairs();
    test_spx_chains();
    return test_done();
}
