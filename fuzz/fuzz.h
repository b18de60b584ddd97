/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * libFuzzer harness convention. Each fuzz_<name>.c defines LLVMFuzzerTestOneInput. Built with
 * -DGROVE_FUZZ=ON (clang, -fsanitize=fuzzer,address,undefined) they are fuzzers; in every other
 * build they are linked with regress_main.c into regression runners that replay the inputs kept
 * in fuzz/regressions/<name>/ (crashes found once stay tests forever).
 */
#ifndef GROVE_FUZZ_H
#define GROVE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Split helpers: take n bytes (or all remaining) from the input. */
typedef struct {
    const uint8_t *p;
    size_t left;
} fuzz_in;

static inline int fuzz_take(fuzz_in *in, size_t n, const uint8_t **out)
{
    if (in->left < n)
        return 0;
    *out = in->p;
    in->p += n;
    in->left -= n;
    return 1;
}

static inline unsigned fuzz_byte(fuzz_in *in)
{
    const uint8_t *b;
    return fuzz_take(in, 1, &b) ? b[0] : 0;
}

/* A length of up to max taken from two input bytes. */
static inline size_t fuzz_len(fuzz_in *in, size_t max)
{
    size_t v = (fuzz_byte(in) << 8) | fuzz_byte(in);
    return max ? v % (max + 1) : 0;
}

#endif
