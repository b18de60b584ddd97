/* Keccak-f[1600] (portable kernel) and the FIPS 202 sponge functions. */
#include <string.h>

#include "common/util.h"
#include "hash/dispatch.h"
#include "hash/keccak.h"

static const uint64_t keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL,
    0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
    0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

#define ROL64(x, n) ((n) == 0 ? (x) : (((x) << (n)) | ((x) >> (64 - (n)))))

/*
 * Lanes are named by row (b, g, k, m, s for y = 0..4) and column (a, e, i, o, u for x = 0..4);
 * lane (x, y) is s[x + 5y]. One round reads the 25 lanes of one set of variables and writes the
 * other set, so two rounds per iteration need no copies. Rho and pi are folded into the
 * gathering of each output row: row y' of the new state gathers the lanes (x, y) with
 * 2x + 3y = y' (mod 5), each XORed with theta's D[x] and rotated by its rho offset.
 */
#define CHI_ROW(O, r, b0, b1, b2, b3, b4)                                                  \
    O##r##a = b0 ^ (~b1 & b2);                                                              \
    O##r##e = b1 ^ (~b2 & b3);                                                              \
    O##r##i = b2 ^ (~b3 & b4);                                                              \
    O##r##o = b3 ^ (~b4 & b0);                                                              \
    O##r##u = b4 ^ (~b0 & b1)

#define KECCAK_ROUND(I, O, rc)                                                              \
    do {                                                                                    \
        uint64_t Ca = I##ba ^ I##ga ^ I##ka ^ I##ma ^ I##sa;                                \
        uint64_t Ce = I##be ^ I##ge ^ I##ke ^ I##me ^ I##se;                                \
        uint64_t Ci = I##bi ^ I##gi ^ I##ki ^ I##mi ^ I##si;                                \
        uint64_t Co = I##bo ^ I##go ^ I##ko ^ I##mo ^ I##so;                                \
        uint64_t Cu = I##bu ^ I##gu ^ I##ku ^ I##mu ^ I##su;                                \
        uint64_t Da = Cu ^ ROL64(Ce, 1);                                                    \
        uint64_t De = Ca ^ ROL64(Ci, 1);                                                    \
        uint64_t Di = Ce ^ ROL64(Co, 1);                                                    \
        uint64_t Do = Ci ^ ROL64(Cu, 1);                                                    \
        uint64_t Du = Co ^ ROL64(Ca, 1);                                                    \
        uint64_t B0, B1, B2, B3, B4;                                                        \
        B0 = I##ba ^ Da;                                                                    \
        B1 = ROL64(I##ge ^ De, 44);                                                         \
        B2 = ROL64(I##ki ^ Di, 43);                                                         \
        B3 = ROL64(I##mo ^ Do, 21);                                                         \
        B4 = ROL64(I##su ^ Du, 14);                                                         \
        CHI_ROW(O, b, B0, B1, B2, B3, B4);                                                  \
        O##ba ^= (rc);                                                                      \
        B0 = ROL64(I##bo ^ Do, 28);                                                         \
        B1 = ROL64(I##gu ^ Du, 20);                                                         \
        B2 = ROL64(I##ka ^ Da, 3);                                                          \
        B3 = ROL64(I##me ^ De, 45);                                                         \
        B4 = ROL64(I##si ^ Di, 61);                                                         \
        CHI_ROW(O, g, B0, B1, B2, B3, B4);                                                  \
        B0 = ROL64(I##be ^ De, 1);                                                          \
        B1 = ROL64(I##gi ^ Di, 6);                                                          \
        B2 = ROL64(I##ko ^ Do, 25);                                                         \
        B3 = ROL64(I##mu ^ Du, 8);                                                          \
        B4 = ROL64(I##sa ^ Da, 18);                                                         \
        CHI_ROW(O, k, B0, B1, B2, B3, B4);                                                  \
        B0 = ROL64(I##bu ^ Du, 27);                                                         \
        B1 = ROL64(I##ga ^ Da, 36);                                                         \
        B2 = ROL64(I##ke ^ De, 10);                                                         \
        B3 = ROL64(I##mi ^ Di, 15);                                                         \
        B4 = ROL64(I##so ^ Do, 56);                                                         \
        CHI_ROW(O, m, B0, B1, B2, B3, B4);                                                  \
        B0 = ROL64(I##bi ^ Di, 62);                                                         \
        B1 = ROL64(I##go ^ Do, 55);                                                         \
        B2 = ROL64(I##ku ^ Du, 39);                                                         \
        B3 = ROL64(I##ma ^ Da, 41);                                                         \
        B4 = ROL64(I##se ^ De, 2);                                                          \
        CHI_ROW(O, s, B0, B1, B2, B3, B4);                                                  \
    } while (0)

#define DECLARE_LANES(P)                                                                    \
    uint64_t P##ba, P##be, P##bi, P##bo, P##bu, P##ga, P##ge, P##gi, P##go, P##gu, P##ka,   \
        P##ke, P##ki, P##ko, P##ku, P##ma, P##me, P##mi, P##mo, P##mu, P##sa, P##se, P##si, \
        P##so, P##su

#define COPY_LANES(P, OP, st)                                                               \
    OP(P##ba, st[0]); OP(P##be, st[1]); OP(P##bi, st[2]); OP(P##bo, st[3]); OP(P##bu, st[4]); \
    OP(P##ga, st[5]); OP(P##ge, st[6]); OP(P##gi, st[7]); OP(P##go, st[8]); OP(P##gu, st[9]); \
    OP(P##ka, st[10]); OP(P##ke, st[11]); OP(P##ki, st[12]); OP(P##ko, st[13]);             \
    OP(P##ku, st[14]); OP(P##ma, st[15]); OP(P##me, st[16]); OP(P##mi, st[17]);             \
    OP(P##mo, st[18]); OP(P##mu, st[19]); OP(P##sa, st[20]); OP(P##se, st[21]);             \
    OP(P##si, st[22]); OP(P##so, st[23]); OP(P##su, st[24])

#define LOAD_OP(v, m) v = m
#define STORE_OP(v, m) m = v

GROVE_INLINE void keccakf1600_generic(uint64_t st[25])
{
    DECLARE_LANES(A);
    DECLARE_LANES(E);
    COPY_LANES(A, LOAD_OP, st);
    for (int r = 0; r < 24; r += 2) {
        KECCAK_ROUND(A, E, keccak_rc[r]);
        KECCAK_ROUND(E, A, keccak_rc[r + 1]);
    }
    COPY_LANES(A, STORE_OP, st);
}

void grove_keccakf1600_portable(uint64_t st[25])
{
    keccakf1600_generic(st);
}

#if GROVE_HAVE_X86_TARGETS
/* The same C code compiled for BMI1/BMI2 (andn, rorx); picked when the CPU has them. */
__attribute__((target("bmi,bmi2"))) void grove_keccakf1600_bmi(uint64_t st[25])
{
    keccakf1600_generic(st);
}
#endif

void grove_keccakf1600(uint64_t s[25])
{
    grove_hash_kernels()->keccakf1600(s);
}

void grove_keccakf1600_many(uint64_t (*states)[25], size_t count)
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    if (k->keccakf1600_many != NULL) {
        k->keccakf1600_many(states, count);
        return;
    }
    for (size_t i = 0; i < count; i++)
        k->keccakf1600(states[i]);
}

/* ---- sponge ---------------------------------------------------------------------------- */

void grove_keccak_init(grove_keccak_ctx *c, uint32_t rate, uint8_t dsuffix)
{
    memset(c->s, 0, sizeof c->s);
    c->pos = 0;
    c->rate = rate;
    c->dsuffix = dsuffix;
    c->squeezing = 0;
}

void grove_shake128_init(grove_keccak_ctx *c)
{
    grove_keccak_init(c, GROVE_SHAKE128_RATE, 0x1F);
}
void grove_shake256_init(grove_keccak_ctx *c)
{
    grove_keccak_init(c, GROVE_SHAKE256_RATE, 0x1F);
}
void grove_sha3_256_init(grove_keccak_ctx *c)
{
    grove_keccak_init(c, GROVE_SHA3_256_RATE, 0x06);
}
void grove_sha3_512_init(grove_keccak_ctx *c)
{
    grove_keccak_init(c, GROVE_SHA3_512_RATE, 0x06);
}

GROVE_INLINE void xor_byte(uint64_t *s, size_t pos, uint8_t b)
{
    s[pos >> 3] ^= (uint64_t)b << (8 * (pos & 7));
}

GROVE_INLINE uint8_t get_byte(const uint64_t *s, size_t pos)
{
    return (uint8_t)(s[pos >> 3] >> (8 * (pos & 7)));
}

void grove_keccak_absorb(grove_keccak_ctx *c, const uint8_t *in, size_t len)
{
    void (*permute)(uint64_t *) = grove_hash_kernels()->keccakf1600;
    size_t pos = c->pos, rate = c->rate;
    /* Bytes up to the next lane boundary, then whole lanes, then the tail. */
    while (len > 0 && (pos & 7) != 0) {
        xor_byte(c->s, pos++, *in++);
        len--;
        if (pos == rate) {
            permute(c->s);
            pos = 0;
        }
    }
    while (len >= 8) {
        c->s[pos >> 3] ^= grove_load64_le(in);
        pos += 8;
        in += 8;
        len -= 8;
        if (pos == rate) {
            permute(c->s);
            pos = 0;
        }
    }
    while (len > 0) {
        xor_byte(c->s, pos++, *in++);
        len--;
        if (pos == rate) {
            permute(c->s);
            pos = 0;
        }
    }
    c->pos = (uint32_t)pos;
}

void grove_keccak_squeeze(grove_keccak_ctx *c, uint8_t *out, size_t len)
{
    void (*permute)(uint64_t *) = grove_hash_kernels()->keccakf1600;
    size_t pos = c->pos, rate = c->rate;
    if (!c->squeezing) {
        xor_byte(c->s, pos, c->dsuffix);
        xor_byte(c->s, rate - 1, 0x80);
        permute(c->s);
        pos = 0;
        c->squeezing = 1;
    }
    while (len > 0) {
        if (pos == rate) {
            permute(c->s);
            pos = 0;
        }
        if ((pos & 7) == 0 && len >= 8 && pos + 8 <= rate) {
            grove_store64_le(out, c->s[pos >> 3]);
            out += 8;
            pos += 8;
            len -= 8;
        } else {
            *out++ = get_byte(c->s, pos++);
            len--;
        }
    }
    c->pos = (uint32_t)pos;
}

void grove_sha3_256(uint8_t out[32], const uint8_t *in, size_t len)
{
    grove_keccak_ctx c;
    grove_sha3_256_init(&c);
    grove_keccak_absorb(&c, in, len);
    grove_keccak_squeeze(&c, out, 32);
}

void grove_sha3_512(uint8_t out[64], const uint8_t *in, size_t len)
{
    grove_keccak_ctx c;
    grove_sha3_512_init(&c);
    grove_keccak_absorb(&c, in, len);
    grove_keccak_squeeze(&c, out, 64);
}

void grove_shake128(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen)
{
    grove_keccak_ctx c;
    grove_shake128_init(&c);
    grove_keccak_absorb(&c, in, inlen);
    grove_keccak_squeeze(&c, out, outlen);
    grove_wipe(&c, sizeof c);
}

void grove_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen)
{
    grove_keccak_ctx c;
    grove_shake256_init(&c);
    grove_keccak_absorb(&c, in, inlen);
    grove_keccak_squeeze(&c, out, outlen);
    grove_wipe(&c, sizeof c);
}

static void shake_many(uint32_t rate, uint8_t *const out[], size_t outlen,
                       const uint8_t *const in[], size_t inlen, size_t count)
{
    const struct grove_hash_kernels *kern = grove_hash_kernels();
    if (inlen < rate && outlen <= rate && kern->keccakf1600_many == NULL) {
        /* Fast path: one input block, one output block per message. */
        uint64_t st[25];
        for (size_t i = 0; i < count; i++) {
            memset(st, 0, sizeof st);
            const uint8_t *p = in[i];
            size_t w = 0;
            for (; 8 * w + 8 <= inlen; w++)
                st[w] = grove_load64_le(p + 8 * w);
            for (size_t b = 8 * w; b < inlen; b++)
                xor_byte(st, b, p[b]);
            xor_byte(st, inlen, 0x1F);
            xor_byte(st, rate - 1, 0x80);
            kern->keccakf1600(st);
            uint8_t *o = out[i];
            size_t j = 0;
            for (; j + 8 <= outlen; j += 8)
                grove_store64_le(o + j, st[j >> 3]);
            for (; j < outlen; j++)
                o[j] = get_byte(st, j);
        }
        grove_wipe(st, sizeof st);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        grove_keccak_ctx c;
        grove_keccak_init(&c, rate, 0x1F);
        grove_keccak_absorb(&c, in[i], inlen);
        grove_keccak_squeeze(&c, out[i], outlen);
        grove_wipe(&c, sizeof c);
    }
}

void grove_shake128_many(uint8_t *const out[], size_t outlen, const uint8_t *const in[],
                         size_t inlen, size_t count)
{
    shake_many(GROVE_SHAKE128_RATE, out, outlen, in, inlen, count);
}

void grove_shake256_many(uint8_t *const out[], size_t outlen, const uint8_t *const in[],
                         size_t inlen, size_t count)
{
    shake_many(GROVE_SHAKE256_RATE, out, outlen, in, inlen, count);
}
