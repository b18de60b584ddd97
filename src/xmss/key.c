/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The stateful secret key: reserve-then-sign through a persistence callback, batch
 * reservation, exhaustion, key split, and grove's private-key format (see grove/xmss.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/ct.h"
#include "common/util.h"
#include "xmss/xmss_int.h"

#define MAGIC "GRVXMSSK"
#define FORMAT_VERSION 2
#define CACHE_LAYOUT 1
#define HEADER_BYTES 72
#define EXT_BYTES 24 /* version 2: split generation (4), birth (4), parent id (16), before the tag */
#define TAG_BYTES 32
#define TAG_LABEL "GROVE-XMSS-PRIVATE-KEY-v1" /* both versions: the version is in the tagged bytes */
#define PART_ID_LABEL "grove-xmss-part-id-v2"
#define FLAG_EXHAUSTED 1u
#define MAX_BATCH (1u << 20)

struct grove_xmss_key {
    const grove_xmss_params *p;
    pthread_mutex_t mu;
    uint8_t sk_seed[XMSS_MAX_N], sk_prf[XMSS_MAX_N], pub_seed[XMSS_MAX_N], root[XMSS_MAX_N];
    uint8_t key_id[GROVE_XMSS_KEY_ID_BYTES];
    uint64_t idx;      /* next index to sign; the cache is positioned here */
    uint64_t reserved; /* high-water mark already persisted */
    uint64_t range_start, range_end;
    uint32_t generation; /* splits this key has made */
    uint32_t birth;      /* a split part: its parent's generation after the split; else 0 */
    uint8_t parent_id[GROVE_XMSS_KEY_ID_BYTES]; /* a split part's parent; zero otherwise */
    int has_seeds;     /* 0 once exhausted (seeds wiped) */
    xmss_hash hash;
    xmss_trav trav;
    xmss_lanes lanes;
    grove_xmss_persist_fn persist;
    void *persist_arg;
    uint32_t batch;
};

struct grove_xmss_sign_ctx {
    const grove_xmss_params *p;
    uint64_t idx;
    uint8_t root[XMSS_MAX_N], pub_seed[XMSS_MAX_N]; /* the public key, for the self-check */
    xmss_hash hash;
    xmss_hmsg hm;
    uint8_t *sig; /* everything but the layer-0 WOTS+ signature is filled at begin */
};

/* ---- the in-process registry -------------------------------------------------------------- */
/*
 * Key objects of the same key (same key id: a second load of a key file, the same seeds twice)
 * in one process share the highest reservation made so far; a reservation that does not start
 * at or above it is refused, so two objects never reserve the same index.
 */
typedef struct {
    uint8_t id[GROVE_XMSS_KEY_ID_BYTES];
    uint64_t hw;
} reg_entry;

static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static reg_entry *reg;
static size_t reg_n, reg_cap;

static reg_entry *reg_find(const uint8_t *id)
{
    for (size_t i = 0; i < reg_n; i++)
        if (memcmp(reg[i].id, id, GROVE_XMSS_KEY_ID_BYTES) == 0)
            return &reg[i];
    return NULL;
}

/* Claim [from, to); *prev receives the mark before (for reg_undo). */
static int reg_claim(const uint8_t *id, uint64_t from, uint64_t to, uint64_t *prev)
{
    grove_status rc = GROVE_OK;
    pthread_mutex_lock(&reg_mu);
    reg_entry *e = reg_find(id);
    if (e == NULL) {
        if (reg_n == reg_cap) {
            size_t cap = reg_cap ? 2 * reg_cap : 16;
            reg_entry *r = realloc(reg, cap * sizeof *r);
            if (r == NULL) {
                pthread_mutex_unlock(&reg_mu);
                return GROVE_ERR_NOMEM;
            }
            reg = r;
            reg_cap = cap;
        }
        e = &reg[reg_n++];
        memcpy(e->id, id, GROVE_XMSS_KEY_ID_BYTES);
        e->hw = 0;
    }
    if (e->hw > from) {
        rc = GROVE_ERR_STATE;
    } else {
        *prev = e->hw;
        e->hw = to;
    }
    pthread_mutex_unlock(&reg_mu);
    return rc;
}

/* The highest reservation of this key in the process (0 if none). */
static uint64_t reg_mark(const uint8_t *id)
{
    pthread_mutex_lock(&reg_mu);
    reg_entry *e = reg_find(id);
    uint64_t v = e ? e->hw : 0;
    pthread_mutex_unlock(&reg_mu);
    return v;
}

static void reg_undo(const uint8_t *id, uint64_t to, uint64_t prev)
{
    pthread_mutex_lock(&reg_mu);
    reg_entry *e = reg_find(id);
    if (e != NULL && e->hw == to)
        e->hw = prev;
    pthread_mutex_unlock(&reg_mu);
}

void xmss_registry_reset(void)
{
    pthread_mutex_lock(&reg_mu);
    free(reg);
    reg = NULL;
    reg_n = reg_cap = 0;
    pthread_mutex_unlock(&reg_mu);
}

/* ---- helpers ------------------------------------------------------------------------------ */

static void derive_key_id(const grove_xmss_params *p, const uint8_t *root, const uint8_t *pub_seed,
                          uint64_t range_start, uint8_t *id)
{
    uint8_t buf[8], digest[32];
    grove_sha256_ctx c;
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)"grove-xmss-key-id-v1", 20);
    buf[0] = p->mt;
    grove_sha256_update(&c, buf, 1);
    grove_store32_be(buf, p->oid);
    grove_sha256_update(&c, buf, 4);
    grove_sha256_update(&c, root, p->n);
    grove_sha256_update(&c, pub_seed, p->n);
    grove_store64_be(buf, range_start);
    grove_sha256_update(&c, buf, 8);
    grove_sha256_final(&c, digest, 32);
    memcpy(id, digest, GROVE_XMSS_KEY_ID_BYTES);
}

/*
 * The id of a split part: the parent's id, the parent's generation after the split and the
 * part's range start, under a label of its own, so a part's id never equals its parent's (or an
 * original key's) and two parts of one parent (different generations) never share one.
 */
static void derive_part_id(const grove_xmss_params *p, const uint8_t *root,
                           const uint8_t *pub_seed, const uint8_t *parent, uint32_t birth,
                           uint64_t range_start, uint8_t *id)
{
    uint8_t buf[8], digest[32];
    grove_sha256_ctx c;
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)PART_ID_LABEL, sizeof PART_ID_LABEL - 1);
    buf[0] = p->mt;
    grove_sha256_update(&c, buf, 1);
    grove_store32_be(buf, p->oid);
    grove_sha256_update(&c, buf, 4);
    grove_sha256_update(&c, root, p->n);
    grove_sha256_update(&c, pub_seed, p->n);
    grove_sha256_update(&c, parent, GROVE_XMSS_KEY_ID_BYTES);
    grove_store32_be(buf, birth);
    grove_sha256_update(&c, buf, 4);
    grove_store64_be(buf, range_start);
    grove_sha256_update(&c, buf, 8);
    grove_sha256_final(&c, digest, 32);
    memcpy(id, digest, GROVE_XMSS_KEY_ID_BYTES);
}

static int is_zero(const uint8_t *b, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= b[i];
    return acc == 0;
}

static void tag(const uint8_t *data, size_t len, uint8_t *out)
{
    grove_sha256_ctx c;
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)TAG_LABEL, strlen(TAG_LABEL));
    grove_sha256_update(&c, data, len);
    grove_sha256_final(&c, out, TAG_BYTES);
}

static size_t state_bytes_v(const grove_xmss_params *p, int exhausted, unsigned version)
{
    return HEADER_BYTES + 4 * (size_t)p->n + (exhausted ? 0 : xmss_trav_bytes(p)) +
           (version >= 2 ? EXT_BYTES : 0) + TAG_BYTES;
}

static size_t state_bytes(const grove_xmss_params *p, int exhausted)
{
    return state_bytes_v(p, exhausted, FORMAT_VERSION);
}

size_t xmss_state_max_bytes(const grove_xmss_params *p)
{
    return state_bytes(p, 0);
}

static void wipe_seeds(grove_xmss_key *k)
{
    grove_wipe(k->sk_seed, sizeof k->sk_seed);
    grove_wipe(k->sk_prf, sizeof k->sk_prf);
    xmss_hash_wipe(&k->hash);
    xmss_hash_init(&k->hash, k->p, k->pub_seed, NULL);
    k->has_seeds = 0;
}

/*
 * The state with the given counters. A state whose high-water mark reaches the range end can
 * never sign again: its seeds and cache are left out (flag "exhausted").
 */
static size_t write_state(const grove_xmss_key *k, uint8_t *out, uint64_t index, uint64_t hw,
                          uint64_t range_end, uint32_t generation)
{
    const grove_xmss_params *p = k->p;
    const unsigned n = p->n;
    int exhausted = hw >= range_end || !k->has_seeds;
    size_t cache = exhausted ? 0 : xmss_trav_bytes(p);
    size_t total = state_bytes(p, exhausted);
    memcpy(out, MAGIC, 8);
    out[8] = 0;
    out[9] = FORMAT_VERSION;
    out[10] = p->mt;
    out[11] = exhausted ? FLAG_EXHAUSTED : 0;
    grove_store32_be(out + 12, p->oid);
    grove_store64_be(out + 16, index);
    grove_store64_be(out + 24, hw);
    grove_store64_be(out + 32, k->range_start);
    grove_store64_be(out + 40, range_end);
    memcpy(out + 48, k->key_id, GROVE_XMSS_KEY_ID_BYTES);
    out[64] = CACHE_LAYOUT;
    out[65] = out[66] = out[67] = 0;
    grove_store32_be(out + 68, (uint32_t)cache);
    uint8_t *q = out + HEADER_BYTES;
    if (exhausted) {
        memset(q, 0, 2 * (size_t)n);
    } else {
        memcpy(q, k->sk_seed, n);
        memcpy(q + n, k->sk_prf, n);
    }
    memcpy(q + 2 * n, k->pub_seed, n);
    memcpy(q + 3 * n, k->root, n);
    q += 4 * (size_t)n;
    if (!exhausted)
        xmss_trav_save(&k->trav, q);
    q += cache;
    grove_store32_be(q, generation);
    grove_store32_be(q + 4, k->birth);
    memcpy(q + 8, k->parent_id, GROVE_XMSS_KEY_ID_BYTES);
    tag(out, total - TAG_BYTES, out + total - TAG_BYTES);
    return total;
}

/* Parse and check a state; fills info (pk included). force: the parameters (tests), or NULL. */
static int parse_state(const uint8_t *s, size_t len, const grove_xmss_params *force,
                       grove_xmss_state_info *info)
{
    memset(info, 0, sizeof *info);
    if (s == NULL || len < HEADER_BYTES + TAG_BYTES || memcmp(s, MAGIC, 8) != 0)
        return GROVE_ERR_ENCODING;
    unsigned version = ((unsigned)s[8] << 8) | s[9];
    if ((version != 1 && version != 2) || s[64] != CACHE_LAYOUT)
        return GROVE_ERR_UNSUPPORTED;
    if (s[10] > 1 || (s[11] & ~FLAG_EXHAUSTED) != 0 || s[65] || s[66] || s[67])
        return GROVE_ERR_ENCODING;
    const grove_xmss_params *p =
        force ? force : grove_xmss_params_from_oid((grove_xmss_family)s[10], grove_load32_be(s + 12));
    if (p == NULL || p->mt != s[10] || p->oid != grove_load32_be(s + 12))
        return GROVE_ERR_UNSUPPORTED;
    bool exhausted = (s[11] & FLAG_EXHAUSTED) != 0;
    if (len != state_bytes_v(p, exhausted, version) ||
        grove_load32_be(s + 68) != (exhausted ? 0 : xmss_trav_bytes(p)))
        return GROVE_ERR_ENCODING;
    uint8_t t[TAG_BYTES];
    tag(s, len - TAG_BYTES, t);
    if (!grove_ct_memeq(t, s + len - TAG_BYTES, TAG_BYTES))
        return GROVE_ERR_STATE;
    uint64_t index = grove_load64_be(s + 16), hw = grove_load64_be(s + 24);
    uint64_t start = grove_load64_be(s + 32), end = grove_load64_be(s + 40);
    uint64_t total = (uint64_t)1 << p->h;
    if (end > total || start > end || index < start || index > hw || hw > end ||
        (exhausted != 0) != (hw == end))
        return GROVE_ERR_STATE;
    const unsigned n = p->n;
    const uint8_t *pub_seed = s + HEADER_BYTES + 2 * n, *root = s + HEADER_BYTES + 3 * n;
    /* version 2: generation, birth and parent id just before the tag (version 1: all zero) */
    uint32_t generation = 0, birth = 0;
    uint8_t parent[GROVE_XMSS_KEY_ID_BYTES] = {0};
    if (version >= 2) {
        const uint8_t *e = s + len - TAG_BYTES - EXT_BYTES;
        generation = grove_load32_be(e);
        birth = grove_load32_be(e + 4);
        memcpy(parent, e + 8, sizeof parent);
    }
    bool has_parent = !is_zero(parent, sizeof parent);
    if (!has_parent && birth != 0)
        return GROVE_ERR_STATE;
    uint8_t id[GROVE_XMSS_KEY_ID_BYTES];
    if (has_parent)
        derive_part_id(p, root, pub_seed, parent, birth, start, id);
    else
        derive_key_id(p, root, pub_seed, start, id);
    if (!grove_ct_memeq(id, s + 48, sizeof id))
        return GROVE_ERR_STATE;
    info->params = p;
    info->version = version;
    info->index = index;
    info->high_water = hw;
    info->range_start = start;
    info->range_end = end;
    info->remaining = end - hw;
    info->exhausted = exhausted;
    info->generation = generation;
    info->birth = birth;
    info->has_parent = has_parent;
    memcpy(info->parent_id, parent, sizeof parent);
    memcpy(info->key_id, id, sizeof id);
    grove_store32_be(info->pk, p->oid);
    memcpy(info->pk + 4, root, n);
    memcpy(info->pk + 4 + n, pub_seed, n);
    info->pk_bytes = p->pk_bytes;
    info->form = GROVE_ENVELOPE_XMSS_KEY_FILE; /* a state is a bare key file */
    return GROVE_OK;
}

static grove_xmss_key *key_new(const grove_xmss_params *p)
{
    grove_xmss_key *k = calloc(1, sizeof *k);
    if (k == NULL)
        return NULL;
    if (pthread_mutex_init(&k->mu, NULL) != 0) {
        free(k);
        return NULL;
    }
    k->p = p;
    k->batch = 1;
    return k;
}

/* Allocate the cache and scratch once seeds and pub_seed are in place. */
static int key_setup(grove_xmss_key *k)
{
    xmss_hash_init(&k->hash, k->p, k->pub_seed, k->has_seeds ? k->sk_seed : NULL);
    grove_status rc = xmss_trav_alloc(&k->trav, k->p);
    if (rc == GROVE_OK)
        rc = xmss_lanes_alloc(&k->lanes, &k->hash, k->p->len);
    return rc;
}

void grove_xmss_key_free(grove_xmss_key *k)
{
    if (k == NULL)
        return;
    xmss_trav_free(&k->trav);
    xmss_lanes_free(&k->lanes);
    pthread_mutex_destroy(&k->mu);
    grove_wipe(k, sizeof *k);
    free(k);
}

/* ---- key generation ----------------------------------------------------------------------- */

grove_status grove_xmss_keygen_from_seed(const grove_xmss_params *p, grove_xmss_key **key,
                                         const uint8_t *sk_seed, const uint8_t *sk_prf,
                                         const uint8_t *pub_seed, const grove_xmss_opts *opts)
{
    if (key != NULL)
        *key = NULL;
    if (p == NULL || sk_seed == NULL || sk_prf == NULL || pub_seed == NULL || key == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_xmss_key *k = key_new(p);
    if (k == NULL)
        return GROVE_ERR_NOMEM;
    const unsigned n = p->n;
    memcpy(k->sk_seed, sk_seed, n);
    memcpy(k->sk_prf, sk_prf, n);
    memcpy(k->pub_seed, pub_seed, n);
    k->has_seeds = 1;
    k->range_start = 0;
    k->range_end = (uint64_t)1 << p->h;
    grove_status rc = key_setup(k);
    if (rc == GROVE_OK)
        rc = xmss_trav_init(&k->trav, &k->hash, 0, k->range_end, NULL, opts);
    if (rc != GROVE_OK) {
        grove_xmss_key_free(k);
        return rc;
    }
    memcpy(k->root, k->trav.ly[p->d - 1].root, n);
    GROVE_DECLASSIFY(k->root, n); /* the public key */
    derive_key_id(p, k->root, k->pub_seed, 0, k->key_id);
    *key = k;
    return GROVE_OK;
}

grove_status grove_xmss_keygen(const grove_xmss_params *p, grove_xmss_key **key,
                               const grove_xmss_opts *opts)
{
    if (key != NULL)
        *key = NULL;
    if (p == NULL || key == NULL)
        return GROVE_ERR_INVALID_ARG;
    uint8_t seed[3 * XMSS_MAX_N];
    const unsigned n = p->n;
    grove_status rc = grove_randombytes(seed, 3 * (size_t)n);
    if (rc == GROVE_OK)
        rc = grove_xmss_keygen_from_seed(p, key, seed, seed + n, seed + 2 * n, opts);
    grove_wipe(seed, sizeof seed);
    return rc;
}

/* ---- queries ------------------------------------------------------------------------------ */

const grove_xmss_params *grove_xmss_key_params(const grove_xmss_key *k)
{
    return k ? k->p : NULL;
}

grove_status grove_xmss_key_public_key(const grove_xmss_key *k, uint8_t *pk)
{
    if (k == NULL || pk == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_store32_be(pk, k->p->oid);
    memcpy(pk + 4, k->root, k->p->n);
    memcpy(pk + 4 + k->p->n, k->pub_seed, k->p->n);
    return GROVE_OK;
}

#define LOCKED(k, expr)                                                                      \
    do {                                                                                     \
        pthread_mutex_lock(&((grove_xmss_key *)(k))->mu);                                    \
        expr;                                                                                \
        pthread_mutex_unlock(&((grove_xmss_key *)(k))->mu);                                  \
    } while (0)

uint64_t grove_xmss_key_index(const grove_xmss_key *k)
{
    uint64_t v = 0;
    if (k)
        LOCKED(k, v = k->idx);
    return v;
}

uint64_t grove_xmss_key_remaining(const grove_xmss_key *k)
{
    uint64_t v = 0;
    if (k)
        LOCKED(k, v = k->has_seeds && k->idx < k->range_end ? k->range_end - k->idx : 0);
    return v;
}

void grove_xmss_key_range(const grove_xmss_key *k, uint64_t *start, uint64_t *end)
{
    uint64_t s = 0, e = 0;
    if (k)
        LOCKED(k, (s = k->range_start, e = k->range_end));
    if (start)
        *start = s;
    if (end)
        *end = e;
}

void grove_xmss_key_id(const grove_xmss_key *k, uint8_t id[GROVE_XMSS_KEY_ID_BYTES])
{
    if (k && id)
        memcpy(id, k->key_id, GROVE_XMSS_KEY_ID_BYTES);
}

grove_status grove_xmss_key_set_persist(grove_xmss_key *k, grove_xmss_persist_fn fn, void *arg)
{
    if (k == NULL)
        return GROVE_ERR_INVALID_ARG;
    LOCKED(k, (k->persist = fn, k->persist_arg = arg));
    return GROVE_OK;
}

grove_status grove_xmss_key_set_batch(grove_xmss_key *k, uint32_t batch)
{
    if (k == NULL || batch == 0 || batch > MAX_BATCH)
        return GROVE_ERR_INVALID_ARG;
    LOCKED(k, k->batch = batch);
    return GROVE_OK;
}

/* ---- state -------------------------------------------------------------------------------- */

static uint64_t cur_hw(const grove_xmss_key *k)
{
    return k->reserved > k->idx ? k->reserved : k->idx;
}

size_t grove_xmss_key_state_bytes(const grove_xmss_key *k)
{
    size_t v = 0;
    if (k)
        LOCKED(k, v = state_bytes(k->p, cur_hw(k) >= k->range_end || !k->has_seeds));
    return v;
}

grove_status grove_xmss_key_export(grove_xmss_key *k, uint8_t *out, size_t out_cap, size_t *out_len)
{
    if (k == NULL || out == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_status rc = GROVE_OK;
    pthread_mutex_lock(&k->mu);
    /* never below what another object of this key reserved: exporting must not roll back */
    uint64_t hw = cur_hw(k), mark = reg_mark(k->key_id);
    if (mark > hw)
        hw = mark < k->range_end ? mark : k->range_end;
    size_t need = state_bytes(k->p, hw >= k->range_end || !k->has_seeds);
    if (out_cap < need) {
        rc = GROVE_ERR_BUFFER_TOO_SMALL;
        if (out_len)
            *out_len = need;
    } else {
        size_t l = write_state(k, out, k->idx, hw, k->range_end, k->generation);
        if (out_len)
            *out_len = l;
    }
    pthread_mutex_unlock(&k->mu);
    return rc;
}

grove_status grove_xmss_state_info_get(grove_xmss_state_info *info, const uint8_t *state,
                                       size_t state_len)
{
    grove_xmss_state_info tmp;
    grove_status rc = parse_state(state, state_len, NULL, info ? info : &tmp);
    if (rc != GROVE_OK && info)
        memset(info, 0, sizeof *info);
    return rc;
}

/*
 * A cheap first look at a loaded cache, at the index it was saved at: the two cached nodes
 * below each layer's root must hash to that root, and the top layer's root is the public key.
 */
static int check_tops(grove_xmss_key *k)
{
    const grove_xmss_params *p = k->p;
    const unsigned n = p->n, hp = p->hp;
    xmss_trav *t = &k->trav;
    uint8_t r[XMSS_MAX_N];
    for (unsigned j = 0; j < t->d; j++) {
        const xmss_layer *ly = &t->ly[j];
        const xmss_level *top = &ly->lv[ly->nlevels - 1];
        /* the two nodes at height hp - 1 are the last two of the top level's array */
        const uint8_t *pair = top->cur + (top->nnodes - 2) * n;
        uint64_t tree = t->pos >> (hp * (j + 1));
        xmss_tree_node(&k->hash, &k->lanes, j, tree, hp - 1, 0, pair, pair + n, r);
        if (!grove_ct_memeq(r, ly->root, n))
            return GROVE_ERR_STATE;
    }
    if (!grove_ct_memeq(t->ly[t->d - 1].root, k->root, n))
        return GROVE_ERR_STATE;
    return GROVE_OK;
}

/*
 * The proof that the cache can sign at the index signing resumes at (t->pos): the layer-0 leaf
 * there, recomputed from SK_SEED and PUB_SEED, climbs through the cached authentication path to
 * the cached layer-0 root; for XMSS^MT, each upper layer's cached WOTS+ signature of the root
 * below gives its leaf, which climbs through that layer's authentication path to its cached
 * root; the top root is the public key. This is exactly what a verifier of the next signature
 * computes (the layer-0 WOTS+ signature is made from SK_SEED, so it leads to the recomputed leaf),
 * so a state that passes signs validly there. Cost: one WOTS+ leaf per layer and hp node hashes
 * per layer.
 */
static int check_paths(grove_xmss_key *k)
{
    const grove_xmss_params *p = k->p;
    const unsigned n = p->n, hp = p->hp;
    xmss_trav *t = &k->trav;
    uint8_t node[XMSS_MAX_N], auth[XMSS_MAX_HP * XMSS_MAX_N];
    int ok = 1;
    for (unsigned j = 0; j < t->d && ok; j++) {
        const xmss_layer *ly = &t->ly[j];
        uint64_t gl = t->pos >> (hp * j), tree = gl >> hp;
        uint32_t lf = (uint32_t)(gl & ((1u << hp) - 1));
        if (j == 0) {
            xmss_leaves(&k->hash, &k->lanes, 0, tree, lf, 1, node);
            /* a leaf is public: every verifier of a signature at this index recomputes it */
            GROVE_DECLASSIFY(node, n);
        } else {
            xmss_wots_leaf_from_sig(&k->hash, &k->lanes, j, tree, lf, t->ly[j - 1].root,
                                    ly->wots_sig, node);
        }
        xmss_trav_auth(t, j, auth);
        for (unsigned u = 0; u < hp; u++) {
            const uint8_t *a = auth + (size_t)u * n;
            if ((lf >> u) & 1)
                xmss_tree_node(&k->hash, &k->lanes, j, tree, u, lf >> (u + 1), a, node, node);
            else
                xmss_tree_node(&k->hash, &k->lanes, j, tree, u, lf >> (u + 1), node, a, node);
        }
        ok = grove_ct_memeq(node, ly->root, n);
    }
    if (ok)
        ok = grove_ct_memeq(t->ly[t->d - 1].root, k->root, n);
    grove_wipe(node, sizeof node);
    return ok ? GROVE_OK : GROVE_ERR_STATE;
}

grove_status grove_xmss_key_load(grove_xmss_key **key, const uint8_t *state, size_t state_len,
                                 const grove_xmss_opts *opts)
{
    return xmss_key_load_params(NULL, state, state_len, opts, key);
}

grove_status xmss_key_load_params(const grove_xmss_params *force, const uint8_t *state, size_t len,
                                  const grove_xmss_opts *opts, grove_xmss_key **key)
{
    if (key != NULL)
        *key = NULL;
    if (state == NULL || key == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_xmss_state_info info;
    grove_status rc = parse_state(state, len, force, &info);
    if (rc != GROVE_OK)
        return rc;
    const grove_xmss_params *p = info.params;
    const unsigned n = p->n;
    grove_xmss_key *k = key_new(p);
    if (k == NULL)
        return GROVE_ERR_NOMEM;
    const uint8_t *q = state + HEADER_BYTES;
    k->has_seeds = !info.exhausted;
    if (k->has_seeds) {
        memcpy(k->sk_seed, q, n);
        memcpy(k->sk_prf, q + n, n);
    }
    memcpy(k->pub_seed, q + 2 * n, n);
    memcpy(k->root, q + 3 * n, n);
    memcpy(k->key_id, info.key_id, sizeof k->key_id);
    memcpy(k->parent_id, info.parent_id, sizeof k->parent_id);
    k->generation = info.generation;
    k->birth = info.birth;
    k->range_start = info.range_start;
    k->range_end = info.range_end;
    k->idx = k->reserved = info.high_water; /* resume after everything that was reserved */
    rc = key_setup(k);
    if (rc == GROVE_OK && k->has_seeds) {
        rc = xmss_trav_load(&k->trav, q + 4 * n, info.index, info.range_end);
        if (rc == GROVE_OK)
            rc = check_tops(k);
        if (rc == GROVE_OK && info.high_water > info.index) {
            /* bring the cache from index to the high-water mark: steps, or a fresh start */
            uint64_t gap = info.high_water - info.index;
            uint64_t fresh = (uint64_t)p->d << p->hp;
            if (gap <= fresh) {
                while (k->trav.pos < info.high_water)
                    xmss_trav_step(&k->trav, &k->hash, &k->lanes);
            } else {
                xmss_trav tmp;
                rc = xmss_trav_alloc(&tmp, p);
                if (rc == GROVE_OK)
                    rc = xmss_trav_init(&tmp, &k->hash, info.high_water, info.range_end,
                                        &k->trav, opts);
                if (rc == GROVE_OK) {
                    xmss_trav_free(&k->trav);
                    k->trav = tmp;
                } else {
                    xmss_trav_free(&tmp);
                }
            }
        }
        /* the cache must produce a valid signature where signing resumes */
        if (rc == GROVE_OK)
            rc = check_paths(k);
    }
    if (rc != GROVE_OK) {
        grove_xmss_key_free(k);
        return rc;
    }
    *key = k;
    return GROVE_OK;
}

/* ---- signing ------------------------------------------------------------------------------ */

static void ctx_free(grove_xmss_sign_ctx *c)
{
    if (c == NULL)
        return;
    if (c->sig != NULL) {
        grove_wipe(c->sig, c->p->sig_bytes);
        free(c->sig);
    }
    grove_wipe(c, sizeof *c);
    free(c);
}

grove_status grove_xmss_key_sign_begin(grove_xmss_key *k, grove_xmss_sign_ctx **out,
                                       uint64_t *idx_out)
{
    if (out != NULL)
        *out = NULL;
    if (k == NULL || out == NULL)
        return GROVE_ERR_INVALID_ARG;
    const grove_xmss_params *p = k->p;
    const unsigned n = p->n, len = p->len, hp = p->hp;
    grove_xmss_sign_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return GROVE_ERR_NOMEM;
    c->p = p;
    c->sig = calloc(1, p->sig_bytes);
    if (c->sig == NULL) {
        free(c);
        return GROVE_ERR_NOMEM;
    }
    grove_status rc = GROVE_OK;
    pthread_mutex_lock(&k->mu);
    if (k->persist == NULL) {
        rc = GROVE_ERR_STATE;
    } else if (!k->has_seeds || k->idx >= k->range_end) {
        rc = GROVE_ERR_EXHAUSTED;
    } else {
        uint64_t i = k->idx, hw = 0, prev = 0;
        int need = i >= k->reserved;
        if (need) {
            hw = k->range_end - i > k->batch ? i + k->batch : k->range_end;
            rc = reg_claim(k->key_id, i, hw, &prev);
        }
        if (rc != GROVE_OK)
            goto out;
        /* the public parts: authentication paths, and the upper layers' cached signatures */
        uint8_t *s = c->sig + p->idx_bytes + n;
        for (unsigned j = 0; j < p->d; j++) {
            if (j > 0)
                memcpy(s, k->trav.ly[j].wots_sig, (size_t)len * n);
            s += (size_t)len * n;
            xmss_trav_auth(&k->trav, j, s);
            s += (size_t)hp * n;
        }
        xmss_trav_step(&k->trav, &k->hash, &k->lanes);
        k->idx = i + 1;
        if (need) {
            /* reserve durably before anything secret is computed for index i */
            size_t sl = state_bytes(p, hw >= k->range_end);
            uint8_t *buf = malloc(sl);
            if (buf == NULL) {
                rc = GROVE_ERR_NOMEM; /* index i is burned in memory; never signed */
            } else {
                write_state(k, buf, k->idx, hw, k->range_end, k->generation);
                int prc = k->persist(k->persist_arg, buf, sl);
                grove_wipe(buf, sl);
                free(buf);
                if (prc != 0)
                    rc = GROVE_ERR_STORAGE;
                else
                    k->reserved = hw;
            }
            if (rc != GROVE_OK)
                reg_undo(k->key_id, hw, prev);
        }
        if (rc == GROVE_OK) {
            c->idx = i;
            c->hash = k->hash; /* the context signs on its own from here */
            memcpy(c->root, k->root, p->n);
            memcpy(c->pub_seed, k->pub_seed, p->n);
            grove_store_be_n(c->sig, p->idx_bytes, i);
            uint8_t m[32];
            memset(m, 0, sizeof m);
            grove_store64_be(m + 24, i);
            xmss_prf_keyed(&k->hash, c->sig + p->idx_bytes, k->sk_prf, m);
        }
        if (k->idx >= k->range_end)
            wipe_seeds(k); /* the last index is taken: nothing secret is needed any more */
    }
out:
    pthread_mutex_unlock(&k->mu);
    if (rc != GROVE_OK) {
        ctx_free(c);
        return rc;
    }
    xmss_hmsg_init(&c->hash, &c->hm, c->sig + p->idx_bytes, k->root, c->idx);
    if (idx_out)
        *idx_out = c->idx;
    *out = c;
    return GROVE_OK;
}

grove_status grove_xmss_sign_update(grove_xmss_sign_ctx *c, const uint8_t *msg, size_t msg_len)
{
    if (c == NULL || (msg == NULL && msg_len > 0))
        return GROVE_ERR_INVALID_ARG;
    xmss_hmsg_update(&c->hm, msg, msg_len);
    return GROVE_OK;
}

/* Finish a signature; check: verify it against the key's public key for the digest signed. */
static grove_status sign_finish(grove_xmss_sign_ctx *c, uint8_t *sig, bool check)
{
    if (c == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (sig == NULL) {
        ctx_free(c);
        return GROVE_ERR_INVALID_ARG;
    }
    const grove_xmss_params *p = c->p;
    const unsigned hp = p->hp;
    uint8_t mh[XMSS_MAX_N];
    xmss_hmsg_final(&c->hm, mh);
    xmss_lanes w;
    grove_status rc = xmss_lanes_alloc(&w, &c->hash, p->len);
    if (rc == GROVE_OK) {
        xmss_wots_sign(&c->hash, &w, 0, c->idx >> hp, (uint32_t)(c->idx & ((1u << hp) - 1)), mh,
                       c->sig + p->idx_bytes + p->n);
        xmss_lanes_free(&w);
        /* the signature is public from here; the check is what any verifier computes */
        GROVE_DECLASSIFY(c->sig, p->sig_bytes);
        if (check && xmss_verify_digest(p, c->root, c->pub_seed, mh, c->sig) != GROVE_OK)
            rc = GROVE_ERR_INTERNAL;
        if (rc == GROVE_OK)
            memcpy(sig, c->sig, p->sig_bytes);
        else
            memset(sig, 0, p->sig_bytes);
    }
    grove_wipe(mh, sizeof mh);
    ctx_free(c);
    return rc;
}

grove_status grove_xmss_sign_finish(grove_xmss_sign_ctx *c, uint8_t *sig)
{
    return sign_finish(c, sig, false);
}

grove_status grove_xmss_sign_finish_checked(grove_xmss_sign_ctx *c, uint8_t *sig)
{
    return sign_finish(c, sig, true);
}

void grove_xmss_sign_abort(grove_xmss_sign_ctx *c)
{
    ctx_free(c);
}

grove_status grove_xmss_key_sign(grove_xmss_key *k, uint8_t *sig, uint64_t *idx, const uint8_t *msg,
                                 size_t msg_len)
{
    if (k == NULL || sig == NULL || (msg == NULL && msg_len > 0))
        return GROVE_ERR_INVALID_ARG;
    grove_xmss_sign_ctx *c;
    grove_status rc = grove_xmss_key_sign_begin(k, &c, idx);
    if (rc != GROVE_OK) {
        memset(sig, 0, k->p->sig_bytes);
        return rc;
    }
    rc = grove_xmss_sign_update(c, msg, msg_len);
    if (rc == GROVE_OK)
        rc = grove_xmss_sign_finish(c, sig);
    else
        grove_xmss_sign_abort(c);
    if (rc != GROVE_OK)
        memset(sig, 0, k->p->sig_bytes);
    return rc;
}

/* ---- split ------------------------------------------------------------------------------- */

/*
 * The part holding the last `count` unreserved indices of k (range [end - count, end)), with its
 * own id (parent = k, birth = k's generation + 1) and its cache positioned at its range start
 * (reusing k's cache). k is not changed. Called with k's mutex held.
 */
static int split_make_locked(grove_xmss_key *k, uint64_t count, const grove_xmss_opts *opts,
                             grove_xmss_key **out)
{
    const grove_xmss_params *p = k->p;
    uint64_t hw = cur_hw(k);
    if (reg_mark(k->key_id) > hw)
        return GROVE_ERR_STATE; /* another object of this key is ahead */
    if (!k->has_seeds || hw >= k->range_end || k->range_end - hw < count)
        return GROVE_ERR_EXHAUSTED;
    if (k->generation == UINT32_MAX)
        return GROVE_ERR_OVERFLOW;
    const unsigned n = p->n;
    uint64_t s = k->range_end - count;
    grove_xmss_key *nk = key_new(p);
    if (nk == NULL)
        return GROVE_ERR_NOMEM;
    memcpy(nk->sk_seed, k->sk_seed, n);
    memcpy(nk->sk_prf, k->sk_prf, n);
    memcpy(nk->pub_seed, k->pub_seed, n);
    memcpy(nk->root, k->root, n);
    nk->has_seeds = 1;
    nk->range_start = s;
    nk->range_end = k->range_end;
    nk->idx = nk->reserved = s;
    nk->birth = k->generation + 1;
    memcpy(nk->parent_id, k->key_id, GROVE_XMSS_KEY_ID_BYTES);
    derive_part_id(p, nk->root, nk->pub_seed, nk->parent_id, nk->birth, s, nk->key_id);
    grove_status rc = key_setup(nk);
    if (rc == GROVE_OK)
        rc = xmss_trav_init(&nk->trav, &nk->hash, s, nk->range_end, &k->trav, opts);
    if (rc != GROVE_OK) {
        grove_xmss_key_free(nk);
        return rc;
    }
    *out = nk;
    return GROVE_OK;
}

grove_status xmss_key_split_make(grove_xmss_key *k, uint64_t count, const grove_xmss_opts *opts,
                                 grove_xmss_key **out)
{
    if (out != NULL)
        *out = NULL;
    if (k == NULL || out == NULL || count == 0)
        return GROVE_ERR_INVALID_ARG;
    pthread_mutex_lock(&k->mu);
    grove_status rc = split_make_locked(k, count, opts, out);
    pthread_mutex_unlock(&k->mu);
    return rc;
}

/*
 * The state of k moved forward: high-water mark at least hw (never below k's own or another
 * object's reservation), range end `end` (<= k's), generation `gen` (>= k's). The high-water
 * mark is capped at the end; a state whose mark reaches its end is exhausted (no seeds).
 * *out is malloc'd (free after wiping: it holds the seeds).
 */
grove_status xmss_key_state_at(grove_xmss_key *k, uint64_t hw, uint64_t end, uint32_t gen,
                               uint8_t **out, size_t *len)
{
    if (k == NULL || out == NULL || len == NULL)
        return GROVE_ERR_INVALID_ARG;
    *out = NULL;
    *len = 0;
    grove_status rc = GROVE_OK;
    pthread_mutex_lock(&k->mu);
    uint64_t mine = cur_hw(k), mark = reg_mark(k->key_id);
    if (mark > mine)
        mine = mark;
    if (hw < mine)
        hw = mine;
    if (end > k->range_end || end < k->range_start || gen < k->generation) {
        rc = GROVE_ERR_INVALID_ARG;
    } else {
        if (hw > end)
            hw = end;
        int exhausted = hw >= end || !k->has_seeds;
        if (exhausted)
            hw = end;
        size_t sl = state_bytes(k->p, exhausted);
        uint8_t *buf = malloc(sl);
        if (buf == NULL) {
            rc = GROVE_ERR_NOMEM;
        } else {
            write_state(k, buf, k->idx < hw ? k->idx : hw, hw, end, gen);
            *out = buf;
            *len = sl;
        }
    }
    pthread_mutex_unlock(&k->mu);
    return rc;
}

grove_status grove_xmss_key_split(grove_xmss_key *k, grove_xmss_key **out, uint64_t count,
                                  const grove_xmss_opts *opts)
{
    if (out != NULL)
        *out = NULL;
    if (k == NULL || out == NULL || count == 0)
        return GROVE_ERR_INVALID_ARG;
    const grove_xmss_params *p = k->p;
    grove_status rc = GROVE_OK;
    grove_xmss_key *nk = NULL;
    pthread_mutex_lock(&k->mu);
    uint64_t hw = cur_hw(k);
    if (k->persist == NULL)
        rc = GROVE_ERR_STATE;
    /* 1. the new key, with its cache positioned at s (reusing this key's cache) */
    if (rc == GROVE_OK)
        rc = split_make_locked(k, count, opts, &nk);
    uint64_t s = k->range_end - count;
    /* 2. shrink this key durably: only then may the new key exist */
    if (rc == GROVE_OK) {
        size_t sl = state_bytes(p, hw >= s);
        uint8_t *buf = malloc(sl);
        if (buf == NULL) {
            rc = GROVE_ERR_NOMEM;
        } else {
            write_state(k, buf, k->idx, hw, s, k->generation + 1);
            if (k->persist(k->persist_arg, buf, sl) != GROVE_OK)
                rc = GROVE_ERR_STORAGE;
            grove_wipe(buf, sl);
            free(buf);
        }
    }
    if (rc == GROVE_OK) {
        k->range_end = s;
        k->trav.range_end = s;
        k->reserved = hw;
        k->generation++;
        if (k->idx >= s)
            wipe_seeds(k);
    }
    pthread_mutex_unlock(&k->mu);
    if (rc != GROVE_OK) {
        grove_xmss_key_free(nk);
        return rc;
    }
    *out = nk;
    return GROVE_OK;
}
