/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Mithril certificate verification: the rules of mithril-common's MithrilCertificateVerifier
 * (certificate_chain/certificate_verifier.rs), in its order, for one certificate given its
 * predecessor and for a whole set of certificates (docs/mithril.md).
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "common/encoding.h"
#include "mithril/mithril_internal.h"

/* ---- rules -------------------------------------------------------------------------------- */

static const struct {
    const char *name, *text;
} rules[] = {
    {"ok", "the certificate holds"},
    {"decode", "a field is missing or does not decode"},
    {"unsupported", "SNARK-era fields grove does not verify"},
    {"infinite_loop", "the certificate's previous_hash is its own hash"},
    {"hash", "hash is not the hash of the certificate's content"},
    {"signed_message", "signed_message is not the hash of the protocol message"},
    {"multi_signature", "the STM multi-signature does not verify with the AVK and parameters"},
    {"genesis_signature", "the genesis signature does not verify with the genesis key"},
    {"epoch", "the protocol message's current_epoch is not the certificate's epoch"},
    {"missing_epoch", "the epoch is more than one away from the previous certificate's"},
    {"previous_hash", "previous_hash is not the previous certificate's hash"},
    {"avk", "the AVK is not the one the previous certificate signed for this epoch"},
    {"parameters", "the parameters are not the ones the previous certificate signed"},
    {"previous_missing", "the previous certificate is not given"},
    {"previous_invalid", "an earlier certificate of its chain is invalid"},
    {"duplicate", "a second certificate with this hash, or a map key that is not its hash"},
};

const char *grove_mithril_rule_name(grove_mithril_rule rule)
{
    return (size_t)rule < sizeof rules / sizeof rules[0] ? rules[rule].name : "unknown";
}

const char *grove_mithril_rule_text(grove_mithril_rule rule)
{
    return (size_t)rule < sizeof rules / sizeof rules[0] ? rules[rule].text : "unknown rule";
}

/* ---- genesis key and signature ------------------------------------------------------------ */

static bool is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

grove_status grove_mithril_genesis_key_from_text(uint8_t vk[GROVE_MITHRIL_GENESIS_VK_BYTES],
                                                 const char *text, size_t len)
{
    if (vk == NULL || (text == NULL && len > 0))
        return GROVE_ERR_INVALID_ARG;
    while (len > 0 && is_space(text[0]))
        text++, len--;
    while (len > 0 && is_space(text[len - 1]))
        len--;
    uint8_t buf[1024], key[32];
    size_t n;
    if (len > 2 * sizeof buf || grove_hex_decode(buf, sizeof buf, &n, text, len) != GROVE_OK)
        return GROVE_ERR_ENCODING;
    if (n == 32)
        memcpy(key, buf, 32);
    else if (!mithril_json_bytes(key, 32, (const char *)buf, n))
        return GROVE_ERR_ENCODING;
    EVP_PKEY *pk = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, key, 32);
    if (pk == NULL)
        return GROVE_ERR_ENCODING;
    EVP_PKEY_free(pk);
    memcpy(vk, key, 32);
    return GROVE_OK;
}

/* Ed25519 (RFC 8032, OpenSSL) on the signed message's text. */
static bool ed25519_ok(const uint8_t vk[32], const uint8_t sig[64], const char *msg, size_t len)
{
    EVP_PKEY *pk = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, vk, 32);
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    bool ok = pk != NULL && m != NULL && EVP_DigestVerifyInit(m, NULL, NULL, NULL, pk) == 1 &&
              EVP_DigestVerify(m, sig, 64, (const unsigned char *)msg, len) == 1;
    EVP_MD_CTX_free(m);
    EVP_PKEY_free(pk);
    return ok;
}

/* ---- the checks --------------------------------------------------------------------------- */

static bool str_eq(const char *a, size_t al, const char *b, size_t bl)
{
    return al == bl && (al == 0 || memcmp(a, b, al) == 0);
}

grove_mithril_rule mithril_check_before_sig(const grove_mithril_cert *c, const uint8_t *gvk,
                                            const char **detail)
{
    *detail = NULL;
    if (c->decode_rule != GROVE_MITHRIL_OK) {
        *detail = c->decode_detail;
        return c->decode_rule;
    }
    if (!c->genesis &&
        str_eq(c->hash, c->hash_len, c->previous_hash, c->previous_hash_len))
        return GROVE_MITHRIL_INFINITE_LOOP;
    if (!str_eq(c->hash, c->hash_len, c->computed_hash, 64))
        return GROVE_MITHRIL_HASH;
    if (!str_eq(c->signed_message, c->signed_message_len, c->message_hash, 64))
        return GROVE_MITHRIL_SIGNED_MESSAGE;
    if (c->genesis && (gvk == NULL || !ed25519_ok(gvk, c->genesis_sig, c->signed_message,
                                                  c->signed_message_len)))
        return GROVE_MITHRIL_GENESIS_SIGNATURE;
    return GROVE_MITHRIL_OK;
}

bool mithril_stm_params(const grove_mithril_cert *c, grove_stm_params *p)
{
    p->m = c->params.m;
    p->k = c->params.k;
    p->phi_f = c->params.phi_f;
    return grove_stm_params_check(p) == GROVE_OK;
}

grove_status mithril_check_sig(const grove_mithril_cert *c, const char **detail)
{
    grove_stm_params p;
    *detail = NULL;
    if (!mithril_stm_params(c, &p)) {
        *detail = "parameters outside grove's STM range";
        return GROVE_ERR_VERIFY;
    }
    grove_status st = grove_stm_aggregate_verify(&p, c->agg, (const uint8_t *)c->signed_message,
                                                 c->signed_message_len, &c->avk);
    if (st == GROVE_ERR_NOMEM)
        return st;
    return st == GROVE_OK ? GROVE_OK : GROVE_ERR_VERIFY;
}

grove_mithril_rule mithril_check_after_sig(const grove_mithril_cert *c, const char **detail)
{
    *detail = NULL;
    /* current_epoch == the epoch's decimal text */
    char buf[24];
    size_t n = 0;
    uint64_t e = c->epoch;
    do {
        buf[sizeof buf - 1 - n++] = (char)('0' + e % 10);
        e /= 10;
    } while (e != 0);
    if (c->current_epoch == NULL) {
        *detail = "no current_epoch part";
        return GROVE_MITHRIL_EPOCH;
    }
    if (!str_eq(c->current_epoch, strlen(c->current_epoch), buf + sizeof buf - n, n))
        return GROVE_MITHRIL_EPOCH;
    return GROVE_MITHRIL_OK;
}

static bool avk_eq(const grove_stm_avk *a, const grove_stm_avk *b)
{
    return a->nr_leaves == b->nr_leaves && a->total_stake == b->total_stake &&
           memcmp(a->root, b->root, sizeof a->root) == 0;
}

grove_mithril_rule mithril_check_links(const grove_mithril_cert *c, const grove_mithril_cert *p,
                                       const char **detail)
{
    *detail = NULL;
    if (p == NULL)
        return GROVE_MITHRIL_PREVIOUS_MISSING;
    if (p->decode_rule != GROVE_MITHRIL_OK) {
        *detail = "the previous certificate does not decode";
        return GROVE_MITHRIL_PREVIOUS_INVALID;
    }
    uint64_t gap = c->epoch > p->epoch ? c->epoch - p->epoch : p->epoch - c->epoch;
    if (gap > 1)
        return GROVE_MITHRIL_MISSING_EPOCH;
    if (!str_eq(p->hash, p->hash_len, c->previous_hash, c->previous_hash_len))
        return GROVE_MITHRIL_PREVIOUS_HASH;
    bool same = p->epoch == c->epoch;
    if (same ? !avk_eq(&p->avk, &c->avk) : !(p->next_avk_ok && avk_eq(&p->next_avk, &c->avk))) {
        *detail = same ? "not the previous certificate's AVK (same epoch)"
                       : "not the previous certificate's next_aggregate_verification_key";
        return GROVE_MITHRIL_AVK;
    }
    bool params_ok = same ? (p->params.k == c->params.k && p->params.m == c->params.m &&
                             p->params.phi_fixed == c->params.phi_fixed)
                          : (p->next_params != NULL &&
                             str_eq(p->next_params, strlen(p->next_params), c->params_hash, 64));
    if (!params_ok) {
        *detail = same ? "not the previous certificate's parameters (same epoch)"
                       : "not the previous certificate's next_protocol_parameters";
        return GROVE_MITHRIL_PARAMETERS;
    }
    return GROVE_MITHRIL_OK;
}

/* ---- one certificate ---------------------------------------------------------------------- */

grove_status grove_mithril_cert_verify(const grove_mithril_cert *c, grove_mithril_rule *rule,
                                       const char **detail, const grove_mithril_cert *prev,
                                       const uint8_t genesis_vk[GROVE_MITHRIL_GENESIS_VK_BYTES])
{
    const char *d = NULL;
    if (detail != NULL)
        *detail = NULL;
    if (c == NULL || rule == NULL || genesis_vk == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_mithril_rule r = mithril_check_before_sig(c, genesis_vk, &d);
    if (r == GROVE_MITHRIL_OK && !c->genesis) {
        grove_status st = mithril_check_sig(c, &d);
        if (st == GROVE_ERR_NOMEM)
            return st;
        if (st != GROVE_OK)
            r = GROVE_MITHRIL_MULTI_SIGNATURE;
    }
    if (r == GROVE_MITHRIL_OK)
        r = mithril_check_after_sig(c, &d);
    if (r == GROVE_MITHRIL_OK && !c->genesis)
        r = mithril_check_links(c, prev, &d);
    *rule = r;
    if (detail != NULL)
        *detail = d;
    return r == GROVE_MITHRIL_OK ? GROVE_OK : GROVE_ERR_VERIFY;
}

/* ---- a set of certificates ---------------------------------------------------------------- */

typedef struct chain_entry {
    grove_mithril_cert *cert;
    grove_mithril_rule rule; /* verdict */
    const char *detail;
    bool key_mismatch; /* map key is not the certificate's hash */
} chain_entry;

struct grove_mithril_chain {
    chain_entry *e;
    size_t n;
};

grove_status grove_mithril_chain_from_json(grove_mithril_chain **chain, const char *in,
                                           size_t in_len)
{
    if (chain == NULL || (in == NULL && in_len > 0))
        return GROVE_ERR_INVALID_ARG;
    *chain = NULL;
    if (in_len > GROVE_MITHRIL_MAX_INPUT)
        return GROVE_ERR_ENCODING;
    grove_json_doc *doc = NULL;
    grove_status st = grove_json_parse(&doc, in, in_len);
    if (st != GROVE_OK)
        return st;
    const grove_json_node *root = grove_json_root(doc);
    /* one certificate: an object with a string "hash"; a map: an object of objects */
    bool single = root->type == GROVE_JSON_OBJECT &&
                  grove_json_get(doc, root, "hash") != NULL &&
                  grove_json_get(doc, root, "hash")->type == GROVE_JSON_STRING;
    bool map = root->type == GROVE_JSON_OBJECT && !single;
    if (root->type != GROVE_JSON_OBJECT && root->type != GROVE_JSON_ARRAY) {
        grove_json_free(doc);
        return GROVE_ERR_ENCODING;
    }
    size_t n = single ? 1 : root->count;
    if (!single)
        for (const grove_json_node *e = grove_json_first(doc, root); e; e = grove_json_next(doc, e))
            if (e->type != GROVE_JSON_OBJECT) {
                grove_json_free(doc);
                return GROVE_ERR_ENCODING;
            }
    grove_mithril_chain *ch = calloc(1, sizeof *ch);
    if (ch == NULL || (n > 0 && (ch->e = calloc(n, sizeof *ch->e)) == NULL)) {
        free(ch);
        grove_json_free(doc);
        return GROVE_ERR_NOMEM;
    }
    /* each signer's G2 key decoded (and subgroup-checked) once for the whole chain; without
     * memory for the cache every key is decoded as it comes */
    stm_vk_cache *cache = stm_vk_cache_new();
    const grove_json_node *e = single ? root : grove_json_first(doc, root);
    for (size_t i = 0; i < n && st == GROVE_OK; i++, e = single ? NULL : grove_json_next(doc, e)) {
        st = mithril_cert_from_node(&ch->e[i].cert, doc, e, cache);
        ch->n = i + 1;
        if (st == GROVE_OK && map) {
            size_t kl;
            const char *k = grove_json_key(doc, e, &kl);
            const grove_mithril_cert *c = ch->e[i].cert;
            ch->e[i].key_mismatch = !str_eq(k, kl, grove_mithril_cert_hash(c),
                                            strlen(grove_mithril_cert_hash(c)));
        }
    }
    stm_vk_cache_free(cache);
    grove_json_free(doc);
    if (st != GROVE_OK) {
        grove_mithril_chain_free(ch);
        return st;
    }
    *chain = ch;
    return GROVE_OK;
}

void grove_mithril_chain_free(grove_mithril_chain *ch)
{
    if (ch == NULL)
        return;
    for (size_t i = 0; i < ch->n; i++)
        grove_mithril_cert_free(ch->e[i].cert);
    free(ch->e);
    free(ch);
}

size_t grove_mithril_chain_count(const grove_mithril_chain *ch)
{
    return ch != NULL ? ch->n : 0;
}

const grove_mithril_cert *grove_mithril_chain_cert(const grove_mithril_chain *ch, size_t i)
{
    return ch != NULL && i < ch->n ? ch->e[i].cert : NULL;
}

grove_status grove_mithril_chain_result(const grove_mithril_chain *ch, size_t i,
                                        grove_mithril_rule *rule, const char **detail)
{
    if (ch == NULL || rule == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (i >= ch->n)
        return GROVE_ERR_NOT_FOUND;
    *rule = ch->e[i].rule;
    if (detail != NULL)
        *detail = ch->e[i].detail;
    return GROVE_OK;
}

/* Certificates sorted by hash (then file order), to find a predecessor by binary search. */
typedef struct hash_index {
    const char *h;
    size_t i;
} hash_index;

static int by_hash(const void *a, const void *b)
{
    const hash_index *x = a, *y = b;
    int r = strcmp(x->h, y->h);
    return r != 0 ? r : (x->i < y->i ? -1 : x->i > y->i);
}

/* Index of the first certificate (in file order) whose hash is h, or SIZE_MAX. */
static size_t find_hash(const hash_index *order, size_t n, const char *h)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(order[mid].h, h) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && strcmp(order[lo].h, h) == 0 ? order[lo].i : SIZE_MAX;
}

/* Multi-signatures of the certificates in todo[0..n): one batched check; if it fails (or is
 * refused), one by one. Sets ok[i]. */
static grove_status check_sigs(grove_mithril_chain *ch, const size_t *todo, size_t n, bool *ok,
                               const char **why)
{
    if (n == 0)
        return GROVE_OK;
    grove_stm_params *p = malloc(n * sizeof *p);
    const grove_stm_aggregate **aggs = malloc(n * sizeof *aggs);
    const uint8_t **msgs = malloc(n * sizeof *msgs);
    size_t *lens = malloc(n * sizeof *lens);
    grove_stm_avk *avks = malloc(n * sizeof *avks);
    grove_status st = GROVE_ERR_NOMEM;
    if (p && aggs && msgs && lens && avks) {
        bool all_params = true;
        for (size_t i = 0; i < n; i++) {
            const grove_mithril_cert *c = ch->e[todo[i]].cert;
            all_params &= mithril_stm_params(c, &p[i]);
            aggs[i] = c->agg;
            msgs[i] = (const uint8_t *)c->signed_message;
            lens[i] = c->signed_message_len;
            avks[i] = c->avk;
        }
        st = all_params ? grove_stm_aggregate_verify_batch(p, aggs, msgs, lens, avks, n)
                        : GROVE_ERR_VERIFY;
        if (st == GROVE_OK) {
            for (size_t i = 0; i < n; i++)
                ok[todo[i]] = true;
        } else if (st != GROVE_ERR_NOMEM) {
            st = GROVE_OK;
            for (size_t i = 0; i < n && st == GROVE_OK; i++) {
                grove_status s = mithril_check_sig(ch->e[todo[i]].cert, &why[todo[i]]);
                if (s == GROVE_ERR_NOMEM)
                    st = s;
                ok[todo[i]] = s == GROVE_OK;
            }
        }
    }
    free(p);
    free(aggs);
    free(msgs);
    free(lens);
    free(avks);
    return st;
}

grove_status grove_mithril_chain_verify(grove_mithril_chain *ch,
                                        const uint8_t genesis_vk[GROVE_MITHRIL_GENESIS_VK_BYTES])
{
    if (ch == NULL || genesis_vk == NULL)
        return GROVE_ERR_INVALID_ARG;
    size_t n = ch->n;
    if (n == 0)
        return GROVE_OK;
    hash_index *order = malloc(n * sizeof *order);
    size_t *todo = malloc(n * sizeof *todo),
           *prev = malloc(n * sizeof *prev);
    bool *sig_ok = calloc(n, sizeof *sig_ok);
    const char **sig_why = calloc(n, sizeof *sig_why);
    uint8_t *state = calloc(n, 1);
    grove_status st = GROVE_ERR_NOMEM;
    if (!order || !todo || !prev || !sig_ok || !sig_why || !state)
        goto out;
    for (size_t i = 0; i < n; i++) {
        order[i].h = grove_mithril_cert_hash(ch->e[i].cert);
        order[i].i = i;
    }
    qsort(order, n, sizeof *order, by_hash);

    /* 1. checks before the multi-signature; collect the multi-signatures to check */
    size_t ntodo = 0;
    for (size_t i = 0; i < n; i++) {
        chain_entry *e = &ch->e[i];
        const grove_mithril_cert *c = e->cert;
        e->rule = mithril_check_before_sig(c, genesis_vk, &e->detail);
        if (e->rule == GROVE_MITHRIL_OK && e->key_mismatch) {
            e->rule = GROVE_MITHRIL_DUPLICATE;
            e->detail = "the map key is not the certificate's hash";
        }
        if (e->rule == GROVE_MITHRIL_OK && find_hash(order, n, grove_mithril_cert_hash(c)) != i) {
            e->rule = GROVE_MITHRIL_DUPLICATE;
            e->detail = "an earlier certificate has the same hash";
        }
        if (e->rule == GROVE_MITHRIL_OK && !c->genesis)
            todo[ntodo++] = i;
    }
    /* 2. the multi-signatures (the costly part: pairings) */
    if ((st = check_sigs(ch, todo, ntodo, sig_ok, sig_why)) != GROVE_OK)
        goto out;
    /* 3. the rest, links included */
    for (size_t i = 0; i < n; i++) {
        chain_entry *e = &ch->e[i];
        const grove_mithril_cert *c = e->cert;
        prev[i] = SIZE_MAX;
        if (e->rule != GROVE_MITHRIL_OK)
            continue;
        if (!c->genesis && !sig_ok[i]) {
            e->rule = GROVE_MITHRIL_MULTI_SIGNATURE;
            e->detail = sig_why[i];
            continue;
        }
        if ((e->rule = mithril_check_after_sig(c, &e->detail)) != GROVE_MITHRIL_OK || c->genesis)
            continue;
        prev[i] = find_hash(order, n, grove_mithril_cert_previous_hash(c));
        e->rule = mithril_check_links(c, prev[i] == SIZE_MAX ? NULL : ch->e[prev[i]].cert,
                                      &e->detail);
    }
    /* 4. back to genesis: a certificate valid itself whose ancestor is not. state: 0 unknown,
     * 1 on the current path, 2 resolved. Iterative, so a long chain needs no deep stack. */
    for (size_t i = 0; i < n; i++) {
        size_t j = i, len = 0;
        while (state[j] == 0) {
            state[j] = 1;
            todo[len++] = j; /* the path, reusing todo */
            if (ch->e[j].rule != GROVE_MITHRIL_OK || ch->e[j].cert->genesis)
                break;
            j = prev[j]; /* set: the link check passed */
        }
        /* verdict of the end of the path: its own rule, or a loop (state 1: on this path) */
        bool bad = state[j] == 1 ? (ch->e[j].rule != GROVE_MITHRIL_OK || !ch->e[j].cert->genesis)
                                 : ch->e[j].rule != GROVE_MITHRIL_OK;
        for (size_t t = len; t-- > 0;) {
            chain_entry *e = &ch->e[todo[t]];
            if (bad && e->rule == GROVE_MITHRIL_OK) {
                e->rule = GROVE_MITHRIL_PREVIOUS_INVALID;
                e->detail = NULL;
            }
            state[todo[t]] = 2;
            bad = bad || e->rule != GROVE_MITHRIL_OK;
        }
    }
    st = GROVE_OK;
    for (size_t i = 0; i < n; i++)
        if (ch->e[i].rule != GROVE_MITHRIL_OK)
            st = GROVE_ERR_VERIFY;
out:
    free(order);
    free(todo);
    free(prev);
    free(sig_ok);
    free(sig_why);
    free(state);
    return st;
}
