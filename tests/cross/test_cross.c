/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * CROSS: arithmetic and packing against plain definitions, names, round trips of all 18 sets in
 * both strategies (identical signatures for identical randomness), tampered and malformed
 * signatures and keys, wrong lengths, caller-provided workspaces.
 */
#include <stdlib.h>
#include <string.h>

#include "cross/cross_internal.h"
#include "cross/cross_prims.h"
#include "grove/cross.h"
#include "test.h"

static void test_arith(void)
{
    int bad = 0;
    for (uint32_t x = 0; x < (1u << 22); x++) {
        if (cross_mod127(x) != x % 127u || cross_mod509(x) != x % 509u)
            bad++;
    }
    for (uint32_t x = (1u << 28) - 100000u; x < (1u << 28); x++)
        if (cross_mod127(x) != x % 127u)
            bad++;
    for (uint32_t x = 0; x < (1u << 14); x++)
        if (cross_mod127_14(x) != x % 127u)
            bad++;
    for (uint32_t x = 0; x < 14; x++)
        if (cross_mod7_small(x) != x % 7u)
            bad++;
    CHECK_EQ_INT(bad, 0);
    /* g^x: 2^x mod 127 and 16^x mod 509 */
    uint32_t a = 1, b = 1;
    for (uint32_t x = 0; x < 127; x++) {
        if (x < 8)
            CHECK_EQ_INT(cross_restr_val(0, x), a);
        CHECK_EQ_INT(cross_restr_val(1, x), b);
        a = (a * 2) % 127;
        b = (b * 16) % 509;
    }
}

static void test_packing(void)
{
    uint64_t st = 7;
    static const unsigned widths[4] = {3, 7, 7, 9};
    static const uint32_t bounds[4] = {7, 127, 127, 509};
    for (int wi = 0; wi < 4; wi++) {
        for (size_t count = 1; count < 40; count++) {
            uint16_t in[40], out[40];
            uint8_t in8[40], out8[40], buf[64];
            for (size_t i = 0; i < count; i++) {
                in[i] = (uint16_t)(test_rand_u64(&st) % bounds[wi]);
                in8[i] = (uint8_t)in[i];
            }
            size_t bytes = (count * widths[wi] + 7) / 8;
            memset(buf, 0xAA, sizeof buf);
            cross_pack_fp(buf, in, count, widths[wi]);
            CHECK(cross_unpack_fp(out, buf, count, widths[wi], bounds[wi]));
            CHECK_MEM(out, in, count * sizeof in[0]);
            if (widths[wi] < 9) {
                uint8_t b2[64];
                memset(b2, 0x55, sizeof b2);
                cross_pack_fz(b2, in8, count, widths[wi]);
                CHECK_MEM(b2, buf, bytes);
                CHECK(cross_unpack_fz(out8, b2, count, widths[wi], bounds[wi]));
                CHECK_MEM(out8, in8, count);
            }
            /* LSB-first: element 0 sits in the low bits of byte 0 */
            CHECK_EQ_INT(buf[0] & ((1u << (widths[wi] < 8 ? widths[wi] : 8)) - 1u),
                         in[0] & ((1u << (widths[wi] < 8 ? widths[wi] : 8)) - 1u));
            size_t pad = bytes * 8 - count * widths[wi];
            if (pad > 0) {
                /* every padding bit is checked (the 3-bit case included) */
                for (size_t bit = 8 - pad; bit < 8; bit++) {
                    uint8_t b3[64];
                    memcpy(b3, buf, bytes);
                    b3[bytes - 1] ^= (uint8_t)(1u << bit);
                    CHECK(!cross_unpack_fp(out, b3, count, widths[wi], bounds[wi]));
                    if (widths[wi] < 9)
                        CHECK(!cross_unpack_fz(out8, b3, count, widths[wi], bounds[wi]));
                }
            }
            /* an all-ones element is out of range for every width */
            uint16_t big[40];
            memcpy(big, in, sizeof big);
            big[count / 2] = (uint16_t)((1u << widths[wi]) - 1u);
            cross_pack_fp(buf, big, count, widths[wi]);
            CHECK(!cross_unpack_fp(out, buf, count, widths[wi], bounds[wi]));
        }
    }
}

static void test_names(void)
{
    CHECK_EQ_INT(grove_cross_params_count(), 18);
    for (size_t i = 0; i < grove_cross_params_count(); i++) {
        const grove_cross_params *p = grove_cross_params_at(i);
        CHECK(grove_cross_params_get(grove_cross_params_name(p)) == p);
    }
    CHECK(grove_cross_params_at(18) == NULL);
    const grove_cross_params *p = grove_cross_params_get("CROSS-RSDPG-5-small");
    CHECK(p != NULL);
    CHECK(grove_cross_params_get("CROSS-RSDP-G-5-small") == p);
    CHECK(grove_cross_params_get("cross-rsdpg-256-small") == p);
    CHECK(grove_cross_params_get("rsdpg-5-small") == p);
    CHECK(grove_cross_params_get("CROSS-RSDP-1-fast") != NULL);
    CHECK(grove_cross_params_get("CROSS-RSDP-2-fast") == NULL);
    CHECK(grove_cross_params_get("CROSS-RSDP-1-fastx") == NULL);
    CHECK(grove_cross_params_get("CROSS-RSDP-1") == NULL);
    CHECK(grove_cross_params_get("") == NULL);
    CHECK(grove_cross_params_get(NULL) == NULL);
    grove_cross_strategy s;
    CHECK_EQ_INT(grove_cross_strategy_get(&s, "small-memory"), GROVE_OK);
    CHECK_EQ_INT(s, GROVE_CROSS_SMALL_MEMORY);
    CHECK_EQ_INT(grove_cross_strategy_get(&s, "fast"), GROVE_OK);
    CHECK_EQ_INT(s, GROVE_CROSS_FAST);
    CHECK_EQ_INT(grove_cross_strategy_get(&s, "turbo"), GROVE_ERR_UNSUPPORTED);
    /* sizes of the specification's table */
    static const struct {
        const char *name;
        size_t pk, sig;
    } sz[] = {{"CROSS-RSDP-1-fast", 77, 18432},       {"CROSS-RSDP-3-balanced", 115, 29853},
              {"CROSS-RSDP-5-small", 153, 50818},     {"CROSS-RSDPG-1-small", 54, 8960},
              {"CROSS-RSDPG-3-balanced", 83, 22464}, {"CROSS-RSDPG-5-fast", 106, 48102}};
    for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++) {
        p = grove_cross_params_get(sz[i].name);
        CHECK_EQ_INT(grove_cross_pk_bytes(p), sz[i].pk);
        CHECK_EQ_INT(grove_cross_sig_bytes(p), sz[i].sig);
    }
}

/* Flip one byte and expect GROVE_ERR_VERIFY. */
static int rejects(const grove_cross_params *p, grove_cross_strategy s, uint8_t *sig, size_t sl,
                   size_t pos, uint8_t mask, const uint8_t *msg, size_t ml, const uint8_t *pk)
{
    sig[pos] ^= mask;
    int rc = grove_cross_verify(p, s, sig, sl, msg, ml, pk);
    sig[pos] ^= mask;
    return rc == GROVE_ERR_VERIFY;
}

static void test_set(const grove_cross_params *p, uint64_t *st)
{
    cross_sizes z;
    cross_sizes_of(p, &z);
    const char *name = grove_cross_params_name(p);
    size_t pkl = z.pk, skl = z.sk, sl = z.sig;
    uint8_t pk[256], sk[64], seed[64], rnd[96], msg[100];
    uint8_t *sig_f = malloc(sl), *sig_s = malloc(sl);
    test_rand_bytes(st, seed, skl);
    test_rand_bytes(st, rnd, sizeof rnd);
    test_rand_bytes(st, msg, sizeof msg);
    CHECK_EQ_INT(grove_cross_keygen_from_seed(p, pk, sk, seed), GROVE_OK);
    CHECK_MEM(sk, seed, skl);
    /* identical randomness: identical signatures in both strategies */
    CHECK_EQ_INT(cross_sign_derand(p, GROVE_CROSS_FAST, sig_f, msg, sizeof msg, sk, rnd,
                                   rnd + z.seed, NULL, 0),
                 GROVE_OK);
    CHECK_EQ_INT(cross_sign_derand(p, GROVE_CROSS_SMALL_MEMORY, sig_s, msg, sizeof msg, sk, rnd,
                                   rnd + z.seed, NULL, 0),
                 GROVE_OK);
    CHECK_MEM(sig_s, sig_f, sl);
    for (int si = 0; si < 2; si++) {
        grove_cross_strategy s = si ? GROVE_CROSS_SMALL_MEMORY : GROVE_CROSS_FAST;
        CHECK_EQ_INT(grove_cross_verify(p, s, sig_f, sl, msg, sizeof msg, pk), GROVE_OK);
        /* message, public key */
        msg[3] ^= 1;
        CHECK_EQ_INT(grove_cross_verify(p, s, sig_f, sl, msg, sizeof msg, pk), GROVE_ERR_VERIFY);
        msg[3] ^= 1;
        CHECK_EQ_INT(grove_cross_verify(p, s, sig_f, sl, msg, sizeof msg - 1, pk),
                     GROVE_ERR_VERIFY);
        pk[1] ^= 0x10;
        CHECK_EQ_INT(grove_cross_verify(p, s, sig_f, sl, msg, sizeof msg, pk), GROVE_ERR_VERIFY);
        pk[1] ^= 0x10;
        /* every field of the signature */
        size_t fields[] = {0, z.digest, 2 * z.digest, z.off_path, z.off_path + z.path - 1,
                           z.off_proof, z.off_proof + z.proof - 1, z.off_resp1, z.off_resp0,
                           z.off_resp0 + z.py - 1, z.off_resp0 + z.py, sl - 1};
        int all = 1;
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
            for (unsigned bit = 0; bit < 8; bit += 3)
                all &=
                    rejects(p, s, sig_f, sl, fields[f], (uint8_t)(1u << bit), msg, sizeof msg, pk);
        if (!all)
            printf("  %s (%s): a tampered byte was accepted\n", name,
                   grove_cross_strategy_name(s));
        CHECK(all);
        /* wrong lengths: a signature that does not verify (grove/common.h) */
        CHECK_EQ_INT(grove_cross_verify(p, s, sig_f, sl - 1, msg, sizeof msg, pk),
                     GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_cross_verify(p, s, sig_f, sl + 1, msg, sizeof msg, pk),
                     GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_cross_verify(p, s, sig_f, 1, msg, sizeof msg, pk), GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_cross_verify(p, s, sig_f, 0, msg, sizeof msg, pk), GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_cross_verify(p, s, sig_f, SIZE_MAX, msg, sizeof msg, pk),
                     GROVE_ERR_VERIFY);
        /* public-key syndrome padding (RSDP-G 9-bit and RSDP 7-bit packings both pad) */
        size_t nk = (size_t)(p->n - p->k);
        size_t padbits = z.ps * 8 - nk * z.bp;
        if (padbits > 0) {
            pk[pkl - 1] ^= 0x80; /* a malformed public key: an encoding error */
            CHECK_EQ_INT(grove_cross_verify(p, s, sig_f, sl, msg, sizeof msg, pk),
                         GROVE_ERR_ENCODING);
            pk[pkl - 1] ^= 0x80;
        }
        /* a syndrome value out of range (all ones in the first element) */
        {
            uint8_t pk2[256];
            memcpy(pk2, pk, pkl);
            pk2[z.digest] |= (uint8_t)(z.bp == 9 ? 0xFF : 0x7F);
            if (z.bp == 9)
                pk2[z.digest + 1] |= 0x01;
            CHECK_EQ_INT(grove_cross_verify(p, s, sig_f, sl, msg, sizeof msg, pk2),
                         GROVE_ERR_ENCODING);
        }
        /* nonzero padding of the path and of the proof (tree sets: not covered by hashes) */
        if (p->corner != 0) {
            CHECK(rejects(p, s, sig_f, sl, z.off_path + z.path - 1, 0x01, msg, sizeof msg, pk));
            CHECK(rejects(p, s, sig_f, sl, z.off_proof + z.proof - 1, 0x80, msg, sizeof msg, pk));
        }
        /* out-of-range v_bar: all ones in the first exponent of the first response */
        CHECK(rejects(p, s, sig_f, sl, z.off_resp0 + z.py, (uint8_t)(z.bz == 3 ? 0x07 : 0x7F), msg,
                      sizeof msg, pk));
        /* nonzero padding bits of packed y / v_bar of the first response */
        size_t ypad = z.py * 8 - (size_t)p->n * z.bp;
        if (ypad > 0)
            CHECK(rejects(p, s, sig_f, sl, z.off_resp0 + z.py - 1, 0x80, msg, sizeof msg, pk));
        size_t vpad = z.pv * 8 - z.nv * z.bz;
        if (vpad > 0)
            CHECK(rejects(p, s, sig_f, sl, z.off_resp0 + z.resp0 - 1, 0x80, msg, sizeof msg, pk));
        /* attached form */
        size_t smcap = sizeof msg + sl, smlen = 0, mlen = 0;
        uint8_t *sm = malloc(smcap), *m1 = malloc(smcap);
        CHECK_EQ_INT(grove_cross_sign_attached(p, s, sm, smcap, &smlen, msg, sizeof msg, sk),
                     GROVE_OK);
        CHECK_EQ_INT(smlen, smcap);
        CHECK_MEM(sm, msg, sizeof msg);
        CHECK_EQ_INT(grove_cross_open(p, s, m1, smcap, &mlen, sm, smlen, pk), GROVE_OK);
        CHECK_EQ_INT(mlen, sizeof msg);
        CHECK_MEM(m1, msg, sizeof msg);
        CHECK_EQ_INT(grove_cross_open(p, s, m1, smcap, &mlen, sm, sl - 1, pk), GROVE_ERR_VERIFY);
        CHECK_EQ_INT(mlen, 0);
        CHECK_EQ_INT(grove_cross_open(p, s, m1, smcap, &mlen, sm, 0, pk), GROVE_ERR_VERIFY);
        /* short capacities: the length needed, nothing written */
        memset(m1, 0xA5, smcap);
        CHECK_EQ_INT(grove_cross_open(p, s, m1, sizeof msg - 1, &mlen, sm, smlen, pk),
                     GROVE_ERR_BUFFER_TOO_SMALL);
        CHECK_EQ_INT(mlen, sizeof msg);
        CHECK(m1[0] == 0xA5 && m1[sizeof msg - 2] == 0xA5);
        size_t need = 0;
        CHECK_EQ_INT(grove_cross_sign_attached(p, s, m1, smcap - 1, &need, msg, sizeof msg, sk),
                     GROVE_ERR_BUFFER_TOO_SMALL);
        CHECK_EQ_INT(need, smcap);
        CHECK(m1[0] == 0xA5 && m1[smcap - 2] == 0xA5);
        sm[smlen - 5] ^= 4;
        CHECK_EQ_INT(grove_cross_open(p, s, m1, smcap, &mlen, sm, smlen, pk), GROVE_ERR_VERIFY);
        /* fresh randomness: a different signature that still verifies */
        CHECK_EQ_INT(grove_cross_sign(p, s, sig_s, msg, sizeof msg, sk), GROVE_OK);
        CHECK(memcmp(sig_s, sig_f, sl) != 0);
        CHECK_EQ_INT(grove_cross_verify(p, s ^ 1, sig_s, sl, msg, sizeof msg, pk), GROVE_OK);
        free(sm);
        free(m1);
    }
    /* garbage: random signatures, and a valid one with random path/proof/responses */
    for (int si = 0; si < 2; si++) {
        grove_cross_strategy s = si ? GROVE_CROSS_SMALL_MEMORY : GROVE_CROSS_FAST;
        int all = 1;
        for (int k = 0; k < 3; k++) {
            test_rand_bytes(st, sig_s, sl);
            all &= grove_cross_verify(p, s, sig_s, sl, msg, sizeof msg, pk) == GROVE_ERR_VERIFY;
            memcpy(sig_s, sig_f, sl);
            size_t from = k == 0 ? z.off_path : k == 1 ? z.off_resp1 : 3 * z.digest / 2;
            test_rand_bytes(st, sig_s + from, sl - from);
            all &= grove_cross_verify(p, s, sig_s, sl, msg, sizeof msg, pk) == GROVE_ERR_VERIFY;
        }
        CHECK(all);
    }
    /* caller-provided workspace */
    for (int si = 0; si < 2; si++) {
        grove_cross_strategy s = si ? GROVE_CROSS_SMALL_MEMORY : GROVE_CROSS_FAST;
        size_t wsn = grove_cross_workspace_bytes(p, s, GROVE_CROSS_OP_SIGN);
        size_t wvn = grove_cross_workspace_bytes(p, s, GROVE_CROSS_OP_VERIFY);
        CHECK(wsn > 0 && wvn > 0);
        uint64_t *ws = malloc((wsn > wvn ? wsn : wvn) + 8);
        CHECK_EQ_INT(grove_cross_sign_ws(p, s, sig_s, msg, 10, sk, ws, wsn), GROVE_OK);
        CHECK_EQ_INT(grove_cross_verify_ws(p, s, sig_s, sl, msg, 10, pk, ws, wvn), GROVE_OK);
        /* the workspace verifier follows the same length rule */
        CHECK_EQ_INT(grove_cross_verify_ws(p, s, sig_s, sl - 1, msg, 10, pk, ws, wvn),
                     GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_cross_verify_ws(p, s, sig_s, 0, msg, 10, pk, ws, wvn), GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_cross_verify_ws(p, s, sig_s, SIZE_MAX, msg, 10, pk, ws, wvn),
                     GROVE_ERR_VERIFY);
        CHECK_EQ_INT(grove_cross_sign_ws(p, s, sig_s, msg, 10, sk, ws, wsn - 8),
                     GROVE_ERR_BUFFER_TOO_SMALL);
        CHECK_EQ_INT(grove_cross_verify_ws(p, s, sig_s, sl, msg, 10, pk, ws, wvn - 8),
                     GROVE_ERR_BUFFER_TOO_SMALL);
        CHECK_EQ_INT(grove_cross_verify_ws(p, s, sig_s, sl, msg, 10, pk, (uint8_t *)ws + 4, wvn),
                     GROVE_ERR_INVALID_ARG);
        free(ws);
    }
    /* argument checks */
    CHECK_EQ_INT(grove_cross_sign(p, GROVE_CROSS_FAST, sig_s, msg, 1, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_cross_sign(p, GROVE_CROSS_FAST, NULL, msg, 1, sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_cross_sign(p, GROVE_CROSS_FAST, sig_s, NULL, 1, sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_cross_verify(p, GROVE_CROSS_FAST, sig_s, sl, msg, 1, NULL),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_cross_keygen_from_seed(p, pk, sk, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_cross_sign(p, (grove_cross_strategy)7, sig_s, msg, 1, sk),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_cross_keygen(p, pk, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_cross_keygen(p, pk, sk), GROVE_OK);
    free(sig_f);
    free(sig_s);
}

int main(void)
{
    test_arith();
    test_packing();
    test_names();
    uint64_t st = 0x1234;
    for (size_t i = 0; i < grove_cross_params_count(); i++)
        test_set(grove_cross_params_at(i), &st);
    return test_done();
}
