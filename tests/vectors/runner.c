/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* grove-vectors: run the shared test vectors of one kind over files and folders. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/encoding.h"
#include "kinds.h"

#define MAX_FILE_BYTES (512L * 1024 * 1024)

__attribute__((format(printf, 3, 0))) static void vec_vreport(vec_report *r, int ok, const char *fmt,
                                                         va_list ap)
{
    if (ok) {
        r->passed++;
        if (r->verbose) {
            printf("ok   %s: ", r->file);
            vprintf(fmt, ap);
            printf("\n");
        }
    } else {
        r->failed++;
        printf("FAIL %s: ", r->file);
        vprintf(fmt, ap);
        printf("\n");
    }
    fflush(stdout);
}

void vec_pass(vec_report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vec_vreport(r, 1, fmt, ap);
    va_end(ap);
}

void vec_fail(vec_report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vec_vreport(r, 0, fmt, ap);
    va_end(ap);
}

void vec_check(vec_report *r, int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vec_vreport(r, ok, fmt, ap);
    va_end(ap);
}

const char *vec_str(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

long long vec_int(const json_t *obj, const char *key, int *ok)
{
    json_t *v = json_object_get(obj, key);
    *ok = 1;
    if (json_is_integer(v))
        return json_integer_value(v);
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        char *end;
        errno = 0;
        long long x = strtoll(s, &end, 10);
        if (*s != '\0' && *end == '\0' && errno == 0)
            return x;
    }
    *ok = 0;
    return 0;
}

uint64_t vec_u64(const json_t *obj, const char *key, int *ok)
{
    json_t *v = json_object_get(obj, key);
    *ok = 1;
    if (json_is_integer(v) && json_integer_value(v) >= 0)
        return (uint64_t)json_integer_value(v);
    if (json_is_real(v)) {
        /* JSON numbers above 2^63 arrive as reals; accept only exact integers. */
        double d = json_real_value(v);
        if (d >= 0 && d < 18446744073709551616.0 && (double)(uint64_t)d == d)
            return (uint64_t)d;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        char *end;
        errno = 0;
        unsigned long long x = strtoull(s, &end, 10);
        if (*s >= '0' && *s <= '9' && *end == '\0' && errno == 0)
            return (uint64_t)x;
    }
    *ok = 0;
    return 0;
}

int vec_bool(const json_t *obj, const char *key, int dflt)
{
    json_t *v = json_object_get(obj, key);
    if (json_is_boolean(v))
        return json_is_true(v);
    return dflt;
}

uint8_t *vec_hex(const json_t *obj, const char *key, size_t *len)
{
    return vec_unhex(vec_str(obj, key), len);
}

uint8_t *vec_unhex(const char *s, size_t *len)
{
    if (s == NULL)
        return NULL;
    size_t hl = strlen(s);
    uint8_t *out = malloc(hl / 2 + 1);
    if (out == NULL)
        return NULL;
    size_t n;
    if (grove_hex_decode(out, hl / 2 + 1, &n, s, hl) != GROVE_OK) {
        free(out);
        return NULL;
    }
    *len = n;
    return out;
}

int vec_hex_fixed(const json_t *obj, const char *key, uint8_t *out, size_t len)
{
    const char *s = vec_str(obj, key);
    if (s == NULL || strlen(s) != 2 * len)
        return 0;
    size_t got;
    return grove_hex_decode(out, len, &got, s, 2 * len) == GROVE_OK;
}

json_t *vec_array(const json_t *obj, const char *key)
{
    static json_t *empty;
    json_t *a = json_object_get(obj, key);
    if (json_is_array(a))
        return a;
    if (empty == NULL)
        empty = json_array();
    return empty;
}

const char *vec_tohex(const uint8_t *p, size_t len)
{
    static char ring[4][130];
    static int next;
    char *out = ring[next++ & 3];
    if (len > 64)
        len = 64;
    grove_hex_encode(out, p, len);
    return out;
}

/* ---- driver ---------------------------------------------------------------------------- */

struct kind_entry {
    const char *name;
    vec_kind_fn fn;
    const char *desc;
};

#define GROVE_KIND_ENTRY(n, f, d) {n, f, d},
static const struct kind_entry kinds[] = {GROVE_VECTOR_KINDS(GROVE_KIND_ENTRY)};
#define NKINDS (sizeof kinds / sizeof kinds[0])

static long files_recognized;

static int is_json_file(const char *name)
{
    size_t l = strlen(name);
    if (strncasecmp(name, "README", 6) == 0)
        return 0;
    return l > 5 && strcmp(name + l - 5, ".json") == 0;
}

static void run_file(const struct kind_entry *k, const char *path, vec_report *r)
{
    struct stat st;
    if (stat(path, &st) != 0 || st.st_size > MAX_FILE_BYTES) {
        r->file = path;
        vec_fail(r, "cannot read file or file larger than %ld bytes", MAX_FILE_BYTES);
        return;
    }
    json_error_t err;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    /* jansson refuses integers above 2^63 - 1 (stm-cbor records the crate decoding garbage
     * into such u64s): such a file is read again with every number as a real (vec_u64 takes
     * exact integers up to 2^53 from reals). */
    if (root == NULL && strstr(err.text, "too big integer") != NULL)
        root = json_load_file(path, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &err);
    r->file = path;
    if (root == NULL) {
        vec_fail(r, "JSON error at line %d: %s", err.line, err.text);
        return;
    }
    if (k->fn(root, r))
        files_recognized++;
    else if (r->verbose)
        printf("note %s: not a %s file, skipped\n", path, k->name);
    json_decref(root);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const struct kind_entry *k, const char *path, vec_report *r, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        run_file(k, path, r);
        return;
    }
    if (depth > 8)
        return;
    DIR *d = opendir(path);
    if (d == NULL)
        return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            char **nn = realloc(names, cap * sizeof *names);
            if (nn == NULL)
                break;
            names = nn;
        }
        names[n++] = strdup(de->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n; i++) {
        char child[8192];
        snprintf(child, sizeof child, "%s/%s", path, names[i]);
        struct stat cs;
        if (stat(child, &cs) == 0 && S_ISDIR(cs.st_mode))
            run_path(k, child, r, depth + 1);
        else if (is_json_file(names[i]))
            run_file(k, child, r);
        free(names[i]);
    }
    free(names);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: grove-vectors [--slow] [-v] [--ctest] <kind> <file-or-folder>...\n"
               "       grove-vectors --list\n"
               "Runs every case of the given kind in the JSON files (folders are searched;\n"
               "README files are ignored) and prints each failing case and a final line\n"
               "'N passed, M failed'. Exit status 0 only if M = 0 and N > 0.\n");
}

int main(int argc, char **argv)
{
    vec_report r = {0};
    int ctest = 0, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--slow") == 0)
            r.slow = 1;
        else if (strcmp(argv[i], "-v") == 0)
            r.verbose = 1;
        else if (strcmp(argv[i], "--ctest") == 0)
            ctest = 1;
        else if (strcmp(argv[i], "--list") == 0) {
            for (size_t k = 0; k < NKINDS; k++)
                printf("%-14s %s\n", kinds[k].name, kinds[k].desc);
            return 0;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (argc - i < 2) {
        usage(stderr);
        return 2;
    }
    const struct kind_entry *k = NULL;
    for (size_t j = 0; j < NKINDS; j++)
        if (strcmp(kinds[j].name, argv[i]) == 0)
            k = &kinds[j];
    if (k == NULL) {
        fprintf(stderr, "grove-vectors: unknown kind '%s' (see --list)\n", argv[i]);
        return 2;
    }
    for (int p = i + 1; p < argc; p++) {
        struct stat st;
        if (stat(argv[p], &st) != 0) {
            const char *req = getenv("GROVE_REQUIRE_VECTORS");
            if (ctest && !(req && strcmp(req, "1") == 0)) {
                printf("SKIP: test vectors not found at %s\n", argv[p]);
                return 77;
            }
            fprintf(stderr, "grove-vectors: %s: %s\n", argv[p], strerror(errno));
            return 2;
        }
    }
    for (int p = i + 1; p < argc; p++)
        run_path(k, argv[p], &r, 0);
    if (files_recognized == 0)
        printf("no %s file found in the given paths\n", k->name);
    printf("%ld passed, %ld failed\n", r.passed, r.failed);
    return (r.failed == 0 && r.passed > 0) ? 0 : 1;
}
