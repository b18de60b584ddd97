/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The KAT DRBG: seeded with entropy 00 01 .. 2F, it must yield the `seed` (and `msg`) fields
 * of the NIST KAT entries in ../shared/vectors/sphincs and ../shared/vectors/cross, in order.
 */
#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "drbg.h"
#include "test.h"

/* Checks every entry list of one JSON KAT file; returns the number of seeds compared. */
static int check_file(const char *path)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (root == NULL) {
        fprintf(stderr, "cannot parse %s: %s\n", path, err.text);
        CHECK(0);
        return 0;
    }
    json_t *entries = json_object_get(root, "entries");
    if (!json_is_array(entries))
        entries = json_object_get(root, "kat");
    int compared = 0;
    if (json_is_array(entries)) {
        uint8_t entropy[48];
        for (int i = 0; i < 48; i++)
            entropy[i] = (uint8_t)i;
        kat_drbg d;
        kat_drbg_init(&d, entropy, NULL);
        size_t idx;
        json_t *e;
        long next = 0;
        json_array_foreach(entries, idx, e)
        {
            json_t *cj = json_object_get(e, "count");
            long count = json_is_string(cj) ? strtol(json_string_value(cj), NULL, 10)
                                            : (long)json_integer_value(cj);
            const char *seed_hex = json_string_value(json_object_get(e, "seed"));
            if (seed_hex == NULL)
                continue;
            uint8_t seed[48], want[48];
            uint8_t *msg = NULL;
            /* Advance the master DRBG to entry `count` (each entry draws seed then msg). */
            while (next <= count) {
                size_t mlen = (size_t)(33 * (next + 1));
                free(msg);
                msg = malloc(mlen);
                kat_drbg_bytes(&d, seed, 48);
                kat_drbg_bytes(&d, msg, mlen);
                next++;
            }
            CHECK(test_unhex_into(want, 48, seed_hex));
            CHECK_MEM(seed, want, 48);
            const char *msg_hex = json_string_value(json_object_get(e, "msg"));
            if (msg_hex != NULL && msg != NULL) {
                size_t ml;
                uint8_t *m = test_unhex(msg_hex, &ml);
                CHECK_EQ_INT(ml, 33 * count + 33);
                CHECK_MEM(msg, m, ml);
                free(m);
            }
            free(msg);
            msg = NULL;
            compared++;
        }
    }
    json_decref(root);
    return compared;
}

static int check_dir(const char *dir)
{
    DIR *d = opendir(dir);
    int total = 0;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 5, ".json") != 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        total += check_file(path);
    }
    if (d)
        closedir(d);
    return total;
}

int main(void)
{
    char sphincs[4096], cross[4096];
    snprintf(sphincs, sizeof sphincs, "%s", test_vectors_dir("sphincs"));
    snprintf(cross, sizeof cross, "%s", test_vectors_dir("cross"));
    int n1 = check_dir(sphincs), n2 = check_dir(cross);
    printf("compared %d sphincs and %d cross KAT seeds\n", n1, n2);
    CHECK(n1 >= 2);
    CHECK(n2 >= 2);
    return test_done();
}
