/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Fp on x86-64 with BMI2 (mulx) and ADX (adcx/adox): Montgomery multiplication, the
 * 384x384-bit product and the Montgomery reduction of fp.h, selected at run time.
 *
 * Each is one function of file-scope assembly (System V ABI, ELF): rdi = r, rsi = a, rdx = b.
 * The multiplication is operand scanning (CIOS) with two carry chains per row: adcx adds the
 * low halves of the products (CF), adox the high halves (OF), so that one row of six mulx
 * needs no separate carry propagation. The accumulator lives in seven registers r8..r14 that
 * rotate by one each row (the word that a reduction step clears becomes the new top word), so
 * nothing is moved between rows. Every instruction sequence is fixed: no branch and no memory
 * index depends on the values; the final conditional subtraction of p uses cmov.
 *
 * Bounds (as for the portable code): for a b < p R the row accumulator stays below
 * 2^448 before each shift, and the result before the final subtraction is below 2p. The
 * reduction of a 12-word t < p R reduces the low six words first ((t_lo + M p) / R <= p) and
 * then adds the high six words (< p), so that the sum is below 2p without a carry word.
 */
#include "bls12_381/fp.h"

#include "common/cpu.h"

#if GROVE_BLS_MULX_BUILT

/* one function's assembly text is longer than the 4095 characters C99 promises for a string
 * literal; GCC and clang (the only compilers this file is built with) take any length */
#pragma GCC diagnostic ignored "-Woverlength-strings"

/* clang-format off */
#define NL "\n\t"

/* T += rdx * a (six words from (%rsi)), T6 must be zero on entry; flags cleared by the xor. */
#define ROW_MUL(T0, T1, T2, T3, T4, T5, T6)                                                    \
    "xorl %r15d, %r15d" NL                                                                      \
    "mulxq 0(%rsi), %rax, %rbx" NL "adcxq %rax, " T0 NL "adoxq %rbx, " T1 NL                    \
    "mulxq 8(%rsi), %rax, %rbx" NL "adcxq %rax, " T1 NL "adoxq %rbx, " T2 NL                    \
    "mulxq 16(%rsi), %rax, %rbx" NL "adcxq %rax, " T2 NL "adoxq %rbx, " T3 NL                   \
    "mulxq 24(%rsi), %rax, %rbx" NL "adcxq %rax, " T3 NL "adoxq %rbx, " T4 NL                   \
    "mulxq 32(%rsi), %rax, %rbx" NL "adcxq %rax, " T4 NL "adoxq %rbx, " T5 NL                   \
    "mulxq 40(%rsi), %rax, %rbx" NL "adcxq %rax, " T5 NL "adoxq %rbx, " T6 NL                   \
    "adcxq %r15, " T6 NL

/* T += (T0 * n0 mod 2^64) * p; T0 becomes zero (the caller then renames T1.. as T0..). */
#define ROW_RED(T0, T1, T2, T3, T4, T5, T6)                                                    \
    "movq " T0 ", %rdx" NL                                                                      \
    "imulq .Lgrove_bls_n0(%rip), %rdx" NL                                                       \
    "xorl %r15d, %r15d" NL                                                                      \
    "mulxq .Lgrove_bls_p+0(%rip), %rax, %rbx" NL "adcxq %rax, " T0 NL "adoxq %rbx, " T1 NL      \
    "mulxq .Lgrove_bls_p+8(%rip), %rax, %rbx" NL "adcxq %rax, " T1 NL "adoxq %rbx, " T2 NL      \
    "mulxq .Lgrove_bls_p+16(%rip), %rax, %rbx" NL "adcxq %rax, " T2 NL "adoxq %rbx, " T3 NL     \
    "mulxq .Lgrove_bls_p+24(%rip), %rax, %rbx" NL "adcxq %rax, " T3 NL "adoxq %rbx, " T4 NL     \
    "mulxq .Lgrove_bls_p+32(%rip), %rax, %rbx" NL "adcxq %rax, " T4 NL "adoxq %rbx, " T5 NL     \
    "mulxq .Lgrove_bls_p+40(%rip), %rax, %rbx" NL "adcxq %rax, " T5 NL "adoxq %rbx, " T6 NL     \
    "adcxq %r15, " T6 NL

/* (%rdi) = T - p if T >= p else T, for T < 2p (cmov on the borrow). */
#define FINAL_SUB(T0, T1, T2, T3, T4, T5)                                                      \
    "movq " T0 ", %rax" NL "subq .Lgrove_bls_p+0(%rip), %rax" NL                                \
    "movq " T1 ", %rbx" NL "sbbq .Lgrove_bls_p+8(%rip), %rbx" NL                                \
    "movq " T2 ", %rcx" NL "sbbq .Lgrove_bls_p+16(%rip), %rcx" NL                               \
    "movq " T3 ", %rdx" NL "sbbq .Lgrove_bls_p+24(%rip), %rdx" NL                               \
    "movq " T4 ", %rsi" NL "sbbq .Lgrove_bls_p+32(%rip), %rsi" NL                               \
    "movq " T5 ", %r15" NL "sbbq .Lgrove_bls_p+40(%rip), %r15" NL                               \
    "cmovcq " T0 ", %rax" NL "cmovcq " T1 ", %rbx" NL "cmovcq " T2 ", %rcx" NL                  \
    "cmovcq " T3 ", %rdx" NL "cmovcq " T4 ", %rsi" NL "cmovcq " T5 ", %r15" NL                  \
    "movq %rax, 0(%rdi)" NL "movq %rbx, 8(%rdi)" NL "movq %rcx, 16(%rdi)" NL                    \
    "movq %rdx, 24(%rdi)" NL "movq %rsi, 32(%rdi)" NL "movq %r15, 40(%rdi)" NL

#define PROLOGUE(name)                                                                         \
    ".pushsection .text" NL ".p2align 5" NL ".globl " name NL ".hidden " name NL               \
    ".type " name ", @function" NL name ":" NL                                                  \
    "pushq %rbx" NL "pushq %r12" NL "pushq %r13" NL "pushq %r14" NL "pushq %r15" NL
#define EPILOGUE(name)                                                                         \
    "popq %r15" NL "popq %r14" NL "popq %r13" NL "popq %r12" NL "popq %rbx" NL "ret" NL         \
    ".size " name ", .-" name NL ".popsection" NL

/* the six accumulator rotations: row k uses T_j = r(8 + (j + k) mod 7) */
#define ROT0 "%r8", "%r9", "%r10", "%r11", "%r12", "%r13", "%r14"
#define ROT1 "%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r8"
#define ROT2 "%r10", "%r11", "%r12", "%r13", "%r14", "%r8", "%r9"
#define ROT3 "%r11", "%r12", "%r13", "%r14", "%r8", "%r9", "%r10"
#define ROT4 "%r12", "%r13", "%r14", "%r8", "%r9", "%r10", "%r11"
#define ROT5 "%r13", "%r14", "%r8", "%r9", "%r10", "%r11", "%r12"
#define ROW_MUL_(...) ROW_MUL(__VA_ARGS__)
#define ROW_RED_(...) ROW_RED(__VA_ARGS__)
#define FINAL_SUB_(...) FINAL_SUB(__VA_ARGS__)
/* after six rows: the result words in the order T0..T5 (r13 is the cleared word) */
#define ROT6 "%r14", "%r8", "%r9", "%r10", "%r11", "%r12"

__asm__(
    ".pushsection .rodata" NL ".p2align 4" NL
    ".Lgrove_bls_p:" NL
    ".quad 0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624" NL
    ".quad 0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a" NL
    ".Lgrove_bls_n0:" NL
    ".quad 0x89f3fffcfffcfffd" NL
    ".popsection" NL

    /* bls_fp_mul_mulx(fp *r, const fp *a, const fp *b) */
    PROLOGUE("bls_fp_mul_mulx")
    "movq %rdx, %rcx" NL
    "xorl %r8d, %r8d" NL "xorl %r9d, %r9d" NL "xorl %r10d, %r10d" NL "xorl %r11d, %r11d" NL
    "xorl %r12d, %r12d" NL "xorl %r13d, %r13d" NL "xorl %r14d, %r14d" NL
    "movq 0(%rcx), %rdx" NL ROW_MUL_(ROT0) ROW_RED_(ROT0)
    "movq 8(%rcx), %rdx" NL ROW_MUL_(ROT1) ROW_RED_(ROT1)
    "movq 16(%rcx), %rdx" NL ROW_MUL_(ROT2) ROW_RED_(ROT2)
    "movq 24(%rcx), %rdx" NL ROW_MUL_(ROT3) ROW_RED_(ROT3)
    "movq 32(%rcx), %rdx" NL ROW_MUL_(ROT4) ROW_RED_(ROT4)
    "movq 40(%rcx), %rdx" NL ROW_MUL_(ROT5) ROW_RED_(ROT5)
    FINAL_SUB_(ROT6)
    EPILOGUE("bls_fp_mul_mulx")

    /* bls_fp_mul_wide_mulx(fp_wide *r, const fp *a, const fp *b): r = a b, 12 words */
    PROLOGUE("bls_fp_mul_wide_mulx")
    "movq %rdx, %rcx" NL
    "xorl %r8d, %r8d" NL "xorl %r9d, %r9d" NL "xorl %r10d, %r10d" NL "xorl %r11d, %r11d" NL
    "xorl %r12d, %r12d" NL "xorl %r13d, %r13d" NL "xorl %r14d, %r14d" NL
    "movq 0(%rcx), %rdx" NL ROW_MUL_(ROT0) "movq %r8, 0(%rdi)" NL "xorl %r8d, %r8d" NL
    "movq 8(%rcx), %rdx" NL ROW_MUL_(ROT1) "movq %r9, 8(%rdi)" NL "xorl %r9d, %r9d" NL
    "movq 16(%rcx), %rdx" NL ROW_MUL_(ROT2) "movq %r10, 16(%rdi)" NL "xorl %r10d, %r10d" NL
    "movq 24(%rcx), %rdx" NL ROW_MUL_(ROT3) "movq %r11, 24(%rdi)" NL "xorl %r11d, %r11d" NL
    "movq 32(%rcx), %rdx" NL ROW_MUL_(ROT4) "movq %r12, 32(%rdi)" NL "xorl %r12d, %r12d" NL
    "movq 40(%rcx), %rdx" NL ROW_MUL_(ROT5) "movq %r13, 40(%rdi)" NL
    "movq %r14, 48(%rdi)" NL "movq %r8, 56(%rdi)" NL "movq %r9, 64(%rdi)" NL
    "movq %r10, 72(%rdi)" NL "movq %r11, 80(%rdi)" NL "movq %r12, 88(%rdi)" NL
    EPILOGUE("bls_fp_mul_wide_mulx")

    /* bls_fp_redc_mulx(fp *r, const fp_wide *t): r = t / R mod p for t < p R */
    PROLOGUE("bls_fp_redc_mulx")
    "movq 0(%rsi), %r8" NL "movq 8(%rsi), %r9" NL "movq 16(%rsi), %r10" NL
    "movq 24(%rsi), %r11" NL "movq 32(%rsi), %r12" NL "movq 40(%rsi), %r13" NL
    "xorl %r14d, %r14d" NL
    ROW_RED_(ROT0) ROW_RED_(ROT1) ROW_RED_(ROT2) ROW_RED_(ROT3) ROW_RED_(ROT4) ROW_RED_(ROT5)
    "addq 48(%rsi), %r14" NL "adcq 56(%rsi), %r8" NL "adcq 64(%rsi), %r9" NL
    "adcq 72(%rsi), %r10" NL "adcq 80(%rsi), %r11" NL "adcq 88(%rsi), %r12" NL
    FINAL_SUB_(ROT6)
    EPILOGUE("bls_fp_redc_mulx"));
/* clang-format on */

unsigned char bls_fp_mulx_on;

int bls_fp_mulx_available(void)
{
    const uint32_t need = (uint32_t)(GROVE_CPU_BMI2 | GROVE_CPU_ADX);
    return (grove_cpu_features_raw() & need) == need;
}

/* Chosen once at load time (GROVE_CPU applies: "portable" and "baseline" leave out ADX). */
__attribute__((constructor)) static void bls_fp_select(void)
{
    const uint32_t need = (uint32_t)(GROVE_CPU_BMI2 | GROVE_CPU_ADX);
    bls_fp_mulx_on = (unsigned char)((grove_cpu_features() & need) == need);
}

#else

int bls_fp_mulx_available(void)
{
    return 0;
}

#endif

const char *bls_fp_path(void)
{
#if GROVE_BLS_MULX /* fp.h's fp_mul takes the mulx path only with 64-bit limbs */
    if (bls_fp_mulx_on)
        return "mulx-adx";
#endif
#if GROVE_BLS_LIMB32
    return "portable-32";
#else
    return "portable-64";
#endif
}
