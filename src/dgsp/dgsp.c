/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* DGSP operations (spec dgsp.md section 2, with grove's stronger checks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ct.h"
#include "common/pool.h"
#include "common/util.h"
#include "dgsp/dgsp_int.h"

/* ---- configuration ----------------------------------------------------------------------- */

/* The 12 parameter sets: a DGSP set is named by its round 3.1 SPHINCS+ "simple" set. */
struct grove_dgsp_params {
    const char *name;
};

static const grove_dgsp_params param_sets[] = {
    {"sha2-128s"}, {"shake-128s"}, {"sha2-128f"}, {"shake-128f"},
    {"sha2-192s"}, {"shake-192s"}, {"sha2-192f"}, {"shake-192f"},
    {"sha2-256s"}, {"shake-256s"}, {"sha2-256f"}, {"shake-256f"},
};
#define PARAM_SETS (sizeof param_sets / sizeof param_sets[0])

const grove_dgsp_params *grove_dgsp_params_get(const char *name)
{
    if (name == NULL)
        return NULL;
    char buf[32];
    if (strncmp(name, "sphincs_", 8) == 0 && strlen(name + 8) < sizeof buf) {
        /* the crate's feature names: sphincs_shake_256f */
        snprintf(buf, sizeof buf, "%s", name + 8);
        for (char *p = buf; *p; p++)
            if (*p == '_')
                *p = '-';
        name = buf;
    }
    for (size_t i = 0; i < PARAM_SETS; i++)
        if (strcmp(name, param_sets[i].name) == 0)
            return &param_sets[i];
    return NULL;
}

size_t grove_dgsp_params_count(void)
{
    return PARAM_SETS;
}

const grove_dgsp_params *grove_dgsp_params_at(size_t i)
{
    return i < PARAM_SETS ? &param_sets[i] : NULL;
}

const char *grove_dgsp_params_name(const grove_dgsp_params *p)
{
    return p ? p->name : NULL;
}

grove_status grove_dgsp_cfg_init(grove_dgsp_cfg *cfg, const grove_dgsp_params *params,
                                 grove_dgsp_flavour flavour, grove_dgsp_profile profile)
{
    if (cfg == NULL || params == NULL)
        return GROVE_ERR_INVALID_ARG;
    if ((flavour != GROVE_DGSP_FLAVOUR_R31 && flavour != GROVE_DGSP_FLAVOUR_FIPS205) ||
        (profile != GROVE_DGSP_PROFILE_GROVE && profile != GROVE_DGSP_PROFILE_DGSP_RS_0_1))
        return GROVE_ERR_INVALID_ARG;
    char full[64];
    snprintf(full, sizeof full, "sphincs-%s-simple", params->name);
    const grove_slhdsa_params *p = grove_slhdsa_params_get(full);
    if (p == NULL)
        return GROVE_ERR_INTERNAL;
    if (flavour == GROVE_DGSP_FLAVOUR_FIPS205)
        p = grove_slhdsa_params_other_flavour(p);
    cfg->params = params;
    cfg->spx = p;
    cfg->profile = profile;
    cfg->n = (unsigned)grove_slhdsa_n(p);
    return GROVE_OK;
}

grove_dgsp_flavour grove_dgsp_cfg_flavour(const grove_dgsp_cfg *cfg)
{
    return cfg && cfg->spx && grove_slhdsa_params_is_fips205(cfg->spx) ? GROVE_DGSP_FLAVOUR_FIPS205
                                                                       : GROVE_DGSP_FLAVOUR_R31;
}

grove_status grove_dgsp_profile_from_name(grove_dgsp_profile *profile, const char *name)
{
    if (profile == NULL || name == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (strcmp(name, "grove") == 0)
        *profile = GROVE_DGSP_PROFILE_GROVE;
    else if (strcmp(name, "dgsp-rs-0.1") == 0)
        *profile = GROVE_DGSP_PROFILE_DGSP_RS_0_1;
    else
        return GROVE_ERR_UNSUPPORTED;
    return GROVE_OK;
}

grove_status grove_dgsp_flavour_from_name(grove_dgsp_flavour *flavour, const char *name)
{
    if (flavour == NULL || name == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (strcmp(name, "r3.1") == 0 || strcmp(name, "sphincs") == 0)
        *flavour = GROVE_DGSP_FLAVOUR_R31;
    else if (strcmp(name, "fips205") == 0 || strcmp(name, "slh-dsa") == 0)
        *flavour = GROVE_DGSP_FLAVOUR_FIPS205;
    else
        return GROVE_ERR_UNSUPPORTED;
    return GROVE_OK;
}

const char *grove_dgsp_flavour_name(grove_dgsp_flavour flavour)
{
    return flavour == GROVE_DGSP_FLAVOUR_FIPS205 ? "fips205" : "r3.1";
}

const char *grove_dgsp_profile_name(grove_dgsp_profile profile)
{
    return profile == GROVE_DGSP_PROFILE_DGSP_RS_0_1 ? "dgsp-rs-0.1" : "grove";
}

size_t grove_dgsp_pk_bytes(const grove_dgsp_cfg *cfg)
{
    return dgsp_cfg_ok(cfg) ? 2 * (size_t)cfg->n : 0;
}
size_t grove_dgsp_sk_bytes(const grove_dgsp_cfg *cfg)
{
    return dgsp_cfg_ok(cfg) ? 6 * (size_t)cfg->n : 0;
}
size_t grove_dgsp_cert_bytes(const grove_dgsp_cfg *cfg)
{
    dgsp_sizes s;
    if (!dgsp_cfg_ok(cfg))
        return 0;
    dgsp_sizes_of(cfg, &s);
    return s.cert;
}
size_t grove_dgsp_sig_bytes(const grove_dgsp_cfg *cfg)
{
    dgsp_sizes s;
    if (!dgsp_cfg_ok(cfg))
        return 0;
    dgsp_sizes_of(cfg, &s);
    return s.sig;
}

/* ---- SPHINCS+ of the group ---------------------------------------------------------------- */

static int spx_sign(const grove_dgsp_cfg *cfg, uint8_t *sig, const uint8_t *msg, size_t msg_len,
                    const uint8_t *spx_sk)
{
    if (grove_slhdsa_params_is_fips205(cfg->spx))
        return grove_slhdsa_sign(cfg->spx, sig, msg, msg_len, (const uint8_t *)DGSP_CERT_CTX,
                                 sizeof DGSP_CERT_CTX - 1, spx_sk, 1);
    return grove_sphincs_sign(cfg->spx, sig, msg, msg_len, spx_sk);
}

static int spx_verify(const grove_dgsp_cfg *cfg, const uint8_t *sig, size_t sig_len,
                      const uint8_t *msg, size_t msg_len, const uint8_t *pk)
{
    if (grove_slhdsa_params_is_fips205(cfg->spx))
        return grove_slhdsa_verify(cfg->spx, sig, sig_len, msg, msg_len,
                                   (const uint8_t *)DGSP_CERT_CTX, sizeof DGSP_CERT_CTX - 1, pk);
    return grove_sphincs_verify(cfg->spx, sig, sig_len, msg, msg_len, pk);
}

/* ---- manager ----------------------------------------------------------------------------- */

static int dgsp_keygen_manager_from_seed_impl(const grove_dgsp_cfg *cfg, uint8_t *pk, uint8_t *sk,
                                        const uint8_t *seed)
{
    if (!dgsp_cfg_ok(cfg) || pk == NULL || sk == NULL || seed == NULL)
        return GROVE_ERR_INVALID_ARG;
    const size_t n = cfg->n;
    uint8_t spx_sk[4 * GROVE_DGSP_MAX_N];
    int r = grove_slhdsa_keygen_from_seed(cfg->spx, pk, spx_sk, seed, seed + n, seed + 2 * n);
    if (r == GROVE_OK) {
        memmove(sk, seed + 3 * n, 2 * n); /* hash_secret || aes_key */
        memcpy(sk + 2 * n, spx_sk, 4 * n);
    }
    grove_wipe(spx_sk, sizeof spx_sk);
    return r;
}

grove_status grove_dgsp_keygen_manager_from_seed(const grove_dgsp_cfg *cfg, uint8_t *pk,
                                                 uint8_t *sk, const uint8_t *seed)
{
    int r = dgsp_keygen_manager_from_seed_impl(cfg, pk, sk, seed);
    grove_burn_stack_bytes(DGSP_BURN_KEYGEN); /* spilled secrets in the frames below */
    return r;
}

grove_status grove_dgsp_keygen_manager(const grove_dgsp_cfg *cfg, uint8_t *pk, uint8_t *sk)
{
    if (!dgsp_cfg_ok(cfg) || pk == NULL || sk == NULL)
        return GROVE_ERR_INVALID_ARG;
    uint8_t seed[5 * GROVE_DGSP_MAX_N];
    int r = grove_randombytes(seed, 5 * (size_t)cfg->n);
    if (r == GROVE_OK)
        r = grove_dgsp_keygen_manager_from_seed(cfg, pk, sk, seed);
    grove_wipe(seed, sizeof seed);
    return r;
}

static int username_ok(const char *u)
{
    if (u == NULL)
        return 0;
    size_t len = strlen(u);
    if (len == 0 || len > GROVE_DGSP_MAX_USERNAME)
        return 0;
    /* valid UTF-8, no control characters */
    const unsigned char *p = (const unsigned char *)u;
    for (size_t i = 0; i < len;) {
        unsigned char c = p[i];
        size_t extra;
        uint32_t cp;
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7f)
                return 0;
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            extra = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return 0;
        }
        for (size_t k = 1; k <= extra; k++) {
            if (i + k >= len || (p[i + k] & 0xC0) != 0x80)
                return 0;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += extra + 1;
    }
    return 1;
}

bool grove_dgsp_username_is_valid(const char *username)
{
    return username_ok(username);
}

static int dgsp_credential_impl(const grove_dgsp_cfg *cfg, const uint8_t *sk, uint64_t id,
                          uint8_t *cid_star)
{
    if (!dgsp_cfg_ok(cfg) || sk == NULL || cid_star == NULL)
        return GROVE_ERR_INVALID_ARG;
    uint8_t cid[GROVE_DGSP_MAX_N];
    dgsp_cid(cfg, sk, id, cid, cid_star);
    grove_wipe(cid, sizeof cid);
    return GROVE_OK;
}

grove_status grove_dgsp_credential(const grove_dgsp_cfg *cfg, uint8_t *cid_star, uint64_t id,
                                   const uint8_t *sk)
{
    int r = dgsp_credential_impl(cfg, sk, id, cid_star);
    grove_burn_stack_bytes(DGSP_BURN_CID); /* spilled secrets in the frames below */
    return r;
}

grove_status grove_dgsp_join(const grove_dgsp_cfg *cfg, grove_dgsp_store *store, uint64_t *id,
                             uint8_t *cid_star, const char *username, const uint8_t *sk)
{
    if (!dgsp_cfg_ok(cfg) || sk == NULL || store == NULL || id == NULL || cid_star == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (!username_ok(username))
        return GROVE_ERR_INVALID_ARG;
    /* committed, and recorded in the state registry, before the credential exists (what
     * grove_dgsp_store_add_members does, without checking the name a second time) */
    int r = dgsp_guard_enter(store);
    if (r == GROVE_OK)
        r = dgsp_guard_leave(store, store->ops->add_members(store->ctx, &username, 1, id));
    if (r != GROVE_OK)
        return r;
    return grove_dgsp_credential(cfg, cid_star, *id, sk);
}

struct cert_job {
    const grove_dgsp_cfg *cfg;
    const uint8_t *spx_sk, *cid, *wots_pks, *zetas;
    uint64_t id;
    uint8_t *certs;
};

/* Certificates [begin, end), each written at its own index. */
static int cert_chunk(void *arg, size_t begin, size_t end, unsigned worker)
{
    const struct cert_job *j = arg;
    const size_t n = j->cfg->n;
    (void)worker;
    dgsp_sizes s;
    dgsp_sizes_of(j->cfg, &s);
    uint8_t msg[2 * GROVE_DGSP_MAX_N + 16], idb[8];
    grove_store64_be(idb, j->id);
    int r = GROVE_OK;
    for (size_t i = begin; i < end && r == GROVE_OK; i++) {
        const uint8_t *wpk = j->wots_pks + i * n;
        uint8_t *cert = j->certs + i * s.cert;
        uint8_t *pi = cert + 16, tau[GROVE_DGSP_MAX_N];
        memcpy(cert, j->zetas + 16 * i, 16);
        dgsp_hash(j->cfg, pi, wpk, n, j->cid, n, NULL, 0);     /* pi = H(wots_pk || cid) */
        GROVE_DECLASSIFY(pi, n); /* published in the certificate */
        dgsp_hash(j->cfg, tau, wpk, n, pi, n, idb, 8);         /* tau = H(wots_pk || pi || id) */
        memcpy(msg, wpk, n);
        memcpy(msg + n, cert, 16);
        memcpy(msg + n + 16, tau, n);
        r = spx_sign(j->cfg, cert + 16 + n, msg, 2 * n + 16, j->spx_sk);
    }
    return r;
}

static int dgsp_gen_cert_impl(const grove_dgsp_cfg *cfg, const uint8_t *sk, grove_dgsp_store *store,
                        uint64_t id, const uint8_t *cid_star, const uint8_t *wots_pks,
                        size_t count, uint8_t *certs, unsigned threads)
{
    if (!dgsp_cfg_ok(cfg) || sk == NULL || store == NULL || cid_star == NULL ||
        (count > 0 && (wots_pks == NULL || certs == NULL)))
        return GROVE_ERR_INVALID_ARG;
    const size_t n = cfg->n;
    dgsp_sizes s;
    dgsp_sizes_of(cfg, &s);
    if (count > SIZE_MAX / s.cert)
        return GROVE_ERR_INVALID_ARG;
    grove_dgsp_member m;
    int r = store->ops->get_member(store->ctx, id, &m);
    if (r != GROVE_OK)
        return r;
    if (!m.active)
        return GROVE_ERR_REVOKED;
    uint8_t cid[GROVE_DGSP_MAX_N], expect[GROVE_DGSP_MAX_N];
    dgsp_cid(cfg, sk, id, cid, expect);
    int ok = grove_ct_memeq(expect, cid_star, n);
    grove_wipe(expect, sizeof expect);
    GROVE_DECLASSIFY(&ok, sizeof ok); /* accept or deny is the public outcome */
    if (!ok) {
        grove_wipe(cid, sizeof cid);
        return GROVE_ERR_DENIED;
    }
    if (count == 0) {
        grove_wipe(cid, sizeof cid);
        return GROVE_OK;
    }
    /* Reserve the counters (durably, atomically, and recorded in the state registry if the
     * store has one) before anything is signed. */
    uint64_t first = 0;
    r = dgsp_guard_enter(store);
    if (r == GROVE_OK)
        r = dgsp_guard_leave(store, store->ops->reserve(store->ctx, id, count, &first));
    uint8_t *zetas = r == GROVE_OK ? malloc(16 * count) : NULL;
    if (r == GROVE_OK && zetas == NULL)
        r = GROVE_ERR_NOMEM;
    if (r == GROVE_OK)
        r = dgsp_zetas(cfg, sk + n, id, first, count, zetas);
    if (r == GROVE_OK)
        GROVE_DECLASSIFY(zetas, 16 * count); /* published in the certificates */
    if (r == GROVE_OK) {
        struct cert_job job = {cfg, sk + 2 * n, cid, wots_pks, zetas, id, certs};
        r = grove_parallel_for(threads, count, 1, cert_chunk, &job);
    }
    free(zetas);
    grove_wipe(cid, sizeof cid);
    if (r != GROVE_OK && certs != NULL)
        grove_wipe(certs, count * s.cert);
    return r;
}

grove_status grove_dgsp_gen_cert(const grove_dgsp_cfg *cfg, grove_dgsp_store *store, uint8_t *certs,
                                 const uint8_t *wots_pks, size_t count, uint64_t id,
                                 const uint8_t *cid_star, const uint8_t *sk, unsigned threads)
{
    int r = dgsp_gen_cert_impl(cfg, sk, store, id, cid_star, wots_pks, count, certs, threads);
    grove_burn_stack_bytes(DGSP_BURN_GEN_CERT); /* spilled secrets in the frames below */
    return r;
}

static grove_status verify_wpk(const grove_dgsp_cfg *cfg, const uint8_t *sig, size_t sig_len,
                               const uint8_t *msg, size_t msg_len, const uint8_t *pk,
                               grove_dgsp_store *revoked, uint8_t *wpk);

static int dgsp_open_impl(const grove_dgsp_cfg *cfg, const uint8_t *sk, grove_dgsp_store *store,
                    const uint8_t *msg, size_t msg_len, const uint8_t *sig, size_t sig_len,
                    uint64_t *id, char *username, uint8_t *pi)
{
    if (!dgsp_cfg_ok(cfg) || sk == NULL || store == NULL || sig == NULL || id == NULL ||
        pi == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    dgsp_sizes s;
    dgsp_sizes_of(cfg, &s);
    if (sig_len != s.sig)
        return GROVE_ERR_VERIFY;
    const size_t n = cfg->n;
    const uint8_t *zeta = sig + s.wots_sig + n;
    /* Only a signature on this message is opened: verify it with the public key kept in sk
     * (SPHINCS+ sk = SK.seed || SK.prf || PK.seed || PK.root). */
    uint8_t pk[GROVE_DGSP_MAX_PK_BYTES];
    memcpy(pk, sk + 4 * n, 2 * n);
    GROVE_DECLASSIFY(pk, 2 * n); /* the group public key */
    uint8_t wpk[GROVE_DGSP_MAX_N], cid[GROVE_DGSP_MAX_N];
    int r = verify_wpk(cfg, sig, sig_len, msg, msg_len, pk, NULL, wpk);
    if (r != GROVE_OK)
        return r;
    uint64_t who;
    r = dgsp_unzeta(cfg, sk + n, zeta, &who, NULL);
    if (r != GROVE_OK)
        return r;
    GROVE_DECLASSIFY(&who, sizeof who); /* the opening's result */
    grove_dgsp_member m;
    r = store->ops->get_member(store->ctx, who, &m);
    if (r != GROVE_OK)
        return r;
    dgsp_cid(cfg, sk, who, cid, NULL);
    dgsp_hash(cfg, pi, wpk, n, cid, n, NULL, 0);
    GROVE_DECLASSIFY(pi, n); /* the opening proof is public */
    grove_wipe(cid, sizeof cid);
    *id = who;
    if (username)
        memcpy(username, m.username, m.username_len + 1);
    return GROVE_OK;
}

grove_status grove_dgsp_open(const grove_dgsp_cfg *cfg, grove_dgsp_store *store, uint64_t *id,
                             char *username, uint8_t *pi, const uint8_t *sig, size_t sig_len,
                             const uint8_t *msg, size_t msg_len, const uint8_t *sk)
{
    int r = dgsp_open_impl(cfg, sk, store, msg, msg_len, sig, sig_len, id, username, pi);
    grove_burn_stack_bytes(DGSP_BURN_OPEN); /* spilled secrets in the frames below */
    return r;
}

/*
 * Revocation, decided here once for every backend; the store only provides the transaction
 * (tx_begin/tx_end) and its row operations. Every id must exist; then each active member,
 * taken once however often it is listed, has the zetas of all its counters added to the
 * revocation list and is deactivated. Nothing is committed unless every step succeeded.
 */
enum { REVOKE_CHUNK = 4096 }; /* zetas computed and stored per step */

static bool listed_before(const uint64_t *ids, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (ids[j] == ids[i])
            return true;
    return false;
}

/* Adds the zetas of counters [0, ctr) of member id to the list and deactivates the member.
 * The zetas are computed into a buffer of the size needed (at most REVOKE_CHUNK of them), so
 * that revoking a member with a few certificates does not take and give back 64 KiB of heap
 * per call (malloc's trim of the heap top then page-faulted it in again on the next call). */
static grove_status revoke_member(const grove_dgsp_cfg *cfg, const uint8_t *aes_key,
                                  grove_dgsp_store *store, uint64_t id, uint64_t ctr)
{
    grove_status r = GROVE_OK;
    if (ctr > 0) {
        uint64_t cap = ctr < REVOKE_CHUNK ? ctr : REVOKE_CHUNK;
        uint8_t *buf = malloc(16 * (size_t)cap);
        if (buf == NULL)
            return GROVE_ERR_NOMEM;
        for (uint64_t c = 0; c < ctr && r == GROVE_OK; c += REVOKE_CHUNK) {
            uint64_t k = ctr - c < REVOKE_CHUNK ? ctr - c : REVOKE_CHUNK;
            r = (grove_status)dgsp_zetas(cfg, aes_key, id, c, k, buf);
            GROVE_DECLASSIFY(buf, 16 * k); /* the revocation list is public */
            if (r == GROVE_OK)
                r = store->ops->tx_add_revoked(store->ctx, buf, (size_t)k);
        }
        free(buf); /* public zetas: no wipe */
    }
    return r == GROVE_OK ? store->ops->tx_deactivate(store->ctx, id) : r;
}

/* The revocation inside the store's transaction. */
static grove_status revoke_in_tx(const grove_dgsp_cfg *cfg, const uint8_t *aes_key,
                                 grove_dgsp_store *store, const uint64_t *ids, size_t count,
                                 size_t *revoked)
{
    grove_dgsp_member m;
    grove_status r = GROVE_OK;
    for (size_t i = 0; i < count && r == GROVE_OK; i++) /* every id must exist */
        r = store->ops->tx_get_member(store->ctx, ids[i], &m);
    size_t n = 0;
    for (size_t i = 0; i < count && r == GROVE_OK; i++) {
        if (listed_before(ids, i))
            continue;
        r = store->ops->tx_get_member(store->ctx, ids[i], &m);
        if (r != GROVE_OK || !m.active)
            continue; /* already revoked: skipped */
        r = revoke_member(cfg, aes_key, store, ids[i], m.ctr);
        n += r == GROVE_OK;
    }
    *revoked = n;
    return r;
}

static grove_status dgsp_revoke_impl(const grove_dgsp_cfg *cfg, grove_dgsp_store *store,
                                     size_t *revoked, const uint64_t *ids, size_t count,
                                     const uint8_t *sk)
{
    if (!dgsp_cfg_ok(cfg) || sk == NULL || store == NULL || (ids == NULL && count))
        return GROVE_ERR_INVALID_ARG;
    size_t n = 0;
    grove_status r = (grove_status)dgsp_guard_enter(store);
    if (r == GROVE_OK) {
        r = store->ops->tx_begin(store->ctx);
        if (r == GROVE_OK)
            r = store->ops->tx_end(store->ctx,
                                   revoke_in_tx(cfg, sk + cfg->n, store, ids, count, &n));
        r = (grove_status)dgsp_guard_leave(store, r);
    }
    if (r == GROVE_OK && revoked)
        *revoked = n;
    return r;
}

grove_status grove_dgsp_revoke(const grove_dgsp_cfg *cfg, grove_dgsp_store *store, size_t *revoked,
                               const uint64_t *ids, size_t count, const uint8_t *sk)
{
    grove_status r = dgsp_revoke_impl(cfg, store, revoked, ids, count, sk);
    grove_burn_stack_bytes(DGSP_BURN_REVOKE); /* spilled secrets in the frames below */
    return r;
}

/* ---- member ------------------------------------------------------------------------------ */

grove_status grove_dgsp_keygen_user(const grove_dgsp_cfg *cfg, uint8_t *seed_u)
{
    if (!dgsp_cfg_ok(cfg) || seed_u == NULL)
        return GROVE_ERR_INVALID_ARG;
    return grove_randombytes(seed_u, cfg->n);
}

/* wots_rand = H(wots_seed), wots_key = H(seed_u || wots_seed), wots_pk = PKGen. */
static int csr_entry(const grove_dgsp_cfg *cfg, const uint8_t *seed_u, const uint8_t *wots_seed,
                     uint8_t *wots_pk)
{
    const size_t n = cfg->n;
    uint8_t wots_rand[GROVE_DGSP_MAX_N], wots_key[GROVE_DGSP_MAX_N];
    dgsp_hash(cfg, wots_rand, wots_seed, n, NULL, 0, NULL, 0);
    dgsp_hash(cfg, wots_key, seed_u, n, wots_seed, n, NULL, 0);
    int r = dgsp_wots_pk(cfg, wots_rand, wots_key, wots_pk);
    grove_wipe(wots_key, sizeof wots_key);
    return r;
}

int dgsp_csr_from_seeds(const grove_dgsp_cfg *cfg, const uint8_t *seed_u, size_t count,
                        const uint8_t *wots_seeds, uint8_t *wots_pks)
{
    for (size_t i = 0; i < count; i++) {
        int r = csr_entry(cfg, seed_u, wots_seeds + i * cfg->n, wots_pks + i * cfg->n);
        if (r != GROVE_OK)
            return r;
    }
    return GROVE_OK;
}

static int dgsp_csr_impl(const grove_dgsp_cfg *cfg, const uint8_t *seed_u, size_t count,
                   uint8_t *wots_pks, uint8_t *wots_seeds)
{
    if (!dgsp_cfg_ok(cfg) || seed_u == NULL || (count && (wots_pks == NULL || wots_seeds == NULL)))
        return GROVE_ERR_INVALID_ARG;
    if (cfg->profile != GROVE_DGSP_PROFILE_GROVE)
        return GROVE_ERR_INSECURE_PROFILE;
    if (count > SIZE_MAX / cfg->n)
        return GROVE_ERR_INVALID_ARG;
    int r = grove_randombytes(wots_seeds, count * cfg->n);
    if (r == GROVE_OK)
        r = dgsp_csr_from_seeds(cfg, seed_u, count, wots_seeds, wots_pks);
    if (r != GROVE_OK)
        grove_wipe(wots_seeds, count * cfg->n);
    return r;
}

grove_status grove_dgsp_csr(const grove_dgsp_cfg *cfg, uint8_t *wots_pks, uint8_t *wots_seeds,
                            size_t count, const uint8_t *seed_u)
{
    int r = dgsp_csr_impl(cfg, seed_u, count, wots_pks, wots_seeds);
    grove_burn_stack_bytes(DGSP_BURN_CSR); /* spilled secrets in the frames below */
    return r;
}

static int check_one(const grove_dgsp_cfg *cfg, const uint8_t *pk, uint64_t id,
                     const uint8_t *wots_pk, const uint8_t *cert)
{
    const size_t n = cfg->n;
    dgsp_sizes s;
    dgsp_sizes_of(cfg, &s);
    uint8_t msg[2 * GROVE_DGSP_MAX_N + 16], idb[8];
    grove_store64_be(idb, id);
    memcpy(msg, wots_pk, n);
    memcpy(msg + n, cert, 16);
    dgsp_hash(cfg, msg + n + 16, wots_pk, n, cert + 16, n, idb, 8);
    return spx_verify(cfg, cert + 16 + n, s.spx_sig, msg, 2 * n + 16, pk);
}

grove_status grove_dgsp_check_cert(const grove_dgsp_cfg *cfg, const uint8_t *certs,
                                   const uint8_t *wots_pks, size_t count, uint64_t id,
                                   const uint8_t *pk)
{
    if (!dgsp_cfg_ok(cfg) || pk == NULL || (count && (wots_pks == NULL || certs == NULL)))
        return GROVE_ERR_INVALID_ARG;
    dgsp_sizes s;
    dgsp_sizes_of(cfg, &s);
    for (size_t i = 0; i < count; i++) {
        int r = check_one(cfg, pk, id, wots_pks + i * cfg->n, certs + i * s.cert);
        if (r != GROVE_OK)
            return r == GROVE_ERR_NOMEM ? GROVE_ERR_NOMEM : GROVE_ERR_VERIFY;
    }
    return GROVE_OK;
}

int dgsp_sign_raw(const grove_dgsp_cfg *cfg, const uint8_t *msg, size_t msg_len,
                  const uint8_t *seed_u, uint64_t id, const uint8_t *wots_seed,
                  const uint8_t *cert, uint8_t *sig, int allow_compat)
{
    if (!dgsp_cfg_ok(cfg) || seed_u == NULL || wots_seed == NULL || cert == NULL || sig == NULL ||
        (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    if (cfg->profile != GROVE_DGSP_PROFILE_GROVE && !allow_compat)
        return GROVE_ERR_INSECURE_PROFILE;
    const size_t n = cfg->n;
    dgsp_sizes s;
    dgsp_sizes_of(cfg, &s);
    uint8_t wots_key[GROVE_DGSP_MAX_N], digest[GROVE_DGSP_MAX_N], wpk[GROVE_DGSP_MAX_N], idb[8];
    uint8_t *wots_sig = sig, *wots_rand = sig + s.wots_sig, *zeta = wots_rand + n;
    uint8_t *spx = zeta + 16, *tau = spx + s.spx_sig;
    dgsp_hash(cfg, wots_rand, wots_seed, n, NULL, 0, NULL, 0);
    dgsp_hash(cfg, wots_key, seed_u, n, wots_seed, n, NULL, 0);
    dgsp_hash_msg(cfg, digest, wots_rand, msg, msg_len);
    GROVE_DECLASSIFY(wots_rand, n); /* wots_rand and the digest are published */
    GROVE_DECLASSIFY(digest, n);
    int r = dgsp_wots_pk_sign(cfg, wots_rand, wots_key, digest, wpk, wots_sig);
    GROVE_DECLASSIFY(wpk, n);             /* certified, hence public */
    GROVE_DECLASSIFY(wots_sig, s.wots_sig); /* the signature */
    grove_wipe(wots_key, sizeof wots_key);
    if (r != GROVE_OK) {
        grove_wipe(sig, s.sig);
        return r;
    }
    grove_store64_be(idb, id);
    dgsp_hash(cfg, tau, wpk, n, cert + 16, n, idb, 8); /* tau = H(wots_pk || pi || id) */
    memcpy(zeta, cert, 16);
    memcpy(spx, cert + 16 + n, s.spx_sig);
    return GROVE_OK;
}

/* ---- anyone ------------------------------------------------------------------------------ */

/* grove_dgsp_verify, also handing over the signature's WOTS+ public key (n bytes; open uses
 * it rather than recomputing it). */
static grove_status verify_wpk(const grove_dgsp_cfg *cfg, const uint8_t *sig, size_t sig_len,
                               const uint8_t *msg, size_t msg_len, const uint8_t *pk,
                               grove_dgsp_store *revoked, uint8_t *wpk)
{
    if (!dgsp_cfg_ok(cfg) || pk == NULL || sig == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    dgsp_sizes s;
    dgsp_sizes_of(cfg, &s);
    if (sig_len != s.sig)
        return GROVE_ERR_VERIFY; /* grove/common.h: a wrong length does not verify */
    const size_t n = cfg->n;
    const uint8_t *wots_sig = sig, *wots_rand = sig + s.wots_sig, *zeta = wots_rand + n;
    const uint8_t *spx = zeta + 16, *tau = spx + s.spx_sig;
    if (revoked != NULL) {
        bool present = false;
        grove_status r = revoked->ops->is_revoked(revoked->ctx, zeta, &present);
        if (r != GROVE_OK)
            return r;
        if (present)
            return GROVE_ERR_REVOKED;
    }
    uint8_t m[2 * GROVE_DGSP_MAX_N + 16];
    dgsp_wots_pk_from_sig(cfg, wots_rand, wots_sig, msg, msg_len, m);
    memcpy(m + n, zeta, 16);
    memcpy(m + n + 16, tau, n);
    memcpy(wpk, m, n);
    int r = spx_verify(cfg, spx, s.spx_sig, m, 2 * n + 16, pk);
    return r == GROVE_OK ? GROVE_OK : GROVE_ERR_VERIFY;
}

grove_status grove_dgsp_verify(const grove_dgsp_cfg *cfg, const uint8_t *sig, size_t sig_len,
                               const uint8_t *msg, size_t msg_len, const uint8_t *pk,
                               grove_dgsp_store *revoked)
{
    uint8_t wpk[GROVE_DGSP_MAX_N];
    return verify_wpk(cfg, sig, sig_len, msg, msg_len, pk, revoked, wpk);
}

grove_status grove_dgsp_judge(const grove_dgsp_cfg *cfg, const uint8_t *sig, size_t sig_len,
                              const uint8_t *msg, size_t msg_len, uint64_t id, const uint8_t *pi)
{
    if (!dgsp_cfg_ok(cfg) || sig == NULL || pi == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    dgsp_sizes s;
    dgsp_sizes_of(cfg, &s);
    if (sig_len != s.sig)
        return GROVE_ERR_VERIFY; /* grove/common.h: a wrong length does not verify */
    const size_t n = cfg->n;
    const uint8_t *wots_rand = sig + s.wots_sig, *tau = sig + s.sig - n;
    uint8_t wpk[GROVE_DGSP_MAX_N], t[GROVE_DGSP_MAX_N], idb[8];
    dgsp_wots_pk_from_sig(cfg, wots_rand, sig, msg, msg_len, wpk);
    grove_store64_be(idb, id);
    dgsp_hash(cfg, t, wpk, n, pi, n, idb, 8);
    return memcmp(t, tau, n) == 0 ? GROVE_OK : GROVE_ERR_VERIFY;
}
