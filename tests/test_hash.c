/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Hash layer tests: FIPS/NIST example vectors, comparison with OpenSSL libcrypto on random
 * inputs of lengths 0..2000 split at random points, SHAKE squeezes of random lengths, HMAC,
 * MGF1, and the batch interfaces against one-at-a-time calls.
 */
#if GROVE_TEST_HAVE_OPENSSL /* not in the cross builds of tests/port (no target OpenSSL) */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "common/util.h"
#include "hash/arm_kernels.h"
#include "hash/dispatch.h"
#include "hash/keccak_simd.h"
#include "hash/sha2_simd.h"
#include "hash/keccak.h"
#include "hash/sha2.h"
#include "test.h"

static void hexcheck(const uint8_t *got, size_t len, const char *want_hex, const char *what)
{
    uint8_t want[256];
    test_checks++;
    if (!test_unhex_into(want, len, want_hex) || memcmp(got, want, len) != 0)
        test_fail(__FILE__, __LINE__, what);
}

static void known_answers(void)
{
    uint8_t d[64];
    const uint8_t *abc = (const uint8_t *)"abc";
    const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

    grove_sha256(d, abc, 3);
    hexcheck(d, 32, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sha256 abc");
    grove_sha256(d, NULL, 0);
    hexcheck(d, 32, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "sha256 empty");
    grove_sha256(d, (const uint8_t *)two_blocks, strlen(two_blocks));
    hexcheck(d, 32, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "sha256 448 bits");
    grove_sha224(d, abc, 3);
    hexcheck(d, 28, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7", "sha224 abc");
    grove_sha512(d, abc, 3);
    hexcheck(d, 64,
             "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
             "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
             "sha512 abc");
    grove_sha384(d, abc, 3);
    hexcheck(d, 48,
             "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
             "8086072ba1e7cc2358baeca134c825a7",
             "sha384 abc");
    grove_sha3_256(d, abc, 3);
    hexcheck(d, 32, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532", "sha3-256 abc");
    grove_sha3_512(d, abc, 3);
    hexcheck(d, 64,
             "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
             "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
             "sha3-512 abc");
    grove_shake128(d, 32, NULL, 0);
    hexcheck(d, 32, "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26", "shake128 empty");
    grove_shake256(d, 64, NULL, 0);
    hexcheck(d, 64,
             "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
             "d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be",
             "shake256 empty");
    /* RFC 4231 test case 2 */
    grove_hmac_sha256(d, (const uint8_t *)"Jefe", 4,
                      (const uint8_t *)"what do ya want for nothing?", 28);
    hexcheck(d, 32, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", "hmac256");
    grove_hmac_sha512(d, (const uint8_t *)"Jefe", 4,
                      (const uint8_t *)"what do ya want for nothing?", 28);
    hexcheck(d, 64,
             "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
             "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
             "hmac512");
}

#if GROVE_TEST_HAVE_OPENSSL
static void openssl_digest(const EVP_MD *md, const uint8_t *in, size_t len, uint8_t *out,
                           size_t outlen)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    unsigned olen = 0;
    EVP_DigestInit_ex(c, md, NULL);
    EVP_DigestUpdate(c, in, len);
    if (EVP_MD_flags(md) & EVP_MD_FLAG_XOF)
        EVP_DigestFinalXOF(c, out, outlen);
    else
        EVP_DigestFinal_ex(c, out, &olen);
    EVP_MD_CTX_free(c);
}

static void random_vs_openssl(void)
{
    uint64_t rng = 1;
    uint8_t *msg = malloc(2001), got[512], want[512];
    for (size_t len = 0; len <= 2000; len += (len < 300 ? 1 : 7)) {
        test_rand_bytes(&rng, msg, len);
        size_t split = len ? (size_t)(test_rand_u64(&rng) % (len + 1)) : 0;
        size_t split2 = split + (len - split ? (size_t)(test_rand_u64(&rng) % (len - split + 1)) : 0);

        grove_sha256_ctx c256;
        grove_sha256_init(&c256);
        grove_sha256_update(&c256, msg, split);
        grove_sha256_update(&c256, msg + split, split2 - split);
        grove_sha256_update(&c256, msg + split2, len - split2);
        grove_sha256_final(&c256, got, 32);
        openssl_digest(EVP_sha256(), msg, len, want, 32);
        CHECK_MEM(got, want, 32);

        grove_sha224(got, msg, len);
        openssl_digest(EVP_sha224(), msg, len, want, 28);
        CHECK_MEM(got, want, 28);

        grove_sha512_ctx c512;
        grove_sha512_init(&c512);
        grove_sha512_update(&c512, msg, split);
        grove_sha512_update(&c512, msg + split, split2 - split);
        grove_sha512_update(&c512, msg + split2, len - split2);
        grove_sha512_final(&c512, got, 64);
        openssl_digest(EVP_sha512(), msg, len, want, 64);
        CHECK_MEM(got, want, 64);

        grove_sha384(got, msg, len);
        openssl_digest(EVP_sha384(), msg, len, want, 48);
        CHECK_MEM(got, want, 48);

        grove_sha3_256(got, msg, len);
        openssl_digest(EVP_sha3_256(), msg, len, want, 32);
        CHECK_MEM(got, want, 32);

        grove_sha3_512(got, msg, len);
        openssl_digest(EVP_sha3_512(), msg, len, want, 64);
        CHECK_MEM(got, want, 64);

        /* SHAKE: split absorb, squeeze a random total in random pieces. */
        size_t outlen = (size_t)(test_rand_u64(&rng) % 500);
        for (int which = 0; which < 2; which++) {
            grove_keccak_ctx k;
            if (which == 0)
                grove_shake128_init(&k);
            else
                grove_shake256_init(&k);
            grove_keccak_absorb(&k, msg, split);
            grove_keccak_absorb(&k, msg + split, len - split);
            size_t done = 0;
            while (done < outlen) {
                size_t piece = 1 + (size_t)(test_rand_u64(&rng) % 200);
                if (piece > outlen - done)
                    piece = outlen - done;
                grove_keccak_squeeze(&k, got + done, piece);
                done += piece;
            }
            openssl_digest(which == 0 ? EVP_shake128() : EVP_shake256(), msg, len, want, outlen);
            CHECK_MEM(got, want, outlen);
        }

        /* HMAC with keys around the block sizes. */
        size_t keylen = (size_t)(test_rand_u64(&rng) % 200);
        uint8_t key[200];
        test_rand_bytes(&rng, key, keylen);
        unsigned hl = 0;
        grove_hmac_sha256(got, key, keylen, msg, len);
        HMAC(EVP_sha256(), key, (int)keylen, msg, len, want, &hl);
        CHECK_MEM(got, want, 32);
        grove_hmac_sha512(got, key, keylen, msg, len);
        HMAC(EVP_sha512(), key, (int)keylen, msg, len, want, &hl);
        CHECK_MEM(got, want, 64);
    }
    free(msg);
}

static void mgf1_check(void)
{
    /* MGF1 defined from the digest: compare with concatenated OpenSSL digests. */
    uint8_t seed[70], got[300], want[320], buf[74];
    uint64_t rng = 7;
    test_rand_bytes(&rng, seed, sizeof seed);
    grove_mgf1_sha256(got, 300, seed, sizeof seed);
    grove_mgf1_sha512(got + 0, 0, seed, sizeof seed); /* zero length writes nothing */
    for (uint32_t i = 0; i < 10; i++) {
        memcpy(buf, seed, 70);
        buf[70] = (uint8_t)(i >> 24), buf[71] = (uint8_t)(i >> 16), buf[72] = (uint8_t)(i >> 8),
        buf[73] = (uint8_t)i;
        openssl_digest(EVP_sha256(), buf, 74, want + 32 * i, 32);
    }
    CHECK_MEM(got, want, 300);
    grove_mgf1_sha512(got, 200, seed, sizeof seed);
    for (uint32_t i = 0; i < 4; i++) {
        memcpy(buf, seed, 70);
        buf[70] = 0, buf[71] = 0, buf[72] = 0, buf[73] = (uint8_t)i;
        openssl_digest(EVP_sha512(), buf, 74, want + 64 * i, 64);
    }
    CHECK_MEM(got, want, 200);
}

#endif

static void batches(void)
{
    enum { MAX = 37 };
    uint64_t rng = 99;
    uint8_t in[MAX][300], out[MAX][64], one[64];
    const uint8_t *inp[MAX];
    uint8_t *outp[MAX];
    for (int i = 0; i < MAX; i++) {
        inp[i] = in[i];
        outp[i] = out[i];
    }
    uint8_t pre[200];
    test_rand_bytes(&rng, pre, sizeof pre);
    /* Block-aligned prefixes and lengths at the one-block boundaries hit the fast paths. */
    static const size_t edge_in[] = {0, 1, 54, 55, 56, 63, 64, 110, 111, 112, 135, 136, 167, 168};
    static const size_t edge_pre[] = {0, 64, 128, 192};
    for (size_t t = 0; t < 60 + 14 * 4; t++) {
        size_t count = t < 60 ? (t < 38 ? t : 1 + (t * 7) % MAX) : 1 + t % 9;
        size_t inlen = t < 60 ? (size_t)(test_rand_u64(&rng) % 300) : edge_in[(t - 60) % 14];
        size_t prelen = t < 60 ? (size_t)(test_rand_u64(&rng) % 200) : edge_pre[(t - 60) / 14];
        for (size_t i = 0; i < count; i++)
            test_rand_bytes(&rng, in[i], inlen);

        grove_sha256_ctx p256;
        grove_sha256_init(&p256);
        grove_sha256_update(&p256, pre, prelen);
        grove_sha256_many(outp, 32, &p256, inp, inlen, count);
        for (size_t i = 0; i < count; i++) {
            grove_sha256_ctx c = p256;
            grove_sha256_update(&c, in[i], inlen);
            grove_sha256_final(&c, one, 32);
            CHECK_MEM(out[i], one, 32);
        }
        grove_sha256_many(outp, 16, NULL, inp, inlen, count);
        for (size_t i = 0; i < count; i++) {
            grove_sha256(one, in[i], inlen);
            CHECK_MEM(out[i], one, 16);
        }

        grove_sha512_ctx p512;
        grove_sha512_init(&p512);
        grove_sha512_update(&p512, pre, prelen);
        grove_sha512_many(outp, 64, &p512, inp, inlen, count);
        for (size_t i = 0; i < count; i++) {
            grove_sha512_ctx c = p512;
            grove_sha512_update(&c, in[i], inlen);
            grove_sha512_final(&c, one, 64);
            CHECK_MEM(out[i], one, 64);
        }

        size_t olen = 1 + (size_t)(test_rand_u64(&rng) % 64);
        grove_shake256_many(outp, olen, inp, inlen, count);
        for (size_t i = 0; i < count; i++) {
            grove_shake256(one, olen, in[i], inlen);
            CHECK_MEM(out[i], one, olen);
        }
        grove_shake128_many(outp, olen, inp, inlen, count);
        for (size_t i = 0; i < count; i++) {
            grove_shake128(one, olen, in[i], inlen);
            CHECK_MEM(out[i], one, olen);
        }

        uint64_t st[MAX][25], ref[25];
        for (size_t i = 0; i < count; i++)
            for (int j = 0; j < 25; j++)
                st[i][j] = test_rand_u64(&rng);
        uint64_t copy[MAX][25];
        memcpy(copy, st, sizeof st);
        grove_keccakf1600_many(st, count);
        for (size_t i = 0; i < count; i++) {
            memcpy(ref, copy[i], sizeof ref);
            grove_keccakf1600_portable(ref);
            CHECK_MEM(st[i], ref, sizeof ref);
        }
    }
}

/* The selected kernels agree with the portable ones on random blocks. */
static void kernels_vs_portable(void)
{
    uint64_t rng = 5;
    uint8_t blocks[128 * 5];
    for (int t = 0; t < 50; t++) {
        test_rand_bytes(&rng, blocks, sizeof blocks);
        uint32_t a[8], b[8];
        uint64_t c[8], d[8], e[25], f[25];
        for (int i = 0; i < 8; i++) {
            a[i] = b[i] = (uint32_t)test_rand_u64(&rng);
            c[i] = d[i] = test_rand_u64(&rng);
        }
        for (int i = 0; i < 25; i++)
            e[i] = f[i] = test_rand_u64(&rng);
        size_t nb = 1 + (size_t)t % 5;
        grove_sha256_compress(a, blocks, nb);
        grove_sha256_compress_portable(b, blocks, nb);
        CHECK_MEM(a, b, sizeof a);
        grove_sha512_compress(c, blocks, nb);
        grove_sha512_compress_portable(d, blocks, nb);
        CHECK_MEM(c, d, sizeof c);
        grove_keccakf1600(e);
        grove_keccakf1600_portable(f);
        CHECK_MEM(e, f, sizeof e);
    }
    printf("hash kernels: %s\n", grove_hash_kernels()->name);
}

/* grove_shake256_chains against a step-by-step recomputation with single SHAKE256 calls. */
static void chains(void)
{
    uint64_t rng = 77;
    static const size_t heads[] = {48, 56, 64};
    static const size_t ns[] = {16, 24, 32};
    for (int cfg = 0; cfg < 3; cfg++) {
        size_t head = heads[cfg], n = ns[cfg], ctr = head - 4;
        for (size_t count = 1; count <= 40; count += (count < 10 ? 1 : 13)) {
            uint8_t buf[40][96], ref[40][96], cap[40], capout[40][32], want_cap[40][32];
            uint8_t *lanes[40], *co[40];
            unsigned steps = 1 + (unsigned)(test_rand_u64(&rng) % 15);
            uint32_t start = (uint32_t)(test_rand_u64(&rng) % 3);
            for (size_t i = 0; i < count; i++) {
                test_rand_bytes(&rng, buf[i], head + n);
                memcpy(ref[i], buf[i], head + n);
                lanes[i] = buf[i];
                co[i] = capout[i];
                cap[i] = (uint8_t)(start + test_rand_u64(&rng) % (steps + 2));
                memset(capout[i], 0, 32);
                memset(want_cap[i], 0, 32);
            }
            grove_shake256_chains(lanes, head, n, ctr, start, steps, count, cap, co);
            for (size_t i = 0; i < count; i++) {
                for (unsigned st = 0; st <= steps; st++) {
                    if (cap[i] == start + st)
                        memcpy(want_cap[i], ref[i] + head, n);
                    if (st == steps)
                        break;
                    uint8_t o[32];
                    ref[i][ctr] = (uint8_t)((start + st) >> 24);
                    ref[i][ctr + 1] = (uint8_t)((start + st) >> 16);
                    ref[i][ctr + 2] = (uint8_t)((start + st) >> 8);
                    ref[i][ctr + 3] = (uint8_t)(start + st);
                    grove_shake256(o, n, ref[i], head + n);
                    memcpy(ref[i] + head, o, n);
                }
                CHECK_MEM(buf[i] + head, ref[i] + head, n);
                CHECK_MEM(capout[i], want_cap[i], 32);
            }
        }
    }
}

/* grove_sha256_chains against single SHA-256 calls (SPHINCS+ layouts and odd offsets). */
static void sha256_chains(void)
{
    uint64_t rng = 78;
    static const size_t heads[] = {22, 22, 22, 20, 17};
    static const size_t ns[] = {16, 24, 32, 16, 12};
    static const size_t ctrs[] = {18, 18, 18, 16, 9};
    uint8_t pre[64];
    test_rand_bytes(&rng, pre, sizeof pre);
    grove_sha256_ctx seeded;
    grove_sha256_init(&seeded);
    grove_sha256_update(&seeded, pre, 64);
    for (int cfg = 0; cfg < 5; cfg++) {
        size_t head = heads[cfg], n = ns[cfg], ctr = ctrs[cfg];
        for (size_t count = 1; count <= 40; count += (count < 18 ? 1 : 11)) {
            uint8_t buf[40][64], ref[40][64], cap[40], capout[40][32], want[40][32];
            uint8_t *lanes[40], *co[40];
            unsigned steps = 1 + (unsigned)(test_rand_u64(&rng) % 15);
            uint32_t start = (uint32_t)(test_rand_u64(&rng) % 300);
            for (size_t i = 0; i < count; i++) {
                test_rand_bytes(&rng, buf[i], head + n);
                memcpy(ref[i], buf[i], head + n);
                lanes[i] = buf[i];
                co[i] = capout[i];
                cap[i] = (uint8_t)(start + test_rand_u64(&rng) % (steps + 2));
                memset(capout[i], 0, 32);
                memset(want[i], 0, 32);
            }
            grove_sha256_chains(lanes, head, n, ctr, start, steps, count, cap, co,
                                cfg == 4 ? NULL : &seeded);
            for (size_t i = 0; i < count; i++) {
                for (unsigned st = 0; st <= steps; st++) {
                    if (cap[i] == (uint8_t)(start + st) && start + st < 256)
                        memcpy(want[i], ref[i] + head, n);
                    if (st == steps)
                        break;
                    uint32_t v = start + st;
                    ref[i][ctr] = (uint8_t)(v >> 24);
                    ref[i][ctr + 1] = (uint8_t)(v >> 16);
                    ref[i][ctr + 2] = (uint8_t)(v >> 8);
                    ref[i][ctr + 3] = (uint8_t)v;
                    grove_sha256_ctx c;
                    if (cfg == 4)
                        grove_sha256_init(&c);
                    else
                        c = seeded;
                    uint8_t o[32];
                    grove_sha256_update(&c, ref[i], head + n);
                    grove_sha256_final(&c, o, 32);
                    memcpy(ref[i] + head, o, n);
                }
                CHECK_MEM(buf[i] + head, ref[i] + head, n);
                if (start < 200)
                    CHECK_MEM(capout[i], want[i], 32);
            }
        }
    }
}

#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
/* Every SIMD / SHA-NI kernel the machine can run, directly, against the portable kernels:
 * every lane, full and partial groups, single and multi-block messages. */
static void simd_kernels(void)
{
    uint32_t f = grove_cpu_features_raw();
    int avx2 = (f & GROVE_CPU_AVX2) != 0;
    int shani = (f & GROVE_CPU_SHANI) != 0;
    int avx512 = (f & (GROVE_CPU_AVX512F | GROVE_CPU_AVX512VL | GROVE_CPU_AVX512BW)) ==
                 (GROVE_CPU_AVX512F | GROVE_CPU_AVX512VL | GROVE_CPU_AVX512BW);
    uint64_t rng = 4242;
    int ran = 0;
    /* Keccak-f[1600] x4 / x8 */
    for (int t = 0; t < 20; t++) {
        uint64_t st[25 * 8], ref[8][25];
        test_rand_bytes(&rng, (uint8_t *)st, sizeof st);
        for (int j = 0; j < 8; j++)
            for (int l = 0; l < 25; l++)
                ref[j][l] = st[8 * l + j];
        if (avx512) {
            uint64_t w[25 * 8];
            memcpy(w, st, sizeof w);
            grove_keccakf1600_x8_avx512(w);
            for (int j = 0; j < 8; j++) {
                uint64_t r[25];
                memcpy(r, ref[j], sizeof r);
                grove_keccakf1600_portable(r);
                for (int l = 0; l < 25; l++)
                    CHECK(w[8 * l + j] == r[l]);
            }
            ran++;
        }
        if (avx2) {
            uint64_t w[25 * 4];
            for (int l = 0; l < 25; l++)
                for (int j = 0; j < 4; j++)
                    w[4 * l + j] = ref[j][l];
            grove_keccakf1600_x4_avx2(w);
            for (int j = 0; j < 4; j++) {
                uint64_t r[25];
                memcpy(r, ref[j], sizeof r);
                grove_keccakf1600_portable(r);
                for (int l = 0; l < 25; l++)
                    CHECK(w[4 * l + j] == r[l]);
            }
            ran++;
        }
    }
    /* SHA-256 / SHA-512 block kernels */
    for (int t = 0; t < 20; t++) {
        uint8_t blocks[16 * 128];
        uint32_t s256[8 * 16], r256[8];
        uint64_t s512[8 * 8], r512[8];
        test_rand_bytes(&rng, blocks, sizeof blocks);
        test_rand_bytes(&rng, (uint8_t *)s256, sizeof s256);
        test_rand_bytes(&rng, (uint8_t *)s512, sizeof s512);
        if (f & GROVE_CPU_SHANI) {
            uint32_t a[8], b[8];
            memcpy(a, s256, 32);
            memcpy(b, s256, 32);
            grove_sha256_compress_shani(a, blocks, 1 + (size_t)t % 3);
            grove_sha256_compress_portable(b, blocks, 1 + (size_t)t % 3);
            CHECK_MEM(a, b, 32);
            ran++;
        }
        if (shani) { /* 1 .. 4 independent states, one block each, interleaved */
            size_t cnt = 1 + (size_t)t % 4;
            uint32_t sx[4][8], rx[4][8];
            uint32_t *sp[4] = {sx[0], sx[1], sx[2], sx[3]};
            const uint8_t *bp[4] = {blocks + 64 * 3, blocks, blocks + 64 * 9, blocks + 64 * 5};
            memcpy(sx, s256, sizeof sx);
            memcpy(rx, s256, sizeof rx);
            grove_sha256_blocks_x4_shani(sp, bp, cnt);
            for (size_t j = 0; j < 4; j++) {
                if (j < cnt)
                    grove_sha256_compress_portable(rx[j], bp[j], 1);
                CHECK_MEM(sx[j], rx[j], 32); /* states past count untouched */
            }
            ran++;
        }
        for (int wv = 0; wv < 2; wv++) {
            size_t w256 = wv ? 16 : 8, w512 = wv ? 8 : 4;
            if ((wv && !avx512) || (!wv && !avx2))
                continue;
            uint32_t st[8 * 16];
            uint64_t st5[8 * 8];
            for (size_t j = 0; j < w256; j++)
                for (int i = 0; i < 8; i++)
                    st[w256 * (size_t)i + j] = s256[8 * j + (size_t)i];
            for (size_t j = 0; j < w512; j++)
                for (int i = 0; i < 8; i++)
                    st5[w512 * (size_t)i + j] = s512[8 * j + (size_t)i];
            if (wv) {
                grove_sha256_x16_avx512(st, blocks);
                grove_sha512_x8_avx512(st5, blocks);
            } else {
                grove_sha256_x8_avx2(st, blocks);
                grove_sha512_x4_avx2(st5, blocks);
            }
            for (size_t j = 0; j < w256; j++) {
                memcpy(r256, s256 + 8 * j, 32);
                grove_sha256_compress_portable(r256, blocks + 64 * j, 1);
                for (int i = 0; i < 8; i++)
                    CHECK(st[w256 * (size_t)i + j] == r256[i]);
            }
            for (size_t j = 0; j < w512; j++) {
                memcpy(r512, s512 + 8 * j, 64);
                grove_sha512_compress_portable(r512, blocks + 128 * j, 1);
                for (int i = 0; i < 8; i++)
                    CHECK(st5[w512 * (size_t)i + j] == r512[i]);
            }
            ran++;
        }
    }
    /* whole-message kernels: every lane count, lengths around block boundaries, prefixes */
    static const size_t lens[] = {4, 8, 38, 55, 56, 63, 64, 70, 111, 112, 119, 128, 135, 136,
                                  200, 300, 2166};
    uint8_t *in = malloc(16 * 2200);
    const uint8_t *ip[16];
    uint8_t out[16][64], ref[64], *op[16];
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t len = lens[li];
        test_rand_bytes(&rng, in, 16 * 2200);
        for (int j = 0; j < 16; j++) {
            ip[j] = in + 2200 * (size_t)j + (size_t)j; /* unaligned, scattered */
            op[j] = out[j];
        }
        for (size_t lanes = 1; lanes <= 16; lanes++) {
            grove_sha256_ctx pre;
            grove_sha256_init(&pre);
            grove_sha256_update(&pre, in + 50, 64);
            grove_sha512_ctx pre5;
            grove_sha512_init(&pre5);
            grove_sha512_update(&pre5, in + 70, 128);
            if (avx512) {
                CHECK(grove_sha256_many_x16_avx512(op, 32, pre.s, 64, ip, len, lanes) == 1);
                for (size_t j = 0; j < lanes; j++) {
                    grove_sha256_ctx c = pre;
                    grove_sha256_update(&c, ip[j], len);
                    grove_sha256_final(&c, ref, 32);
                    CHECK_MEM(out[j], ref, 32);
                }
                if (lanes <= 8 && len < 8) {
                    /* too short for the 64-bit gathers: refuses, the caller falls back */
                    CHECK(grove_sha512_many_x8_avx512(op, 64, pre5.s, 128, ip, len, lanes) == 0);
                } else if (lanes <= 8) {
                    CHECK(grove_sha512_many_x8_avx512(op, 64, pre5.s, 128, ip, len, lanes) == 1);
                    for (size_t j = 0; j < lanes; j++) {
                        grove_sha512_ctx c = pre5;
                        grove_sha512_update(&c, ip[j], len);
                        grove_sha512_final(&c, ref, 64);
                        CHECK_MEM(out[j], ref, 64);
                    }
                }
                if (lanes <= 8) {
                    grove_shake_x8_avx512(GROVE_SHAKE256_RATE, op, 64, ip, len, lanes);
                    for (size_t j = 0; j < lanes; j++) {
                        grove_shake256(ref, 64, ip[j], len);
                        CHECK_MEM(out[j], ref, 64);
                    }
                    grove_shake_x8_avx512(GROVE_SHAKE128_RATE, op, 40, ip, len, lanes);
                    for (size_t j = 0; j < lanes; j++) {
                        grove_shake128(ref, 40, ip[j], len);
                        CHECK_MEM(out[j], ref, 40);
                    }
                }
                ran++;
            }
            if (avx2 && lanes <= 8) {
                size_t ol = 17 + (len + lanes) % 16; /* digests cut at any byte */
                memset(out, 0xA5, sizeof out);
                CHECK(grove_sha256_many_x8_avx2(op, ol, pre.s, 64, ip, len, lanes) == 1);
                for (size_t j = 0; j < lanes; j++) {
                    grove_sha256_ctx c = pre;
                    grove_sha256_update(&c, ip[j], len);
                    grove_sha256_final(&c, ref, 32);
                    CHECK_MEM(out[j], ref, ol);
                    CHECK(out[j][ol] == 0xA5); /* nothing written past outlen */
                }
                ran++;
            }
            if (avx2 && lanes <= 4) {
                if (len < 8) {
                    CHECK(grove_sha512_many_x4_avx2(op, 64, pre5.s, 128, ip, len, lanes) == 0);
                } else {
                    size_t ol = 33 + (len + lanes) % 31;
                    memset(out, 0xA5, sizeof out);
                    CHECK(grove_sha512_many_x4_avx2(op, ol, pre5.s, 128, ip, len, lanes) == 1);
                    for (size_t j = 0; j < lanes; j++) {
                        grove_sha512_ctx c = pre5;
                        grove_sha512_update(&c, ip[j], len);
                        grove_sha512_final(&c, ref, 64);
                        CHECK_MEM(out[j], ref, ol);
                        CHECK(out[j][ol] == 0xA5);
                    }
                }
                grove_shake_x4_avx2(GROVE_SHAKE256_RATE, op, 33, ip, len, lanes);
                for (size_t j = 0; j < lanes; j++) {
                    grove_shake256(ref, 33, ip[j], len);
                    CHECK_MEM(out[j], ref, 33);
                }
                ran++;
            }
        }
    }
    free(in);
    printf("SIMD kernels checked directly: %d groups (cpu features %#x)\n", ran, f);
}
#else
/* AArch64 (or no SIMD kernels): tests/port/arm_kernels_check.h. */
#include "port/arm_kernels_check.h"
#endif

/* One lane's chain step by step with single hashes (SHA-256 after `seeded`, or SHAKE256 if
 * seeded is NULL and shake is set): the reference for the chain kernels. */
static void chain_reference(uint8_t *buf, size_t head, size_t n, size_t ctr, uint32_t start,
                            unsigned steps, uint8_t cap, uint8_t *want_cap, int shake,
                            const grove_sha256_ctx *seeded)
{
    for (unsigned st = 0; st <= steps; st++) {
        if (cap == start + st)
            memcpy(want_cap, buf + head, n);
        if (st == steps)
            break;
        uint32_t v = start + st;
        buf[ctr] = (uint8_t)(v >> 24);
        buf[ctr + 1] = (uint8_t)(v >> 16);
        buf[ctr + 2] = (uint8_t)(v >> 8);
        buf[ctr + 3] = (uint8_t)v;
        uint8_t o[32];
        if (shake) {
            grove_shake256(o, n, buf, head + n);
        } else {
            grove_sha256_ctx c;
            if (seeded)
                c = *seeded;
            else
                grove_sha256_init(&c);
            grove_sha256_update(&c, buf, head + n);
            grove_sha256_final(&c, o, 32);
        }
        memcpy(buf + head, o, n);
    }
}

typedef void (*sha256_chains_fn)(uint8_t *const[], size_t, size_t, size_t, uint32_t, unsigned,
                                 size_t, const uint8_t *, uint8_t *const[], const uint32_t[8],
                                 uint64_t, const uint8_t *);
typedef void (*shake_chains_fn)(uint8_t *const[], size_t, size_t, size_t, uint32_t, unsigned,
                                size_t, const uint8_t *, uint8_t *const[], const uint8_t *);

/*
 * The chain kernels the machine can run, called directly, against chain_reference: every lane
 * count 1..W, unaligned lanes, the SPHINCS+ layouts and odd ones (value at any byte, counter
 * across a word boundary for SHA-256, at any byte of its word for SHAKE), counters crossing a
 * byte boundary (255 -> 256), captures on the way.
 */
static void simd_chains(void)
{
    uint32_t f = grove_cpu_features_raw();
#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
    int avx2 = (f & GROVE_CPU_AVX2) != 0;
    int shani = (f & GROVE_CPU_SHANI) != 0;
    int avx512 = (f & (GROVE_CPU_AVX512F | GROVE_CPU_AVX512VL | GROVE_CPU_AVX512BW)) ==
                 (GROVE_CPU_AVX512F | GROVE_CPU_AVX512VL | GROVE_CPU_AVX512BW);
#endif
    struct {
        int shake;
        size_t w;
        sha256_chains_fn sha;
        shake_chains_fn shk;
        int ok;
    } kern[] = {
#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
        {0, 8, grove_sha256_chains_x8_avx2, NULL, avx2},
        {0, 16, grove_sha256_chains_x16_avx512, NULL, avx512},
        {0, 4, grove_sha256_chains_x4_shani, NULL, shani},
        {1, 4, NULL, grove_shake256_chains_x4_avx2, avx2},
        {1, 8, NULL, grove_shake256_chains_x8_avx512, avx512},
#endif
#if GROVE_HAVE_ARM_TARGETS
        {1, 2, NULL, grove_shake256_chains_x2_neon, (f & GROVE_CPU_NEON) != 0},
        {1, 2, NULL, grove_shake256_chains_x2_neon_sha3,
         (f & (GROVE_CPU_NEON | GROVE_CPU_ARM_SHA3)) == (GROVE_CPU_NEON | GROVE_CPU_ARM_SHA3)},
#endif
        {0, 0, NULL, NULL, 0}, /* keeps the table non-empty on every target */
    };
    (void)f;
    /* head, counter offset, n */
    static const size_t sha_lay[][3] = {{22, 18, 16}, {22, 18, 24}, {22, 18, 32}, {20, 16, 16},
                                        {17, 9, 12},  {13, 6, 20},  {30, 26, 24}};
    static const size_t shk_lay[][3] = {{48, 44, 16}, {56, 52, 24}, {64, 60, 32},
                                        {48, 41, 16}, {24, 18, 24}, {96, 4, 32}};
    static const uint32_t starts[] = {0, 1, 250, 0xFFFFFF, 0x12345678};
    uint64_t rng = 1919;
    uint8_t pre[64];
    test_rand_bytes(&rng, pre, sizeof pre);
    grove_sha256_ctx seeded;
    grove_sha256_init(&seeded);
    grove_sha256_update(&seeded, pre, 64);
    grove_sha256_ctx fresh;
    grove_sha256_init(&fresh);
    int ran = 0;
    for (size_t ki = 0; ki < sizeof kern / sizeof kern[0]; ki++) {
        if (!kern[ki].ok)
            continue;
        size_t nlay = kern[ki].shake ? sizeof shk_lay / sizeof shk_lay[0]
                                     : sizeof sha_lay / sizeof sha_lay[0];
        for (size_t li = 0; li < nlay; li++) {
            const size_t *lay = kern[ki].shake ? shk_lay[li] : sha_lay[li];
            size_t head = lay[0], ctr = lay[1], n = lay[2];
            for (size_t count = 1; count <= kern[ki].w; count++) {
                uint8_t mem[16 * 160], ref[16][160], cap[16], capout[16][32], want[16][32];
                uint8_t *lanes[16], *co[16];
                uint32_t start = starts[(li + count) % 5];
                unsigned steps = 1 + (unsigned)(test_rand_u64(&rng) % 15);
                for (size_t j = 0; j < count; j++) {
                    lanes[j] = mem + 160 * j + (j * 3) % 7; /* unaligned */
                    test_rand_bytes(&rng, lanes[j], head + n);
                    memcpy(ref[j], lanes[j], head + n);
                    co[j] = capout[j];
                    cap[j] = (uint8_t)(start + test_rand_u64(&rng) % (steps + 2));
                    memset(capout[j], 0, 32);
                    memset(want[j], 0, 32);
                }
                int seed = count % 2 == 0;
                if (kern[ki].shake)
                    kern[ki].shk(lanes, head, n, ctr, start, steps, count, cap, co, NULL);
                else
                    kern[ki].sha(lanes, head, n, ctr, start, steps, count, cap, co,
                                 seed ? seeded.s : fresh.s, seed ? 64 : 0, NULL);
                for (size_t j = 0; j < count; j++) {
                    chain_reference(ref[j], head, n, ctr, start, steps, cap[j], want[j],
                                    kern[ki].shake, seed ? &seeded : NULL);
                    CHECK_MEM(lanes[j], ref[j], head + n); /* value and last counter */
                    CHECK_MEM(capout[j], want[j], 32);
                }
                ran++;
            }
        }
    }
    printf("chain kernels checked directly: %d groups\n", ran);
}

/*
 * grove_sha256_chains_from / grove_shake256_chains_from (the dispatched kernels, each lane from
 * its own position to `end`) against chain_reference; 0 (nothing done) only without a fused
 * kernel (the portable ones included).
 */
static void chains_from(void)
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    uint64_t rng = 2024;
    uint8_t pre[64];
    test_rand_bytes(&rng, pre, sizeof pre);
    grove_sha256_ctx seeded;
    grove_sha256_init(&seeded);
    grove_sha256_update(&seeded, pre, 64);
    for (int shake = 0; shake < 2; shake++) {
        for (size_t count = 1; count <= 40; count += (count < 18 ? 1 : 11)) {
            size_t head = shake ? 48 : 22, n = shake ? 16 : 24, ctr = shake ? 44 : 18;
            uint8_t buf[40][96], ref[40][96], begin[40], none[32];
            uint8_t *lanes[40];
            unsigned end = 15;
            for (size_t i = 0; i < count; i++) {
                test_rand_bytes(&rng, buf[i], head + n);
                memcpy(ref[i], buf[i], head + n);
                lanes[i] = buf[i];
                begin[i] = (uint8_t)(test_rand_u64(&rng) % 17); /* 15, 16: no step */
            }
            int r = shake ? grove_shake256_chains_from(lanes, head, n, ctr, begin, end, count)
                          : grove_sha256_chains_from(lanes, head, n, ctr, begin, end, count,
                                                     &seeded);
            /* SHAKE: this is the SPHINCS+ layout, which the portable kernel takes too */
            CHECK(r == (shake ? 1
                              : (k->sha256_chains_x != NULL || k->sha256_chains_few != NULL)));
            if (!r)
                continue;
            for (size_t i = 0; i < count; i++) {
                if (begin[i] < end)
                    chain_reference(ref[i], head, n, ctr, begin[i], end - begin[i],
                                    0xFF, none, shake, &seeded);
                CHECK_MEM(buf[i], ref[i], head + n);
            }
        }
    }
}

int main(void)
{
    known_answers();
#if GROVE_TEST_HAVE_OPENSSL
    random_vs_openssl();
    mgf1_check();
#endif
    batches();
    kernels_vs_portable();
    chains();
    sha256_chains();
    simd_kernels();
    simd_chains();
    chains_from();
    return test_done();
}
