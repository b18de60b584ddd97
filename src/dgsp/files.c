/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* DGSP file formats (see files.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/armor.h"
#include "common/util.h"
#include "dgsp/dgsp_int.h"
#include "dgsp/files.h"
#include "hash/sha2.h"

#define SK_CHECK_LABEL "grove-dgsp-manager-sk-v2"

static const char *const type_names[DGSP_FILE_TYPES] = {
    "PUBLIC KEY", "SECRET KEY", "CREDENTIAL", "CSR", "CERTIFICATES", "SIGNATURE", "REVOCATIONS",
    "PROOF",
};

const char *dgsp_file_type_name(dgsp_file_type t)
{
    return t < DGSP_FILE_TYPES ? type_names[t] : "?";
}

static void header_title(char *title, size_t cap, dgsp_file_type t, int version,
                         const grove_dgsp_cfg *cfg)
{
    snprintf(title, cap, "GROVE DGSP %s v%d %s %s %s", type_names[t], version,
             grove_dgsp_params_name(cfg), grove_slhdsa_params_is_fips205(cfg->spx) ? "fips205" : "r3.1",
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

char *dgsp_file_encode(dgsp_file_type t, const grove_dgsp_cfg *cfg, const uint8_t *body,
                       size_t len, size_t *outlen)
{
    char title[128], end[64];
    header_title(title, sizeof title, t, t == DGSP_FILE_SECRET_KEY ? DGSP_SK_FILE_VERSION
                                                                    : DGSP_FILE_VERSION, cfg);
    snprintf(end, sizeof end, "GROVE DGSP %s", type_names[t]);
    if (t != DGSP_FILE_SECRET_KEY)
        return grove_armor_encode(title, end, body, len, outlen);
    uint8_t sk[GROVE_DGSP_MAX_SK_BYTES + DGSP_SK_CHECK_BYTES];
    if (len > GROVE_DGSP_MAX_SK_BYTES)
        return NULL;
    memcpy(sk, body, len);
    sk_check(title, body, len, sk + len);
    char *text = grove_armor_encode(title, end, sk, len + DGSP_SK_CHECK_BYTES, outlen);
    grove_wipe(sk, sizeof sk);
    return text;
}

size_t dgsp_file_max_text(dgsp_file_type t, const grove_dgsp_cfg *cfg, size_t count)
{
    const size_t n = cfg->n, cb = grove_dgsp_cert_bytes(cfg);
    size_t body;
    switch (t) {
    case DGSP_FILE_PUBLIC_KEY: body = 2 * n; break;
    case DGSP_FILE_SECRET_KEY: body = 6 * n + DGSP_SK_CHECK_BYTES; break;
    case DGSP_FILE_CREDENTIAL: body = 9 + 3 * n + GROVE_DGSP_MAX_USERNAME; break;
    case DGSP_FILE_CSR: body = 12 + n + count * n; break;
    case DGSP_FILE_CERTIFICATES: body = 12 + count * (n + cb); break;
    case DGSP_FILE_SIGNATURE: body = grove_dgsp_sig_bytes(cfg); break;
    case DGSP_FILE_PROOF: body = 8 + n; break;
    default: return (size_t)256 << 20; /* revocation lists: the command's general cap */
    }
    size_t b64 = (body + 2) / 3 * 4;
    return 2 * 128 + b64 + b64 / 64 + 8; /* BEGIN and END lines, newlines, CRs tolerated */
}

int dgsp_file_check_body(dgsp_file_type t, const grove_dgsp_cfg *cfg, const uint8_t *body,
                         size_t len, char *err, size_t errcap)
{
    const size_t n = cfg->n, cb = grove_dgsp_cert_bytes(cfg);
    size_t want = 0;
    switch (t) {
    case DGSP_FILE_PUBLIC_KEY:
        want = 2 * n;
        break;
    case DGSP_FILE_SECRET_KEY:
        want = 6 * n; /* without the v2 check, removed by the decoder */
        break;
    case DGSP_FILE_CREDENTIAL:
        if (len < 8 + 3 * n + 2) {
            snprintf(err, errcap, "credential too short");
            return GROVE_ERR_ENCODING;
        }
        want = 8 + 3 * n + 1 + body[8 + 3 * n];
        break;
    case DGSP_FILE_CSR: {
        if (len < 12 + n) {
            snprintf(err, errcap, "CSR too short");
            return GROVE_ERR_ENCODING;
        }
        uint32_t c = grove_load32_be(body + 8 + n);
        if (c == 0 || c > DGSP_MAX_BATCH) {
            snprintf(err, errcap, "CSR count %u out of range (1..%u)", c, DGSP_MAX_BATCH);
            return GROVE_ERR_ENCODING;
        }
        want = 12 + n + (size_t)c * n;
        break;
    }
    case DGSP_FILE_CERTIFICATES: {
        if (len < 12) {
            snprintf(err, errcap, "certificate file too short");
            return GROVE_ERR_ENCODING;
        }
        uint32_t c = grove_load32_be(body + 8);
        if (c == 0 || c > DGSP_MAX_BATCH) {
            snprintf(err, errcap, "certificate count %u out of range (1..%u)", c, DGSP_MAX_BATCH);
            return GROVE_ERR_ENCODING;
        }
        want = 12 + (size_t)c * (n + cb);
        break;
    }
    case DGSP_FILE_SIGNATURE:
        want = grove_dgsp_sig_bytes(cfg);
        break;
    case DGSP_FILE_REVOCATIONS: {
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
    case DGSP_FILE_PROOF:
        want = 8 + n;
        break;
    default:
        snprintf(err, errcap, "unknown file type");
        return GROVE_ERR_ENCODING;
    }
    if (len != want) {
        snprintf(err, errcap, "%s body has %zu bytes, %s needs %zu", type_names[t], len,
                 grove_dgsp_params_name(cfg), want);
        return GROVE_ERR_ENCODING;
    }
    if (t == DGSP_FILE_CREDENTIAL) {
        size_t ul = body[8 + 3 * n];
        char name[GROVE_DGSP_MAX_USERNAME + 1];
        memcpy(name, body + 9 + 3 * n, ul);
        name[ul] = '\0';
        if (!grove_dgsp_username_valid(name)) {
            snprintf(err, errcap, "credential holds an invalid username");
            return GROVE_ERR_ENCODING;
        }
    }
    return GROVE_OK;
}

int dgsp_file_decode(const uint8_t *data, size_t len, dgsp_file_type expect, dgsp_file_type *type,
                     grove_dgsp_cfg *cfg, uint8_t **body, size_t *bodylen, char *err,
                     size_t errcap)
{
    int version = 0;
    int r = dgsp_file_decode_any_version(data, len, expect, type, cfg, body, bodylen, &version,
                                         err, errcap);
    if (r == GROVE_OK && version == 1 && *bodylen == 6 * (size_t)cfg->n &&
        (expect == DGSP_FILE_SECRET_KEY || (type && *type == DGSP_FILE_SECRET_KEY))) {
        grove_wipe(*body, *bodylen);
        free(*body);
        *body = NULL;
        snprintf(err, errcap,
                 "this manager secret key is in format v1, which has no integrity check (a "
                 "damaged AES key would issue certificates that can never be opened or "
                 "revoked): run `grove dgsp manager upgrade-key --group DIR` to check it and "
                 "rewrite it as v2");
        return GROVE_ERR_UNSUPPORTED;
    }
    return r;
}

int dgsp_file_decode_any_version(const uint8_t *data, size_t len, dgsp_file_type expect,
                                 dgsp_file_type *type, grove_dgsp_cfg *cfg, uint8_t **body,
                                 size_t *bodylen, int *version_out, char *err, size_t errcap)
{
    char title[160], end[160];
    *body = NULL;
    if (!grove_armor_detect(data, len)) {
        snprintf(err, errcap, "not a grove DGSP file (no armor; raw files need --raw)");
        return GROVE_ERR_ENCODING;
    }
    if (grove_armor_decode((const char *)data, len, title, sizeof title, end, sizeof end, body,
                           bodylen, err, errcap) != 0)
        return GROVE_ERR_ENCODING;
    int r = GROVE_ERR_ENCODING;
    if (strncmp(title, "GROVE DGSP ", 11) != 0) {
        snprintf(err, errcap, "not a grove DGSP file (\"%.60s\")", title);
        goto fail;
    }
    const char *rest = title + 11;
    dgsp_file_type t = DGSP_FILE_TYPES;
    for (int i = 0; i < DGSP_FILE_TYPES; i++) {
        size_t tl = strlen(type_names[i]);
        if (strncmp(rest, type_names[i], tl) == 0 && rest[tl] == ' ') {
            t = (dgsp_file_type)i;
            rest += tl + 1;
            break;
        }
    }
    if (t == DGSP_FILE_TYPES) {
        snprintf(err, errcap, "unknown DGSP file type in \"%.60s\"", title);
        goto fail;
    }
    char endwant[64];
    snprintf(endwant, sizeof endwant, "GROVE DGSP %s", type_names[t]);
    if (strcmp(end, endwant) != 0) {
        snprintf(err, errcap, "END line does not match the BEGIN line");
        goto fail;
    }
    if (expect != DGSP_FILE_TYPES && t != expect) {
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
    int maxv = t == DGSP_FILE_SECRET_KEY ? DGSP_SK_FILE_VERSION : DGSP_FILE_VERSION;
    if (version < 1 || version > maxv) {
        snprintf(err, errcap, "unsupported format version %d (this grove reads version%s %d)",
                 version, maxv > 1 ? "s 1 to" : "", maxv);
        r = GROVE_ERR_UNSUPPORTED;
        goto fail;
    }
    int fl = grove_dgsp_flavour_from_name(flavour), pr = grove_dgsp_profile_from_name(profile);
    if (fl < 0 || pr < 0 ||
        grove_dgsp_cfg_init(cfg, params, (grove_dgsp_flavour)fl, (grove_dgsp_profile)pr) !=
            GROVE_OK) {
        snprintf(err, errcap, "unknown parameter set, flavour or profile (%s %s %s)", params,
                 flavour, profile);
        r = GROVE_ERR_UNSUPPORTED;
        goto fail;
    }
    if (t == DGSP_FILE_SECRET_KEY && version == 2) {
        uint8_t want[32];
        if (*bodylen != 6 * (size_t)cfg->n + DGSP_SK_CHECK_BYTES) {
            snprintf(err, errcap, "SECRET KEY body has %zu bytes, %s v2 needs %zu", *bodylen,
                     grove_dgsp_params_name(cfg), 6 * (size_t)cfg->n + DGSP_SK_CHECK_BYTES);
            goto fail;
        }
        *bodylen -= DGSP_SK_CHECK_BYTES;
        sk_check(title, *body, *bodylen, want);
        int ok = grove_ct_memeq(want, *body + *bodylen, DGSP_SK_CHECK_BYTES);
        grove_wipe(*body + *bodylen, DGSP_SK_CHECK_BYTES);
        if (!ok) {
            snprintf(err, errcap, "the manager secret key is damaged (its integrity check does not "
                                  "match): restore manager.sk from a backup; nothing was signed "
                                  "or reserved");
            r = GROVE_ERR_STATE;
            goto fail;
        }
    }
    r = dgsp_file_check_body(t, cfg, *body, *bodylen, err, errcap);
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
