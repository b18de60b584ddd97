/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The SHA-256 and SHA-512 round constants (FIPS 180-4 section 4.2) as lists X(k0) X(k1) ..., so
 * that a vector kernel can hold them already broadcast (one vector per constant, added straight
 * from memory) and grove_sha256_k / grove_sha512_k are defined from the same text.
 */
#ifndef GROVE_HASH_SHA2_K_H
#define GROVE_HASH_SHA2_K_H

#define GROVE_SHA256_K_LIST(X) \
    X(0x428a2f98u) X(0x71374491u) X(0xb5c0fbcfu) X(0xe9b5dba5u) \
    X(0x3956c25bu) X(0x59f111f1u) X(0x923f82a4u) X(0xab1c5ed5u) \
    X(0xd807aa98u) X(0x12835b01u) X(0x243185beu) X(0x550c7dc3u) \
    X(0x72be5d74u) X(0x80deb1feu) X(0x9bdc06a7u) X(0xc19bf174u) \
    X(0xe49b69c1u) X(0xefbe4786u) X(0x0fc19dc6u) X(0x240ca1ccu) \
    X(0x2de92c6fu) X(0x4a7484aau) X(0x5cb0a9dcu) X(0x76f988dau) \
    X(0x983e5152u) X(0xa831c66du) X(0xb00327c8u) X(0xbf597fc7u) \
    X(0xc6e00bf3u) X(0xd5a79147u) X(0x06ca6351u) X(0x14292967u) \
    X(0x27b70a85u) X(0x2e1b2138u) X(0x4d2c6dfcu) X(0x53380d13u) \
    X(0x650a7354u) X(0x766a0abbu) X(0x81c2c92eu) X(0x92722c85u) \
    X(0xa2bfe8a1u) X(0xa81a664bu) X(0xc24b8b70u) X(0xc76c51a3u) \
    X(0xd192e819u) X(0xd6990624u) X(0xf40e3585u) X(0x106aa070u) \
    X(0x19a4c116u) X(0x1e376c08u) X(0x2748774cu) X(0x34b0bcb5u) \
    X(0x391c0cb3u) X(0x4ed8aa4au) X(0x5b9cca4fu) X(0x682e6ff3u) \
    X(0x748f82eeu) X(0x78a5636fu) X(0x84c87814u) X(0x8cc70208u) \
    X(0x90befffau) X(0xa4506cebu) X(0xbef9a3f7u) X(0xc67178f2u)

#define GROVE_SHA512_K_LIST(X) \
    X(0x428a2f98d728ae22ULL) X(0x7137449123ef65cdULL) X(0xb5c0fbcfec4d3b2fULL) X(0xe9b5dba58189dbbcULL) \
    X(0x3956c25bf348b538ULL) X(0x59f111f1b605d019ULL) X(0x923f82a4af194f9bULL) X(0xab1c5ed5da6d8118ULL) \
    X(0xd807aa98a3030242ULL) X(0x12835b0145706fbeULL) X(0x243185be4ee4b28cULL) X(0x550c7dc3d5ffb4e2ULL) \
    X(0x72be5d74f27b896fULL) X(0x80deb1fe3b1696b1ULL) X(0x9bdc06a725c71235ULL) X(0xc19bf174cf692694ULL) \
    X(0xe49b69c19ef14ad2ULL) X(0xefbe4786384f25e3ULL) X(0x0fc19dc68b8cd5b5ULL) X(0x240ca1cc77ac9c65ULL) \
    X(0x2de92c6f592b0275ULL) X(0x4a7484aa6ea6e483ULL) X(0x5cb0a9dcbd41fbd4ULL) X(0x76f988da831153b5ULL) \
    X(0x983e5152ee66dfabULL) X(0xa831c66d2db43210ULL) X(0xb00327c898fb213fULL) X(0xbf597fc7beef0ee4ULL) \
    X(0xc6e00bf33da88fc2ULL) X(0xd5a79147930aa725ULL) X(0x06ca6351e003826fULL) X(0x142929670a0e6e70ULL) \
    X(0x27b70a8546d22ffcULL) X(0x2e1b21385c26c926ULL) X(0x4d2c6dfc5ac42aedULL) X(0x53380d139d95b3dfULL) \
    X(0x650a73548baf63deULL) X(0x766a0abb3c77b2a8ULL) X(0x81c2c92e47edaee6ULL) X(0x92722c851482353bULL) \
    X(0xa2bfe8a14cf10364ULL) X(0xa81a664bbc423001ULL) X(0xc24b8b70d0f89791ULL) X(0xc76c51a30654be30ULL) \
    X(0xd192e819d6ef5218ULL) X(0xd69906245565a910ULL) X(0xf40e35855771202aULL) X(0x106aa07032bbd1b8ULL) \
    X(0x19a4c116b8d2d0c8ULL) X(0x1e376c085141ab53ULL) X(0x2748774cdf8eeb99ULL) X(0x34b0bcb5e19b48a8ULL) \
    X(0x391c0cb3c5c95a63ULL) X(0x4ed8aa4ae3418acbULL) X(0x5b9cca4f7763e373ULL) X(0x682e6ff3d6b2b8a3ULL) \
    X(0x748f82ee5defb2fcULL) X(0x78a5636f43172f60ULL) X(0x84c87814a1f0ab72ULL) X(0x8cc702081a6439ecULL) \
    X(0x90befffa23631e28ULL) X(0xa4506cebde82bde9ULL) X(0xbef9a3f7b2c67915ULL) X(0xc67178f2e372532bULL) \
    X(0xca273eceea26619cULL) X(0xd186b8c721c0c207ULL) X(0xeada7dd6cde0eb1eULL) X(0xf57d4f7fee6ed178ULL) \
    X(0x06f067aa72176fbaULL) X(0x0a637dc5a2c898a6ULL) X(0x113f9804bef90daeULL) X(0x1b710b35131c471bULL) \
    X(0x28db77f523047d84ULL) X(0x32caab7b40c72493ULL) X(0x3c9ebe0a15c9bebcULL) X(0x431d67c49c100d4cULL) \
    X(0x4cc5d4becb3e42b6ULL) X(0x597f299cfc657e2aULL) X(0x5fcb6fab3ad6faecULL) X(0x6c44198c4a475817ULL)

#endif
