/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Minimal test harness: CHECK macros record failures and keep going; test_done() prints a
 * summary and gives the process exit status (0 pass, 1 fail, 77 skipped for ctest).
 */
#ifndef GROVE_TEST_H
#define GROVE_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern int test_failures;
extern int test_checks;

void test_fail(const char *file, int line, const char *what);
void test_fail_mem(const char *file, int line, const char *what, const uint8_t *got,
                   const uint8_t *want, size_t len);
int test_done(void);

#define CHECK(cond)                                                                         \
    do {                                                                                    \
        test_checks++;                                                                      \
        if (!(cond))                                                                        \
            test_fail(__FILE__, __LINE__, #cond);                                           \
    } while (0)

#define CHECK_EQ_INT(got, want)                                                             \
    do {                                                                                    \
        long long g_ = (long long)(got), w_ = (long long)(want);                            \
        test_checks++;                                                                      \
        if (g_ != w_) {                                                                     \
            char m_[256];                                                                   \
            snprintf(m_, sizeof m_, "%s == %s (got %lld, want %lld)", #got, #want, g_, w_); \
            test_fail(__FILE__, __LINE__, m_);                                              \
        }                                                                                   \
    } while (0)

#define CHECK_MEM(got, want, len)                                                           \
    do {                                                                                    \
        test_checks++;                                                                      \
        if (memcmp((got), (want), (len)) != 0)                                              \
            test_fail_mem(__FILE__, __LINE__, #got " == " #want, (const uint8_t *)(got),    \
                          (const uint8_t *)(want), (len));                                  \
    } while (0)

/* ---- helpers ---------------------------------------------------------------------------- */

/* Decode hex (exact length check) into a fresh malloc'd buffer; aborts the test on bad hex. */
uint8_t *test_unhex(const char *hex, size_t *len);
/* Decode hex into a fixed buffer of exactly len bytes; returns 0 on mismatch. */
int test_unhex_into(uint8_t *out, size_t len, const char *hex);

/* Deterministic pseudo-random bytes for tests (xorshift-based, not cryptographic). */
void test_rand_bytes(uint64_t *state, uint8_t *out, size_t len);
uint64_t test_rand_u64(uint64_t *state);

/*
 * The folder of shared vectors for one scheme, e.g. test_vectors_dir("sphincs"). When it is
 * missing: prints a SKIP message and exits 77, or, with GROVE_REQUIRE_VECTORS=1, fails (exit 1).
 */
const char *test_vectors_dir(const char *scheme);

/*
 * Secrets left on the stack: test_stack_clear() zeroes TEST_STACK_REGION bytes below the
 * caller's frame; after the code under test ran (called from the same frame),
 * test_stack_residue(secret, len) returns the offset below its own frame of a 16-byte window
 * of secret[0..len) found in that dead stack, or 0 if none (GROVE_WIPE_DEBUG=1 prints where).
 */
#define TEST_STACK_REGION (768 * 1024)
void test_stack_clear(void);
size_t test_stack_residue(const uint8_t *secret, size_t len);

/* Copy a file (a backup, to restore later): 0 or -1. */
int test_copy_file(const char *from, const char *to);

/* GROVE_TEST_ASAN is 1 in an AddressSanitizer build (gcc or clang), 0 otherwise. */
#if defined(__SANITIZE_ADDRESS__)
#define GROVE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GROVE_TEST_ASAN 1
#endif
#endif
#ifndef GROVE_TEST_ASAN
#define GROVE_TEST_ASAN 0
#endif

/* Exit code ctest treats as "skipped". */
#define TEST_SKIP 77

#endif
