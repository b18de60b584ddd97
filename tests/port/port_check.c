/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Portability check: deterministic outputs of the libc-only schemes (SLH-DSA / SPHINCS+, XMSS,
 * CROSS), digested with SHA-256, one line per parameter set. tests/port/run.sh builds this
 * program as a 64-bit and as a 32-bit (-m32) binary, with gcc and clang, runs each with every
 * hash-kernel path the CPU offers, and requires identical output. Each signature is also
 * verified and, with one bit flipped, rejected (a failure prints FAIL and exits 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cross/cross_internal.h"
#include "grove/grove.h"
#include "hash/sha2.h"

static int failures;

static void line(const char *scheme, const char *name, const uint8_t *a, size_t al,
                 const uint8_t *b, size_t bl, const uint8_t *c, size_t cl)
{
    grove_sha256_ctx h;
    uint8_t d[32];
    grove_sha256_init(&h);
    grove_sha256_update(&h, a, al);
    grove_sha256_update(&h, b, bl);
    grove_sha256_update(&h, c, cl);
    grove_sha256_final(&h, d, 32);
    printf("%s %s ", scheme, name);
    for (int i = 0; i < 32; i++)
        printf("%02x", d[i]);
    printf("\n");
}

static void expect(int ok, const char *what, const char *name)
{
    if (!ok) {
        printf("FAIL %s %s\n", what, name);
        failures++;
    }
}

static void seed_bytes(uint8_t *out, size_t len, unsigned salt)
{
    for (size_t i = 0; i < len; i++)
        out[i] = (uint8_t)(i * 151u + salt * 29u + 7u);
}

static void slhdsa(int all)
{
    static const uint8_t msg[] = "portability";
    for (size_t i = 0;; i++) {
        const grove_slhdsa_params *p = grove_slhdsa_params_at(i);
        if (p == NULL)
            break;
        const char *name = grove_slhdsa_params_name(p);
        if (!all && strstr(name, "f") == NULL && strstr(name, "128s") == NULL)
            continue; /* the small "s" sets only with --all (slow in 32-bit portable code) */
        size_t n = grove_slhdsa_n(p), sb = grove_slhdsa_sig_bytes(p);
        uint8_t seed[128], pk[64], sk[128];
        uint8_t *sig = malloc(sb);
        seed_bytes(seed, sizeof seed, (unsigned)i);
        expect(grove_slhdsa_keygen_from_seed(p, pk, sk, seed, seed + n, seed + 2 * n) == GROVE_OK,
               "keygen", name);
        expect(grove_slhdsa_sign_internal(p, sig, msg, sizeof msg, sk, seed + 3 * n) == GROVE_OK,
               "sign", name);
        expect(grove_slhdsa_verify_internal(p, sig, sb, msg, sizeof msg, pk) == GROVE_OK, "verify",
               name);
        sig[sb / 2] ^= 1;
        expect(grove_slhdsa_verify_internal(p, sig, sb, msg, sizeof msg, pk) == GROVE_ERR_VERIFY,
               "tamper", name);
        sig[sb / 2] ^= 1;
        line("slhdsa", name, pk, grove_slhdsa_pk_bytes(p), sk, grove_slhdsa_sk_bytes(p), sig, sb);
        free(sig);
    }
}

static grove_status persist_ok(void *arg, const uint8_t *state, size_t len)
{
    (void)arg;
    (void)state;
    (void)len;
    return GROVE_OK;
}

static void xmss(void)
{
    static const char *sets[] = {"XMSS-SHA2_10_256", "XMSS-SHAKE_10_256", "XMSS-SHA2_10_192",
                                 "XMSSMT-SHA2_20/4_256", "XMSSMT-SHAKE256_20/4_256"};
    static const uint8_t msg[] = "portability";
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
        const grove_xmss_params *p = grove_xmss_params_get(sets[i]);
        if (p == NULL) {
            expect(0, "params", sets[i]);
            continue;
        }
        unsigned n = grove_xmss_params_n(p);
        size_t sb = grove_xmss_sig_bytes(p), pkb = grove_xmss_pk_bytes(p);
        uint8_t seed[3 * 64], pk[GROVE_XMSS_MAX_PK_BYTES];
        uint8_t *sig = malloc(2 * sb);
        seed_bytes(seed, sizeof seed, 100 + (unsigned)i);
        grove_xmss_opts o = {2, NULL, NULL};
        grove_xmss_key *k = NULL;
        expect(grove_xmss_keygen_from_seed(p, &k, seed, seed + n, seed + 2 * n, &o) == GROVE_OK,
               "keygen", sets[i]);
        if (k == NULL)
            continue;
        expect(grove_xmss_key_set_persist(k, persist_ok, NULL) == GROVE_OK, "persist", sets[i]);
        expect(grove_xmss_key_public_key(k, pk) == GROVE_OK, "public key", sets[i]);
        for (size_t j = 0; j < 2; j++)
            expect(grove_xmss_key_sign(k, sig + j * sb, NULL, msg, sizeof msg) == GROVE_OK,
                   "sign", sets[i]);
        grove_xmss_family fam = grove_xmss_params_family(p);
        expect(grove_xmss_verify(fam, sig + sb, sb, msg, sizeof msg, pk, pkb) == GROVE_OK,
               "verify", sets[i]);
        sig[sb + sb / 3] ^= 4;
        expect(grove_xmss_verify(fam, sig + sb, sb, msg, sizeof msg, pk, pkb) == GROVE_ERR_VERIFY,
               "tamper", sets[i]);
        sig[sb + sb / 3] ^= 4;
        line("xmss", sets[i], pk, pkb, sig, 2 * sb, NULL, 0);
        grove_xmss_key_free(k);
        free(sig);
    }
}

static void cross(void)
{
    static const uint8_t msg[] = "portability";
    for (size_t i = 0; i < grove_cross_params_count(); i++) {
        const grove_cross_params *p = grove_cross_params_at(i);
        const char *name = grove_cross_params_name(p);
        size_t pkb = grove_cross_pk_bytes(p), skb = grove_cross_sk_bytes(p),
               sb = grove_cross_sig_bytes(p);
        uint8_t seed[64], rnd[96];
        uint8_t *pk = malloc(pkb), *sk = malloc(skb), *sig = malloc(2 * sb);
        seed_bytes(seed, sizeof seed, 200 + (unsigned)i);
        seed_bytes(rnd, sizeof rnd, 300 + (unsigned)i);
        expect(grove_cross_keygen_from_seed(p, pk, sk, seed) == GROVE_OK, "keygen", name);
        for (size_t s = 0; s < 2; s++) {
            grove_cross_strategy st = s ? GROVE_CROSS_SMALL_MEMORY : GROVE_CROSS_FAST;
            expect(cross_sign_derand(p, st, sig + s * sb, msg, sizeof msg, sk, rnd, rnd + 32, NULL,
                                     0) == GROVE_OK,
                   "sign", name);
            expect(grove_cross_verify(p, st, sig + s * sb, sb, msg, sizeof msg, pk) == GROVE_OK,
                   "verify", name);
        }
        expect(memcmp(sig, sig + sb, sb) == 0, "strategies agree", name);
        sig[sb - 1] ^= 0x80;
        expect(grove_cross_verify(p, GROVE_CROSS_FAST, sig, sb, msg, sizeof msg, pk) != GROVE_OK,
               "tamper", name);
        sig[sb - 1] ^= 0x80;
        line("cross", name, pk, pkb, sk, skb, sig, sb);
        free(pk);
        free(sk);
        free(sig);
    }
}

/* The hash functions on their own (every kernel path and byte order must agree), at the
 * block-boundary lengths. */
static void hashes(void)
{
    static const size_t lens[] = {0, 1, 55, 56, 64, 111, 112, 128, 135, 136, 167, 168, 1000};
    uint8_t in[1000], a[64], b[64], c[64], d[200];
    seed_bytes(in, sizeof in, 77);
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        char name[32];
        snprintf(name, sizeof name, "len-%zu", lens[i]);
        grove_sha256(a, in, lens[i]);
        grove_sha512(b, in, lens[i]);
        grove_sha3_256(c, in, lens[i]);
        grove_shake256(d, 100, in, lens[i]);
        grove_shake128(d + 100, 100, in, lens[i]);
        line("hash", name, a, 32, b, 64, c, 32);
        line("shake", name, d, sizeof d, NULL, 0, NULL, 0);
    }
}

/* The operating-system services with fallbacks (common/random.c, common/mem.c): randomness
 * that is not constant, wiping that zeroes. Prints nothing on success (the output is compared
 * byte for byte across builds; randomness differs). */
static void platform(void)
{
    uint8_t r1[300], r2[300], w[100];
    expect(grove_randombytes(r1, sizeof r1) == GROVE_OK, "randombytes", "300");
    expect(grove_randombytes(r2, sizeof r2) == GROVE_OK, "randombytes", "300 again");
    expect(memcmp(r1, r2, sizeof r1) != 0, "randombytes", "two draws differ");
    expect(grove_randombytes(NULL, 0) == GROVE_OK, "randombytes", "empty");
    memset(w, 0xA5, sizeof w);
    grove_wipe(w + 1, 98);
    int ok = w[0] == 0xA5 && w[99] == 0xA5;
    for (size_t i = 1; i < 99; i++)
        ok &= w[i] == 0;
    expect(ok, "wipe", "98 bytes");
}

int main(int argc, char **argv)
{
    int all = argc > 1 && strcmp(argv[1], "--all") == 0;
    const uint16_t one = 1;
    uint8_t first;
    memcpy(&first, &one, 1);
    printf("# pointer bits %zu, %s-endian, hash path %s\n", 8 * sizeof(void *),
           first ? "little" : "big", grove_cpu_path());
    platform();
    hashes();
    slhdsa(all);
    xmss();
    cross();
    return failures ? 1 : 0;
}
