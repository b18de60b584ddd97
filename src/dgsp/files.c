/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove's DGSP files (see "grove's DGSP files" in grove/dgsp.h): the grove envelope with scheme
 * "DGSP", set "<params>/<flavour>/<profile>" and the group's key id; the older DGSP armor is
 * still read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/armor.h"
#include "common/util.h"
#include "dgsp/dgsp_int.h"
#include "format/envelope.h"
#include "hash/sha2.h"

#define SK_CHECK_LABEL "grove-dgsp-manager-sk-v2"
#define SCHEME "DGSP"
#define ENVELOPE_CHECK_LABEL "grove envelope v1" /* grove/envelope.h: the check's label */
#define ENVELOPE_CHECK_BYTES 32

static const char *const type_names[GROVE_DGSP_FILE_ANY] = {
    "PUBLIC KEY", "SECRET KEY", "CREDENTIAL", "CSR", "CERTIFICATES", "SIGNATURE", "REVOCATIONS",
    "PROOF",
};

const char *grove_dgsp_file_type_name(grove_dgsp_file_type t)
{
    return (unsigned)t < GROVE_DGSP_FILE_ANY ? type_names[t] : "?";
}

static grove_dgsp_file_type type_of_name(const char *name)
{
    for (int i = 0; i < GROVE_DGSP_FILE_ANY; i++)
        if (strcmp(name, type_names[i]) == 0)
            return (grove_dgsp_file_type)i;
    return GROVE_DGSP_FILE_ANY;
}

grove_status grove_dgsp_set_name(const grove_dgsp_cfg *cfg, char out[GROVE_ENVELOPE_SET_MAX + 1])
{
    if (out == NULL || !dgsp_cfg_ok(cfg))
        return GROVE_ERR_INVALID_ARG;
    int k = snprintf(out, GROVE_ENVELOPE_SET_MAX + 1, "%s/%s/%s",
                     grove_dgsp_params_name(cfg->params),
                     grove_dgsp_flavour_name(grove_dgsp_cfg_flavour(cfg)),
                     grove_dgsp_profile_name(cfg->profile));
    return k > 0 && k <= GROVE_ENVELOPE_SET_MAX ? GROVE_OK : GROVE_ERR_INTERNAL;
}

/* The configuration named by an envelope set "<params>/<flavour>/<profile>". */
static grove_status cfg_of_set(grove_dgsp_cfg *cfg, const char *set)
{
    char buf[GROVE_ENVELOPE_SET_MAX + 1];
    snprintf(buf, sizeof buf, "%s", set);
    char *fl = strchr(buf, '/');
    char *pr = fl ? strchr(fl + 1, '/') : NULL;
    if (pr == NULL || strchr(pr + 1, '/') != NULL)
        return GROVE_ERR_ENCODING;
    *fl++ = '\0';
    *pr++ = '\0';
    grove_dgsp_flavour f;
    grove_dgsp_profile p;
    const grove_dgsp_params *params = grove_dgsp_params_get(buf);
    if (params == NULL || grove_dgsp_flavour_from_name(&f, fl) != GROVE_OK ||
        grove_dgsp_profile_from_name(&p, pr) != GROVE_OK ||
        grove_dgsp_cfg_init(cfg, params, f, p) != GROVE_OK)
        return GROVE_ERR_UNSUPPORTED;
    /* one spelling only: the set must be exactly what this cfg writes */
    char again[GROVE_ENVELOPE_SET_MAX + 1];
    if (grove_dgsp_set_name(cfg, again) != GROVE_OK || strcmp(again, set) != 0)
        return GROVE_ERR_UNSUPPORTED;
    return GROVE_OK;
}

grove_status grove_dgsp_key_id(const grove_dgsp_cfg *cfg, uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES],
                               const uint8_t *pk)
{
    char set[GROVE_ENVELOPE_SET_MAX + 1];
    if (id == NULL || pk == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_status st = grove_dgsp_set_name(cfg, set);
    return st != GROVE_OK ? st
                          : grove_envelope_key_id(id, SCHEME, set, pk, grove_dgsp_pk_bytes(cfg));
}

/* The manager public key held in a body of this type (PUBLIC KEY, SECRET KEY, CREDENTIAL), or
 * NULL. The body's length has been checked. */
static const uint8_t *pk_in_body(const grove_dgsp_cfg *cfg, grove_dgsp_file_type t,
                                 const uint8_t *body)
{
    switch (t) {
    case GROVE_DGSP_FILE_PUBLIC_KEY: return body;
    case GROVE_DGSP_FILE_SECRET_KEY: return body + 4 * (size_t)cfg->n; /* SPHINCS+ sk ends in pk */
    case GROVE_DGSP_FILE_CREDENTIAL: return body + 8 + (size_t)cfg->n;
    default: return NULL;
    }
}

static grove_status check_body(grove_dgsp_file_type t, const grove_dgsp_cfg *cfg,
                               const uint8_t *body, size_t len, char *err, size_t errcap);

/* The header of a file: names, key id (of pk, or of the key in the body; see dgsp.h). */
static grove_status fill_envelope(const grove_dgsp_cfg *cfg, grove_envelope *env,
                                  grove_dgsp_file_type type, const uint8_t *body, size_t body_len,
                                  const uint8_t *pk, bool check)
{
    char set[GROVE_ENVELOPE_SET_MAX + 1];
    if (env == NULL || !dgsp_cfg_ok(cfg) || (body == NULL && body_len) ||
        (unsigned)type >= GROVE_DGSP_FILE_ANY)
        return GROVE_ERR_INVALID_ARG;
    if (check) { /* never write what could not be read back */
        char dummy[1];
        grove_status r = check_body(type, cfg, body, body_len, dummy, sizeof dummy);
        if (r != GROVE_OK)
            return r;
    }
    grove_status st = grove_dgsp_set_name(cfg, set);
    if (st == GROVE_OK)
        st = grove_envelope_init(env, SCHEME, set, type_names[type], body, body_len);
    if (st != GROVE_OK)
        return st;
    const uint8_t *inner = check ? pk_in_body(cfg, type, body) : NULL;
    if (inner != NULL && pk != NULL && !grove_ct_memeq(inner, pk, grove_dgsp_pk_bytes(cfg)))
        return GROVE_ERR_INVALID_ARG;
    const uint8_t *key = pk ? pk : inner;
    if (key != NULL) {
        st = grove_dgsp_key_id(cfg, env->key_id, key);
        env->has_key_id = st == GROVE_OK;
    }
    return st;
}

grove_status grove_dgsp_file_envelope(const grove_dgsp_cfg *cfg, grove_envelope *env,
                                      grove_dgsp_file_type type, const uint8_t *body,
                                      size_t body_len, const uint8_t *pk)
{
    if (body == NULL)
        return GROVE_ERR_INVALID_ARG;
    return fill_envelope(cfg, env, type, body, body_len, pk, true);
}

grove_status grove_dgsp_file_encode(const grove_dgsp_cfg *cfg, uint8_t *out, size_t out_cap,
                                    size_t *out_len, grove_dgsp_file_type type, const uint8_t *body,
                                    size_t body_len, const uint8_t *pk, grove_envelope_form form)
{
    if (out_len == NULL || (out == NULL && out_cap) ||
        (form != GROVE_ENVELOPE_ARMORED && form != GROVE_ENVELOPE_BINARY))
        return GROVE_ERR_INVALID_ARG;
    grove_envelope env;
    grove_status st = grove_dgsp_file_envelope(cfg, &env, type, body, body_len, pk);
    if (st != GROVE_OK)
        return st;
    return grove_envelope_encode(out, out_cap, out_len, &env, form);
}

grove_status grove_dgsp_file_stream_begin(const grove_dgsp_cfg *cfg, grove_dgsp_file_stream *s,
                                          uint8_t *head, size_t head_cap, size_t *head_len,
                                          grove_dgsp_file_type type, size_t body_len,
                                          const uint8_t *pk)
{
    if (s == NULL || head == NULL || head_len == NULL || body_len > GROVE_ENVELOPE_MAX_BODY)
        return GROVE_ERR_INVALID_ARG;
    /* The header of the same file with an empty body, then its body length (grove/envelope.h:
     * the last 4 header bytes, big-endian). */
    grove_envelope env;
    uint8_t tmp[GROVE_DGSP_FILE_HEAD_MAX + ENVELOPE_CHECK_BYTES];
    size_t tl = 0;
    grove_status st = fill_envelope(cfg, &env, type, NULL, 0, pk, false);
    if (st == GROVE_OK)
        st = grove_envelope_encode(tmp, sizeof tmp, &tl, &env, GROVE_ENVELOPE_BINARY);
    if (st != GROVE_OK)
        return st == GROVE_ERR_BUFFER_TOO_SMALL ? GROVE_ERR_INTERNAL : st;
    size_t hl = tl - ENVELOPE_CHECK_BYTES;
    *head_len = hl;
    if (head_cap < hl)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    grove_store32_be(tmp + hl - 4, (uint32_t)body_len);
    memcpy(head, tmp, hl);
    st = grove_hash_init(&s->hash, GROVE_HASH_SHA256);
    if (st != GROVE_OK)
        return st;
    grove_hash_update(&s->hash, (const uint8_t *)ENVELOPE_CHECK_LABEL,
                      sizeof ENVELOPE_CHECK_LABEL - 1);
    grove_hash_update(&s->hash, head, hl);
    s->left = body_len;
    return GROVE_OK;
}

void grove_dgsp_file_stream_update(grove_dgsp_file_stream *s, const uint8_t *p, size_t len)
{
    if (s == NULL || (p == NULL && len))
        return;
    grove_hash_update(&s->hash, p, len);
    s->left = len > s->left ? UINT64_MAX : s->left - len; /* too many: final fails */
}

grove_status grove_dgsp_file_stream_final(grove_dgsp_file_stream *s, uint8_t check[32])
{
    if (s == NULL || check == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_status st = grove_hash_final(&s->hash, check, ENVELOPE_CHECK_BYTES);
    if (st == GROVE_OK && s->left != 0)
        st = GROVE_ERR_INVALID_ARG;
    grove_wipe(s, sizeof *s);
    return st;
}

size_t grove_dgsp_file_max_text(const grove_dgsp_cfg *cfg, grove_dgsp_file_type t, size_t count)
{
    if (!dgsp_cfg_ok(cfg))
        return 0;
    const size_t n = cfg->n, cb = grove_dgsp_cert_bytes(cfg);
    size_t body;
    switch (t) {
    case GROVE_DGSP_FILE_PUBLIC_KEY: body = 2 * n; break;
    case GROVE_DGSP_FILE_SECRET_KEY: body = 6 * n + GROVE_DGSP_OLD_SK_CHECK_BYTES; break;
    case GROVE_DGSP_FILE_CREDENTIAL: body = 9 + 3 * n + GROVE_DGSP_MAX_USERNAME; break;
    case GROVE_DGSP_FILE_CSR: body = 12 + n + count * n; break;
    case GROVE_DGSP_FILE_CERTIFICATES: body = 12 + count * (n + cb); break;
    case GROVE_DGSP_FILE_SIGNATURE: body = grove_dgsp_sig_bytes(cfg); break;
    case GROVE_DGSP_FILE_PROOF: body = 8 + n; break;
    default: return (size_t)256 << 20; /* revocation lists: the command's general cap */
    }
    body += GROVE_DGSP_FILE_HEAD_MAX + ENVELOPE_CHECK_BYTES; /* the envelope around it */
    size_t b64 = (body + 2) / 3 * 4;
    return 2 * 128 + b64 + b64 / 64 + 8; /* BEGIN and END lines, newlines, CRs tolerated */
}

static grove_status check_body(grove_dgsp_file_type t, const grove_dgsp_cfg *cfg,
                               const uint8_t *body, size_t len, char *err, size_t errcap)
{
    const size_t n = cfg->n, cb = grove_dgsp_cert_bytes(cfg);
    size_t want = 0;
    switch (t) {
    case GROVE_DGSP_FILE_PUBLIC_KEY:
        want = 2 * n;
        break;
    case GROVE_DGSP_FILE_SECRET_KEY:
        want = 6 * n; /* (an older v2 file: without its check, removed by the decoder) */
        break;
    case GROVE_DGSP_FILE_CREDENTIAL:
        if (len < 8 + 3 * n + 2) {
            snprintf(err, errcap, "credential too short");
            return GROVE_ERR_ENCODING;
        }
        want = 8 + 3 * n + 1 + body[8 + 3 * n];
        break;
    case GROVE_DGSP_FILE_CSR: {
        if (len < 12 + n) {
            snprintf(err, errcap, "CSR too short");
            return GROVE_ERR_ENCODING;
        }
        uint32_t c = grove_load32_be(body + 8 + n);
        if (c == 0 || c > GROVE_DGSP_MAX_BATCH) {
            snprintf(err, errcap, "CSR count %u out of range (1..%u)", c, GROVE_DGSP_MAX_BATCH);
            return GROVE_ERR_ENCODING;
        }
        want = 12 + n + (size_t)c * n;
        break;
    }
    case GROVE_DGSP_FILE_CERTIFICATES: {
        if (len < 12) {
            snprintf(err, errcap, "certificate file too short");
            return GROVE_ERR_ENCODING;
        }
        uint32_t c = grove_load32_be(body + 8);
        if (c == 0 || c > GROVE_DGSP_MAX_BATCH) {
            snprintf(err, errcap, "certificate count %u out of range (1..%u)", c,
                     GROVE_DGSP_MAX_BATCH);
            return GROVE_ERR_ENCODING;
        }
        want = 12 + (size_t)c * (n + cb);
        break;
    }
    case GROVE_DGSP_FILE_SIGNATURE:
        want = grove_dgsp_sig_bytes(cfg);
        break;
    case GROVE_DGSP_FILE_REVOCATIONS: {
        size_t sl = grove_slhdsa_sig_bytes(cfg->spx);
        if (len < 24 + sl) {
            snprintf(err, errcap, "revocation list too short");
            return GROVE_ERR_ENCODING;
        }
        uint64_t c = grove_load64_be(body + 16);
        if (c > (len - 24 - sl) / 16) {
            snprintf(err, errcap, "revocation list length does not match its count");
            return GROVE_ERR_ENCODING;
        }
        want = 24 + 16 * (size_t)c + sl;
        break;
    }
    case GROVE_DGSP_FILE_PROOF:
        want = 8 + n;
        break;
    default:
        snprintf(err, errcap, "unknown file type");
        return GROVE_ERR_ENCODING;
    }
    if (len != want) {
        snprintf(err, errcap, "%s body has %zu bytes, %s needs %zu", type_names[t], len,
                 grove_dgsp_params_name(cfg->params), want);
        return GROVE_ERR_ENCODING;
    }
    if (t == GROVE_DGSP_FILE_CREDENTIAL) {
        size_t ul = body[8 + 3 * n];
        char name[GROVE_DGSP_MAX_USERNAME + 1];
        memcpy(name, body + 9 + 3 * n, ul);
        name[ul] = '\0';
        if (!grove_dgsp_username_is_valid(name)) {
            snprintf(err, errcap, "credential holds an invalid username");
            return GROVE_ERR_ENCODING;
        }
    }
    return GROVE_OK;
}

/* The older v2 secret key check over the header title and the 6N-byte key. */
static void sk_check(const char *title, const uint8_t *sk, size_t len, uint8_t out[32])
{
    grove_sha256_ctx c;
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)SK_CHECK_LABEL, sizeof SK_CHECK_LABEL);
    grove_sha256_update(&c, (const uint8_t *)title, strlen(title) + 1);
    grove_sha256_update(&c, sk, len);
    grove_sha256_final(&c, out, 32);
    grove_wipe(&c, sizeof c);
}

/* Decode and check a file in the older armor; *body is malloc'd (wiped and freed on failure). */
static grove_status decode_old(const uint8_t *data, size_t len, grove_dgsp_file_type expect,
                                 grove_dgsp_file_type *type, grove_dgsp_cfg *cfg, uint8_t **body,
                                 size_t *bodylen, int *version_out, char *err, size_t errcap)
{
    char title[160], end[160];
    *body = NULL;
    if (!grove_armor_detect(data, len)) {
        snprintf(err, errcap,
                 "not a grove DGSP file (no armor; raw files go through `grove dgsp import`)");
        return GROVE_ERR_ENCODING;
    }
    if (grove_armor_decode((const char *)data, len, title, sizeof title, end, sizeof end, body,
                           bodylen, err, errcap) != 0)
        return GROVE_ERR_ENCODING;
    grove_status r = GROVE_ERR_ENCODING;
    if (strncmp(title, "GROVE DGSP ", 11) != 0) {
        snprintf(err, errcap, "not a grove DGSP file (\"%.60s\")", title);
        goto fail;
    }
    const char *rest = title + 11;
    grove_dgsp_file_type t = GROVE_DGSP_FILE_ANY;
    for (int i = 0; i < GROVE_DGSP_FILE_ANY; i++) {
        size_t tl = strlen(type_names[i]);
        if (strncmp(rest, type_names[i], tl) == 0 && rest[tl] == ' ') {
            t = (grove_dgsp_file_type)i;
            rest += tl + 1;
            break;
        }
    }
    if (t == GROVE_DGSP_FILE_ANY) {
        snprintf(err, errcap, "unknown DGSP file type in \"%.60s\"", title);
        goto fail;
    }
    char endwant[64];
    snprintf(endwant, sizeof endwant, "GROVE DGSP %s", type_names[t]);
    if (strcmp(end, endwant) != 0) {
        snprintf(err, errcap, "END line does not match the BEGIN line");
        goto fail;
    }
    if (expect != GROVE_DGSP_FILE_ANY && t != expect) {
        snprintf(err, errcap, "this is a DGSP %s file, a %s was expected", type_names[t],
                 type_names[expect]);
        goto fail;
    }
    int version;
    char params[32], flavour[16], profile[16], extra[2];
    if (sscanf(rest, "v%d %31s %15s %15s %1s", &version, params, flavour, profile, extra) != 4) {
        snprintf(err, errcap, "malformed header \"%.60s\"", title);
        goto fail;
    }
    int maxv =
        t == GROVE_DGSP_FILE_SECRET_KEY ? GROVE_DGSP_OLD_SK_FILE_VERSION : GROVE_DGSP_OLD_FILE_VERSION;
    if (version < 1 || version > maxv) {
        snprintf(err, errcap, "unsupported format version %d (this grove reads version%s %d)",
                 version, maxv > 1 ? "s 1 to" : "", maxv);
        r = GROVE_ERR_UNSUPPORTED;
        goto fail;
    }
    grove_dgsp_flavour fl;
    grove_dgsp_profile pr;
    const grove_dgsp_params *set = grove_dgsp_params_get(params);
    if (set == NULL || grove_dgsp_flavour_from_name(&fl, flavour) != GROVE_OK ||
        grove_dgsp_profile_from_name(&pr, profile) != GROVE_OK ||
        grove_dgsp_cfg_init(cfg, set, fl, pr) != GROVE_OK) {
        snprintf(err, errcap, "unknown parameter set, flavour or profile (%s %s %s)", params,
                 flavour, profile);
        r = GROVE_ERR_UNSUPPORTED;
        goto fail;
    }
    if (t == GROVE_DGSP_FILE_SECRET_KEY && version == 2) {
        uint8_t want[32];
        if (*bodylen != 6 * (size_t)cfg->n + GROVE_DGSP_OLD_SK_CHECK_BYTES) {
            snprintf(err, errcap, "SECRET KEY body has %zu bytes, %s v2 needs %zu", *bodylen,
                     grove_dgsp_params_name(cfg->params),
                     6 * (size_t)cfg->n + GROVE_DGSP_OLD_SK_CHECK_BYTES);
            goto fail;
        }
        *bodylen -= GROVE_DGSP_OLD_SK_CHECK_BYTES;
        sk_check(title, *body, *bodylen, want);
        int ok = grove_ct_memeq(want, *body + *bodylen, GROVE_DGSP_OLD_SK_CHECK_BYTES);
        grove_wipe(*body + *bodylen, GROVE_DGSP_OLD_SK_CHECK_BYTES);
        if (!ok) {
            snprintf(err, errcap, "the manager secret key is damaged (its integrity check does not "
                                  "match): restore manager.sk from a backup; nothing was signed "
                                  "or reserved");
            r = GROVE_ERR_STATE;
            goto fail;
        }
    }
    r = check_body(t, cfg, *body, *bodylen, err, errcap);
    if (r != GROVE_OK)
        goto fail;
    if (type)
        *type = t;
    if (version_out)
        *version_out = version;
    return GROVE_OK;
fail:
    if (*body) {
        grove_wipe(*body, *bodylen);
        free(*body);
        *body = NULL;
    }
    return r;
}

/* Whether a file that failed to decode says it is a DGSP secret key (armor title, or binary
 * envelope when one was expected). */
static bool looks_like_sk(const uint8_t *in, size_t in_len, grove_dgsp_file_type expect)
{
    static const char title[] = "-----BEGIN GROVE DGSP SECRET KEY-----";
    if (in_len >= sizeof title - 1 && memcmp(in, title, sizeof title - 1) == 0)
        return true;
    return expect == GROVE_DGSP_FILE_SECRET_KEY && in_len >= 4 && memcmp(in, "GRVE", 4) == 0;
}

/* Check a decoded envelope: scheme, type, set, body, key id against the key in the body. */
static grove_status check_envelope(const grove_envelope *env, grove_dgsp_file_type expect,
                                   grove_dgsp_cfg *cfg, grove_dgsp_file_type *type, char *err,
                                   size_t errcap)
{
    char want[48];
    snprintf(want, sizeof want, "%s", expect == GROVE_DGSP_FILE_ANY ? "file" : type_names[expect]);
    if (strcmp(env->scheme, SCHEME) != 0) {
        snprintf(err, errcap, "this is a grove %s %s%s%s%s, a DGSP %s was expected", env->scheme,
                 env->type, env->set[0] ? " (" : "", env->set, env->set[0] ? ")" : "", want);
        return GROVE_ERR_ENCODING;
    }
    grove_dgsp_file_type t = type_of_name(env->type);
    if (t == GROVE_DGSP_FILE_ANY) {
        snprintf(err, errcap, "unknown DGSP file type \"%s\"", env->type);
        return GROVE_ERR_ENCODING;
    }
    if (expect != GROVE_DGSP_FILE_ANY && t != expect) {
        snprintf(err, errcap, "this is a DGSP %s file, a %s was expected", type_names[t],
                 type_names[expect]);
        return GROVE_ERR_ENCODING;
    }
    grove_status r = cfg_of_set(cfg, env->set);
    if (r != GROVE_OK) {
        snprintf(err, errcap, "unknown DGSP configuration \"%s\" (params/flavour/profile)",
                 env->set);
        return r == GROVE_ERR_ENCODING ? GROVE_ERR_ENCODING : GROVE_ERR_UNSUPPORTED;
    }
    r = check_body(t, cfg, env->body, env->body_len, err, errcap);
    if (r != GROVE_OK)
        return r;
    const uint8_t *pk = pk_in_body(cfg, t, env->body);
    if (pk != NULL && env->has_key_id) {
        uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES];
        r = grove_dgsp_key_id(cfg, id, pk);
        if (r != GROVE_OK)
            return r;
        if (memcmp(id, env->key_id, sizeof id) != 0) {
            snprintf(err, errcap, "the %s's key id does not match the public key it holds",
                     type_names[t]);
            return GROVE_ERR_ENCODING;
        }
    }
    *type = t;
    return GROVE_OK;
}

/* Decode an envelope into a malloc'd buffer (*buf, in_len bytes; wiped and freed on failure). */
static grove_status decode_env(grove_envelope *env, uint8_t **buf, const uint8_t *in,
                               size_t in_len, grove_dgsp_file_type expect, char *err,
                               size_t errcap)
{
    *buf = malloc(in_len ? in_len : 1);
    if (*buf == NULL) {
        snprintf(err, errcap, "out of memory");
        return GROVE_ERR_NOMEM;
    }
    char e[200] = "";
    grove_status st = grove_envelope_decode_plain(env, *buf, in_len, in, in_len, e, sizeof e);
    if (st == GROVE_ERR_ENCODING && looks_like_sk(in, in_len, expect)) {
        snprintf(err, errcap,
                 "the manager secret key is damaged (%s): restore manager.sk from a backup; "
                 "nothing was signed or reserved",
                 e);
        st = GROVE_ERR_STATE;
    } else if (st != GROVE_OK) {
        if (strncmp(e, "not a grove file", 16) == 0)
            snprintf(err, errcap, "not a grove DGSP file (raw files go through `grove dgsp "
                                  "import`)");
        else
            snprintf(err, errcap, "%s", e);
    }
    if (st != GROVE_OK) {
        grove_wipe(*buf, in_len ? in_len : 1);
        free(*buf);
        *buf = NULL;
    }
    return st;
}

/* Decode into the caller's buffer; older v1 secret keys only when allow_v1. */
static grove_status decode_into(grove_dgsp_cfg *cfg, grove_dgsp_file_info *info, uint8_t *body,
                                size_t body_cap, size_t *body_len, const uint8_t *in,
                                size_t in_len, grove_dgsp_file_type expect, bool allow_v1,
                                char *err, size_t err_cap)
{
    char dummy[1];
    if (err == NULL) {
        err = dummy;
        err_cap = sizeof dummy;
    }
    if (err_cap)
        err[0] = '\0';
    if (cfg == NULL || body_len == NULL || in == NULL || (body == NULL && body_cap) ||
        (unsigned)expect > GROVE_DGSP_FILE_ANY)
        return GROVE_ERR_INVALID_ARG;
    grove_dgsp_file_info fi;
    memset(&fi, 0, sizeof fi);
    grove_envelope env;
    uint8_t *buf = NULL, *b = NULL;
    size_t bl = 0, buf_len = in_len ? in_len : 1;
    int v = 0;
    grove_status r = decode_env(&env, &buf, in, in_len, expect, err, err_cap);
    if (r == GROVE_OK && env.form == GROVE_ENVELOPE_DGSP_ARMOR) { /* the older armor */
        grove_wipe(buf, buf_len);
        free(buf);
        buf = NULL;
        r = decode_old(in, in_len, expect, &fi.type, cfg, &b, &bl, &v, err, err_cap);
        fi.version = (unsigned)v;
        fi.old_format = true;
        fi.form = GROVE_ENVELOPE_DGSP_ARMOR;
    } else if (r == GROVE_OK) {
        r = check_envelope(&env, expect, cfg, &fi.type, err, err_cap);
        b = (uint8_t *)(uintptr_t)env.body;
        bl = env.body_len;
        fi.version = env.version;
        fi.form = env.form;
        fi.has_key_id = env.has_key_id;
        memcpy(fi.key_id, env.key_id, sizeof fi.key_id);
    }
    if (r != GROVE_OK) {
    } else if (!allow_v1 && fi.old_format && fi.type == GROVE_DGSP_FILE_SECRET_KEY && v == 1) {
        snprintf(err, err_cap,
                 "this manager secret key is in format v1, which has no integrity check (a "
                 "damaged AES key would issue certificates that can never be opened or "
                 "revoked): run `grove dgsp manager upgrade-key --group DIR` to check it and "
                 "rewrite it");
        r = GROVE_ERR_UNSUPPORTED;
    } else if (bl > body_cap) {
        snprintf(err, err_cap, "the %s body (%zu bytes) does not fit in %zu bytes",
                 type_names[fi.type], bl, body_cap);
        r = GROVE_ERR_BUFFER_TOO_SMALL;
    } else {
        memcpy(body, b, bl);
    }
    *body_len = bl;
    if (buf != NULL) { /* b points into it */
        grove_wipe(buf, buf_len);
        free(buf);
    } else if (b != NULL) {
        grove_wipe(b, bl);
        free(b);
    }
    if (r == GROVE_OK && info)
        *info = fi;
    return r;
}

grove_status grove_dgsp_file_decode(grove_dgsp_cfg *cfg, grove_dgsp_file_info *info,
                                    uint8_t *body, size_t body_cap, size_t *body_len,
                                    const uint8_t *in, size_t in_len, grove_dgsp_file_type expect,
                                    char *err, size_t err_cap)
{
    return decode_into(cfg, info, body, body_cap, body_len, in, in_len, expect, false, err,
                       err_cap);
}

grove_status grove_dgsp_file_decode_any_version(grove_dgsp_cfg *cfg, grove_dgsp_file_info *info,
                                                uint8_t *body, size_t body_cap, size_t *body_len,
                                                const uint8_t *in, size_t in_len,
                                                grove_dgsp_file_type expect, char *err,
                                                size_t err_cap)
{
    return decode_into(cfg, info, body, body_cap, body_len, in, in_len, expect, true, err,
                       err_cap);
}
