/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SLH-DSA / SPHINCS+ internal algorithms: keygen, FORS, hypertree, sign, verify. */
#include <stdlib.h>
#include <string.h>

#include "common/ct.h"
#include "common/util.h"
#include "sphincs/spx.h"

static void ctx_for(const grove_slhdsa_params *p, spx_ctx *c, const uint8_t *pk_seed,
                    const uint8_t *sk_seed)
{
    spx_ctx_init(c, p->n, p->sha2, p->n > 16, pk_seed, sk_seed);
}

/* ---- leaf generators ------------------------------------------------------------------------ */

struct wots_leaves {
    const spx_ctx *c;
    hs_adrs base; /* layer and tree set */
    uint32_t sig_kp;
    const uint8_t *digits;
    uint8_t *sig;
};

static int wots_leaf_fn(void *arg, uint32_t first, unsigned count, uint8_t *out)
{
    struct wots_leaves *w = arg;
    return spx_wots_gen_pks(w->c, &w->base, first, count, out, w->sig_kp, w->digits, w->sig);
}

struct fors_leaves {
    const spx_ctx *c;
    hs_adrs base; /* layer, tree, keypair; type set below */
    uint32_t offset; /* t * 2^a */
};

#define FORS_BATCH 32

static int fors_leaf_fn(void *arg, uint32_t first, unsigned count, uint8_t *out)
{
    struct fors_leaves *f = arg;
    const spx_ctx *c = f->c;
    const unsigned n = c->n;
    /* The lane buffer of a leaf is its ADRS (written once per batch as a template: only the
     * tree index, the last ADRS word, changes from leaf to leaf) then the data. */
    const size_t idx_off = c->hash_off;
    uint8_t lanes[FORS_BATCH][SPX_MAX_PRE + SPX_MAX_N];
    uint8_t prf_head[SPX_MAX_PRE], leaf_head[SPX_MAX_PRE];
    uint8_t *lp[FORS_BATCH], *op[FORS_BATCH];
    hs_adrs a = f->base;
    uint32_t kp = grove_load32_be(f->base.b + 20);
    hs_adrs_set_type(&a, SPX_ADRS_FORS_PRF);
    hs_adrs_set_keypair(&a, kp);
    spx_lane_init(c, prf_head, &a);
    hs_adrs_set_type(&a, SPX_ADRS_FORS_TREE);
    hs_adrs_set_keypair(&a, kp); /* height 0 */
    spx_lane_init(c, leaf_head, &a);
    unsigned used = 0; /* lanes that held SK.seed or a FORS secret: wiped at the end */
    for (unsigned done = 0; done < count; done += FORS_BATCH) {
        unsigned b = count - done < FORS_BATCH ? count - done : FORS_BATCH;
        used = b > used ? b : used;
        for (unsigned i = 0; i < b; i++) {
            memcpy(lanes[i], prf_head, c->pre);
            grove_store32_be(lanes[i] + idx_off, f->offset + first + done + i);
            memcpy(lanes[i] + c->pre, c->sk_seed, n);
            lp[i] = lanes[i];
            op[i] = lanes[i] + c->pre;
        }
        spx_thash_lanes(c, 1, lp, op, b);
        for (unsigned i = 0; i < b; i++) {
            memcpy(lanes[i], leaf_head, c->pre);
            grove_store32_be(lanes[i] + idx_off, f->offset + first + done + i);
            op[i] = out + (size_t)(done + i) * n;
        }
        spx_thash_lanes(c, 1, lp, op, b);
    }
    grove_wipe(lanes, used * sizeof lanes[0]);
    return GROVE_OK;
}

/* ---- message digest ----------------------------------------------------------------------- */

static void prf_msg(const grove_slhdsa_params *p, uint8_t *r, const uint8_t *sk_prf,
                    const uint8_t *opt_rand, const uint8_t *prefix, size_t prefixlen,
                    const uint8_t *msg, size_t msglen)
{
    const unsigned n = p->n;
    if (!p->sha2) {
        grove_keccak_ctx k;
        grove_shake256_init(&k);
        grove_keccak_absorb(&k, sk_prf, n);
        grove_keccak_absorb(&k, opt_rand, n);
        grove_keccak_absorb(&k, prefix, prefixlen);
        grove_keccak_absorb(&k, msg, msglen);
        grove_keccak_squeeze(&k, r, n);
        grove_wipe(&k, sizeof k);
    } else if (n == 16) {
        grove_hmac_sha256_ctx h;
        grove_hmac_sha256_init(&h, sk_prf, n);
        grove_hmac_sha256_update(&h, opt_rand, n);
        grove_hmac_sha256_update(&h, prefix, prefixlen);
        grove_hmac_sha256_update(&h, msg, msglen);
        grove_hmac_sha256_final(&h, r, n);
        grove_wipe(&h, sizeof h);
    } else {
        grove_hmac_sha512_ctx h;
        grove_hmac_sha512_init(&h, sk_prf, n);
        grove_hmac_sha512_update(&h, opt_rand, n);
        grove_hmac_sha512_update(&h, prefix, prefixlen);
        grove_hmac_sha512_update(&h, msg, msglen);
        grove_hmac_sha512_final(&h, r, n);
        grove_wipe(&h, sizeof h);
    }
}

static void h_msg(const grove_slhdsa_params *p, uint8_t *digest, const uint8_t *r,
                  const uint8_t *pk, const uint8_t *prefix, size_t prefixlen, const uint8_t *msg,
                  size_t msglen)
{
    const unsigned n = p->n;
    if (!p->sha2) {
        grove_keccak_ctx k;
        grove_shake256_init(&k);
        grove_keccak_absorb(&k, r, n);
        grove_keccak_absorb(&k, pk, 2 * (size_t)n);
        grove_keccak_absorb(&k, prefix, prefixlen);
        grove_keccak_absorb(&k, msg, msglen);
        grove_keccak_squeeze(&k, digest, p->m);
        return;
    }
    uint8_t seed[2 * SPX_MAX_N + 64];
    memcpy(seed, r, n);
    memcpy(seed + n, pk, n);
    if (n == 16) {
        grove_sha256_ctx s;
        grove_sha256_init(&s);
        grove_sha256_update(&s, r, n);
        grove_sha256_update(&s, pk, 2 * (size_t)n);
        grove_sha256_update(&s, prefix, prefixlen);
        grove_sha256_update(&s, msg, msglen);
        grove_sha256_final(&s, seed + 2 * n, 32);
        grove_mgf1_sha256(digest, p->m, seed, 2 * (size_t)n + 32);
    } else {
        grove_sha512_ctx s;
        grove_sha512_init(&s);
        grove_sha512_update(&s, r, n);
        grove_sha512_update(&s, pk, 2 * (size_t)n);
        grove_sha512_update(&s, prefix, prefixlen);
        grove_sha512_update(&s, msg, msglen);
        grove_sha512_final(&s, seed + 2 * n, 64);
        grove_mgf1_sha512(digest, p->m, seed, 2 * (size_t)n + 64);
    }
}

/* Split the digest into FORS indices, the tree index and the leaf index. */
static void split_digest(const grove_slhdsa_params *p, const uint8_t *digest, uint32_t *indices,
                         uint64_t *idx_tree, uint32_t *idx_leaf)
{
    const unsigned a = p->a, k = p->k;
    size_t md_bytes = (k * a + 7) / 8;
    size_t tree_bits = p->h - p->hp, tree_bytes = (tree_bits + 7) / 8;
    size_t leaf_bytes = (p->hp + 7) / 8;
    for (unsigned i = 0; i < k; i++) {
        uint32_t v = 0;
        for (unsigned j = 0; j < a; j++) {
            size_t bit = (size_t)i * a + j;
            if (p->fips205) /* base_2b: big-endian bit string, MSB first */
                v = (v << 1) | ((digest[bit >> 3] >> (7 - (bit & 7))) & 1u);
            else /* round 3.1: LSB first within each byte, bit j -> bit j of the index */
                v |= (uint32_t)((digest[bit >> 3] >> (bit & 7)) & 1u) << j;
        }
        indices[i] = v;
    }
    uint64_t t = grove_load_be_n(digest + md_bytes, tree_bytes);
    if (tree_bits < 64)
        t &= ((uint64_t)1 << tree_bits) - 1;
    *idx_tree = t;
    uint64_t l = grove_load_be_n(digest + md_bytes + tree_bytes, leaf_bytes);
    *idx_leaf = (uint32_t)(l & (((uint64_t)1 << p->hp) - 1));
}

/* ---- FORS ------------------------------------------------------------------------------------ */

static int fors_sign(const grove_slhdsa_params *p, const spx_ctx *c, const hs_adrs *kp_adrs,
                     const uint32_t *indices, uint8_t *sig_fors, uint8_t *fors_pk)
{
    const unsigned n = p->n, a = p->a, k = p->k;
    uint8_t roots[SPX_MAX_K * SPX_MAX_N];
    struct fors_leaves fl = {c, *kp_adrs, 0};
    hs_adrs node = *kp_adrs;
    uint32_t kp = grove_load32_be(kp_adrs->b + 20);
    hs_adrs_set_type(&node, SPX_ADRS_FORS_TREE);
    hs_adrs_set_keypair(&node, kp);
    for (unsigned t = 0; t < k; t++) {
        uint8_t *out = sig_fors + (size_t)t * (a + 1) * n;
        fl.offset = t << a;
        /* The secret value of the chosen leaf. */
        hs_adrs s = *kp_adrs;
        hs_adrs_set_type(&s, SPX_ADRS_FORS_PRF);
        hs_adrs_set_keypair(&s, kp);
        hs_adrs_set_tree_index(&s, fl.offset + indices[t]);
        spx_thash(c, out, &s, c->sk_seed, 1);
        int r = spx_merkle_tree(c, a, fors_leaf_fn, &fl, &node, fl.offset, indices[t],
                                roots + (size_t)t * n, out + n);
        if (r != GROVE_OK)
            return r;
    }
    hs_adrs rt = *kp_adrs;
    hs_adrs_set_type(&rt, SPX_ADRS_FORS_ROOTS);
    hs_adrs_set_keypair(&rt, kp);
    spx_thash(c, fors_pk, &rt, roots, k);
    return GROVE_OK;
}

/* All k FORS trees at once: their leaves, then each level of their authentication paths, are
 * one batch of independent hashes each. */
static void fors_pk_from_sig(const grove_slhdsa_params *p, const spx_ctx *c,
                             const hs_adrs *kp_adrs, const uint32_t *indices,
                             const uint8_t *sig_fors, uint8_t *fors_pk)
{
    const unsigned n = p->n, a = p->a, k = p->k;
    const size_t lane_len = c->pre + 2 * (size_t)n;
    uint8_t roots[SPX_MAX_K * SPX_MAX_N];
    uint8_t lanes[SPX_MAX_K][SPX_MAX_PRE + 2 * SPX_MAX_N];
    uint8_t *lp[SPX_MAX_K], *op[SPX_MAX_K];
    uint32_t kp = grove_load32_be(kp_adrs->b + 20);
    hs_adrs node = *kp_adrs;
    hs_adrs_set_type(&node, SPX_ADRS_FORS_TREE);
    hs_adrs_set_keypair(&node, kp);
    /* leaves: F(sk_t) at height 0, index t * 2^a + idx_t */
    for (unsigned t = 0; t < k; t++) {
        hs_adrs l = node;
        hs_adrs_set_tree_index(&l, (t << a) + indices[t]);
        spx_lane_init(c, lanes[t], &l);
        memcpy(lanes[t] + c->pre, sig_fors + (size_t)t * (a + 1) * n, n);
        lp[t] = lanes[t];
        op[t] = roots + (size_t)t * n;
    }
    spx_thash_lanes(c, 1, lp, op, k);
    /* up the trees, one level for all k trees per batch */
    for (unsigned z = 0; z < a; z++) {
        for (unsigned t = 0; t < k; t++) {
            uint32_t idx = (t << a) + indices[t];
            const uint8_t *auth = sig_fors + (size_t)t * (a + 1) * n + n + (size_t)z * n;
            hs_adrs l = node;
            hs_adrs_set_tree_height(&l, z + 1);
            hs_adrs_set_tree_index(&l, idx >> (z + 1));
            spx_lane_init(c, lanes[t], &l);
            uint8_t *d = lanes[t] + c->pre;
            if (((idx >> z) & 1) == 0) {
                memcpy(d, roots + (size_t)t * n, n);
                memcpy(d + n, auth, n);
            } else {
                memcpy(d, auth, n);
                memcpy(d + n, roots + (size_t)t * n, n);
            }
        }
        spx_thash_lanes(c, 2, lp, op, k);
    }
    (void)lane_len;
    hs_adrs rt = *kp_adrs;
    hs_adrs_set_type(&rt, SPX_ADRS_FORS_ROOTS);
    hs_adrs_set_keypair(&rt, kp);
    spx_thash(c, fors_pk, &rt, roots, k);
}

/* ---- keygen / sign / verify ------------------------------------------------------------- */

static void tree_node_base(hs_adrs *a, uint32_t layer, uint64_t tree)
{
    hs_adrs_init(a, HS_ADRS_SPHINCS);
    hs_adrs_set_layer(a, layer);
    hs_adrs_set_tree(a, tree);
    hs_adrs_set_type(a, SPX_ADRS_TREE);
}

int spx_keygen_internal(const grove_slhdsa_params *p, uint8_t *pk, uint8_t *sk,
                        const uint8_t *sk_seed, const uint8_t *sk_prf, const uint8_t *pk_seed)
{
    const unsigned n = p->n;
    spx_ctx c;
    ctx_for(p, &c, pk_seed, sk_seed);
    struct wots_leaves wl = {&c, {{0}, HS_ADRS_SPHINCS}, UINT32_MAX, NULL, NULL};
    hs_adrs_set_layer(&wl.base, p->d - 1);
    hs_adrs node;
    tree_node_base(&node, p->d - 1, 0);
    uint8_t root[SPX_MAX_N];
    int r = spx_merkle_tree(&c, p->hp, wots_leaf_fn, &wl, &node, 0, 0, root, NULL);
    GROVE_DECLASSIFY(root, n); /* PK.root is public */
    spx_ctx_wipe(&c);
    if (r != GROVE_OK)
        return r;
    /* Copy the inputs before writing: sk may alias them. */
    uint8_t tmp[4 * SPX_MAX_N];
    memcpy(tmp, sk_seed, n);
    memcpy(tmp + n, sk_prf, n);
    memcpy(tmp + 2 * n, pk_seed, n);
    memcpy(tmp + 3 * n, root, n);
    memcpy(sk, tmp, 4 * (size_t)n);
    memcpy(pk, tmp + 2 * n, 2 * (size_t)n);
    grove_wipe(tmp, sizeof tmp);
    return GROVE_OK;
}

int spx_sign_internal(const grove_slhdsa_params *p, uint8_t *sig, const uint8_t *prefix,
                      size_t prefixlen, const uint8_t *msg, size_t msglen, const uint8_t *sk,
                      const uint8_t *opt_rand)
{
    const unsigned n = p->n, len = 2 * n + 3;
    const uint8_t *sk_seed = sk, *sk_prf = sk + n, *pk = sk + 2 * n;
    uint8_t digest[SPX_MAX_M], root[SPX_MAX_N], digits[SPX_MAX_LEN];
    uint32_t indices[SPX_MAX_K], idx_leaf;
    uint64_t idx_tree;
    spx_ctx c;
    int r;

    /* R = PRF_msg(SK.prf, opt_rand, M) */
    prf_msg(p, sig, sk_prf, opt_rand, prefix, prefixlen, msg, msglen);
    GROVE_DECLASSIFY(sig, n); /* R is part of the signature */
    h_msg(p, digest, sig, pk, prefix, prefixlen, msg, msglen);
    split_digest(p, digest, indices, &idx_tree, &idx_leaf);
    uint8_t *out = sig + n;

    ctx_for(p, &c, pk, sk_seed);
    hs_adrs kp_adrs;
    hs_adrs_init(&kp_adrs, HS_ADRS_SPHINCS);
    hs_adrs_set_tree(&kp_adrs, idx_tree);
    hs_adrs_set_type(&kp_adrs, SPX_ADRS_FORS_TREE);
    hs_adrs_set_keypair(&kp_adrs, idx_leaf);
    r = fors_sign(p, &c, &kp_adrs, indices, out, root);
    if (r != GROVE_OK)
        goto done;
    GROVE_DECLASSIFY(root, n); /* the FORS public key: the verifier recomputes it */
    out += (size_t)p->k * (p->a + 1) * n;

    for (unsigned layer = 0; layer < p->d; layer++) {
        hs_wots_digits(&c.wots, root, digits);
        struct wots_leaves wl = {&c, {{0}, HS_ADRS_SPHINCS}, idx_leaf, digits, out};
        hs_adrs_set_layer(&wl.base, layer);
        hs_adrs_set_tree(&wl.base, idx_tree);
        hs_adrs node;
        tree_node_base(&node, layer, idx_tree);
        r = spx_merkle_tree(&c, p->hp, wots_leaf_fn, &wl, &node, 0, idx_leaf, root,
                            out + (size_t)len * n);
        if (r != GROVE_OK)
            goto done;
        GROVE_DECLASSIFY(root, n); /* each tree root is public (signed by the layer above) */
        out += (size_t)(len + p->hp) * n;
        idx_leaf = (uint32_t)(idx_tree & ((1u << p->hp) - 1));
        idx_tree >>= p->hp;
    }
    if (memcmp(root, pk + n, n) != 0) /* the top root must be PK.root: detects a bad sk */
        r = GROVE_ERR_INVALID_ARG;
done:
    spx_ctx_wipe(&c);
    GROVE_DECLASSIFY(sig, p->sig_bytes);
    if (r != GROVE_OK)
        grove_wipe(sig, p->sig_bytes);
    return r;
}

int spx_verify_internal(const grove_slhdsa_params *p, const uint8_t *sig, size_t siglen,
                        const uint8_t *prefix, size_t prefixlen, const uint8_t *msg,
                        size_t msglen, const uint8_t *pk)
{
    const unsigned n = p->n, len = 2 * n + 3;
    if (siglen != p->sig_bytes)
        return GROVE_ERR_VERIFY;
    uint8_t digest[SPX_MAX_M], root[SPX_MAX_N], digits[SPX_MAX_LEN], wpk[SPX_MAX_N];
    uint32_t indices[SPX_MAX_K], idx_leaf;
    uint64_t idx_tree;
    spx_ctx c;

    h_msg(p, digest, sig, pk, prefix, prefixlen, msg, msglen);
    split_digest(p, digest, indices, &idx_tree, &idx_leaf);
    const uint8_t *in = sig + n;

    ctx_for(p, &c, pk, NULL);
    hs_adrs kp_adrs;
    hs_adrs_init(&kp_adrs, HS_ADRS_SPHINCS);
    hs_adrs_set_tree(&kp_adrs, idx_tree);
    hs_adrs_set_type(&kp_adrs, SPX_ADRS_FORS_TREE);
    hs_adrs_set_keypair(&kp_adrs, idx_leaf);
    fors_pk_from_sig(p, &c, &kp_adrs, indices, in, root);
    in += (size_t)p->k * (p->a + 1) * n;

    for (unsigned layer = 0; layer < p->d; layer++) {
        hs_wots_digits(&c.wots, root, digits);
        hs_adrs base, node;
        hs_adrs_init(&base, HS_ADRS_SPHINCS);
        hs_adrs_set_layer(&base, layer);
        hs_adrs_set_tree(&base, idx_tree);
        spx_wots_pk_from_sig(&c, &base, idx_leaf, in, digits, wpk);
        tree_node_base(&node, layer, idx_tree);
        spx_merkle_root_from_auth(&c, p->hp, &node, 0, idx_leaf, wpk, in + (size_t)len * n, root);
        in += (size_t)(len + p->hp) * n;
        idx_leaf = (uint32_t)(idx_tree & ((1u << p->hp) - 1));
        idx_tree >>= p->hp;
    }
    spx_ctx_wipe(&c);
    return grove_ct_memeq(root, pk + n, n) ? GROVE_OK : GROVE_ERR_VERIFY;
}
