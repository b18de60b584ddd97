/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* A small strict JSON reader (see json.h). */
#include "common/json.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/encoding.h"
#include "grove/common.h"

struct grove_json_doc {
    const char *in;
    size_t len, pos;
    grove_json_node *nodes;
    size_t nnodes, cap;
    char *arena; /* decoded strings and keys */
    size_t alen;
};

/* ---- parsing ------------------------------------------------------------------------------ */

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void skip_ws(grove_json_doc *d)
{
    while (d->pos < d->len && is_ws(d->in[d->pos]))
        d->pos++;
}

/* New node; returns its index or 0 on failure (index 0 is the root, allocated first). */
static int new_node(grove_json_doc *d, uint32_t type, uint32_t *idx)
{
    if (d->nnodes == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        if (cap > (size_t)UINT32_MAX)
            return GROVE_ERR_ENCODING;
        grove_json_node *n = realloc(d->nodes, cap * sizeof *n);
        if (n == NULL)
            return GROVE_ERR_NOMEM;
        d->nodes = n;
        d->cap = cap;
    }
    memset(&d->nodes[d->nnodes], 0, sizeof d->nodes[0]);
    d->nodes[d->nnodes].type = type;
    *idx = (uint32_t)d->nnodes++;
    return GROVE_OK;
}

static int read_u4(grove_json_doc *d, uint32_t *v)
{
    if (d->len - d->pos < 4)
        return -1;
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) {
        int h = grove_hex_value(d->in[d->pos + (size_t)i]);
        if (h < 0)
            return -1;
        r = (r << 4) | (uint32_t)h;
    }
    d->pos += 4;
    *v = r;
    return 0;
}

static void put_utf8(grove_json_doc *d, uint32_t cp)
{
    char *o = d->arena + d->alen;
    if (cp < 0x80) {
        o[0] = (char)cp;
        d->alen += 1;
    } else if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        d->alen += 2;
    } else if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        d->alen += 3;
    } else {
        o[0] = (char)(0xf0 | (cp >> 18));
        o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[3] = (char)(0x80 | (cp & 0x3f));
        d->alen += 4;
    }
}

/* Length of a valid UTF-8 sequence at p (at most left bytes), 0 if invalid (RFC 3629). */
static size_t utf8_len(const unsigned char *p, size_t left)
{
    unsigned char c = p[0];
    size_t n;
    uint32_t cp, min;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1fu;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0fu;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07u;
        min = 0x10000;
    } else {
        return 0;
    }
    if (left < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

/* A string starting at the opening quote; its decoded bytes go to the arena. */
static int parse_string(grove_json_doc *d, uint32_t *off, uint32_t *outlen)
{
    d->pos++; /* opening quote */
    *off = (uint32_t)d->alen;
    for (;;) {
        if (d->pos >= d->len)
            return GROVE_ERR_ENCODING;
        unsigned char c = (unsigned char)d->in[d->pos];
        if (c == '"') {
            d->pos++;
            break;
        }
        if (c < 0x20)
            return GROVE_ERR_ENCODING;
        if (c != '\\') {
            size_t n = utf8_len((const unsigned char *)d->in + d->pos, d->len - d->pos);
            if (n == 0)
                return GROVE_ERR_ENCODING;
            memcpy(d->arena + d->alen, d->in + d->pos, n);
            d->alen += n;
            d->pos += n;
            continue;
        }
        if (++d->pos >= d->len)
            return GROVE_ERR_ENCODING;
        char e = d->in[d->pos++];
        char r;
        switch (e) {
        case '"': r = '"'; break;
        case '\\': r = '\\'; break;
        case '/': r = '/'; break;
        case 'b': r = '\b'; break;
        case 'f': r = '\f'; break;
        case 'n': r = '\n'; break;
        case 'r': r = '\r'; break;
        case 't': r = '\t'; break;
        case 'u': {
            uint32_t cp, lo;
            if (read_u4(d, &cp) != 0)
                return GROVE_ERR_ENCODING;
            if (cp >= 0xdc00 && cp <= 0xdfff)
                return GROVE_ERR_ENCODING; /* lone low surrogate */
            if (cp >= 0xd800 && cp <= 0xdbff) {
                if (d->len - d->pos < 2 || d->in[d->pos] != '\\' || d->in[d->pos + 1] != 'u')
                    return GROVE_ERR_ENCODING;
                d->pos += 2;
                if (read_u4(d, &lo) != 0 || lo < 0xdc00 || lo > 0xdfff)
                    return GROVE_ERR_ENCODING;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            put_utf8(d, cp);
            continue;
        }
        default:
            return GROVE_ERR_ENCODING;
        }
        d->arena[d->alen++] = r;
    }
    *outlen = (uint32_t)(d->alen - *off);
    return GROVE_OK;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int parse_number(grove_json_doc *d, grove_json_node *n)
{
    size_t start = d->pos, p = d->pos;
    int neg = 0, integer = 1;
    if (p < d->len && d->in[p] == '-') {
        neg = 1;
        p++;
    }
    if (p >= d->len || !is_digit(d->in[p]))
        return GROVE_ERR_ENCODING;
    uint64_t v = 0;
    int overflow = 0;
    if (d->in[p] == '0') {
        p++;
        if (p < d->len && is_digit(d->in[p]))
            return GROVE_ERR_ENCODING; /* leading zero */
    } else {
        while (p < d->len && is_digit(d->in[p])) {
            uint64_t dig = (uint64_t)(d->in[p] - '0');
            if (v > (UINT64_MAX - dig) / 10)
                overflow = 1;
            else
                v = v * 10 + dig;
            p++;
        }
    }
    if (p < d->len && d->in[p] == '.') {
        integer = 0;
        p++;
        if (p >= d->len || !is_digit(d->in[p]))
            return GROVE_ERR_ENCODING;
        while (p < d->len && is_digit(d->in[p]))
            p++;
    }
    if (p < d->len && (d->in[p] == 'e' || d->in[p] == 'E')) {
        integer = 0;
        p++;
        if (p < d->len && (d->in[p] == '+' || d->in[p] == '-'))
            p++;
        if (p >= d->len || !is_digit(d->in[p]))
            return GROVE_ERR_ENCODING;
        while (p < d->len && is_digit(d->in[p]))
            p++;
    }
    n->off = (uint32_t)start;
    n->len = (uint32_t)(p - start);
    if (integer && !neg && !overflow) {
        n->is_u64 = 1;
        n->u64 = v;
    }
    d->pos = p;
    return GROVE_OK;
}

static int literal(grove_json_doc *d, const char *word)
{
    size_t l = strlen(word);
    if (d->len - d->pos < l || memcmp(d->in + d->pos, word, l) != 0)
        return GROVE_ERR_ENCODING;
    d->pos += l;
    return GROVE_OK;
}

typedef struct {
    const char *p;
    size_t len;
} key_ref;

static int key_cmp(const void *a, const void *b)
{
    const key_ref *x = a, *y = b;
    size_t l = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->p, y->p, l);
    if (c != 0)
        return c;
    return (x->len > y->len) - (x->len < y->len);
}

/* 1 if two members of the object share a key. */
static int has_duplicate_keys(const grove_json_doc *d, const grove_json_node *obj, int *err)
{
    size_t n = obj->count;
    *err = 0;
    if (n < 2)
        return 0;
    if (n <= 8) {
        for (uint32_t i = obj->child; i; i = d->nodes[i].next)
            for (uint32_t j = d->nodes[i].next; j; j = d->nodes[j].next)
                if (d->nodes[i].key_len == d->nodes[j].key_len &&
                    memcmp(d->arena + d->nodes[i].key, d->arena + d->nodes[j].key,
                           d->nodes[i].key_len) == 0)
                    return 1;
        return 0;
    }
    key_ref *keys = malloc(n * sizeof *keys);
    if (keys == NULL) {
        *err = GROVE_ERR_NOMEM;
        return 0;
    }
    size_t k = 0;
    for (uint32_t i = obj->child; i; i = d->nodes[i].next) {
        keys[k].p = d->arena + d->nodes[i].key;
        keys[k].len = d->nodes[i].key_len;
        k++;
    }
    qsort(keys, n, sizeof *keys, key_cmp);
    int dup = 0;
    for (size_t i = 1; i < n && !dup; i++)
        dup = key_cmp(&keys[i - 1], &keys[i]) == 0;
    free(keys);
    return dup;
}

static int parse_value(grove_json_doc *d, uint32_t idx, unsigned depth);

/* Parses the elements of an array or the members of an object (after the opening bracket). */
static int parse_container(grove_json_doc *d, uint32_t idx, unsigned depth, int is_obj)
{
    char close = is_obj ? '}' : ']';
    uint32_t prev = 0;
    if (depth >= GROVE_JSON_MAX_DEPTH)
        return GROVE_ERR_ENCODING;
    d->pos++;
    skip_ws(d);
    if (d->pos < d->len && d->in[d->pos] == close) {
        d->pos++;
        return GROVE_OK;
    }
    for (;;) {
        uint32_t key = 0, key_len = 0, child;
        int rc;
        skip_ws(d);
        if (is_obj) {
            if (d->pos >= d->len || d->in[d->pos] != '"')
                return GROVE_ERR_ENCODING;
            if ((rc = parse_string(d, &key, &key_len)) != GROVE_OK)
                return rc;
            skip_ws(d);
            if (d->pos >= d->len || d->in[d->pos] != ':')
                return GROVE_ERR_ENCODING;
            d->pos++;
            skip_ws(d);
        }
        if ((rc = new_node(d, GROVE_JSON_NULL, &child)) != GROVE_OK)
            return rc;
        d->nodes[child].key = key;
        d->nodes[child].key_len = key_len;
        if (prev)
            d->nodes[prev].next = child;
        else
            d->nodes[idx].child = child;
        prev = child;
        if (d->nodes[idx].count == UINT32_MAX)
            return GROVE_ERR_ENCODING;
        d->nodes[idx].count++;
        if ((rc = parse_value(d, child, depth + 1)) != GROVE_OK)
            return rc;
        skip_ws(d);
        if (d->pos >= d->len)
            return GROVE_ERR_ENCODING;
        char c = d->in[d->pos++];
        if (c == close)
            break;
        if (c != ',')
            return GROVE_ERR_ENCODING;
    }
    if (is_obj) {
        int err;
        if (has_duplicate_keys(d, &d->nodes[idx], &err))
            return GROVE_ERR_ENCODING;
        if (err)
            return err;
    }
    return GROVE_OK;
}

/* Parses the value at d->pos (no leading whitespace) into node idx. */
static int parse_value(grove_json_doc *d, uint32_t idx, unsigned depth)
{
    if (d->pos >= d->len)
        return GROVE_ERR_ENCODING;
    char c = d->in[d->pos];
    switch (c) {
    case '{':
        d->nodes[idx].type = GROVE_JSON_OBJECT;
        return parse_container(d, idx, depth, 1);
    case '[':
        d->nodes[idx].type = GROVE_JSON_ARRAY;
        return parse_container(d, idx, depth, 0);
    case '"': {
        uint32_t off, len;
        int rc = parse_string(d, &off, &len);
        d->nodes[idx].type = GROVE_JSON_STRING;
        d->nodes[idx].off = off;
        d->nodes[idx].count = len;
        return rc;
    }
    case 't':
        d->nodes[idx].type = GROVE_JSON_TRUE;
        return literal(d, "true");
    case 'f':
        d->nodes[idx].type = GROVE_JSON_FALSE;
        return literal(d, "false");
    case 'n':
        d->nodes[idx].type = GROVE_JSON_NULL;
        return literal(d, "null");
    default:
        d->nodes[idx].type = GROVE_JSON_NUMBER;
        return parse_number(d, &d->nodes[idx]);
    }
}

void grove_json_free(grove_json_doc *doc)
{
    if (doc == NULL)
        return;
    free(doc->nodes);
    free(doc->arena);
    free(doc);
}

grove_status grove_json_parse(grove_json_doc **doc, const char *in, size_t len)
{
    if (doc == NULL)
        return GROVE_ERR_INVALID_ARG;
    *doc = NULL;
    if (in == NULL && len != 0)
        return GROVE_ERR_INVALID_ARG;
    if (len > GROVE_JSON_MAX_INPUT)
        return GROVE_ERR_ENCODING;
    grove_json_doc *d = calloc(1, sizeof *d);
    if (d == NULL)
        return GROVE_ERR_NOMEM;
    d->in = in;
    d->len = len;
    d->arena = malloc(len + 1);
    uint32_t root;
    int rc = d->arena == NULL ? GROVE_ERR_NOMEM : new_node(d, GROVE_JSON_NULL, &root);
    if (rc == GROVE_OK) {
        skip_ws(d);
        rc = parse_value(d, root, 0);
    }
    if (rc == GROVE_OK) {
        skip_ws(d);
        if (d->pos != d->len)
            rc = GROVE_ERR_ENCODING; /* trailing garbage */
    }
    if (rc != GROVE_OK) {
        grove_json_free(d);
        return rc;
    }
    *doc = d;
    return GROVE_OK;
}

/* ---- access ------------------------------------------------------------------------------- */

const grove_json_node *grove_json_root(const grove_json_doc *doc)
{
    return doc ? &doc->nodes[0] : NULL;
}

const grove_json_node *grove_json_first(const grove_json_doc *doc, const grove_json_node *n)
{
    if (n == NULL || (n->type != GROVE_JSON_ARRAY && n->type != GROVE_JSON_OBJECT) || !n->child)
        return NULL;
    return &doc->nodes[n->child];
}

const grove_json_node *grove_json_next(const grove_json_doc *doc, const grove_json_node *n)
{
    return (n == NULL || !n->next) ? NULL : &doc->nodes[n->next];
}

const grove_json_node *grove_json_get(const grove_json_doc *doc, const grove_json_node *n,
                                      const char *key)
{
    if (n == NULL || n->type != GROVE_JSON_OBJECT)
        return NULL;
    size_t kl = strlen(key);
    for (const grove_json_node *m = grove_json_first(doc, n); m; m = grove_json_next(doc, m))
        if (m->key_len == kl && memcmp(doc->arena + m->key, key, kl) == 0)
            return m;
    return NULL;
}

const char *grove_json_key(const grove_json_doc *doc, const grove_json_node *n, size_t *len)
{
    *len = n->key_len;
    return doc->arena + n->key;
}

const char *grove_json_str(const grove_json_doc *doc, const grove_json_node *n, size_t *len)
{
    if (n->type != GROVE_JSON_STRING) {
        *len = 0;
        return NULL;
    }
    *len = n->count;
    return doc->arena + n->off;
}

const char *grove_json_num_text(const grove_json_doc *doc, const grove_json_node *n, size_t *len)
{
    if (n->type != GROVE_JSON_NUMBER) {
        *len = 0;
        return NULL;
    }
    *len = n->len;
    return doc->in + n->off;
}

grove_status grove_json_u64(const grove_json_node *n, uint64_t *v)
{
    if (n == NULL || n->type != GROVE_JSON_NUMBER || !n->is_u64)
        return GROVE_ERR_ENCODING;
    *v = n->u64;
    return GROVE_OK;
}

/* The decimal point of the current locale (strtod/snprintf use it). */
static char locale_point(void)
{
    const struct lconv *lc = localeconv();
    return (lc && lc->decimal_point && lc->decimal_point[0]) ? lc->decimal_point[0] : '.';
}

grove_status grove_json_double(const grove_json_doc *doc, const grove_json_node *n, double *v)
{
    char buf[512];
    if (n == NULL || n->type != GROVE_JSON_NUMBER || n->len >= sizeof buf)
        return GROVE_ERR_ENCODING;
    memcpy(buf, doc->in + n->off, n->len);
    buf[n->len] = '\0';
    char pt = locale_point();
    for (size_t i = 0; i < n->len; i++)
        if (buf[i] == '.')
            buf[i] = pt;
    char *end;
    double x = strtod(buf, &end);
    if (end != buf + n->len || !isfinite(x))
        return GROVE_ERR_ENCODING;
    *v = x;
    return GROVE_OK;
}

/* ---- output ------------------------------------------------------------------------------- */

size_t grove_json_format_double(char out[32], double x)
{
    if (!isfinite(x))
        return 0;
    char e[40], pt = locale_point();
    int prec;
    for (prec = 0; prec < 17; prec++) {
        snprintf(e, sizeof e, "%.*e", prec, x);
        char tmp[40];
        memcpy(tmp, e, sizeof tmp);
        if (strtod(tmp, NULL) == x)
            break;
    }
    /* e = [-]d[<pt>ddd]e<sign>XX: collect the digits and the exponent */
    char digits[24];
    size_t nd = 0, i = 0, o = 0;
    int neg = 0;
    if (e[i] == '-') {
        neg = 1;
        i++;
    }
    for (; e[i] && e[i] != 'e'; i++)
        if (e[i] != pt && nd < sizeof digits)
            digits[nd++] = e[i];
    int exp10 = atoi(e + i + 1);
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    if (nd == 1 && digits[0] == '0')
        exp10 = 0;
    /* ryu's layout: k = exponent of the last digit, kk = position of the decimal point */
    int len = (int)nd, kk = exp10 + 1, k = kk - len;
    if (neg)
        out[o++] = '-';
    if (k >= 0 && kk <= 16) {
        memcpy(out + o, digits, nd);
        o += nd;
        for (int z = 0; z < k; z++)
            out[o++] = '0';
        out[o++] = '.';
        out[o++] = '0';
    } else if (kk > 0 && kk <= 16) {
        memcpy(out + o, digits, (size_t)kk);
        o += (size_t)kk;
        out[o++] = '.';
        memcpy(out + o, digits + kk, nd - (size_t)kk);
        o += nd - (size_t)kk;
    } else if (kk > -5 && kk <= 0) {
        out[o++] = '0';
        out[o++] = '.';
        for (int z = 0; z < -kk; z++)
            out[o++] = '0';
        memcpy(out + o, digits, nd);
        o += nd;
    } else {
        out[o++] = digits[0];
        if (nd > 1) {
            out[o++] = '.';
            memcpy(out + o, digits + 1, nd - 1);
            o += nd - 1;
        }
        o += (size_t)snprintf(out + o, 32 - o, "e%d", kk - 1);
    }
    out[o] = '\0';
    return o;
}

void grove_json_buf_raw(grove_json_buf *b, const char *text, size_t text_len)
{
    if (b->oom)
        return;
    if (text_len > SIZE_MAX - 1 - b->len) {
        b->oom = true;
        return;
    }
    if (b->len + text_len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + text_len + 1) {
            if (cap > SIZE_MAX / 2) {
                b->oom = true;
                return;
            }
            cap *= 2;
        }
        char *p = realloc(b->p, cap);
        if (p == NULL) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    if (text_len > 0)
        memcpy(b->p + b->len, text, text_len);
    b->len += text_len;
    b->p[b->len] = '\0';
}

void grove_json_buf_text(grove_json_buf *b, const char *text)
{
    grove_json_buf_raw(b, text, strlen(text));
}

void grove_json_buf_string(grove_json_buf *b, const char *s, size_t s_len)
{
    grove_json_buf_raw(b, "\"", 1);
    for (size_t i = 0; i < s_len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            grove_json_buf_raw(b, esc, 2);
        } else if (c < 0x20) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\u%04x", c);
            grove_json_buf_raw(b, esc, 6);
        } else {
            grove_json_buf_raw(b, (const char *)&c, 1);
        }
    }
    grove_json_buf_raw(b, "\"", 1);
}

void grove_json_buf_hex(grove_json_buf *b, const uint8_t *data, size_t data_len)
{
    grove_json_buf_raw(b, "\"", 1);
    for (size_t i = 0; i < data_len; i++) {
        char h[3];
        grove_hex_encode(h, data + i, 1);
        grove_json_buf_raw(b, h, 2);
    }
    grove_json_buf_raw(b, "\"", 1);
}

void grove_json_buf_u64(grove_json_buf *b, uint64_t v)
{
    char t[24];
    size_t i = sizeof t;
    do {
        t[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    grove_json_buf_raw(b, t + i, sizeof t - i);
}

void grove_json_buf_i64(grove_json_buf *b, int64_t v)
{
    if (v < 0)
        grove_json_buf_raw(b, "-", 1);
    grove_json_buf_u64(b, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

void grove_json_buf_double(grove_json_buf *b, double x)
{
    char t[32];
    size_t n = grove_json_format_double(t, x);
    if (n == 0)
        grove_json_buf_raw(b, "null", 4);
    else
        grove_json_buf_raw(b, t, n);
}

/* "[n0,n1,...]" of bytes[i] or, if bytes is NULL, words[i]. */
static void number_array(grove_json_buf *b, const uint8_t *bytes, const uint64_t *words, size_t n)
{
    grove_json_buf_raw(b, "[", 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            grove_json_buf_raw(b, ",", 1);
        grove_json_buf_u64(b, bytes ? bytes[i] : words[i]);
    }
    grove_json_buf_raw(b, "]", 1);
}

void grove_json_buf_bytes(grove_json_buf *b, const uint8_t *data, size_t data_len)
{
    number_array(b, data, NULL, data ? data_len : 0);
}

void grove_json_buf_u64s(grove_json_buf *b, const uint64_t *v, size_t v_len)
{
    number_array(b, NULL, v, v ? v_len : 0);
}

grove_status grove_json_buf_take(grove_json_buf *b, char **out)
{
    if (b == NULL || out == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_json_buf_raw(b, "", 0); /* "" rather than NULL when nothing was written */
    if (b->oom) {
        grove_json_buf_free(b);
        *out = NULL;
        return GROVE_ERR_NOMEM;
    }
    *out = b->p;
    *b = (grove_json_buf)GROVE_JSON_BUF_INIT;
    return GROVE_OK;
}

void grove_json_buf_free(grove_json_buf *b)
{
    if (b == NULL)
        return;
    free(b->p);
    *b = (grove_json_buf)GROVE_JSON_BUF_INIT;
}

static void compact(grove_json_buf *b, const grove_json_doc *d, const grove_json_node *n)
{
    switch (n->type) {
    case GROVE_JSON_NULL: grove_json_buf_raw(b, "null", 4); break;
    case GROVE_JSON_FALSE: grove_json_buf_raw(b, "false", 5); break;
    case GROVE_JSON_TRUE: grove_json_buf_raw(b, "true", 4); break;
    case GROVE_JSON_NUMBER: grove_json_buf_raw(b, d->in + n->off, n->len); break;
    case GROVE_JSON_STRING: grove_json_buf_string(b, d->arena + n->off, n->count); break;
    default: {
        int obj = n->type == GROVE_JSON_OBJECT;
        grove_json_buf_raw(b, obj ? "{" : "[", 1);
        for (const grove_json_node *c = grove_json_first(d, n); c; c = grove_json_next(d, c)) {
            if (c != grove_json_first(d, n))
                grove_json_buf_raw(b, ",", 1);
            if (obj) {
                grove_json_buf_string(b, d->arena + c->key, c->key_len);
                grove_json_buf_raw(b, ":", 1);
            }
            compact(b, d, c);
        }
        grove_json_buf_raw(b, obj ? "}" : "]", 1);
    }
    }
}

char *grove_json_compact(const grove_json_doc *doc, const grove_json_node *n)
{
    grove_json_buf b = GROVE_JSON_BUF_INIT;
    char *out;
    if (n != NULL)
        compact(&b, doc, n);
    return grove_json_buf_take(&b, &out) == GROVE_OK ? out : NULL;
}
