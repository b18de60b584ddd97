/* The member's wallet: one-time certificates that sign once (in memory). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "dgsp/dgsp_int.h"

int dgsp_csr_from_seeds(const grove_dgsp_cfg *cfg, const uint8_t *seed_u, size_t count,
                        const uint8_t *wots_seeds, uint8_t *wots_pks);

enum { W_PENDING = 0, W_READY = 1, W_USED = 2 };

typedef struct {
    uint8_t wots_seed[GROVE_DGSP_MAX_N]; /* secret; zero once used */
    uint8_t wots_pk[GROVE_DGSP_MAX_N];
    uint8_t *cert; /* NULL while pending */
    int state;
} wallet_entry;

struct grove_dgsp_wallet {
    grove_dgsp_cfg cfg;
    uint8_t seed_u[GROVE_DGSP_MAX_N];
    uint8_t cid_star[GROVE_DGSP_MAX_N];
    uint64_t id;
    pthread_mutex_t lock;
    wallet_entry *e;
    size_t n, cap;
};

int grove_dgsp_wallet_new(const grove_dgsp_cfg *cfg, const uint8_t *seed_u, uint64_t id,
                          const uint8_t *cid_star, grove_dgsp_wallet **out)
{
    if (!dgsp_cfg_ok(cfg) || cid_star == NULL || out == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_dgsp_wallet *w = calloc(1, sizeof *w);
    if (w == NULL)
        return GROVE_ERR_NOMEM;
    if (pthread_mutex_init(&w->lock, NULL) != 0) {
        free(w);
        return GROVE_ERR_NOMEM;
    }
    w->cfg = *cfg;
    w->id = id;
    memcpy(w->cid_star, cid_star, cfg->n);
    int r = GROVE_OK;
    if (seed_u)
        memcpy(w->seed_u, seed_u, cfg->n);
    else
        r = grove_randombytes(w->seed_u, cfg->n);
    if (r != GROVE_OK) {
        grove_dgsp_wallet_free(w);
        return r;
    }
    *out = w;
    return GROVE_OK;
}

void grove_dgsp_wallet_free(grove_dgsp_wallet *w)
{
    if (w == NULL)
        return;
    for (size_t i = 0; i < w->n; i++)
        free(w->e[i].cert);
    if (w->e)
        grove_wipe(w->e, w->cap * sizeof *w->e);
    free(w->e);
    pthread_mutex_destroy(&w->lock);
    grove_wipe(w, sizeof *w);
    free(w);
}

uint64_t grove_dgsp_wallet_id(const grove_dgsp_wallet *w)
{
    return w ? w->id : 0;
}

size_t grove_dgsp_wallet_available(const grove_dgsp_wallet *w)
{
    if (w == NULL)
        return 0;
    grove_dgsp_wallet *mw = (grove_dgsp_wallet *)w;
    size_t k = 0;
    pthread_mutex_lock(&mw->lock);
    for (size_t i = 0; i < w->n; i++)
        k += w->e[i].state == W_READY;
    pthread_mutex_unlock(&mw->lock);
    return k;
}

/* Room for `extra` entries (caller holds the lock). */
static int reserve_entries(grove_dgsp_wallet *w, size_t extra)
{
    if (w->n + extra <= w->cap)
        return GROVE_OK;
    if (extra > SIZE_MAX / 2 / sizeof(wallet_entry) - w->n)
        return GROVE_ERR_NOMEM;
    size_t cap = w->cap ? w->cap : 16;
    while (cap < w->n + extra)
        cap *= 2;
    wallet_entry *ne = calloc(cap, sizeof *ne);
    if (ne == NULL)
        return GROVE_ERR_NOMEM;
    if (w->n)
        memcpy(ne, w->e, w->n * sizeof *ne);
    if (w->e)
        grove_wipe(w->e, w->cap * sizeof *w->e);
    free(w->e);
    w->e = ne;
    w->cap = cap;
    return GROVE_OK;
}

int grove_dgsp_wallet_csr(grove_dgsp_wallet *w, size_t count, uint8_t *wots_pks)
{
    if (w == NULL || (count && wots_pks == NULL))
        return GROVE_ERR_INVALID_ARG;
    if (w->cfg.profile != GROVE_DGSP_PROFILE_GROVE)
        return GROVE_ERR_INSECURE_PROFILE;
    const size_t n = w->cfg.n;
    if (count > SIZE_MAX / n)
        return GROVE_ERR_INVALID_ARG;
    uint8_t *seeds = malloc(count ? count * n : 1);
    if (seeds == NULL)
        return GROVE_ERR_NOMEM;
    int r = grove_dgsp_csr(&w->cfg, w->seed_u, count, wots_pks, seeds);
    pthread_mutex_lock(&w->lock);
    if (r == GROVE_OK)
        r = reserve_entries(w, count);
    if (r == GROVE_OK) {
        for (size_t i = 0; i < count; i++) {
            wallet_entry *e = &w->e[w->n++];
            memset(e, 0, sizeof *e);
            memcpy(e->wots_seed, seeds + i * n, n);
            memcpy(e->wots_pk, wots_pks + i * n, n);
            e->state = W_PENDING;
        }
    }
    pthread_mutex_unlock(&w->lock);
    grove_wipe(seeds, count * n);
    free(seeds);
    return r;
}

int grove_dgsp_wallet_import(grove_dgsp_wallet *w, const uint8_t *pk, const uint8_t *wots_pks,
                             const uint8_t *certs, size_t count)
{
    if (w == NULL || pk == NULL || (count && (wots_pks == NULL || certs == NULL)))
        return GROVE_ERR_INVALID_ARG;
    const size_t n = w->cfg.n, cb = grove_dgsp_cert_bytes(&w->cfg);
    /* Every certificate is checked before the wallet changes. */
    int r = grove_dgsp_check_cert(&w->cfg, pk, w->id, wots_pks, certs, count);
    if (r != GROVE_OK)
        return r;
    size_t *slot = malloc((count ? count : 1) * sizeof *slot);
    uint8_t **copies = calloc(count ? count : 1, sizeof *copies);
    if (slot == NULL || copies == NULL) {
        free(slot);
        free(copies);
        return GROVE_ERR_NOMEM;
    }
    pthread_mutex_lock(&w->lock);
    for (size_t i = 0; i < count && r == GROVE_OK; i++) {
        size_t j;
        for (j = 0; j < w->n; j++) {
            int taken = 0;
            for (size_t k = 0; k < i; k++)
                taken |= slot[k] == j;
            if (w->e[j].state == W_PENDING && !taken &&
                memcmp(w->e[j].wots_pk, wots_pks + i * n, n) == 0)
                break;
        }
        if (j == w->n)
            r = GROVE_ERR_NOT_FOUND; /* no pending request for this key */
        slot[i] = j;
        if (r == GROVE_OK && (copies[i] = malloc(cb)) == NULL)
            r = GROVE_ERR_NOMEM;
        if (r == GROVE_OK)
            memcpy(copies[i], certs + i * cb, cb);
    }
    if (r == GROVE_OK) {
        for (size_t i = 0; i < count; i++) {
            w->e[slot[i]].cert = copies[i];
            w->e[slot[i]].state = W_READY;
            copies[i] = NULL;
        }
    }
    pthread_mutex_unlock(&w->lock);
    for (size_t i = 0; i < count; i++)
        free(copies[i]);
    free(copies);
    free(slot);
    return r;
}

int grove_dgsp_wallet_add(grove_dgsp_wallet *w, const uint8_t *wots_seed, const uint8_t *cert)
{
    if (w == NULL || wots_seed == NULL || cert == NULL)
        return GROVE_ERR_INVALID_ARG;
    const size_t n = w->cfg.n, cb = grove_dgsp_cert_bytes(&w->cfg);
    uint8_t *copy = malloc(cb);
    if (copy == NULL)
        return GROVE_ERR_NOMEM;
    memcpy(copy, cert, cb);
    uint8_t wpk[GROVE_DGSP_MAX_N];
    int r = GROVE_OK;
    if (w->cfg.profile == GROVE_DGSP_PROFILE_GROVE)
        r = dgsp_csr_from_seeds(&w->cfg, w->seed_u, 1, wots_seed, wpk);
    pthread_mutex_lock(&w->lock);
    if (r == GROVE_OK)
        r = reserve_entries(w, 1);
    if (r == GROVE_OK) {
        wallet_entry *e = &w->e[w->n++];
        memset(e, 0, sizeof *e);
        memcpy(e->wots_seed, wots_seed, n);
        memcpy(e->wots_pk, wpk, n);
        e->cert = copy;
        e->state = W_READY;
        copy = NULL;
    }
    pthread_mutex_unlock(&w->lock);
    free(copy);
    return r;
}

int grove_dgsp_wallet_sign(grove_dgsp_wallet *w, const uint8_t *msg, size_t msglen, uint8_t *sig)
{
    if (w == NULL || sig == NULL || (msg == NULL && msglen))
        return GROVE_ERR_INVALID_ARG;
    if (w->cfg.profile != GROVE_DGSP_PROFILE_GROVE)
        return GROVE_ERR_INSECURE_PROFILE;
    uint8_t seed[GROVE_DGSP_MAX_N];
    uint8_t *cert = NULL;
    pthread_mutex_lock(&w->lock);
    for (size_t i = 0; i < w->n; i++) {
        wallet_entry *e = &w->e[i];
        if (e->state != W_READY)
            continue;
        /* Consume the certificate before signing: it can never sign twice. */
        memcpy(seed, e->wots_seed, sizeof seed);
        grove_wipe(e->wots_seed, sizeof e->wots_seed);
        e->state = W_USED;
        cert = e->cert;
        e->cert = NULL;
        break;
    }
    pthread_mutex_unlock(&w->lock);
    if (cert == NULL)
        return GROVE_ERR_EXHAUSTED;
    int r = dgsp_sign_raw(&w->cfg, msg, msglen, w->seed_u, w->id, seed, cert, sig, 0);
    grove_wipe(seed, sizeof seed);
    free(cert);
    return r;
}
