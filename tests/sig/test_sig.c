/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The generic signature API's contract (grove/common.h), the same suite for every registry
 * entry (all 44): the registry (unique names, lookup, sizes equal to the scheme's own), round
 * trip, the empty message; the first, middle and last byte of every field of the signature
 * tampered (SLH-DSA: R, each FORS key and auth path, each layer's WOTS+ signature and auth
 * path; CROSS: salt, the two digests, path, proof, resp_1, resp_0 and the first y / v_bar;
 * BLS: the point) and a sweep of positions over the whole signature; the message and the public
 * key tampered; wrong lengths (0, 1, len-1, len+1, huge); a short sig_cap (the length needed,
 * nothing written); NULL for every pointer; and no copy of the secret key left in the stack
 * memory keygen and sign used, nor in a heap block sign released (free/realloc wrapped). Both
 * checks have a negative control. (Secret-dependent branches: tests/ct, through this API too.)
 *
 * Usage: test_sig [slow] [name-substring]. The default run sweeps every byte/256 of the small
 * sets ("128f", "-1-fast", BLS); "slow" sweeps every byte of those and every byte/256 of the
 * others (ctest: test_sig_slow, label slow).
 */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "cross/cross_internal.h"
#include "grove/grove.h"
#include "test.h"

static int slow;

static void registry(void)
{
    size_t n = grove_sig_alg_count();
    CHECK_EQ_INT(n, 12 + 12 + 18 + 2);
    for (size_t i = 0; i < n; i++) {
        const grove_sig_alg *a = grove_sig_alg_at(i);
        CHECK(a != NULL && grove_sig_alg_name(a) != NULL);
        CHECK(grove_sig_alg_get(grove_sig_alg_name(a)) == a);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(grove_sig_alg_name(grove_sig_alg_at(j)), grove_sig_alg_name(a)) != 0);
        CHECK(grove_sig_pk_bytes(a) > 0 && grove_sig_sk_bytes(a) > 0 && grove_sig_sig_bytes(a) > 0);
    }
    CHECK(grove_sig_alg_at(n) == NULL);
    CHECK(grove_sig_alg_get(NULL) == NULL);
    CHECK(grove_sig_alg_get("SLH-DSA-SHA2-128F") == NULL); /* exact names */
    CHECK(grove_sig_alg_get("nope") == NULL);
    CHECK(grove_sig_alg_name(NULL) == NULL);
    CHECK_EQ_INT(grove_sig_pk_bytes(NULL), 0);
    CHECK_EQ_INT(grove_sig_sk_bytes(NULL), 0);
    CHECK_EQ_INT(grove_sig_sig_bytes(NULL), 0);
    /* every parameter set of the schemes is in the registry under its own name and sizes */
    for (size_t i = 0; i < grove_slhdsa_params_count(); i++) {
        const grove_slhdsa_params *sp = grove_slhdsa_params_at(i);
        const grove_sig_alg *a = grove_sig_alg_get(grove_slhdsa_params_name(sp));
        CHECK(a != NULL);
        CHECK_EQ_INT(grove_sig_pk_bytes(a), grove_slhdsa_pk_bytes(sp));
        CHECK_EQ_INT(grove_sig_sk_bytes(a), grove_slhdsa_sk_bytes(sp));
        CHECK_EQ_INT(grove_sig_sig_bytes(a), grove_slhdsa_sig_bytes(sp));
    }
    for (size_t i = 0; i < grove_cross_params_count(); i++) {
        const grove_cross_params *cp = grove_cross_params_at(i);
        const grove_sig_alg *a = grove_sig_alg_get(grove_cross_params_name(cp));
        CHECK(a != NULL);
        CHECK_EQ_INT(grove_sig_pk_bytes(a), grove_cross_pk_bytes(cp));
        CHECK_EQ_INT(grove_sig_sk_bytes(a), grove_cross_sk_bytes(cp));
        CHECK_EQ_INT(grove_sig_sig_bytes(a), grove_cross_sig_bytes(cp));
    }
    const grove_sig_alg *a = grove_sig_alg_get("BLS12-381-min-pk");
    CHECK(a != NULL);
    CHECK_EQ_INT(grove_sig_pk_bytes(a), 48);
    CHECK_EQ_INT(grove_sig_sig_bytes(a), 96);
}

static int is_spx(const grove_sig_alg *a)
{
    const char *name = grove_sig_alg_name(a);
    return strncmp(name, "SLH-DSA-", 8) == 0 || strncmp(name, "sphincs-", 8) == 0;
}

/* The bytes of the secret key that are secret: SLH-DSA's SK.seed || SK.prf (the rest is the
 * public key), all of the others. */
static size_t secret_bytes(const grove_sig_alg *a)
{
    return is_spx(a) ? grove_sig_sk_bytes(a) / 2 : grove_sig_sk_bytes(a);
}

/* ---- the fields of a signature -------------------------------------------------------------- */

typedef struct {
    size_t off, len;
} field;

#define MAX_FIELDS 160

/* SLH-DSA / SPHINCS+ (FIPS 205, section 9): R, k x (FORS key, auth path), d x (WOTS+, auth). */
static size_t spx_fields(const grove_sig_alg *a, field *f)
{
    static const struct {
        const char *tag;
        unsigned n, h, d, a, k;
    } sets[] = {{"128s", 16, 63, 7, 12, 14}, {"128f", 16, 66, 22, 6, 33},
                {"192s", 24, 63, 7, 14, 17}, {"192f", 24, 66, 22, 8, 33},
                {"256s", 32, 64, 8, 14, 22}, {"256f", 32, 68, 17, 9, 35}};
    const char *name = grove_sig_alg_name(a);
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        if (strstr(name, sets[i].tag) == NULL)
            continue;
        const size_t n = sets[i].n, len = 2 * n + 3, hp = sets[i].h / sets[i].d;
        size_t o = 0, nf = 0;
        f[nf++] = (field){o, n};
        o += n;
        for (unsigned t = 0; t < sets[i].k; t++) {
            f[nf++] = (field){o, n};
            f[nf++] = (field){o + n, sets[i].a * n};
            o += (sets[i].a + 1) * n;
        }
        for (unsigned l = 0; l < sets[i].d; l++) {
            f[nf++] = (field){o, len * n};
            f[nf++] = (field){o + len * n, hp * n};
            o += (len + hp) * n;
        }
        CHECK_EQ_INT(o, grove_sig_sig_bytes(a)); /* the layout covers the signature exactly */
        return nf;
    }
    CHECK(0 && "unknown SLH-DSA size class");
    return 0;
}

/* CROSS (spec v2.2): salt, digest_cmt, digest_chall_2, path, proof, resp_1, resp_0, and the
 * y and v_bar of the first resp_0. */
static size_t cross_fields(const grove_sig_alg *a, field *f)
{
    cross_sizes z;
    cross_sizes_of(grove_cross_params_get(grove_sig_alg_name(a)), &z);
    size_t nf = 0;
    for (size_t i = 0; i < 3; i++)
        f[nf++] = (field){i * z.digest, z.digest};
    f[nf++] = (field){z.off_path, z.path};
    f[nf++] = (field){z.off_proof, z.proof};
    f[nf++] = (field){z.off_resp1, z.off_resp0 - z.off_resp1};
    f[nf++] = (field){z.off_resp0, z.sig - z.off_resp0};
    f[nf++] = (field){z.off_resp0, z.py};
    f[nf++] = (field){z.off_resp0 + z.py, z.pv};
    CHECK_EQ_INT(z.sig, grove_sig_sig_bytes(a));
    return nf;
}

static size_t sig_fields(const grove_sig_alg *a, field *f)
{
    if (is_spx(a))
        return spx_fields(a, f);
    if (strncmp(grove_sig_alg_name(a), "CROSS-", 6) == 0)
        return cross_fields(a, f);
    f[0] = (field){0, grove_sig_sig_bytes(a)}; /* BLS: one compressed point */
    return 1;
}

/* Flip one bit of byte pos: the signature must not verify. */
static int tampered_fails(const grove_sig_alg *a, uint8_t *sig, size_t len, size_t pos,
                          uint8_t bit, const uint8_t *msg, size_t ml, const uint8_t *pk)
{
    sig[pos] ^= bit;
    grove_status rc = grove_sig_verify(a, sig, len, msg, ml, pk);
    sig[pos] ^= bit;
    return rc == GROVE_ERR_VERIFY;
}

static int small_set(const grove_sig_alg *a)
{
    const char *name = grove_sig_alg_name(a);
    return strstr(name, "128f") != NULL || strstr(name, "-1-fast") != NULL ||
           strncmp(name, "BLS", 3) == 0;
}

/* First, middle and last byte of every field, then a sweep over the whole signature. */
static void tamper(const grove_sig_alg *a, uint8_t *sig, size_t len, const uint8_t *msg,
                   size_t ml, const uint8_t *pk)
{
    field f[MAX_FIELDS];
    size_t nf = sig_fields(a, f);
    CHECK(nf > 0);
    for (size_t i = 0; i < nf; i++) {
        const size_t pos[3] = {f[i].off, f[i].off + f[i].len / 2, f[i].off + f[i].len - 1};
        int ok = 1;
        for (size_t k = 0; k < 3; k++) {
            const uint8_t bit = (uint8_t)(1u << (k * 3 + i) % 8);
            ok &= tampered_fails(a, sig, len, pos[k], bit, msg, ml, pk);
        }
        if (!ok)
            fprintf(stderr, "  field %zu (bytes %zu..%zu) of %s: a tampered byte verifies\n", i,
                    f[i].off, f[i].off + f[i].len - 1, grove_sig_alg_name(a));
        CHECK(ok);
    }
    size_t stride = small_set(a) ? (slow ? 1 : len / 256 + 1) : (slow ? len / 256 + 1 : 0);
    if (stride == 0)
        return;
    int ok = 1;
    for (size_t p = 0; p < len; p += stride)
        ok &= tampered_fails(a, sig, len, p, (uint8_t)(1u << (p % 8)), msg, ml, pk);
    CHECK(ok);
}

/* ---- the contract, one algorithm ------------------------------------------------------------ */

static void lengths_and_buffers(const grove_sig_alg *a, uint8_t *sig, size_t sb,
                                const uint8_t *msg, size_t ml, const uint8_t *pk,
                                const uint8_t *sk)
{
    /* wrong lengths: one rule, GROVE_ERR_VERIFY (sig has sb + 1 bytes) */
    const size_t bad[] = {0, 1, sb - 1, sb + 1, SIZE_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ_INT(grove_sig_verify(a, sig, bad[i], msg, ml, pk), GROVE_ERR_VERIFY);
    /* a short capacity: the length needed, nothing written */
    uint8_t *out = malloc(sb);
    memset(out, 0x5A, sb);
    size_t len = 7;
    CHECK_EQ_INT(grove_sig_sign(a, out, sb - 1, &len, msg, ml, sk), GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(len, sb);
    len = 7;
    CHECK_EQ_INT(grove_sig_sign(a, out, 0, &len, msg, ml, sk), GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(len, sb);
    size_t untouched = 0;
    while (untouched < sb && out[untouched] == 0x5A)
        untouched++;
    CHECK_EQ_INT(untouched, sb);
    free(out);
}

static void null_args(const grove_sig_alg *a, uint8_t *sig, size_t sb, const uint8_t *msg,
                      uint8_t *pk, uint8_t *sk)
{
    size_t len = 0;
    CHECK_EQ_INT(grove_sig_keygen(NULL, pk, sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_keygen(a, NULL, sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_keygen(a, pk, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_sign(NULL, sig, sb, &len, msg, 1, sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_sign(a, NULL, sb, &len, msg, 1, sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_sign(a, sig, sb, NULL, msg, 1, sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_sign(a, sig, sb, &len, NULL, 1, sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_sign(a, sig, sb, &len, msg, 1, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_verify(NULL, sig, sb, msg, 1, pk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_verify(a, NULL, sb, msg, 1, pk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_verify(a, sig, sb, NULL, 1, pk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_verify(a, sig, sb, msg, 1, NULL), GROVE_ERR_INVALID_ARG);
}

static void contract(const grove_sig_alg *a)
{
    const size_t pkb = grove_sig_pk_bytes(a), skb = grove_sig_sk_bytes(a);
    const size_t sb = grove_sig_sig_bytes(a);
    uint8_t *pk = malloc(pkb), *sk = malloc(skb), *sig = malloc(sb + 1), *sig2 = malloc(sb);
    uint8_t *pk2 = malloc(pkb), *sk2 = malloc(skb);
    uint8_t msg[33];
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 7 + 1);
    int before = test_failures;
    CHECK_EQ_INT(grove_sig_keygen(a, pk, sk), GROVE_OK);
    size_t len = 99;
    CHECK_EQ_INT(grove_sig_sign(a, sig, sb, &len, msg, sizeof msg, sk), GROVE_OK);
    CHECK_EQ_INT(len, sb);
    CHECK_EQ_INT(grove_sig_verify(a, sig, len, msg, sizeof msg, pk), GROVE_OK);
    /* the empty message, as NULL or as a pointer */
    size_t l2 = 0;
    CHECK_EQ_INT(grove_sig_sign(a, sig2, sb, &l2, NULL, 0, sk), GROVE_OK);
    CHECK_EQ_INT(grove_sig_verify(a, sig2, l2, NULL, 0, pk), GROVE_OK);
    CHECK_EQ_INT(grove_sig_verify(a, sig2, l2, msg, 0, pk), GROVE_OK);
    CHECK_EQ_INT(grove_sig_verify(a, sig2, l2, msg, 1, pk), GROVE_ERR_VERIFY);
    /* every field of the signature, and a sweep */
    tamper(a, sig, len, msg, sizeof msg, pk);
    CHECK_EQ_INT(grove_sig_verify(a, sig, len, msg, sizeof msg, pk), GROVE_OK); /* restored */
    /* the message */
    msg[5] ^= 0x10;
    CHECK_EQ_INT(grove_sig_verify(a, sig, len, msg, sizeof msg, pk), GROVE_ERR_VERIFY);
    msg[5] ^= 0x10;
    CHECK_EQ_INT(grove_sig_verify(a, sig, len, msg, sizeof msg - 1, pk), GROVE_ERR_VERIFY);
    /* a tampered public key fails: GROVE_ERR_VERIFY, or GROVE_ERR_ENCODING if the change made
     * it malformed (a CROSS syndrome value out of range; a BLS point off the curve) */
    for (size_t b = 0; b < 8 * pkb; b += 8 * pkb / 5 + 3) {
        pk[b / 8] ^= (uint8_t)(1u << (b % 8));
        grove_status rc = grove_sig_verify(a, sig, len, msg, sizeof msg, pk);
        CHECK(rc == GROVE_ERR_VERIFY || (rc == GROVE_ERR_ENCODING && !is_spx(a)));
        pk[b / 8] ^= (uint8_t)(1u << (b % 8));
    }
    /* another key pair's public key: well formed, so GROVE_ERR_VERIFY */
    CHECK_EQ_INT(grove_sig_keygen(a, pk2, sk2), GROVE_OK);
    CHECK(memcmp(pk, pk2, pkb) != 0);
    CHECK_EQ_INT(grove_sig_verify(a, sig, len, msg, sizeof msg, pk2), GROVE_ERR_VERIFY);
    sig[sb] = 0;
    lengths_and_buffers(a, sig, sb, msg, sizeof msg, pk, sk);
    null_args(a, sig2, sb, msg, pk2, sk2);
    if (test_failures != before)
        fprintf(stderr, "  ^ in %s\n", grove_sig_alg_name(a));
    grove_wipe(sk, skb);
    grove_wipe(sk2, skb);
    free(pk);
    free(sk);
    free(pk2);
    free(sk2);
    free(sig);
    free(sig2);
}

/* ---- secrets left on the stack ------------------------------------------------------------- */


static __attribute__((noinline)) grove_status run_keygen(const grove_sig_alg *a, uint8_t *pk,
                                                         uint8_t *sk)
{
    return grove_sig_keygen(a, pk, sk);
}

static __attribute__((noinline)) grove_status run_sign(const grove_sig_alg *a, uint8_t *sig,
                                                       size_t *len, const uint8_t *sk)
{
    return grove_sig_sign(a, sig, grove_sig_sig_bytes(a), len, (const uint8_t *)"wipe", 4, sk);
}

/*
 * Heap copies: free() and realloc() are wrapped (-Wl,--wrap, see CMakeLists.txt) for every
 * object of this executable, libgrove's included; while armed, a block released with a 16-byte
 * window of the secret in it is counted.
 */
void __real_free(void *p);
void *__real_realloc(void *p, size_t n);
static const uint8_t *volatile armed_secret; /* volatile: free() is a builtin to the compiler */
static volatile size_t armed_len;
static volatile int heap_residue;

static void check_block(void *p)
{
    const uint8_t *secret = armed_secret;
    const size_t len = armed_len;
    if (p == NULL || secret == NULL)
        return;
    const uint8_t *q = (const uint8_t *)p;
    size_t n = malloc_usable_size(p);
    for (size_t off = 0; off + 16 <= n; off++)
        for (size_t s = 0; s + 16 <= len; s += 8)
            if (q[off] == secret[s] && memcmp(q + off, secret + s, 16) == 0) {
                heap_residue++;
                return;
            }
}

void __wrap_free(void *p);
void __wrap_free(void *p)
{
    check_block(p);
    __real_free(p);
}

void *__wrap_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n)
{
    check_block(p);
    return __real_realloc(p, n);
}

static void arm(const uint8_t *secret, size_t len)
{
    heap_residue = 0;
    armed_len = len;
    armed_secret = secret;
}

static int disarm(void)
{
    armed_secret = NULL;
    return heap_residue;
}

/* The negative control: a copy of the secret left in a dead frame is found. The copy fills the
 * low half of a 1 KiB buffer, so it lies over 512 bytes below the frame, well under the 256 bytes
 * test_stack_residue skips below its own frame, whatever the ABI's frame layout (a 256-byte
 * buffer was found on x86-64 but not on i386, whose frames are smaller). */
static __attribute__((noinline)) void leave_copy(const uint8_t *secret, size_t len)
{
    volatile uint8_t buf[1024];
    for (size_t i = 0; i < len && i < 512; i++)
        buf[i] = secret[i];
    __asm__ volatile("" : : "r"(buf) : "memory");
}

/* keygen and sign leave no 16-byte window of the secret key in the stack memory they used
 * (scanned after they return; the calling thread only). */
static void secrets_wiped(const grove_sig_alg *a)
{
    uint8_t *pk = malloc(grove_sig_pk_bytes(a)), *sk = malloc(grove_sig_sk_bytes(a));
    uint8_t *sig = malloc(grove_sig_sig_bytes(a));
    size_t len = 0, off;
    /* keygen: the secret is only known afterwards; the heap is checked at sign */
    test_stack_clear();
    CHECK_EQ_INT(run_keygen(a, pk, sk), GROVE_OK);
    if ((off = test_stack_residue(sk, secret_bytes(a))) != 0)
        fprintf(stderr, "  %s: keygen leaves secret-key bytes %zu below the stack frame\n",
                grove_sig_alg_name(a), off);
    CHECK(off == 0);
    test_stack_clear();
    arm(sk, secret_bytes(a));
    CHECK_EQ_INT(run_sign(a, sig, &len, sk), GROVE_OK);
    int heap = disarm();
    if ((off = test_stack_residue(sk, secret_bytes(a))) != 0)
        fprintf(stderr, "  %s: sign leaves secret-key bytes %zu below the stack frame\n",
                grove_sig_alg_name(a), off);
    CHECK(off == 0);
    if (heap != 0)
        fprintf(stderr, "  %s: sign frees %d heap blocks holding secret-key bytes\n",
                grove_sig_alg_name(a), heap);
    CHECK(heap == 0);
    test_stack_clear();
    leave_copy(sk, secret_bytes(a));
    CHECK(test_stack_residue(sk, secret_bytes(a)) != 0); /* the scan is not blind */
    uint8_t *copy = malloc(secret_bytes(a) + 8);
    memcpy(copy + 8, sk, secret_bytes(a));
    __asm__ volatile("" : : "r"(copy) : "memory"); /* keep the copy and its free */
    arm(sk, secret_bytes(a));
    free(copy);
    CHECK(disarm() == 1); /* neither is the heap check */
    grove_wipe(sk, grove_sig_sk_bytes(a));
    free(pk);
    free(sk);
    free(sig);
}

int main(int argc, char **argv)
{
    int arg = 1;
    if (argc > arg && strcmp(argv[arg], "slow") == 0) {
        slow = 1;
        arg++;
    }
    const char *filter = argc > arg ? argv[arg] : NULL;
    registry();
    size_t ran = 0;
    for (size_t i = 0; i < grove_sig_alg_count(); i++) {
        const grove_sig_alg *a = grove_sig_alg_at(i);
        if (filter != NULL && strstr(grove_sig_alg_name(a), filter) == NULL)
            continue;
        contract(a);
        if (!GROVE_TEST_ASAN) /* ASan's redzones and quarantine: the scans mean nothing there */
            secrets_wiped(a);
        ran++;
    }
    printf("contract suite run on %zu algorithms%s\n", ran, slow ? " (slow sweeps)" : "");
    CHECK(ran > 0);
    return test_done();
}
