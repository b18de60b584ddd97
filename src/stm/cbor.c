/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The strict CBOR subset of mithril-stm's v1 encodings (cbor.h).
 */
#include "stm/cbor.h"

#include <stdlib.h>
#include <string.h>

#include "grove/common.h"

/* ---- writer ------------------------------------------------------------------------------- */

void stm_cbor_buf_free(stm_cbor_buf *b)
{
    if (b->p != NULL)
        grove_wipe(b->p, b->cap);
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

void stm_cbor_raw(stm_cbor_buf *b, const void *p, size_t n)
{
    if (b->err || n == 0)
        return;
    if (n > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n) {
            if (cap > SIZE_MAX / 2) {
                b->err = 1;
                return;
            }
            cap *= 2;
        }
        uint8_t *q = malloc(cap);
        if (q == NULL) {
            b->err = 1;
            return;
        }
        if (b->len)
            memcpy(q, b->p, b->len);
        if (b->p != NULL)
            grove_wipe(b->p, b->cap);
        free(b->p);
        b->p = q, b->cap = cap;
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

void stm_cbor_head(stm_cbor_buf *b, unsigned major, uint64_t v)
{
    uint8_t h[9];
    size_t n;
    uint8_t m = (uint8_t)(major << 5);
    if (v < 24) {
        h[0] = (uint8_t)(m | v), n = 1;
    } else if (v <= 0xff) {
        h[0] = m | 24, h[1] = (uint8_t)v, n = 2;
    } else if (v <= 0xffff) {
        h[0] = m | 25, n = 3;
    } else if (v <= 0xffffffffu) {
        h[0] = m | 26, n = 5;
    } else {
        h[0] = m | 27, n = 9;
    }
    for (size_t i = 1; n > 2 && i < n; i++)
        h[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
    stm_cbor_raw(b, h, n);
}

void stm_cbor_uint(stm_cbor_buf *b, uint64_t v)
{
    stm_cbor_head(b, 0, v);
}

void stm_cbor_text(stm_cbor_buf *b, const char *s)
{
    size_t n = strlen(s);
    stm_cbor_head(b, 3, n);
    stm_cbor_raw(b, s, n);
}

void stm_cbor_bstr(stm_cbor_buf *b, const uint8_t *p, size_t n)
{
    stm_cbor_head(b, 2, n);
    stm_cbor_raw(b, p, n);
}

void stm_cbor_byte_array(stm_cbor_buf *b, const uint8_t *p, size_t n)
{
    stm_cbor_head(b, 4, n);
    for (size_t i = 0; i < n; i++)
        stm_cbor_head(b, 0, p[i]);
}

void stm_cbor_f64(stm_cbor_buf *b, double x)
{
    uint64_t bits;
    memcpy(&bits, &x, 8);
    uint8_t h[9] = {0xfb};
    for (int i = 0; i < 8; i++)
        h[1 + i] = (uint8_t)(bits >> (56 - 8 * i));
    stm_cbor_raw(b, h, 9);
}

void stm_cbor_null(stm_cbor_buf *b)
{
    stm_cbor_raw(b, "\xf6", 1);
}

void stm_cbor_indef_map(stm_cbor_buf *b)
{
    stm_cbor_raw(b, "\xbf", 1);
}

void stm_cbor_break(stm_cbor_buf *b)
{
    stm_cbor_raw(b, "\xff", 1);
}

int stm_cbor_finish(stm_cbor_buf *b, uint8_t *out, size_t out_cap, size_t *out_len)
{
    int rc = GROVE_OK;
    if (b->err)
        rc = GROVE_ERR_NOMEM;
    else if ((*out_len = b->len) > out_cap)
        rc = GROVE_ERR_BUFFER_TOO_SMALL;
    else if (b->len)
        memcpy(out, b->p, b->len);
    stm_cbor_buf_free(b);
    return rc;
}

/* ---- reader ------------------------------------------------------------------------------- */

int stm_cbor_open(stm_cbor_in *c, const uint8_t *in, size_t in_len)
{
    memset(c, 0, sizeof *c);
    if (in == NULL || in_len < 2 || in_len > STM_CBOR_MAX_INPUT || in[0] != STM_CBOR_VERSION)
        return GROVE_ERR_ENCODING;
    c->p = in, c->len = in_len, c->pos = 1;
    return GROVE_OK;
}

int stm_cbor_done(const stm_cbor_in *c)
{
    return c->pos == c->len && c->depth == 0;
}

/*
 * One head: major type, additional info and argument (shortest form required). ai 31 (an
 * indefinite container or a break) is returned with *v = 0 for the caller to judge.
 */
static int head(stm_cbor_in *c, unsigned *major, unsigned *ai, uint64_t *v)
{
    if (c->pos >= c->len)
        return GROVE_ERR_ENCODING;
    uint8_t h = c->p[c->pos++];
    *major = h >> 5, *ai = h & 31u, *v = 0;
    if (*ai < 24) {
        *v = *ai;
        return GROVE_OK;
    }
    if (*ai == 31)
        return GROVE_OK;
    if (*ai > 27)
        return GROVE_ERR_ENCODING;
    size_t n = (size_t)1 << (*ai - 24);
    if (c->len - c->pos < n)
        return GROVE_ERR_ENCODING;
    for (size_t i = 0; i < n; i++)
        *v = *v << 8 | c->p[c->pos++];
    if (*major == 7) /* floats: the caller reads the bits */
        return GROVE_OK;
    /* shortest form: the value would not fit the next smaller head */
    static const uint64_t min[4] = {24, 0x100, 0x10000, 0x100000000u};
    return *v >= min[*ai - 24] ? GROVE_OK : GROVE_ERR_ENCODING;
}

int stm_cbor_read_uint(stm_cbor_in *c, uint64_t *v)
{
    unsigned major, ai;
    if (head(c, &major, &ai, v) != GROVE_OK || major != 0 || ai == 31)
        return GROVE_ERR_ENCODING;
    return GROVE_OK;
}

int stm_cbor_read_f64(stm_cbor_in *c, double *x)
{
    unsigned major, ai;
    uint64_t bits;
    if (head(c, &major, &ai, &bits) != GROVE_OK || major != 7 || ai != 27)
        return GROVE_ERR_ENCODING;
    memcpy(x, &bits, 8);
    return GROVE_OK;
}

int stm_cbor_read_null(stm_cbor_in *c)
{
    unsigned major, ai;
    uint64_t v;
    if (head(c, &major, &ai, &v) != GROVE_OK || major != 7 || ai != 22)
        return GROVE_ERR_ENCODING;
    return GROVE_OK;
}

int stm_cbor_read_text(stm_cbor_in *c, const char **s, size_t *n)
{
    unsigned major, ai;
    uint64_t v;
    if (head(c, &major, &ai, &v) != GROVE_OK || major != 3 || ai == 31 || v > c->len - c->pos)
        return GROVE_ERR_ENCODING;
    *s = (const char *)c->p + c->pos, *n = (size_t)v;
    c->pos += (size_t)v;
    return GROVE_OK;
}

static int open_container(stm_cbor_in *c, unsigned want, size_t *count, size_t max)
{
    unsigned major, ai;
    uint64_t v;
    if (head(c, &major, &ai, &v) != GROVE_OK || major != want ||
        c->depth >= STM_CBOR_MAX_DEPTH)
        return GROVE_ERR_ENCODING;
    if (ai == 31) {
        *count = STM_CBOR_INDEF;
    } else {
        /* every element (map entry: key and value) takes at least one byte (two) */
        uint64_t least = want == 5 ? 2 : 1;
        if (v > max || v > (c->len - c->pos) / least)
            return GROVE_ERR_ENCODING;
        *count = (size_t)v;
    }
    c->depth++;
    return GROVE_OK;
}

int stm_cbor_open_map(stm_cbor_in *c, size_t *count, size_t max)
{
    return open_container(c, 5, count, max);
}

int stm_cbor_open_array(stm_cbor_in *c, size_t *count, size_t max)
{
    return open_container(c, 4, count, max);
}

int stm_cbor_more(stm_cbor_in *c, size_t *left)
{
    if (*left == STM_CBOR_INDEF) {
        if (c->pos >= c->len)
            return GROVE_ERR_ENCODING;
        if (c->p[c->pos] != 0xff)
            return 1;
        c->pos++;
    } else if (*left > 0) {
        (*left)--;
        return 1;
    }
    c->depth--;
    return 0;
}

/* Elements of an array of uints <= limit: counts them (an indefinite array is scanned first,
 * nothing is read) so that the caller can allocate; c is left at the first element. */
static int count_uints(stm_cbor_in *c, size_t *count, size_t max, uint64_t limit)
{
    int rc = stm_cbor_open_array(c, count, max);
    if (rc != GROVE_OK || *count != STM_CBOR_INDEF)
        return rc;
    stm_cbor_in s = *c;
    size_t n = 0;
    uint64_t v;
    while (s.pos < s.len && s.p[s.pos] != 0xff) {
        if (n == max || stm_cbor_read_uint(&s, &v) != GROVE_OK || v > limit)
            return GROVE_ERR_ENCODING;
        n++;
    }
    if (s.pos >= s.len)
        return GROVE_ERR_ENCODING;
    *count = n; /* read_uints reads the n elements and the break */
    return GROVE_OK;
}

/* Reads n uints <= limit after count_uints; indef: the array was indefinite (a break ends it). */
static int read_uints(stm_cbor_in *c, size_t n, int indef, uint64_t limit, uint8_t *b,
                      uint64_t *w)
{
    uint64_t v;
    for (size_t i = 0; i < n; i++) {
        if (stm_cbor_read_uint(c, &v) != GROVE_OK || v > limit)
            return GROVE_ERR_ENCODING;
        if (b != NULL)
            b[i] = (uint8_t)v;
        else
            w[i] = v;
    }
    if (indef) {
        if (c->pos >= c->len || c->p[c->pos] != 0xff)
            return GROVE_ERR_ENCODING;
        c->pos++;
    }
    c->depth--;
    return GROVE_OK;
}

static int is_indef(const stm_cbor_in *c, size_t start)
{
    return (c->p[start] & 31u) == 31;
}

int stm_cbor_read_byte_array(stm_cbor_in *c, uint8_t *out, size_t n)
{
    size_t count, start = c->pos;
    int rc = count_uints(c, &count, n, 0xff);
    if (rc != GROVE_OK)
        return rc;
    if (count != n)
        return GROVE_ERR_ENCODING;
    return read_uints(c, n, is_indef(c, start), 0xff, out, NULL);
}

int stm_cbor_read_u64_list(stm_cbor_in *c, uint64_t **v, size_t *n, size_t max)
{
    size_t count, start = c->pos;
    *v = NULL, *n = 0;
    int rc = count_uints(c, &count, max, UINT64_MAX);
    if (rc != GROVE_OK)
        return rc;
    uint64_t *w = malloc((count ? count : 1) * sizeof *w);
    if (w == NULL)
        return GROVE_ERR_NOMEM;
    if ((rc = read_uints(c, count, is_indef(c, start), UINT64_MAX, NULL, w)) != GROVE_OK) {
        free(w);
        return rc;
    }
    *v = w, *n = count;
    return GROVE_OK;
}

int stm_cbor_read_bytes(stm_cbor_in *c, uint8_t **out, size_t *n, size_t max, int allow_bstr,
                        int *was_bstr)
{
    *out = NULL, *n = 0, *was_bstr = 0;
    if (c->pos >= c->len)
        return GROVE_ERR_ENCODING;
    size_t start = c->pos, count;
    if (c->p[start] >> 5 == 2) { /* a byte string */
        unsigned major, ai;
        uint64_t v;
        if (!allow_bstr || head(c, &major, &ai, &v) != GROVE_OK || ai == 31 || v > max ||
            v > c->len - c->pos)
            return GROVE_ERR_ENCODING;
        uint8_t *b = malloc(v ? (size_t)v : 1);
        if (b == NULL)
            return GROVE_ERR_NOMEM;
        memcpy(b, c->p + c->pos, (size_t)v);
        c->pos += (size_t)v;
        *out = b, *n = (size_t)v, *was_bstr = 1;
        return GROVE_OK;
    }
    int rc = count_uints(c, &count, max, 0xff);
    if (rc != GROVE_OK)
        return rc;
    uint8_t *b = malloc(count ? count : 1);
    if (b == NULL)
        return GROVE_ERR_NOMEM;
    if ((rc = read_uints(c, count, is_indef(c, start), 0xff, b, NULL)) != GROVE_OK) {
        free(b);
        return rc;
    }
    *out = b, *n = count;
    return GROVE_OK;
}

/* ---- keys of a map ------------------------------------------------------------------------ */

/* Reads a key; *idx is its position in names. Unknown or repeated keys are refused. */
int stm_cbor_key(stm_cbor_in *c, const char *const *names, size_t n, unsigned *seen,
                   size_t *idx)
{
    const char *s;
    size_t len;
    if (stm_cbor_read_text(c, &s, &len) != GROVE_OK)
        return GROVE_ERR_ENCODING;
    for (size_t i = 0; i < n; i++)
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0) {
            if (*seen & (1u << i))
                return GROVE_ERR_ENCODING;
            *seen |= 1u << i, *idx = i;
            return GROVE_OK;
        }
    return GROVE_ERR_ENCODING;
}

int stm_cbor_read_struct(stm_cbor_in *c, const char *const *names, size_t n,
                         stm_cbor_field_fn field, void *arg)
{
    size_t left, idx;
    unsigned seen = 0;
    int rc = stm_cbor_open_map(c, &left, n), more = 0;
    while (rc == GROVE_OK && (more = stm_cbor_more(c, &left)) == 1) {
        if ((rc = stm_cbor_key(c, names, n, &seen, &idx)) != GROVE_OK)
            break;
        rc = field(c, idx, arg);
    }
    if (rc == GROVE_OK && (more != 0 || seen != STM_CBOR_ALL_KEYS(n)))
        rc = GROVE_ERR_ENCODING;
    return rc;
}

/* Runs a nested encoding's decoder on bytes read from c (an array of uints, or with
 * allow_bstr also a byte string). */
int stm_cbor_nested(stm_cbor_in *c, int allow_bstr, int *was_bstr, stm_cbor_nested_fn fn, void *arg)
{
    uint8_t *b = NULL;
    size_t n = 0;
    int bstr = 0;
    int rc = stm_cbor_read_bytes(c, &b, &n, c->len, allow_bstr, &bstr);
    if (rc == GROVE_OK) {
        stm_cbor_in in;
        rc = stm_cbor_open(&in, b, n);
        if (rc == GROVE_OK)
            rc = fn(&in, arg);
        if (rc == GROVE_OK && !stm_cbor_done(&in))
            rc = GROVE_ERR_ENCODING;
    }
    if (was_bstr != NULL)
        *was_bstr = bstr;
    free(b);
    return rc;
}

/* Writes inner (a finished nested encoding) into b as an array of uints or a byte string. */
void stm_cbor_put_nested(stm_cbor_buf *b, stm_cbor_buf *inner, int bstr)
{
    if (inner->err)
        b->err = 1;
    else if (bstr)
        stm_cbor_bstr(b, inner->p, inner->len);
    else
        stm_cbor_byte_array(b, inner->p, inner->len);
    stm_cbor_buf_free(inner);
}
