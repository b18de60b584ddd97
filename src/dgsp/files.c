/* DGSP file formats (see files.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/armor.h"
#include "common/util.h"
#include "dgsp/dgsp_int.h"
#include "dgsp/files.h"

static const char *const type_names[DGSP_FILE_TYPES] = {
    "PUBLIC KEY", "SECRET KEY", "CREDENTIAL", "CSR", "CERTIFICATES", "SIGNATURE", "REVOCATIONS",
    "PROOF",
};

const char *dgsp_file_type_name(dgsp_file_type t)
{
    return t < DGSP_FILE_TYPES ? type_names[t] : "?";
}

char *dgsp_file_encode(dgsp_file_type t, const grove_dgsp_cfg *cfg, const uint8_t *body,
                       size_t len, size_t *outlen)
{
    char title[128], end[64];
    snprintf(title, sizeof title, "GROVE DGSP %s v%d %s %s %s", type_names[t], DGSP_FILE_VERSION,
             grove_dgsp_params_name(cfg), grove_slhdsa_params_is_fips205(cfg->spx) ? "fips205" : "r3.1",
             grove_dgsp_profile_name(cfg->profile));
    snprintf(end, sizeof end, "GROVE DGSP %s", type_names[t]);
    return grove_armor_encode(title, end, body, len, outlen);
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
        want = 6 * n;
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
    if (version != DGSP_FILE_VERSION) {
        snprintf(err, errcap, "unsupported format version %d (this grove reads version %d)",
                 version, DGSP_FILE_VERSION);
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
    r = dgsp_file_check_body(t, cfg, *body, *bodylen, err, errcap);
    if (r != GROVE_OK)
        goto fail;
    if (type)
        *type = t;
    return GROVE_OK;
fail:
    if (*body) {
        grove_wipe(*body, *bodylen);
        free(*body);
        *body = NULL;
    }
    return r;
}
