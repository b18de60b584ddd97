/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Strict XMSS / XMSS^MT verification (RFC 8391 algorithms 14 and 17). */
#include <string.h>

#include "common/util.h"
#include "xmss/xmss_int.h"

/* Everything after H_msg: the chain of WOTS+ leaves and authentication paths up to the root. */
static grove_status verify_from(const grove_xmss_params *p, xmss_hash *x, const uint8_t *root,
                                const uint8_t *mh, const uint8_t *sig)
{
    const unsigned n = p->n, hp = p->hp, len = p->len;
    uint64_t idx = grove_load_be_n(sig, p->idx_bytes);
    if (p->h < 64 && (idx >> p->h) != 0)
        return GROVE_ERR_VERIFY;
    xmss_lanes w;
    if (xmss_lanes_alloc(&w, x, len) != GROVE_OK)
        return GROVE_ERR_NOMEM;
    uint8_t node[XMSS_MAX_N], leaf[XMSS_MAX_N];
    memcpy(node, mh, n);
    const uint8_t *s = sig + p->idx_bytes + n;
    for (unsigned j = 0; j < p->d; j++) {
        uint32_t lf = (uint32_t)(idx & ((1u << hp) - 1));
        uint64_t tree = idx >> hp;
        xmss_wots_leaf_from_sig(x, &w, j, tree, lf, node, s, leaf);
        s += (size_t)len * n;
        for (unsigned u = 0; u < hp; u++, s += n) {
            uint32_t parent = lf >> (u + 1);
            if ((lf >> u) & 1)
                xmss_tree_node(x, &w, j, tree, u, parent, s, leaf, leaf);
            else
                xmss_tree_node(x, &w, j, tree, u, parent, leaf, s, leaf);
        }
        memcpy(node, leaf, n);
        idx = tree;
    }
    int ok = grove_ct_memeq(node, root, n);
    xmss_lanes_free(&w);
    return ok ? GROVE_OK : GROVE_ERR_VERIFY;
}

grove_status xmss_verify_digest(const grove_xmss_params *p, const uint8_t *root,
                                const uint8_t *pub_seed, const uint8_t *mh, const uint8_t *sig)
{
    xmss_hash x;
    xmss_hash_init(&x, p, pub_seed, NULL);
    grove_status rc = verify_from(p, &x, root, mh, sig);
    xmss_hash_wipe(&x);
    return rc;
}

grove_status xmss_verify_internal(const grove_xmss_params *p, const uint8_t *root,
                                  const uint8_t *pub_seed, const uint8_t *msg, size_t msglen,
                                  const uint8_t *sig, size_t siglen)
{
    if (sig == NULL || (msg == NULL && msglen > 0) || siglen != p->sig_bytes)
        return GROVE_ERR_VERIFY;
    uint64_t idx = grove_load_be_n(sig, p->idx_bytes);
    if (p->h < 64 && (idx >> p->h) != 0)
        return GROVE_ERR_VERIFY;
    xmss_hash x;
    xmss_hash_init(&x, p, pub_seed, NULL);
    uint8_t mh[XMSS_MAX_N];
    xmss_hmsg hm;
    xmss_hmsg_init(&x, &hm, sig + p->idx_bytes, root, idx);
    xmss_hmsg_update(&hm, msg, msglen);
    xmss_hmsg_final(&hm, mh);
    grove_status rc = verify_from(p, &x, root, mh, sig);
    xmss_hash_wipe(&x);
    return rc;
}

grove_status grove_xmss_pk_params(grove_xmss_family family, const grove_xmss_params **p,
                                  const uint8_t *pk, size_t pk_len)
{
    if (p != NULL)
        *p = NULL;
    if (family != GROVE_XMSS_FAMILY_XMSS && family != GROVE_XMSS_FAMILY_XMSSMT)
        return GROVE_ERR_INVALID_ARG;
    if (pk == NULL || pk_len < 4)
        return GROVE_ERR_ENCODING;
    const grove_xmss_params *q = grove_xmss_params_from_oid(family, grove_load32_be(pk));
    if (q == NULL)
        return GROVE_ERR_UNSUPPORTED;
    if (pk_len != q->pk_bytes)
        return GROVE_ERR_ENCODING;
    if (p != NULL)
        *p = q;
    return GROVE_OK;
}

grove_status grove_xmss_verify(grove_xmss_family family, const uint8_t *sig, size_t sig_len,
                               const uint8_t *msg, size_t msg_len, const uint8_t *pk, size_t pk_len)
{
    if (sig == NULL || (msg == NULL && msg_len > 0))
        return GROVE_ERR_INVALID_ARG;
    const grove_xmss_params *p;
    grove_status rc = grove_xmss_pk_params(family, &p, pk, pk_len);
    if (rc != GROVE_OK)
        return rc;
    return xmss_verify_internal(p, pk + 4, pk + 4 + p->n, msg, msg_len, sig, sig_len);
}

grove_status grove_xmss_sig_index(const grove_xmss_params *p, uint64_t *idx, const uint8_t *sig,
                                  size_t sig_len)
{
    if (p == NULL || sig == NULL || idx == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (sig_len != p->sig_bytes)
        return GROVE_ERR_ENCODING;
    *idx = grove_load_be_n(sig, p->idx_bytes);
    return GROVE_OK;
}
