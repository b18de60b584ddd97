/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* DGSP's hash layer, WOTS+ in both profiles, and AES-based zeta (spec dgsp.md sections 1-2). */
#include <openssl/evp.h>
#include <pthread.h>
#include <string.h>

#include "common/util.h"
#include "dgsp/dgsp_int.h"
#include "hash/dispatch.h"
#include "hash/keccak.h"
#include "hash/sha2.h"
#include "sphincs/spx.h"

void dgsp_sizes_of(const grove_dgsp_cfg *cfg, dgsp_sizes *s)
{
    s->n = cfg->n;
    s->len = 2 * cfg->n + 3;
    s->wots_sig = s->len * s->n;
    s->spx_sig = grove_slhdsa_sig_bytes(cfg->spx);
    s->cert = 16 + s->n + s->spx_sig;
    s->sig = s->wots_sig + s->n + 16 + s->spx_sig + s->n;
}

int dgsp_cfg_ok(const grove_dgsp_cfg *cfg)
{
    return cfg != NULL && cfg->params != NULL && cfg->spx != NULL &&
           grove_slhdsa_n(cfg->spx) == cfg->n &&
           (cfg->profile == GROVE_DGSP_PROFILE_GROVE ||
            cfg->profile == GROVE_DGSP_PROFILE_DGSP_RS_0_1);
}

/* The hash family is the SPHINCS+ set's (its descriptor's field), never guessed from a name. */
static int is_shake(const grove_dgsp_cfg *cfg)
{
    return cfg->spx->sha2 == 0;
}

/* a || b || c (at most bs - 9 bytes in all) as one padded SHA-256 (bs = 64) or SHA-512 (bs = 128)
 * block: 0x80, zeros, the bit length big-endian in the last 8 bytes (SHA-512's upper length
 * word is zero here) */
static void one_block(uint8_t *blk, size_t bs, const uint8_t *a, size_t alen, const uint8_t *b,
                      size_t blen, const uint8_t *c, size_t clen)
{
    size_t len = alen + blen + clen;
    if (alen)
        memcpy(blk, a, alen);
    if (blen)
        memcpy(blk + alen, b, blen);
    if (clen)
        memcpy(blk + alen + blen, c, clen);
    memset(blk + len, 0, bs - 8 - len);
    blk[len] = 0x80;
    grove_store64_be(blk + bs - 8, (uint64_t)len * 8);
}

void dgsp_hash(const grove_dgsp_cfg *cfg, uint8_t *out, const uint8_t *a, size_t alen,
               const uint8_t *b, size_t blen, const uint8_t *c, size_t clen)
{
    if (is_shake(cfg) && alen + blen + clen < 136) {
        /* one SHAKE256 block (the credential and most DGSP hashes): the padded block XORed
         * into the zero state, one permutation, the first n bytes; the state holds secrets
         * and is wiped */
        uint64_t st[25];
        uint8_t blk[136];
        size_t len = alen + blen + clen;
        if (alen)
            memcpy(blk, a, alen);
        if (blen)
            memcpy(blk + alen, b, blen);
        if (clen)
            memcpy(blk + alen + blen, c, clen);
        memset(blk + len, 0, sizeof blk - len);
        blk[len] ^= 0x1F;
        blk[sizeof blk - 1] ^= 0x80;
        for (size_t i = 0; i < 17; i++)
            st[i] = grove_load64_le(blk + 8 * i);
        memset(st + 17, 0, 8 * 8);
        grove_keccakf1600(st);
        for (size_t i = 0; i < cfg->n / 8; i++)
            grove_store64_le(out + 8 * i, st[i]);
        grove_wipe(blk, sizeof blk);
        grove_wipe(st, sizeof st);
    } else if (is_shake(cfg)) {
        grove_keccak_ctx k;
        grove_shake256_init(&k);
        grove_keccak_absorb(&k, a, alen);
        grove_keccak_absorb(&k, b, blen);
        grove_keccak_absorb(&k, c, clen);
        grove_keccak_squeeze(&k, out, cfg->n);
        grove_wipe(&k, sizeof k);
    } else if (cfg->n == 16 && alen + blen + clen <= 55) {
        /* one block (the credential and most DGSP hashes): padded here and compressed once,
         * without the context's buffering; block and state hold secrets and are wiped */
        grove_sha256_ctx s;
        grove_sha256_init(&s);
        uint8_t blk[64];
        one_block(blk, sizeof blk, a, alen, b, blen, c, clen);
        grove_sha256_compress(s.s, blk, 1);
        for (size_t i = 0; i < cfg->n / 4; i++)
            grove_store32_be(out + 4 * i, s.s[i]);
        grove_wipe(blk, sizeof blk);
        grove_wipe(s.s, sizeof s.s);
    } else if (cfg->n == 16) {
        grove_sha256_ctx s;
        grove_sha256_init(&s);
        grove_sha256_update(&s, a, alen);
        grove_sha256_update(&s, b, blen);
        grove_sha256_update(&s, c, clen);
        grove_sha256_final(&s, out, cfg->n);
    } else if (alen + blen + clen <= 111) {
        /* one SHA-512 block, as the SHA-256 case above (n = 24, 32: outputs of 3 or 4 words) */
        grove_sha512_ctx s;
        grove_sha512_init(&s);
        uint8_t blk[128];
        one_block(blk, sizeof blk, a, alen, b, blen, c, clen);
        grove_sha512_compress(s.s, blk, 1);
        for (size_t i = 0; i < cfg->n / 8; i++)
            grove_store64_be(out + 8 * i, s.s[i]);
        grove_wipe(blk, sizeof blk);
        grove_wipe(s.s, sizeof s.s);
    } else {
        grove_sha512_ctx s;
        grove_sha512_init(&s);
        grove_sha512_update(&s, a, alen);
        grove_sha512_update(&s, b, blen);
        grove_sha512_update(&s, c, clen);
        grove_sha512_final(&s, out, cfg->n);
    }
}

void dgsp_hash_msg(const grove_dgsp_cfg *cfg, uint8_t *out, const uint8_t *pub_seed,
                   const uint8_t *msg, size_t msglen)
{
    uint8_t block[128];
    memset(block, 0, sizeof block);
    memcpy(block, pub_seed, cfg->n);
    if (is_shake(cfg)) {
        grove_keccak_ctx k;
        grove_shake256_init(&k);
        grove_keccak_absorb(&k, pub_seed, cfg->n);
        grove_keccak_absorb(&k, msg, msglen);
        grove_keccak_squeeze(&k, out, cfg->n);
    } else if (cfg->n == 16) {
        grove_sha256_ctx s;
        grove_sha256_init(&s);
        grove_sha256_update(&s, block, 64);
        grove_sha256_update(&s, msg, msglen);
        grove_sha256_final(&s, out, cfg->n);
    } else {
        grove_sha512_ctx s;
        grove_sha512_init(&s);
        grove_sha512_update(&s, block, 128);
        grove_sha512_update(&s, msg, msglen);
        grove_sha512_final(&s, out, cfg->n);
    }
}

/* ---- WOTS+ --------------------------------------------------------------------------------- */

/* F, PRF and T_len of DGSP: SPHINCS+ "simple" tweakable hashes with SHA-256 for all of them. */
static void wots_ctx(const grove_dgsp_cfg *cfg, spx_ctx *c, const uint8_t *pub_seed,
                     const uint8_t *sk_seed)
{
    spx_ctx_init(c, (unsigned)cfg->n, !is_shake(cfg), 0, pub_seed, sk_seed);
}

static void dgsp_adrs(hs_adrs *a, uint32_t type)
{
    hs_adrs_init(a, HS_ADRS_SPHINCS);
    hs_adrs_set_layer(a, DGSP_LAYER);
    hs_adrs_set_type(a, type);
}

/*
 * dgsp-rs-0.1: every chain starts at s = PRF(A5), every step uses A0, checksum digits are 0.
 * chain[j] = F^j(s) for j = 0..15.
 */
static void compat_chain(const spx_ctx *c, size_t n, uint8_t chain[16][GROVE_DGSP_MAX_N])
{
    hs_adrs a5, a0;
    dgsp_adrs(&a5, SPX_ADRS_WOTS_PRF);
    dgsp_adrs(&a0, SPX_ADRS_WOTS_HASH);
    spx_thash(c, chain[0], &a5, c->sk_seed, 1);
    for (int j = 1; j < 16; j++)
        spx_thash(c, chain[j], &a0, chain[j - 1], 1);
    (void)n;
}

/* dgsp-rs-0.1: the message digits of WOTS+, checksum digits 0. */
static void compat_digits(const spx_ctx *c, const uint8_t *digest, uint8_t *digits)
{
    hs_wots_digits(&c->wots, digest, digits);
    memset(digits + c->wots.len1, 0, c->wots.len2);
}

static void compat_compress(const spx_ctx *c, size_t len, const uint8_t *ends, uint8_t *pk)
{
    hs_adrs a1;
    dgsp_adrs(&a1, SPX_ADRS_WOTS_PK);
    spx_thash(c, pk, &a1, ends, (unsigned)len);
}

int dgsp_wots_pk_sign(const grove_dgsp_cfg *cfg, const uint8_t *pub_seed, const uint8_t *sk_seed,
                      const uint8_t *digest, uint8_t *pk, uint8_t *sig)
{
    const size_t n = cfg->n, len = 2 * n + 3;
    uint8_t digits[DGSP_MAX_LEN];
    spx_ctx c;
    int r = GROVE_OK;
    wots_ctx(cfg, &c, pub_seed, sk_seed);
    if (cfg->profile == GROVE_DGSP_PROFILE_GROVE) {
        hs_adrs base;
        dgsp_adrs(&base, 0);
        if (digest)
            hs_wots_digits(&c.wots, digest, digits);
        r = spx_wots_gen_pks(&c, &base, 0, 1, pk, 0, digest ? digits : NULL, digest ? sig : NULL);
    } else {
        uint8_t chain[16][GROVE_DGSP_MAX_N], ends[DGSP_MAX_LEN * GROVE_DGSP_MAX_N];
        compat_chain(&c, n, chain);
        for (size_t i = 0; i < len; i++)
            memcpy(ends + i * n, chain[15], n);
        compat_compress(&c, len, ends, pk);
        if (digest) {
            compat_digits(&c, digest, digits);
            for (size_t i = 0; i < len; i++)
                memcpy(sig + i * n, chain[digits[i]], n);
        }
        grove_wipe(chain, sizeof chain);
    }
    spx_ctx_wipe(&c);
    return r;
}

int dgsp_wots_pk(const grove_dgsp_cfg *cfg, const uint8_t *pub_seed, const uint8_t *sk_seed,
                 uint8_t *pk)
{
    return dgsp_wots_pk_sign(cfg, pub_seed, sk_seed, NULL, pk, NULL);
}

/* Lanes the hash layer hashes in one wide call for F (1 without a wide kernel). */
static size_t f_width(const spx_ctx *c)
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    size_t w = c->sha2 ? k->sha256_w : k->keccak_w;
    return w < 1 ? 1 : w > DGSP_WALK_MAX_W ? DGSP_WALK_MAX_W : w;
}

/*
 * The chain ends of a WOTS+ signature (the GROVE profile: FIPS 205 chains, hash word = the
 * position): lane i from digits[i] to 15. Every call of the hash layer takes the (up to) w
 * chains with the most steps left, whatever their positions (each lane carries its own ADRS),
 * so the wide kernel stays full: about ceil(steps / w) calls, where walking all chains at one
 * position together (spx_chains_walk) needs one call per position and per w chains there
 * (for a sha2-128f signature about 17 calls of 16 lanes instead of 20 and 10 single hashes:
 * the lanes left over at a position go to the one-message path). The chains wait in
 * buckets by steps left (1..15). Public data only.
 */
static void dgsp_walk_from_sig(const spx_ctx *c, uint8_t *const lanes[], const uint8_t *digits,
                               size_t len)
{
    const size_t w = f_width(c);
    uint8_t bucket[16][DGSP_MAX_LEN], count[16] = {0};
    uint8_t pick[DGSP_WALK_MAX_W], left[DGSP_WALK_MAX_W];
    uint8_t *in[DGSP_WALK_MAX_W], *out[DGSP_WALK_MAX_W];
    for (size_t i = 0; i < len; i++) {
        unsigned r = 15u - digits[i];
        if (r > 0)
            bucket[r][count[r]++] = (uint8_t)i;
    }
    for (;;) {
        size_t m = 0;
        for (unsigned r = 15; r > 0 && m < w; r--)
            for (; count[r] > 0 && m < w; m++) {
                uint8_t i = bucket[r][--count[r]];
                uint8_t *l = lanes[i];
                grove_store32_be(l + c->hash_off, 15u - r); /* the position */
                pick[m] = i;
                left[m] = (uint8_t)(r - 1);
                in[m] = l;
                out[m] = l + c->pre;
            }
        if (m == 0)
            return;
        spx_thash_lanes(c, 1, in, out, m);
        for (size_t k = 0; k < m; k++)
            if (left[k] > 0)
                bucket[left[k]][count[left[k]]++] = pick[k];
    }
}

void dgsp_wots_pk_from_sig(const grove_dgsp_cfg *cfg, const uint8_t *pub_seed, const uint8_t *sig,
                           const uint8_t *msg, size_t msglen, uint8_t *pk)
{
    const size_t n = cfg->n, len = 2 * n + 3;
    uint8_t digest[GROVE_DGSP_MAX_N], digits[DGSP_MAX_LEN];
    spx_ctx c;
    wots_ctx(cfg, &c, pub_seed, NULL);
    dgsp_hash_msg(cfg, digest, pub_seed, msg, msglen);
    if (cfg->profile == GROVE_DGSP_PROFILE_GROVE) {
        uint8_t lanes[DGSP_MAX_LEN][SPX_MAX_PRE + GROVE_DGSP_MAX_N], *lp[DGSP_MAX_LEN];
        uint8_t pk_lane[SPX_MAX_PRE + DGSP_MAX_LEN * GROVE_DGSP_MAX_N];
        hs_adrs a;
        dgsp_adrs(&a, SPX_ADRS_WOTS_HASH);
        hs_wots_digits(&c.wots, digest, digits);
        for (size_t i = 0; i < len; i++) {
            hs_adrs_set_chain(&a, (uint32_t)i);
            spx_lane_init(&c, lanes[i], &a);
            memcpy(lanes[i] + c.pre, sig + i * n, n);
            lp[i] = lanes[i];
        }
        /* With the SHA-NI few-lane chain kernel, the fused chain kernels (lanes sorted by
         * their first position, the wide kernel for full groups, SHA-NI for the rest) beat the
         * one-call-per-step walk: sha2-128f judge 0.90, sha2-256f 0.76 of its CPU time on an
         * AMD EPYC Zen 5 (docs/benchmarks.md). Without SHA-NI (and for SHAKE) the walk keeps
         * the wide kernel fuller and needs fewer instructions. */
        if (c.sha2 && grove_hash_kernels()->sha256_chains_few != NULL)
            spx_chains_walk(&c, lp, len, 1, digits, NULL, NULL, NULL);
        else
            dgsp_walk_from_sig(&c, lp, digits, len);
        dgsp_adrs(&a, SPX_ADRS_WOTS_PK);
        spx_lane_init(&c, pk_lane, &a);
        for (size_t i = 0; i < len; i++)
            memcpy(pk_lane + c.pre + i * n, lanes[i] + c.pre, n);
        uint8_t *pl[1] = {pk_lane}, *po[1] = {pk};
        spx_thash_lanes(&c, (unsigned)len, pl, po, 1);
    } else {
        /* Every chain under A0 from its digit to 15, all chains of a position together. */
        uint8_t lanes[DGSP_MAX_LEN][SPX_MAX_PRE + GROVE_DGSP_MAX_N], *lp[DGSP_MAX_LEN];
        uint8_t ends[DGSP_MAX_LEN * GROVE_DGSP_MAX_N];
        hs_adrs a0;
        dgsp_adrs(&a0, SPX_ADRS_WOTS_HASH);
        compat_digits(&c, digest, digits);
        for (size_t i = 0; i < len; i++) {
            spx_lane_init(&c, lanes[i], &a0);
            memcpy(lanes[i] + c.pre, sig + i * n, n);
            lp[i] = lanes[i];
        }
        spx_chains_walk(&c, lp, len, 0, digits, NULL, NULL, NULL);
        for (size_t i = 0; i < len; i++)
            memcpy(ends + i * n, lanes[i] + c.pre, n);
        compat_compress(&c, len, ends, pk);
    }
}

/* ---- AES ------------------------------------------------------------------------------------ */

/*
 * The AES-ECB ciphers, fetched once from the default library context: EVP_aes_*_ecb() makes
 * every EVP_EncryptInit_ex fetch the implementation again (about 2,600 instructions, a third of
 * a revocation). If a fetch failed, the implicit one is used.
 */
static EVP_CIPHER *aes_fetched[3];
static pthread_once_t aes_once = PTHREAD_ONCE_INIT;

static void aes_fetch(void)
{
    aes_fetched[0] = EVP_CIPHER_fetch(NULL, "AES-128-ECB", NULL);
    aes_fetched[1] = EVP_CIPHER_fetch(NULL, "AES-192-ECB", NULL);
    aes_fetched[2] = EVP_CIPHER_fetch(NULL, "AES-256-ECB", NULL);
}

static const EVP_CIPHER *aes_for(size_t n)
{
    pthread_once(&aes_once, aes_fetch);
    const EVP_CIPHER *c = aes_fetched[n == 16 ? 0 : n == 24 ? 1 : 2];
    if (c != NULL)
        return c;
    return n == 16 ? EVP_aes_128_ecb() : n == 24 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();
}

int dgsp_zetas(const grove_dgsp_cfg *cfg, const uint8_t *aes_key, uint64_t id, uint64_t first,
               uint64_t count, uint8_t *out)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int r = GROVE_ERR_INTERNAL;
    if (ctx == NULL)
        return GROVE_ERR_NOMEM;
    if (EVP_EncryptInit_ex(ctx, aes_for(cfg->n), NULL, aes_key, NULL) != 1 ||
        EVP_CIPHER_CTX_set_padding(ctx, 0) != 1)
        goto out;
    /* Plaintext blocks written into out, encrypted in place in chunks. */
    while (count > 0) {
        uint64_t chunk = count < 4096 ? count : 4096;
        for (uint64_t i = 0; i < chunk; i++) {
            grove_store64_be(out + 16 * i, id);
            grove_store64_be(out + 16 * i + 8, first + i);
        }
        int outl = 0;
        if (EVP_EncryptUpdate(ctx, out, &outl, out, (int)(16 * chunk)) != 1 ||
            outl != (int)(16 * chunk))
            goto out;
        out += 16 * chunk;
        first += chunk;
        count -= chunk;
    }
    r = GROVE_OK;
out:
    EVP_CIPHER_CTX_free(ctx); /* cleanses the key schedule */
    return r;
}

int dgsp_unzeta(const grove_dgsp_cfg *cfg, const uint8_t *aes_key, const uint8_t *zeta,
                uint64_t *id, uint64_t *ctr)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    uint8_t block[16];
    int outl = 0, r = GROVE_ERR_INTERNAL;
    if (ctx == NULL)
        return GROVE_ERR_NOMEM;
    if (EVP_DecryptInit_ex(ctx, aes_for(cfg->n), NULL, aes_key, NULL) == 1 &&
        EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
        EVP_DecryptUpdate(ctx, block, &outl, zeta, 16) == 1 && outl == 16) {
        *id = grove_load64_be(block);
        if (ctr)
            *ctr = grove_load64_be(block + 8);
        r = GROVE_OK;
    }
    EVP_CIPHER_CTX_free(ctx);
    grove_wipe(block, sizeof block);
    return r;
}

void dgsp_cid(const grove_dgsp_cfg *cfg, const uint8_t *hash_secret, uint64_t id, uint8_t *cid,
              uint8_t *cid_star)
{
    uint8_t idb[8];
    grove_store64_be(idb, id);
    dgsp_hash(cfg, cid, hash_secret, cfg->n, idb, 8, NULL, 0);
    if (cid_star)
        dgsp_hash(cfg, cid_star, cid, cfg->n, idb, 8, NULL, 0);
}
