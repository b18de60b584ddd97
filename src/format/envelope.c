/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The grove file envelope (grove/envelope.h): names, key ids, the binary and armored forms.
 * This is the "format" layer (hash, common): the schemes' file code uses it too. Describing
 * files that predate the envelope and need a scheme's code (the XMSS key file) is left to
 * src/sig/envelope.c, which implements grove_envelope_decode on top of this.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/armor.h"
#include "common/util.h"
#include "grove/hash.h"
#include "grove/io.h"
#include "format/envelope.h"

static const uint8_t magic[4] = {'G', 'R', 'V', 'E'};
static const char check_label[] = "grove envelope v1";
static const char key_id_label[] = "grove key id v1";
#define CHECK_BYTES 32
#define FLAG_KEY_ID 1u
#define DGSP_PREFIX "GROVE DGSP "
static const uint8_t xmss_magic[8] = {'G', 'R', 'V', 'X', 'M', 'S', 'S', 'K'};

/* ---- names -------------------------------------------------------------------------------- */

static bool scheme_ok(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > GROVE_ENVELOPE_SCHEME_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '+' ||
              s[i] == '-'))
            return false;
    return true;
}

static bool set_ok(const char *s)
{
    if (s == NULL || strlen(s) > GROVE_ENVELOPE_SET_MAX)
        return false;
    for (; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              strchr("_/.+-", *s) != NULL))
            return false;
    return true;
}

/* Words of capital letters separated by single spaces. */
static bool type_ok(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > GROVE_ENVELOPE_TYPE_MAX || s[0] == ' ' || s[n - 1] == ' ')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] == ' ' && s[i + 1] != ' ')))
            return false;
    return true;
}

static bool env_ok(const grove_envelope *env)
{
    return env != NULL && scheme_ok(env->scheme) && set_ok(env->set) && type_ok(env->type) &&
           (env->body != NULL || env->body_len == 0) && env->body_len <= GROVE_ENVELOPE_MAX_BODY;
}

grove_status grove_envelope_init(grove_envelope *env, const char *scheme, const char *set,
                                 const char *type, const uint8_t *body, size_t body_len)
{
    if (env == NULL || !scheme_ok(scheme) || !set_ok(set) || !type_ok(type) ||
        (body == NULL && body_len) || body_len > GROVE_ENVELOPE_MAX_BODY)
        return GROVE_ERR_INVALID_ARG;
    memset(env, 0, sizeof *env);
    snprintf(env->scheme, sizeof env->scheme, "%s", scheme);
    snprintf(env->set, sizeof env->set, "%s", set);
    snprintf(env->type, sizeof env->type, "%s", type);
    env->version = GROVE_ENVELOPE_VERSION;
    env->form = GROVE_ENVELOPE_ARMORED;
    env->body = body;
    env->body_len = body_len;
    return GROVE_OK;
}

grove_status grove_envelope_key_id(uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES], const char *scheme,
                                   const char *set, const uint8_t *pk, size_t pk_len)
{
    if (id == NULL || !scheme_ok(scheme) || !set_ok(set) || (pk == NULL && pk_len))
        return GROVE_ERR_INVALID_ARG;
    static const uint8_t zero = 0;
    uint8_t h[32];
    grove_hash_ctx ctx;
    grove_status st = grove_hash_init(&ctx, GROVE_HASH_SHA256);
    if (st != GROVE_OK)
        return st;
    grove_hash_update(&ctx, (const uint8_t *)key_id_label, sizeof key_id_label - 1);
    grove_hash_update(&ctx, &zero, 1);
    grove_hash_update(&ctx, (const uint8_t *)scheme, strlen(scheme));
    grove_hash_update(&ctx, &zero, 1);
    grove_hash_update(&ctx, (const uint8_t *)set, strlen(set));
    grove_hash_update(&ctx, &zero, 1);
    grove_hash_update(&ctx, pk, pk_len);
    st = grove_hash_final(&ctx, h, sizeof h);
    if (st == GROVE_OK)
        memcpy(id, h, GROVE_ENVELOPE_KEY_ID_BYTES);
    return st;
}

void grove_envelope_key_id_hex(char out[2 * GROVE_ENVELOPE_KEY_ID_BYTES + 1],
                               const uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES])
{
    grove_hex_encode(out, id, GROVE_ENVELOPE_KEY_ID_BYTES);
}

/* ---- binary form -------------------------------------------------------------------------- */

static size_t header_bytes(const grove_envelope *env)
{
    return 4 + 1 + 1 + 1 + strlen(env->scheme) + 1 + strlen(env->set) + 1 + strlen(env->type) +
           GROVE_ENVELOPE_KEY_ID_BYTES + 4;
}

static size_t binary_bytes(const grove_envelope *env)
{
    return header_bytes(env) + env->body_len + CHECK_BYTES;
}

static grove_status check_of(uint8_t out[CHECK_BYTES], const uint8_t *p, size_t len)
{
    grove_hash_ctx ctx;
    grove_status st = grove_hash_init(&ctx, GROVE_HASH_SHA256);
    if (st != GROVE_OK)
        return st;
    grove_hash_update(&ctx, (const uint8_t *)check_label, sizeof check_label - 1);
    grove_hash_update(&ctx, p, len);
    st = grove_hash_final(&ctx, out, CHECK_BYTES);
    grove_wipe(&ctx, sizeof ctx);
    return st;
}

static uint8_t *put_name(uint8_t *p, const char *s)
{
    size_t n = strlen(s);
    *p++ = (uint8_t)n;
    memcpy(p, s, n);
    return p + n;
}

/* Write the binary form into out (binary_bytes(env) bytes). */
static grove_status write_binary(uint8_t *out, const grove_envelope *env)
{
    uint8_t *p = out;
    memcpy(p, magic, 4);
    p[4] = GROVE_ENVELOPE_VERSION;
    p[5] = env->has_key_id ? FLAG_KEY_ID : 0;
    p = put_name(p + 6, env->scheme);
    p = put_name(p, env->set);
    p = put_name(p, env->type);
    if (env->has_key_id)
        memcpy(p, env->key_id, GROVE_ENVELOPE_KEY_ID_BYTES);
    else
        memset(p, 0, GROVE_ENVELOPE_KEY_ID_BYTES);
    p += GROVE_ENVELOPE_KEY_ID_BYTES;
    grove_store32_be(p, (uint32_t)env->body_len);
    p += 4;
    if (env->body_len)
        memcpy(p, env->body, env->body_len);
    p += env->body_len;
    return check_of(p, out, (size_t)(p - out));
}

/* The armor title: "GROVE <scheme> <type>". */
static void title_of(char *t, size_t cap, const char *scheme, const char *type)
{
    snprintf(t, cap, "GROVE %s %s", scheme, type);
}

size_t grove_envelope_encoded_bytes(const grove_envelope *env, grove_envelope_form form)
{
    if (!env_ok(env))
        return 0;
    size_t bin = binary_bytes(env);
    if (form == GROVE_ENVELOPE_BINARY)
        return bin;
    if (form != GROVE_ENVELOPE_ARMORED)
        return 0;
    char title[80];
    title_of(title, sizeof title, env->scheme, env->type);
    size_t b64 = grove_base64_encoded_len(bin);
    /* "-----BEGIN " title "-----\n", the lines, "-----END " title "-----\n" */
    return 2 * strlen(title) + 11 + 6 + 9 + 6 + b64 + (b64 + 63) / 64;
}

grove_status grove_envelope_encode(uint8_t *out, size_t out_cap, size_t *out_len,
                                   const grove_envelope *env, grove_envelope_form form)
{
    if (out_len == NULL || (out == NULL && out_cap) || !env_ok(env) ||
        (form != GROVE_ENVELOPE_BINARY && form != GROVE_ENVELOPE_ARMORED))
        return GROVE_ERR_INVALID_ARG;
    size_t need = grove_envelope_encoded_bytes(env, form);
    *out_len = need;
    if (out_cap < need)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    if (form == GROVE_ENVELOPE_BINARY)
        return write_binary(out, env);
    size_t bin = binary_bytes(env), text_len = 0;
    uint8_t *tmp = malloc(bin);
    if (tmp == NULL)
        return GROVE_ERR_NOMEM;
    grove_status st = write_binary(tmp, env);
    char title[80];
    title_of(title, sizeof title, env->scheme, env->type);
    char *text = st == GROVE_OK ? grove_armor_encode(title, title, tmp, bin, &text_len) : NULL;
    if (st == GROVE_OK && text == NULL)
        st = GROVE_ERR_NOMEM;
    if (st == GROVE_OK && text_len != need)
        st = GROVE_ERR_INTERNAL;
    if (st == GROVE_OK)
        memcpy(out, text, text_len);
    grove_wipe(tmp, bin);
    free(tmp);
    if (text != NULL) {
        grove_wipe(text, text_len);
        free(text);
    }
    return st;
}

/* ---- decoding ----------------------------------------------------------------------------- */

static grove_status fail(char *err, size_t err_cap, grove_status st, const char *msg)
{
    if (err != NULL && err_cap > 0)
        snprintf(err, err_cap, "%s", msg);
    return st;
}

/* Read a length-prefixed name at *p (end e) into out (cap bytes with the NUL). */
static bool get_name(const uint8_t **p, const uint8_t *e, char *out, size_t cap)
{
    if (*p >= e)
        return false;
    size_t n = **p;
    if (n >= cap || (size_t)(e - *p - 1) < n)
        return false;
    memcpy(out, *p + 1, n);
    out[n] = '\0';
    *p += 1 + n;
    return true;
}

/* Parse the binary form in b[0..len) (b is the caller's buffer; body points into it). */
static grove_status parse_binary(grove_envelope *env, const uint8_t *b, size_t len, char *err,
                                 size_t err_cap)
{
    const uint8_t *p = b, *e = b + len;
    if (len < 6 || memcmp(b, magic, 4) != 0)
        return fail(err, err_cap, GROVE_ERR_ENCODING, "not a grove file (no envelope magic)");
    if (b[4] != GROVE_ENVELOPE_VERSION)
        return fail(err, err_cap, b[4] > GROVE_ENVELOPE_VERSION ? GROVE_ERR_UNSUPPORTED
                                                                 : GROVE_ERR_ENCODING,
                    "grove file format version not supported by this grove");
    if ((b[5] & ~FLAG_KEY_ID) != 0)
        return fail(err, err_cap, GROVE_ERR_ENCODING, "grove file: unknown flags");
    memset(env, 0, sizeof *env);
    env->version = b[4];
    env->has_key_id = (b[5] & FLAG_KEY_ID) != 0;
    p += 6;
    if (!get_name(&p, e, env->scheme, sizeof env->scheme) || !scheme_ok(env->scheme) ||
        !get_name(&p, e, env->set, sizeof env->set) || !set_ok(env->set) ||
        !get_name(&p, e, env->type, sizeof env->type) || !type_ok(env->type))
        return fail(err, err_cap, GROVE_ERR_ENCODING, "grove file: malformed header");
    if ((size_t)(e - p) < GROVE_ENVELOPE_KEY_ID_BYTES + 4)
        return fail(err, err_cap, GROVE_ERR_ENCODING, "grove file: truncated header");
    memcpy(env->key_id, p, GROVE_ENVELOPE_KEY_ID_BYTES);
    p += GROVE_ENVELOPE_KEY_ID_BYTES;
    static const uint8_t zero[GROVE_ENVELOPE_KEY_ID_BYTES];
    if (!env->has_key_id && memcmp(env->key_id, zero, sizeof zero) != 0)
        return fail(err, err_cap, GROVE_ERR_ENCODING, "grove file: malformed header");
    size_t body_len = grove_load32_be(p);
    p += 4;
    if (body_len > GROVE_ENVELOPE_MAX_BODY || (size_t)(e - p) < CHECK_BYTES ||
        (size_t)(e - p) - CHECK_BYTES != body_len)
        return fail(err, err_cap, GROVE_ERR_ENCODING,
                    (size_t)(e - p) < body_len + CHECK_BYTES ? "grove file: truncated"
                                                             : "grove file: trailing data");
    uint8_t want[CHECK_BYTES];
    grove_status st = check_of(want, b, (size_t)(p - b) + body_len);
    if (st != GROVE_OK)
        return st;
    if (!grove_ct_memeq(want, p + body_len, CHECK_BYTES))
        return fail(err, err_cap, GROVE_ERR_ENCODING,
                    "grove file: integrity check failed (the file is damaged)");
    env->body = p;
    env->body_len = body_len;
    env->form = GROVE_ENVELOPE_BINARY;
    return GROVE_OK;
}

/* "GROVE DGSP <TYPE words> v<N> <params> <flavour> <profile>": describe an older DGSP armored
 * file (set "<params>/<flavour>/<profile>", no key id; grove_dgsp_file_decode checks it). */
static grove_status parse_dgsp_title(grove_envelope *env, const char *title)
{
    const char *t = title + strlen(DGSP_PREFIX);
    const char *v = strstr(t, " v");
    if (v == NULL || v == t || v[2] < '0' || v[2] > '9')
        return GROVE_ERR_ENCODING;
    size_t tl = (size_t)(v - t);
    if (tl > GROVE_ENVELOPE_TYPE_MAX)
        return GROVE_ERR_ENCODING;
    memcpy(env->type, t, tl);
    env->type[tl] = '\0';
    char *end;
    unsigned long ver = strtoul(v + 2, &end, 10);
    if (*end != ' ' || ver > 255 || !type_ok(env->type))
        return GROVE_ERR_ENCODING;
    /* "<params> <flavour> <profile>" is described as the envelope's DGSP set spelling,
     * "<params>/<flavour>/<profile>" (include/grove/dgsp.h) */
    const char *s = end + 1;
    size_t sl = strlen(s);
    if (sl > GROVE_ENVELOPE_SET_MAX)
        return GROVE_ERR_ENCODING;
    memcpy(env->set, s, sl);
    env->set[sl] = '\0';
    for (char *q = env->set; *q; q++)
        if (*q == ' ')
            *q = '/';
    if (sl == 0 || !set_ok(env->set))
        return GROVE_ERR_ENCODING;
    snprintf(env->scheme, sizeof env->scheme, "DGSP");
    env->version = (unsigned)ver;
    env->form = GROVE_ENVELOPE_DGSP_ARMOR;
    return GROVE_OK;
}

/* DGSP's older armor: "GROVE DGSP <TYPE words> v<N> ..." (an envelope's title is "GROVE DGSP
 * <TYPE words>": its type is capital letters only). Told apart by the title alone, never by the
 * body, so a damaged envelope is reported as damaged. */
static bool is_old_dgsp_title(const char *title)
{
    if (strncmp(title, DGSP_PREFIX, strlen(DGSP_PREFIX)) != 0)
        return false;
    const char *v = strstr(title + strlen(DGSP_PREFIX), " v");
    return v != NULL && v[2] >= '0' && v[2] <= '9';
}

static grove_status decode_armor(grove_envelope *env, uint8_t *buf, size_t buf_cap,
                                 const uint8_t *in, size_t in_len, char *err, size_t err_cap)
{
    char title[128], end_title[128], msg[128];
    uint8_t *body = NULL;
    size_t body_len = 0;
    if (grove_armor_decode((const char *)in, in_len, title, sizeof title, end_title,
                           sizeof end_title, &body, &body_len, msg, sizeof msg) != 0) {
        char m[200];
        snprintf(m, sizeof m, "grove file: %s", msg);
        return fail(err, err_cap, GROVE_ERR_ENCODING, m);
    }
    grove_status st = GROVE_OK;
    if (body_len > buf_cap)
        st = fail(err, err_cap, GROVE_ERR_BUFFER_TOO_SMALL, "grove file: buffer too small");
    else
        memcpy(buf, body, body_len);
    grove_wipe(body, body_len);
    free(body);
    if (st != GROVE_OK)
        return st;
    if (is_old_dgsp_title(title)) {
        memset(env, 0, sizeof *env);
        if (parse_dgsp_title(env, title) != GROVE_OK)
            return fail(err, err_cap, GROVE_ERR_ENCODING, "grove DGSP file: malformed header");
        env->body = buf;
        env->body_len = body_len;
        return GROVE_OK;
    }
    st = parse_binary(env, buf, body_len, err, err_cap);
    if (st != GROVE_OK)
        return st;
    char want[80];
    title_of(want, sizeof want, env->scheme, env->type);
    if (strcmp(title, want) != 0 || strcmp(end_title, want) != 0)
        return fail(err, err_cap, GROVE_ERR_ENCODING,
                    "grove file: the armor title does not match its contents");
    env->form = GROVE_ENVELOPE_ARMORED;
    return GROVE_OK;
}

bool grove_envelope_detect(const uint8_t *in, size_t in_len)
{
    static const char armor[] = "-----BEGIN GROVE ";
    if (in == NULL)
        return false;
    return (in_len >= 4 && memcmp(in, magic, 4) == 0) ||
           (in_len >= sizeof xmss_magic && memcmp(in, xmss_magic, sizeof xmss_magic) == 0) ||
           (in_len >= sizeof armor - 1 && memcmp(in, armor, sizeof armor - 1) == 0);
}

/* The envelope in either form, or a DGSP armored file (see format/envelope.h). */
grove_status grove_envelope_decode_plain(grove_envelope *env, uint8_t *buf, size_t buf_cap,
                                         const uint8_t *in, size_t in_len, char *err,
                                         size_t err_cap)
{
    if (env == NULL || (buf == NULL && buf_cap) || (in == NULL && in_len))
        return GROVE_ERR_INVALID_ARG;
    if (err != NULL && err_cap > 0)
        err[0] = '\0';
    if (!grove_envelope_detect(in, in_len))
        return fail(err, err_cap, GROVE_ERR_ENCODING,
                    "not a grove file (raw bytes? see the scheme's 'import' command)");
    if (in[0] == '-')
        return decode_armor(env, buf, buf_cap, in, in_len, err, err_cap);
    if (in_len > buf_cap)
        return fail(err, err_cap, GROVE_ERR_BUFFER_TOO_SMALL, "grove file: buffer too small");
    memmove(buf, in, in_len);
    return parse_binary(env, buf, in_len, err, err_cap);
}

bool grove_envelope_is_xmss_key_file(const uint8_t *in, size_t in_len)
{
    return in != NULL && in_len >= sizeof xmss_magic &&
           memcmp(in, xmss_magic, sizeof xmss_magic) == 0;
}

grove_status grove_envelope_expect(const grove_envelope *env, const char *scheme,
                                   const char *type, char *err, size_t err_cap)
{
    if (env == NULL)
        return GROVE_ERR_INVALID_ARG;
    if ((scheme == NULL || strcmp(env->scheme, scheme) == 0) &&
        (type == NULL || strcmp(env->type, type) == 0))
        return GROVE_OK;
    if (err != NULL && err_cap > 0) {
        char what[80];
        snprintf(what, sizeof what, "%s%s%s", scheme ? scheme : "", scheme && type ? " " : "",
                 type ? type : "file");
        snprintf(err, err_cap, "this is a grove %s %s%s%s%s, a %s was expected", env->scheme,
                 env->type, env->set[0] ? " (" : "", env->set, env->set[0] ? ")" : "", what);
    }
    return GROVE_ERR_ENCODING;
}
