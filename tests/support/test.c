/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/encoding.h"
#include "test.h"

int test_failures;
int test_checks;

void test_fail(const char *file, int line, const char *what)
{
    test_failures++;
    if (test_failures <= 50)
        fprintf(stderr, "FAIL %s:%d: %s\n", file, line, what);
}

void test_fail_mem(const char *file, int line, const char *what, const uint8_t *got,
                   const uint8_t *want, size_t len)
{
    test_fail(file, line, what);
    if (test_failures > 50)
        return;
    for (size_t i = 0; i < len; i++) {
        if (got[i] != want[i]) {
            fprintf(stderr, "     first difference at byte %zu of %zu: got %02x want %02x\n", i,
                    len, got[i], want[i]);
            break;
        }
    }
}

int test_done(void)
{
    if (test_failures) {
        fprintf(stderr, "%d of %d checks FAILED\n", test_failures, test_checks);
        return 1;
    }
    printf("all %d checks passed\n", test_checks);
    return 0;
}

uint8_t *test_unhex(const char *hex, size_t *len)
{
    size_t hl = strlen(hex);
    uint8_t *out = malloc(hl / 2 + 1);
    size_t n;
    if (out == NULL || grove_hex_decode(out, hl / 2 + 1, &n, hex, hl) != GROVE_OK) {
        fprintf(stderr, "bad hex in test data\n");
        exit(1);
    }
    if (len)
        *len = n;
    return out;
}

int test_unhex_into(uint8_t *out, size_t len, const char *hex)
{
    size_t hl = strlen(hex);
    if (hl != 2 * len)
        return 0;
    size_t got;
    return grove_hex_decode(out, len, &got, hex, hl) == GROVE_OK;
}

uint64_t test_rand_u64(uint64_t *s)
{
    /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void test_rand_bytes(uint64_t *state, uint8_t *out, size_t len)
{
    while (len > 0) {
        uint64_t v = test_rand_u64(state);
        for (int i = 0; i < 8 && len > 0; i++, len--) {
            *out++ = (uint8_t)v;
            v >>= 8;
        }
    }
}

const char *test_vectors_dir(const char *scheme)
{
    static char path[4096];
    const char *base = getenv("GROVE_VECTORS_DIR");
    if (base == NULL || *base == '\0')
        base = GROVE_VECTORS_DIR_DEFAULT;
    snprintf(path, sizeof path, "%s/%s", base, scheme);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return path;
    const char *req = getenv("GROVE_REQUIRE_VECTORS");
    if (req != NULL && strcmp(req, "1") == 0) {
        fprintf(stderr, "FAIL: test vectors required but not found at %s\n", path);
        exit(1);
    }
    printf("SKIP: test vectors not found at %s (set GROVE_VECTORS_DIR)\n", path);
    exit(TEST_SKIP);
}

int test_copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    int ok = a && b;
    char buf[8192];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, a)) > 0)
        ok = fwrite(buf, 1, n, b) == n;
    if (a)
        fclose(a);
    if (b && fclose(b) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

__attribute__((noinline)) void test_stack_clear(void)
{
    volatile uint8_t buf[TEST_STACK_REGION];
    for (size_t i = 0; i < TEST_STACK_REGION; i++)
        buf[i] = 0;
    __asm__ volatile("" : : "r"(buf) : "memory");
}

__attribute__((noinline)) size_t test_stack_residue(const uint8_t *secret, size_t len)
{
    uintptr_t top = (uintptr_t)__builtin_frame_address(0);
    for (size_t off = 256; off < TEST_STACK_REGION - 8192; off++) {
        const volatile uint8_t *q = (const volatile uint8_t *)(top - off);
        for (size_t s = 0; s + 16 <= len; s += 8) {
            size_t k = 0;
            while (k < 16 && q[k] == secret[s + k])
                k++;
            if (k == 16) {
                if (getenv("GROVE_WIPE_DEBUG"))
                    fprintf(stderr, "secret window at byte %zu found %zu below\n", s, off);
                return off;
            }
        }
    }
    return 0;
}
