/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The bytes of an XMSS private-key file (grove/xmss.h, "KEY FILE"): the grove envelope (scheme
 * "XMSS", the set, type "SECRET KEY", the key id of the public key, body = the state), armored
 * or binary, or the bare state an older grove wrote ("GRVXMSSK" at offset 0). This is the one
 * place that wraps and unwraps them: key files (keyfile.c), the read cap of a key file, and
 * grove_envelope_decode's description of key files (src/sig/envelope.c) all come here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/armor.h"
#include "common/file.h"
#include "common/util.h"
#include "format/envelope.h"
#include "grove/io.h"
#include "xmss/xmss_int.h"

#define SCHEME "XMSS"
#define TITLE "GROVE " SCHEME " " GROVE_XMSS_FILE_TYPE
#define ARMOR_BEGIN "-----BEGIN " TITLE "-----"
#define ENV_CHECK_BYTES 32 /* the envelope's check (grove/envelope.h) */

static const uint8_t env_magic[4] = {'G', 'R', 'V', 'E'};

/* An envelope of body_len bytes of state of set p (for its size only; no body is read). */
static size_t env_bytes(const grove_xmss_params *p, size_t body_len, grove_envelope_form form)
{
    static const uint8_t dummy = 0; /* grove_envelope_encoded_bytes never reads the body */
    grove_envelope env;
    if (p == NULL || grove_envelope_init(&env, SCHEME, grove_xmss_params_name(p),
                                         GROVE_XMSS_FILE_TYPE, &dummy, body_len) != GROVE_OK)
        return 0;
    env.has_key_id = true;
    return grove_envelope_encoded_bytes(&env, form);
}

size_t grove_xmss_keyfile_max_bytes(const grove_xmss_params *p)
{
    return p ? env_bytes(p, xmss_state_max_bytes(p), GROVE_ENVELOPE_ARMORED) : 0;
}

/*
 * A binary envelope's header b[0..n) that says scheme "XMSS", type "SECRET KEY": true, and its
 * set name into set (NUL-terminated).
 */
static bool binary_head(const uint8_t *b, size_t n, char set[GROVE_ENVELOPE_SET_MAX + 1])
{
    const size_t sl = strlen(SCHEME), tl = strlen(GROVE_XMSS_FILE_TYPE);
    if (n < 7 + sl + 1 || memcmp(b, env_magic, 4) != 0 || b[6] != sl ||
        memcmp(b + 7, SCHEME, sl) != 0)
        return false;
    size_t o = 7 + sl, setl = b[o];
    if (setl > GROVE_ENVELOPE_SET_MAX || n < o + 1 + setl + 1 + tl)
        return false;
    memcpy(set, b + o + 1, setl);
    set[setl] = '\0';
    o += 1 + setl;
    return b[o] == tl && memcmp(b + o + 1, GROVE_XMSS_FILE_TYPE, tl) == 0;
}

static const grove_xmss_params *binary_head_params(const uint8_t *b, size_t n)
{
    char set[GROVE_ENVELOPE_SET_MAX + 1];
    return binary_head(b, n, set) ? grove_xmss_params_get(set) : NULL;
}

static bool armored_head(const uint8_t *h, size_t n)
{
    size_t bl = strlen(ARMOR_BEGIN);
    return n > bl && memcmp(h, ARMOR_BEGIN, bl) == 0 && h[bl] == '\n';
}

/* The set of an armored XMSS key file from its first bytes (its first two base64 lines). */
static const grove_xmss_params *armored_head_params(const uint8_t *h, size_t n)
{
    if (!armored_head(h, n))
        return NULL;
    char b64[128];
    size_t k = 0;
    for (size_t i = strlen(ARMOR_BEGIN) + 1; i < n && k < sizeof b64; i++)
        if (h[i] != '\n')
            b64[k++] = (char)h[i];
    k -= k % 4;
    uint8_t bin[96];
    size_t got = 0;
    if (k == 0 || grove_base64_decode(bin, sizeof bin, &got, b64, k) != GROVE_OK)
        return NULL;
    return binary_head_params(bin, got);
}

size_t xmss_file_read_cap(const uint8_t *h, size_t n)
{
    const grove_xmss_params *p = NULL;
    if (grove_envelope_is_xmss_key_file(h, n) && n >= 16 && h[10] <= 1) {
        p = grove_xmss_params_from_oid((grove_xmss_family)h[10], grove_load32_be(h + 12));
        return p ? xmss_state_max_bytes(p) : 0;
    }
    if ((p = binary_head_params(h, n)) != NULL)
        return env_bytes(p, xmss_state_max_bytes(p), GROVE_ENVELOPE_BINARY);
    if ((p = armored_head_params(h, n)) != NULL)
        return grove_xmss_keyfile_max_bytes(p);
    return 0;
}

bool grove_xmss_keyfile_detect(const uint8_t *in, size_t in_len)
{
    char set[GROVE_ENVELOPE_SET_MAX + 1];
    return in != NULL && (grove_envelope_is_xmss_key_file(in, in_len) ||
                          armored_head(in, in_len) || binary_head(in, in_len, set));
}

grove_status grove_xmss_keyfile_encode(uint8_t *out, size_t out_cap, size_t *out_len,
                                       const uint8_t *state, size_t state_len,
                                       grove_envelope_form form)
{
    if (out_len == NULL || (out == NULL && out_cap) || state == NULL ||
        (form != GROVE_ENVELOPE_BINARY && form != GROVE_ENVELOPE_ARMORED))
        return GROVE_ERR_INVALID_ARG;
    grove_xmss_state_info *info = malloc(sizeof *info);
    if (info == NULL)
        return GROVE_ERR_NOMEM;
    grove_status rc = grove_xmss_state_info_get(info, state, state_len);
    grove_envelope env;
    if (rc == GROVE_OK)
        rc = grove_envelope_init(&env, SCHEME, grove_xmss_params_name(info->params),
                                 GROVE_XMSS_FILE_TYPE, state, state_len);
    if (rc == GROVE_OK)
        rc = grove_envelope_key_id(env.key_id, SCHEME, env.set, info->pk, info->pk_bytes);
    if (rc == GROVE_OK) {
        env.has_key_id = true;
        rc = grove_envelope_encode(out, out_cap, out_len, &env, form);
    }
    grove_wipe(info, sizeof *info);
    free(info);
    return rc;
}

/*
 * b[0..len) is the binary form of an envelope whose lengths all agree (names, body length,
 * check): a file damaged in place, rather than one that is truncated, extended or not an
 * envelope at all.
 */
static bool binary_complete(const uint8_t *b, size_t len)
{
    size_t o = 6;
    if (len < o || memcmp(b, env_magic, 4) != 0)
        return false;
    for (int i = 0; i < 3; i++) {
        if (o >= len)
            return false;
        o += 1 + (size_t)b[o];
    }
    o += GROVE_ENVELOPE_KEY_ID_BYTES;
    if (o > len || len - o < 4)
        return false;
    size_t body = grove_load32_be(b + o);
    return len - o - 4 >= ENV_CHECK_BYTES && len - o - 4 - ENV_CHECK_BYTES == body;
}

/* Another file (not an XMSS key file): a sentence saying what it is. Always ENCODING. */
static grove_status other_file(uint8_t *buf, size_t buf_cap, const uint8_t *in, size_t in_len,
                               char *err, size_t cap)
{
    grove_envelope env;
    char e2[200] = "";
    if (!grove_envelope_detect(in, in_len))
        snprintf(e2, sizeof e2, "not a grove file");
    else if (grove_envelope_decode_plain(&env, buf, buf_cap, in, in_len, e2, sizeof e2) ==
                 GROVE_OK &&
             grove_envelope_expect(&env, SCHEME, GROVE_XMSS_FILE_TYPE, e2, sizeof e2) == GROVE_OK)
        snprintf(e2, sizeof e2, "not a grove XMSS private key file");
    grove_errf(err, cap, "%s", e2[0] ? e2 : "not a grove XMSS private key file");
    grove_wipe(buf, buf_cap < in_len ? buf_cap : in_len);
    return GROVE_ERR_ENCODING;
}

/*
 * Decode an XMSS key file envelope (armored: its binary form first) into buf; env->body points
 * into it. A damaged file whose lengths agree is GROVE_ERR_STATE (an integrity failure, as a
 * damaged state), anything else malformed GROVE_ERR_ENCODING.
 */
static grove_status unwrap(grove_envelope *env, uint8_t *buf, size_t buf_cap, const uint8_t *in,
                           size_t in_len, char *err, size_t cap)
{
    char e2[200] = "", set[GROVE_ENVELOPE_SET_MAX + 1];
    const uint8_t *bin = in;
    size_t bin_len = in_len;
    uint8_t *text_body = NULL;
    grove_envelope_form form = GROVE_ENVELOPE_BINARY;
    if (armored_head(in, in_len)) {
        char title[128], end_title[128];
        if (grove_armor_decode((const char *)in, in_len, title, sizeof title, end_title,
                               sizeof end_title, &text_body, &bin_len, e2, sizeof e2) != 0) {
            grove_errf(err, cap, "malformed armored key file (%s)", e2);
            return GROVE_ERR_ENCODING;
        }
        bin = text_body;
        form = GROVE_ENVELOPE_ARMORED;
        if (strcmp(title, TITLE) != 0 || strcmp(end_title, TITLE) != 0 ||
            !binary_head(bin, bin_len, set)) {
            grove_errf(err, cap, "malformed armored key file (its title and contents disagree)");
            grove_wipe(text_body, bin_len);
            free(text_body);
            return GROVE_ERR_ENCODING;
        }
    } else if (!binary_head(in, in_len, set)) {
        return other_file(buf, buf_cap, in, in_len, err, cap);
    }
    grove_status rc = GROVE_ERR_BUFFER_TOO_SMALL;
    if (bin_len <= buf_cap)
        rc = grove_envelope_decode_plain(env, buf, buf_cap, bin, bin_len, e2, sizeof e2);
    if (rc == GROVE_ERR_ENCODING && binary_complete(bin, bin_len)) {
        grove_errf(err, cap, "the envelope's integrity check does not match its contents");
        rc = GROVE_ERR_STATE;
    } else if (rc != GROVE_OK) {
        grove_errf(err, cap, "%s", e2[0] ? e2 : grove_strerror(rc));
    }
    if (text_body != NULL) {
        grove_wipe(text_body, bin_len);
        free(text_body);
    }
    if (rc == GROVE_OK)
        env->form = form;
    return rc;
}

/* The sentence for a state grove_xmss_state_info_get refused with rc. */
static void state_msg(grove_status rc, char *err, size_t cap)
{
    grove_errf(err, cap, "%s",
               rc == GROVE_ERR_STATE ? "integrity check of the key state failed"
               : rc == GROVE_ERR_UNSUPPORTED
                   ? "unsupported private-key format version or parameter set"
                   : "malformed or truncated key state");
}

/*
 * Check a decoded XMSS key envelope: its body is a valid state (info receives what it says, and
 * env's form) whose set and public key's key id are the envelope's.
 */
static grove_status check_env(const grove_envelope *env, grove_xmss_state_info *info, char *err,
                              size_t cap)
{
    grove_status rc = grove_xmss_state_info_get(info, env->body, env->body_len);
    if (rc != GROVE_OK) {
        state_msg(rc, err, cap);
        return rc;
    }
    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES];
    const char *set = grove_xmss_params_name(info->params);
    rc = grove_envelope_key_id(id, SCHEME, set, info->pk, info->pk_bytes);
    if (rc == GROVE_OK && (strcmp(env->set, set) != 0 || !env->has_key_id ||
                           memcmp(id, env->key_id, sizeof id) != 0)) {
        grove_errf(err, cap,
                   "its description (set %s, key id) does not match the key it holds (%s)",
                   env->set, set);
        rc = GROVE_ERR_STATE;
    }
    info->form = env->form;
    return rc;
}

grove_status grove_xmss_keyfile_decode(const uint8_t **state, size_t *state_len,
                                       grove_xmss_state_info *info, uint8_t *buf, size_t buf_cap,
                                       const uint8_t *in, size_t in_len, char *err,
                                       size_t err_cap)
{
    if (err != NULL && err_cap > 0)
        err[0] = '\0';
    if (state == NULL || state_len == NULL || (buf == NULL && buf_cap) || (in == NULL && in_len))
        return GROVE_ERR_INVALID_ARG;
    *state = NULL;
    *state_len = 0;
    grove_xmss_state_info *inf = info ? info : malloc(sizeof *inf);
    if (inf == NULL)
        return GROVE_ERR_NOMEM;
    grove_envelope env;
    grove_status rc = GROVE_OK;
    if (grove_envelope_is_xmss_key_file(in, in_len)) {
        /* a bare state: a key file of an older grove */
        if (in_len > buf_cap)
            rc = GROVE_ERR_BUFFER_TOO_SMALL;
        else
            memmove(buf, in, in_len);
        memset(&env, 0, sizeof env);
        env.body = buf;
        env.body_len = in_len;
        if (rc == GROVE_OK) {
            rc = grove_xmss_state_info_get(inf, buf, in_len);
            if (rc != GROVE_OK)
                state_msg(rc, err, err_cap);
        }
        inf->form = GROVE_ENVELOPE_XMSS_KEY_FILE;
    } else {
        rc = unwrap(&env, buf, buf_cap, in, in_len, err, err_cap);
        if (rc == GROVE_OK)
            rc = check_env(&env, inf, err, err_cap);
    }
    if (rc == GROVE_OK) {
        *state = env.body;
        *state_len = env.body_len;
    } else {
        if (rc != GROVE_ERR_BUFFER_TOO_SMALL)
            grove_wipe(buf, buf_cap < in_len ? buf_cap : in_len);
        memset(inf, 0, sizeof *inf);
    }
    if (inf != info) {
        grove_wipe(inf, sizeof *inf);
        free(inf);
    }
    return rc;
}
