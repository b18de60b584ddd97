/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* grove's DGSP file formats (see "grove's DGSP files" in grove/dgsp.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/armor.h"
#include "common/util.h"
#include "dgsp/dgsp_int.h"
#include "hash/sha2.h"

#define SK_CHECK_LABEL "grove-dgsp-manager-sk-v2"

static grove_status check_body(grove_dgsp_file_type t, const grove_dgsp_cfg *cfg,
                               const uint8_t *body, size_t len, char *err, size_t errcap);

static const char *const type_names[GROVE_DGSP_FILE_ANY] = {
    "PUBLIC KEY", "SECRET KEY", "CREDENTIAL", "CSR", "CERTIFICATES", "SIGNATURE", "REVOCATIONS",
    "PROOF",
};

const char *grove_dgsp_file_type_name(grove_dgsp_file_type t)
{
    return (unsigned)t < GROVE_DGSP_FILE_ANY ? type_names[t] : "?";
}

static void header_title(char *title, size_t cap, grove_dgsp_file_type t, int version,
                         const grove_dgsp_cfg *cfg)
{
    snprintf(title, cap, "GROVE DGSP %s v%d %s %s %s", type_names[t], version,
             grove_dgsp_params_name(cfg->params),
             grove_dgsp_flavour_name(grove_dgsp_cfg_flavour(cfg)),
             grove_dgsp_profile_name(cfg->profile));
}

/* The v2 secret key check over the header title and the 6N-byte key. */
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

/* The armored text, malloc'd (NULL if out of memory). */
static char *encode_text(grove_dgsp_file_type t, const grove_dgsp_cfg *cfg, const uint8_t *body,
                         size_t len, size_t *outlen)
{
    char title[128], end[64];
    int version = t == GROVE_DGSP_FILE_SECRET_KEY ? GROVE_DGSP_SK_FILE_VERSION
                                                  : GROVE_DGSP_FILE_VERSION;
    header_title(title, sizeof title, t, version, cfg);
    snprintf(end, sizeof end, "GROVE DGSP %s", type_names[t]);
    if (t != GROVE_DGSP_FILE_SECRET_KEY)
        return grove_armor_encode(title, end, body, len, outlen);
    uint8_t sk[GROVE_DGSP_MAX_SK_BYTES + GROVE_DGSP_SK_CHECK_BYTES];
    memcpy(sk, body, len); /* len was checked: 6N */
    sk_check(title, body, len, sk + len);
    char *text = grove_armor_encode(title, end, sk, len + GROVE_DGSP_SK_CHECK_BYTES, outlen);
    grove_wipe(sk, sizeof sk);
    return text;
}

grove_status grove_dgsp_file_encode(const grove_dgsp_cfg *cfg, char *out, size_t out_cap,
                                    size_t *out_len, grove_dgsp_file_type type, const uint8_t *body,
                                    size_t body_len)
{
    if (!dgsp_cfg_ok(cfg) || out_len == NULL || (out == NULL && out_cap) || body == NULL ||
        (unsigned)type >= GROVE_DGSP_FILE_ANY)
        return GROVE_ERR_INVALID_ARG;
    /* never armor what could not be read back */
    grove_status r = type == GROVE_DGSP_FILE_SECRET_KEY
                         ? (body_len == grove_dgsp_sk_bytes(cfg) ? GROVE_OK : GROVE_ERR_ENCODING)
                         : check_body(type, cfg, body, body_len, NULL, 0);
    if (r != GROVE_OK)
        return r;
    size_t len = 0;
    char *text = encode_text(type, cfg, body, body_len, &len);
    if (text == NULL)
        return GROVE_ERR_NOMEM;
    *out_len = len;
    if (out_cap < len)
        r = GROVE_ERR_BUFFER_TOO_SMALL;
    else
        memcpy(out, text, len);
    grove_wipe(text, len);
    free(text);
    return r;
}

size_t grove_dgsp_file_max_text(const grove_dgsp_cfg *cfg, grove_dgsp_file_type t, size_t count)
{
    if (!dgsp_cfg_ok(cfg))
        return 0;
    const size_t n = cfg->n, cb = grove_dgsp_cert_bytes(cfg);
    size_t body;
    switch (t) {
    case GROVE_DGSP_FILE_PUBLIC_KEY: body = 2 * n; break;
    case GROVE_DGSP_FILE_SECRET_KEY: body = 6 * n + GROVE_DGSP_SK_CHECK_BYTES; break;
    case GROVE_DGSP_FILE_CREDENTIAL: body = 9 + 3 * n + GROVE_DGSP_MAX_USERNAME; break;
    case GROVE_DGSP_FILE_CSR: body = 12 + n + count * n; break;
    case GROVE_DGSP_FILE_CERTIFICATES: body = 12 + count * (n + cb); break;
    case GROVE_DGSP_FILE_SIGNATURE: body = grove_dgsp_sig_bytes(cfg); break;
    case GROVE_DGSP_FILE_PROOF: body = 8 + n; break;
    default: return (size_t)256 << 20; /* revocation lists: the command's general cap */
    }
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
        want = 6 * n; /* without the v2 check, removed by the decoder */
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

/* Decode and check an armored file; *body is malloc'd (wiped and freed on failure). */
static grove_status decode_armor(const uint8_t *data, size_t len, grove_dgsp_file_type expect,
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
        t == GROVE_DGSP_FILE_SECRET_KEY ? GROVE_DGSP_SK_FILE_VERSION : GROVE_DGSP_FILE_VERSION;
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
        if (*bodylen != 6 * (size_t)cfg->n + GROVE_DGSP_SK_CHECK_BYTES) {
            snprintf(err, errcap, "SECRET KEY body has %zu bytes, %s v2 needs %zu", *bodylen,
                     grove_dgsp_params_name(cfg->params),
                     6 * (size_t)cfg->n + GROVE_DGSP_SK_CHECK_BYTES);
            goto fail;
        }
        *bodylen -= GROVE_DGSP_SK_CHECK_BYTES;
        sk_check(title, *body, *bodylen, want);
        int ok = grove_ct_memeq(want, *body + *bodylen, GROVE_DGSP_SK_CHECK_BYTES);
        grove_wipe(*body + *bodylen, GROVE_DGSP_SK_CHECK_BYTES);
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

/* Decode into the caller's buffer; v1 secret keys only when allow_v1. */
static grove_status decode_into(grove_dgsp_cfg *cfg, grove_dgsp_file_type *type, int *version,
                                uint8_t *body, size_t body_cap, size_t *body_len, const char *text,
                                size_t text_len, grove_dgsp_file_type expect, bool allow_v1,
                                char *err, size_t err_cap)
{
    char dummy[1];
    if (err == NULL) {
        err = dummy;
        err_cap = sizeof dummy;
    }
    if (err_cap)
        err[0] = '\0';
    if (cfg == NULL || body_len == NULL || text == NULL || (body == NULL && body_cap) ||
        (unsigned)expect > GROVE_DGSP_FILE_ANY)
        return GROVE_ERR_INVALID_ARG;
    grove_dgsp_file_type t = GROVE_DGSP_FILE_ANY;
    uint8_t *b = NULL;
    size_t bl = 0;
    int v = 0;
    grove_status r = decode_armor((const uint8_t *)text, text_len, expect, &t, cfg, &b, &bl, &v,
                                  err, err_cap);
    if (r != GROVE_OK)
        return r;
    if (!allow_v1 && t == GROVE_DGSP_FILE_SECRET_KEY && v == 1) {
        snprintf(err, err_cap,
                 "this manager secret key is in format v1, which has no integrity check (a "
                 "damaged AES key would issue certificates that can never be opened or "
                 "revoked): run `grove dgsp manager upgrade-key --group DIR` to check it and "
                 "rewrite it as v2");
        r = GROVE_ERR_UNSUPPORTED;
    } else if (bl > body_cap) {
        snprintf(err, err_cap, "the %s body (%zu bytes) does not fit in %zu bytes",
                 type_names[t], bl, body_cap);
        r = GROVE_ERR_BUFFER_TOO_SMALL;
    } else {
        memcpy(body, b, bl);
    }
    *body_len = bl;
    grove_wipe(b, bl);
    free(b);
    if (r == GROVE_OK && type)
        *type = t;
    if (r == GROVE_OK && version)
        *version = v;
    return r;
}

grove_status grove_dgsp_file_decode(grove_dgsp_cfg *cfg, grove_dgsp_file_type *type, uint8_t *body,
                                    size_t body_cap, size_t *body_len, const char *text,
                                    size_t text_len, grove_dgsp_file_type expect, char *err,
                                    size_t err_cap)
{
    return decode_into(cfg, type, NULL, body, body_cap, body_len, text, text_len, expect, false,
                       err, err_cap);
}

grove_status grove_dgsp_file_decode_any_version(grove_dgsp_cfg *cfg, grove_dgsp_file_type *type,
                                                int *version, uint8_t *body, size_t body_cap,
                                                size_t *body_len, const char *text, size_t text_len,
                                                grove_dgsp_file_type expect, char *err,
                                                size_t err_cap)
{
    return decode_into(cfg, type, version, body, body_cap, body_len, text, text_len, expect, true,
                       err, err_cap);
}
