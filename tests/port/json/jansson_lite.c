/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* jansson.h's subset over grove/json.h (see jansson.h); test programs only. */
#include "jansson.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grove/json.h"

static void set_error(json_error_t *e, const char *text)
{
    if (e == NULL)
        return;
    e->line = -1;
    e->column = -1;
    e->position = 0;
    e->source[0] = '\0';
    snprintf(e->text, sizeof e->text, "%s", text);
}

static json_t *new_value(json_type t)
{
    json_t *j = calloc(1, sizeof *j);
    if (j != NULL) {
        j->type = t;
        j->refcount = 1;
    }
    return j;
}

static char *dup_bytes(const char *s, size_t len)
{
    char *p = malloc(len + 1);
    if (p != NULL) {
        if (len > 0)
            memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}

static int is_integer_text(const char *t, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (t[i] == '.' || t[i] == 'e' || t[i] == 'E')
            return 0;
    return 1;
}

/* 0 on success; -1 out of memory or malformed; -2 an integer beyond json_int_t. */
static int convert(const grove_json_doc *doc, const grove_json_node *n, size_t flags, json_t **out)
{
    json_t *j = NULL;
    size_t len;
    const char *s;
    *out = NULL;
    switch ((grove_json_type)n->type) {
    case GROVE_JSON_NULL:
        j = new_value(JSON_NULL);
        break;
    case GROVE_JSON_TRUE:
        j = new_value(JSON_TRUE);
        break;
    case GROVE_JSON_FALSE:
        j = new_value(JSON_FALSE);
        break;
    case GROVE_JSON_STRING:
        s = grove_json_str(doc, n, &len);
        j = new_value(JSON_STRING);
        if (j != NULL) {
            j->str = dup_bytes(s, len);
            j->len = len;
            if (j->str == NULL) {
                free(j);
                j = NULL;
            }
        }
        break;
    case GROVE_JSON_NUMBER: {
        s = grove_json_num_text(doc, n, &len);
        char buf[512];
        if (len >= sizeof buf)
            return -1;
        memcpy(buf, s, len);
        buf[len] = '\0';
        if (is_integer_text(buf, len)) {
            errno = 0;
            long long v = strtoll(buf, NULL, 10);
            if (errno == ERANGE && !(flags & JSON_DECODE_INT_AS_REAL))
                return -2;
            if (errno != ERANGE) {
                j = new_value(JSON_INTEGER);
                if (j != NULL)
                    j->ival = v;
                break;
            }
        }
        double d;
        if (grove_json_double(doc, n, &d) != GROVE_OK)
            return -1;
        j = new_value(JSON_REAL);
        if (j != NULL)
            j->rval = d;
        break;
    }
    case GROVE_JSON_ARRAY:
    case GROVE_JSON_OBJECT: {
        int obj = n->type == GROVE_JSON_OBJECT;
        j = new_value(obj ? JSON_OBJECT : JSON_ARRAY);
        if (j == NULL)
            return -1;
        size_t cnt = n->count;
        j->cap = cnt;
        j->items = calloc(cnt ? cnt : 1, sizeof *j->items);
        j->keys = obj ? calloc(cnt ? cnt : 1, sizeof *j->keys) : NULL;
        if (j->items == NULL || (obj && j->keys == NULL)) {
            json_decref(j);
            return -1;
        }
        for (const grove_json_node *c = grove_json_first(doc, n); c != NULL;
             c = grove_json_next(doc, c)) {
            if (j->len == cnt) {
                json_decref(j);
                return -1;
            }
            if (obj) {
                size_t kl;
                const char *k = grove_json_key(doc, c, &kl);
                j->keys[j->len] = dup_bytes(k, kl);
                if (j->keys[j->len] == NULL) {
                    json_decref(j);
                    return -1;
                }
            }
            int rc = convert(doc, c, flags, &j->items[j->len]);
            if (rc != 0) {
                if (obj)
                    free(j->keys[j->len]);
                json_decref(j);
                return rc;
            }
            j->len++;
        }
        break;
    }
    default:
        return -1;
    }
    if (j == NULL)
        return -1;
    *out = j;
    return 0;
}

json_t *json_loads(const char *input, size_t flags, json_error_t *error)
{
    grove_json_doc *doc = NULL;
    if (input == NULL || grove_json_parse(&doc, input, strlen(input)) != GROVE_OK) {
        set_error(error, "invalid JSON (grove_json_parse)");
        return NULL;
    }
    json_t *root = NULL;
    int rc = convert(doc, grove_json_root(doc), flags, &root);
    grove_json_free(doc);
    if (rc != 0)
        set_error(error, rc == -2 ? "too big integer" : "out of memory or malformed number");
    return root;
}

json_t *json_load_file(const char *path, size_t flags, json_error_t *error)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        set_error(error, "unable to open the file");
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        if (len + 1 >= cap) {
            if (cap > GROVE_JSON_MAX_INPUT) {
                free(buf);
                buf = NULL;
                break;
            }
            char *nb = realloc(buf, cap * 2);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - 1 - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (buf == NULL || bad) {
        free(buf);
        set_error(error, "unable to read the file (or too big)");
        return NULL;
    }
    buf[len] = '\0';
    json_t *root = NULL;
    if (strlen(buf) != len)
        set_error(error, "NUL byte in the file");
    else
        root = json_loads(buf, flags, error);
    free(buf);
    return root;
}

void json_decref(json_t *j)
{
    if (j == NULL || --j->refcount > 0)
        return;
    for (size_t i = 0; i < j->len && j->items != NULL; i++) {
        json_decref(j->items[i]);
        if (j->keys != NULL)
            free(j->keys[i]);
    }
    free(j->items);
    free(j->keys);
    free(j->str);
    free(j);
}

json_t *json_array(void)
{
    return new_value(JSON_ARRAY);
}

/* Takes a new reference to value (as jansson's json_array_append). */
int json_array_append(json_t *array, json_t *value)
{
    if (!json_is_array(array) || value == NULL)
        return -1;
    if (array->len == array->cap) {
        size_t nc = array->cap ? 2 * array->cap : 4;
        json_t **ni = realloc(array->items, nc * sizeof *ni);
        if (ni == NULL)
            return -1;
        array->items = ni;
        array->cap = nc;
    }
    value->refcount++;
    array->items[array->len++] = value;
    return 0;
}

int json_equal(const json_t *a, const json_t *b)
{
    if (a == NULL || b == NULL || a->type != b->type)
        return 0;
    switch (a->type) {
    case JSON_STRING:
        return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
    case JSON_INTEGER:
        return a->ival == b->ival;
    case JSON_REAL:
        return a->rval == b->rval;
    case JSON_ARRAY:
        if (a->len != b->len)
            return 0;
        for (size_t i = 0; i < a->len; i++)
            if (!json_equal(a->items[i], b->items[i]))
                return 0;
        return 1;
    case JSON_OBJECT:
        if (a->len != b->len)
            return 0;
        for (size_t i = 0; i < a->len; i++)
            if (!json_equal(a->items[i], json_object_get(b, a->keys[i])))
                return 0;
        return 1;
    default:
        return 1;
    }
}

static void dump(grove_json_buf *b, const json_t *j)
{
    char num[40];
    switch (j->type) {
    case JSON_OBJECT:
    case JSON_ARRAY:
        grove_json_buf_text(b, j->type == JSON_OBJECT ? "{" : "[");
        for (size_t i = 0; i < j->len; i++) {
            if (i > 0)
                grove_json_buf_text(b, ",");
            if (j->type == JSON_OBJECT) {
                grove_json_buf_string(b, j->keys[i], strlen(j->keys[i]));
                grove_json_buf_text(b, ":");
            }
            dump(b, j->items[i]);
        }
        grove_json_buf_text(b, j->type == JSON_OBJECT ? "}" : "]");
        break;
    case JSON_STRING:
        grove_json_buf_string(b, j->str, j->len);
        break;
    case JSON_INTEGER:
        snprintf(num, sizeof num, "%lld", j->ival);
        grove_json_buf_text(b, num);
        break;
    case JSON_REAL:
        grove_json_buf_double(b, j->rval);
        break;
    case JSON_TRUE:
        grove_json_buf_text(b, "true");
        break;
    case JSON_FALSE:
        grove_json_buf_text(b, "false");
        break;
    default:
        grove_json_buf_text(b, "null");
        break;
    }
}

/* The compact form whatever the flags (the only form the tests ask for). */
char *json_dumps(const json_t *json, size_t flags)
{
    (void)flags;
    if (json == NULL)
        return NULL;
    grove_json_buf b = GROVE_JSON_BUF_INIT;
    dump(&b, json);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

json_t *json_object_get(const json_t *o, const char *key)
{
    if (!json_is_object(o) || key == NULL)
        return NULL;
    for (size_t i = 0; i < o->len; i++)
        if (strcmp(o->keys[i], key) == 0)
            return o->items[i];
    return NULL;
}

size_t json_object_size(const json_t *o)
{
    return json_is_object(o) ? o->len : 0;
}

const char *json_object_key_at(const json_t *o, size_t i)
{
    return json_is_object(o) && i < o->len ? o->keys[i] : NULL;
}

json_t *json_object_value_at(const json_t *o, size_t i)
{
    return json_is_object(o) && i < o->len ? o->items[i] : NULL;
}

size_t json_array_size(const json_t *a)
{
    return json_is_array(a) ? a->len : 0;
}

json_t *json_array_get(const json_t *a, size_t i)
{
    return json_is_array(a) && i < a->len ? a->items[i] : NULL;
}

const char *json_string_value(const json_t *s)
{
    return json_is_string(s) ? s->str : NULL;
}

size_t json_string_length(const json_t *s)
{
    return json_is_string(s) ? s->len : 0;
}

json_int_t json_integer_value(const json_t *j)
{
    return json_is_integer(j) ? j->ival : 0;
}

double json_real_value(const json_t *j)
{
    return json_is_real(j) ? j->rval : 0.0;
}

double json_number_value(const json_t *j)
{
    return json_is_integer(j) ? (double)j->ival : json_real_value(j);
}
