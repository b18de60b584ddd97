/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Test helper for the crash and concurrency harnesses: direct access to a group's SQLite store.
 *   store_tool reserve DB ID COUNT     reserve COUNT counters for member ID (setup only)
 *   store_tool zetas FILE...           print the zeta of every certificate in DGSP CERTIFICATES
 *                                      or SIGNATURE files, one per line (hex)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/encoding.h"
#include "common/util.h"
#include "grove/dgsp.h"

static int reserve(const char *db, uint64_t id, uint64_t count)
{
    grove_dgsp_store *s;
    uint64_t first;
    int st = grove_dgsp_store_sqlite_open(&s, db, 0);
    if (st != GROVE_OK) {
        fprintf(stderr, "open %s: %s\n", db, grove_strerror(st));
        return 1;
    }
    st = s->ops->reserve(s->ctx, id, count, &first);
    grove_dgsp_store_close(s);
    if (st != GROVE_OK) {
        fprintf(stderr, "reserve: %s\n", grove_strerror(st));
        return 1;
    }
    printf("%llu\n", (unsigned long long)first);
    return 0;
}

static int zetas(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return 1;
    static uint8_t buf[64 << 20];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    grove_dgsp_cfg cfg;
    grove_dgsp_file_info fi;
    static uint8_t body[64 << 20];
    size_t bl;
    char err[256], hex[33];
    if (grove_dgsp_file_decode(&cfg, &fi, body, sizeof body, &bl, buf, len, GROVE_DGSP_FILE_ANY,
                               err, sizeof err) != GROVE_OK) {
        fprintf(stderr, "%s: %s\n", path, err);
        return 1;
    }
    const size_t n = cfg.n, cb = grove_dgsp_cert_bytes(&cfg);
    const grove_dgsp_file_type t = fi.type;
    if (t == GROVE_DGSP_FILE_CERTIFICATES) {
        uint32_t k = grove_load32_be(body + 8);
        for (uint32_t i = 0; i < k; i++) {
            grove_hex_encode(hex, body + 12 + i * (n + cb) + n, 16);
            printf("%s\n", hex);
        }
    } else if (t == GROVE_DGSP_FILE_SIGNATURE) {
        grove_hex_encode(hex, body + (2 * n + 3) * n + n, 16);
        printf("%s\n", hex);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "reserve") == 0)
        return reserve(argv[2], strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10));
    if (argc >= 3 && strcmp(argv[1], "zetas") == 0) {
        int rc = 0;
        for (int i = 2; i < argc; i++)
            rc |= zetas(argv[i]);
        return rc;
    }
    fprintf(stderr, "usage: store_tool reserve DB ID COUNT | zetas FILE...\n");
    return 2;
}
