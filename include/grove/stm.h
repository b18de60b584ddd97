/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/stm.h - Mithril STM: stake-based threshold multisignatures (Chaidos & Kiayias, IACR
 * ePrint 2021/916), the concatenation proof system, compatible with mithril-stm v0.11.
 *
 * THE PROTOCOL IN ONE SCREEN.
 *   1. Parameters (m, k, phi_f): m lottery indices, quorum k, win probability phi_f for a party
 *      holding all the stake.
 *   2. Every party makes a BLS12-381 key (grove_stm_keygen): a 32-byte secret key and a 192-byte
 *      "vk+pop" = verification key (96-byte G2 point) || proof of possession (96 bytes).
 *   3. A registrar collects (stake, vk+pop) of all parties (grove_stm_keyreg_add: the PoP is
 *      checked, a key registered twice is refused) and closes the registration: entries are
 *      ordered by (stake, vk bytes); the position is the party's signer index; a Merkle tree
 *      (Blake2b-256) over the entries gives the aggregate verification key
 *      AVK = (root, number of leaves, total stake).
 *   4. A signer signs msg' = msg || root with BLS (min-sig, empty DST) and plays the m
 *      lotteries with its stake; it publishes a single signature (sigma, won indexes, signer
 *      index) or learns that it lost every lottery (GROVE_ERR_LOTTERY_LOST).
 *   5. A clerk (anyone holding the closed registration) aggregates single signatures: it drops
 *      invalid ones, gives each lottery index to one signer, keeps signers until k indexes are
 *      covered and attaches one Merkle batch path (GROVE_ERR_NOT_ENOUGH otherwise).
 *   6. Anyone holding the AVK and the parameters verifies the aggregate.
 *
 * STRICTER THAN UPSTREAM (honest data never differs): lottery indexes >= m are rejected; both
 * halves of a PoP are subgroup-checked; each signature's signer index must equal its batch-path
 * index; phi_f must lie in (0, 0.95] or be exactly 1.0.
 *
 * ENCODINGS. Binary (grove's native; the big-endian layouts mithril-stm <= 0.10 wrote and still
 * reads), JSON (the serde_json shapes Mithril nodes exchange) and CBOR v1 (what mithril-stm's
 * to_bytes writes since 0.11: see "CBOR v1" below). Binary sizes below; every decoder
 * checks lengths, counts, point encodings (on curve, in the subgroup, not the identity) and
 * refuses trailing bytes; an aggregate's signer keys are checked on the curve only, their
 * subgroup follows from the batch path its verification checks (registration checked them).
 *   parameters 24        m u64 || k u64 || phi_f binary64
 *   avk 48               nr_leaves u64 || root 32 || total_stake u64
 *   entry 104            vk 96 || stake u64
 *   single signature     nr u64 || indexes (u64 each) || sigma 48 || signer_index u64
 *   aggregate            0x00 || nsigs u64 || per signature: len u64 || len u64 || entry ||
 *                        len u64 || single signature; then the batch path:
 *                        nvalues u64 || nindices u64 || values (32 each) || indices (u64 each)
 *   closed registration  grove's own: "GRVSTMR1" || n u64 || entries (104 each, in order)
 *
 * THREADS. All functions are thread-safe on distinct objects; objects are read-only after
 * creation except keyreg, which one thread at a time may modify. `threads` means what
 * grove/common.h says: 1 = the calling thread only, n = at most n, GROVE_THREADS_AUTO (0) = one
 * per online CPU; results never depend on it.
 *
 * CONVENTIONS (grove/common.h). Every fallible function returns a grove_status. The parameters
 * (or the object acted on) come first, then the outputs, then the inputs (message before keys
 * and registrations). Encoders take the object first; variable-length encodings are written
 * with (out, out_cap, &out_len) (GROVE_ERR_BUFFER_TOO_SMALL sets out_len to the size needed,
 * which grove_stm_<x>_encoded_bytes() also gives); the JSON writers return a NUL-terminated
 * string the caller releases with free(). Verify functions (grove_stm_sig_verify[_entry],
 * grove_stm_aggregate_verify[_batch]) return GROVE_ERR_VERIFY for a signature or aggregate
 * that does not verify, whatever the reason: BLS signature, batch path, an index not won or
 * >= m, an index claimed twice, fewer than k indexes, a sigma that is not a G1 point.
 * GROVE_ERR_ENCODING from a verify function means a malformed verification key (vk) in the
 * entry given; GROVE_ERR_INVALID_ARG bad parameters. GROVE_ERR_LOTTERY_LOST comes from
 * grove_stm_sign only, GROVE_ERR_NOT_ENOUGH from grove_stm_aggregate_new only.
 */
#ifndef GROVE_STM_H
#define GROVE_STM_H

#include "grove/common.h"
#include "grove/config.h"
#if GROVE_HAVE_STM /* (an optional component: declares nothing in a build without it) */

#ifdef __cplusplus
extern "C" {
#endif

#define GROVE_STM_SEED_BYTES 32
#define GROVE_STM_SK_BYTES 32
#define GROVE_STM_VK_BYTES 96
#define GROVE_STM_POP_BYTES 96
#define GROVE_STM_VKPOP_BYTES 192
#define GROVE_STM_SIGMA_BYTES 48
#define GROVE_STM_ROOT_BYTES 32
#define GROVE_STM_ENTRY_BYTES 104
#define GROVE_STM_PARAMS_BYTES 24
#define GROVE_STM_AVK_BYTES 48
#define GROVE_STM_EV_BYTES 64
/* Upper bound on m accepted by grove (mainnet uses ~2^14.1). */
#define GROVE_STM_MAX_M (UINT64_C(1) << 32)
/* Upper bound on the number of registered parties. */
#define GROVE_STM_MAX_PARTIES (UINT64_C(1) << 24)

/* ==== parameters =========================================================================== */
typedef struct grove_stm_params {
    uint64_t m;   /* lottery indices 0..m-1, 1 <= m <= GROVE_STM_MAX_M */
    uint64_t k;   /* quorum, 1 <= k <= m                                 */
    double phi_f; /* in (0, 0.95], or exactly 1.0                       */
} grove_stm_params;

/* GROVE_OK or GROVE_ERR_INVALID_ARG. */
GROVE_API GROVE_MUST_USE grove_status grove_stm_params_check(const grove_stm_params *params);
GROVE_API void grove_stm_params_to_bytes(const grove_stm_params *params,
                                         uint8_t out[GROVE_STM_PARAMS_BYTES]);
/* Decodes and checks; GROVE_ERR_ENCODING on a wrong length or out-of-range values. */
GROVE_API GROVE_MUST_USE grove_status grove_stm_params_from_bytes(grove_stm_params *params,
                                                                  const uint8_t *in, size_t in_len);

/* ==== keys ================================================================================= */
/*
 * vkpop = vk || pop and sk = IETF BLS KeyGen(seed) (32 bytes big-endian; the public key first,
 * as every keygen in grove). seed NULL: 32 bytes from grove_randombytes(). The PoP is k1 || k2 with k1 = BLS sign("PoP"), k2 = sk * G1.
 */
GROVE_API GROVE_MUST_USE grove_status grove_stm_keygen(uint8_t vkpop[GROVE_STM_VKPOP_BYTES],
                                                       uint8_t sk[GROVE_STM_SK_BYTES],
                                                       const uint8_t seed[GROVE_STM_SEED_BYTES]);
/* vk+pop of a secret key (GROVE_ERR_ENCODING if sk is 0 or >= r). */
GROVE_API GROVE_MUST_USE grove_status grove_stm_vkpop_from_sk(uint8_t vkpop[GROVE_STM_VKPOP_BYTES],
                                                              const uint8_t sk[GROVE_STM_SK_BYTES]);
/* Checks a vk+pop: GROVE_OK, GROVE_ERR_ENCODING (the vk is malformed, not in G2 or the
 * identity) or GROVE_ERR_VERIFY (the PoP does not verify, a malformed PoP included). */
GROVE_API GROVE_MUST_USE grove_status
grove_stm_vkpop_check(const uint8_t vkpop[GROVE_STM_VKPOP_BYTES]);

/* ==== key registration ===================================================================== */
typedef struct grove_stm_keyreg grove_stm_keyreg;
typedef struct grove_stm_closed grove_stm_closed;

GROVE_API GROVE_MUST_USE grove_status grove_stm_keyreg_new(grove_stm_keyreg **reg);
GROVE_API void grove_stm_keyreg_free(grove_stm_keyreg *reg);
GROVE_API size_t grove_stm_keyreg_count(const grove_stm_keyreg *reg);
/*
 * Registers one party after checking its PoP. GROVE_ERR_EXISTS if the vk is registered,
 * GROVE_ERR_ENCODING / GROVE_ERR_VERIFY for a bad vk+pop, GROVE_ERR_OVERFLOW past
 * GROVE_STM_MAX_PARTIES. Stake 0 is accepted. On error nothing changes.
 */
GROVE_API GROVE_MUST_USE grove_status grove_stm_keyreg_add(
    grove_stm_keyreg *reg, uint64_t stake, const uint8_t vkpop[GROVE_STM_VKPOP_BYTES]);
/*
 * Registers n parties (stakes[i], vkpops: n * 192 bytes) at once, all or nothing. The PoPs are
 * checked with one randomized batch check (per-party checks only if the batch fails), spread
 * over `threads` threads. On error nothing is added and *bad (if not NULL) is the index of the
 * first offending party.
 */
GROVE_API GROVE_MUST_USE grove_status grove_stm_keyreg_add_many(grove_stm_keyreg *reg, size_t *bad,
                                                                const uint64_t *stakes,
                                                                const uint8_t *vkpops, size_t n,
                                                                unsigned threads);
/*
 * Closes the registration (the keyreg stays usable). GROVE_ERR_INVALID_ARG if it is empty or
 * the total stake is 0, GROVE_ERR_OVERFLOW if the total stake exceeds 2^64 - 1.
 */
GROVE_API GROVE_MUST_USE grove_status grove_stm_keyreg_close(const grove_stm_keyreg *reg,
                                                             grove_stm_closed **closed);

GROVE_API void grove_stm_closed_free(grove_stm_closed *closed);
GROVE_API uint64_t grove_stm_closed_count(const grove_stm_closed *closed);
GROVE_API uint64_t grove_stm_closed_total_stake(const grove_stm_closed *closed);
GROVE_API void grove_stm_closed_root(const grove_stm_closed *closed,
                                     uint8_t root[GROVE_STM_ROOT_BYTES]);
/* Entry (vk, stake) at a signer index; GROVE_ERR_NOT_FOUND past the end. */
GROVE_API GROVE_MUST_USE grove_status grove_stm_closed_entry(const grove_stm_closed *closed,
                                                             uint8_t vk[GROVE_STM_VK_BYTES],
                                                             uint64_t *stake, uint64_t index);
/* Signer index of a vk; GROVE_ERR_NOT_FOUND if absent. */
GROVE_API GROVE_MUST_USE grove_status grove_stm_closed_find(const grove_stm_closed *closed,
                                                            uint64_t *index,
                                                            const uint8_t vk[GROVE_STM_VK_BYTES]);
/* Encoding (see above): size, write, read (re-validates every vk, the order and the total). */
GROVE_API size_t grove_stm_closed_encoded_bytes(const grove_stm_closed *closed);
GROVE_API GROVE_MUST_USE grove_status grove_stm_closed_to_bytes(const grove_stm_closed *closed,
                                                                uint8_t *out, size_t out_cap,
                                                                size_t *out_len);
GROVE_API GROVE_MUST_USE grove_status grove_stm_closed_from_bytes(grove_stm_closed **closed,
                                                                  const uint8_t *in, size_t in_len);

/* ==== aggregate verification key =========================================================== */
typedef struct grove_stm_avk {
    uint8_t root[GROVE_STM_ROOT_BYTES];
    uint64_t nr_leaves;
    uint64_t total_stake;
} grove_stm_avk;

GROVE_API void grove_stm_closed_avk(const grove_stm_closed *closed, grove_stm_avk *avk);
GROVE_API void grove_stm_avk_to_bytes(const grove_stm_avk *avk, uint8_t out[GROVE_STM_AVK_BYTES]);
/* GROVE_ERR_ENCODING on a wrong length, zero leaves or zero total stake. */
GROVE_API GROVE_MUST_USE grove_status grove_stm_avk_from_bytes(grove_stm_avk *avk,
                                                               const uint8_t *in, size_t in_len);

/* ==== single signatures ==================================================================== */
typedef struct grove_stm_sig {
    uint8_t sigma[GROVE_STM_SIGMA_BYTES]; /* compressed G1 point                     */
    uint64_t signer_index;                /* position in the closed registration      */
    size_t n_indexes;                     /* >= 1 in any valid signature              */
    uint64_t *indexes;                    /* ascending; owned (grove_stm_sig_clear)    */
} grove_stm_sig;

/* Frees the indexes and zeroes the struct (safe on a zeroed struct). */
GROVE_API void grove_stm_sig_clear(grove_stm_sig *sig);
GROVE_API GROVE_MUST_USE grove_status grove_stm_sig_copy(grove_stm_sig *dst,
                                                         const grove_stm_sig *src);

typedef struct grove_stm_signer grove_stm_signer;
/*
 * A signer: the secret key, the parameters and the closed registration (which must contain the
 * key's vk: GROVE_ERR_NOT_FOUND otherwise). The signer keeps its own copy of what it needs.
 */
GROVE_API GROVE_MUST_USE grove_status grove_stm_signer_new(const grove_stm_params *params,
                                                           grove_stm_signer **signer,
                                                           const uint8_t sk[GROVE_STM_SK_BYTES],
                                                           const grove_stm_closed *closed);
GROVE_API void grove_stm_signer_free(grove_stm_signer *signer);
GROVE_API uint64_t grove_stm_signer_index(const grove_stm_signer *signer);
GROVE_API uint64_t grove_stm_signer_stake(const grove_stm_signer *signer);
/*
 * Signs msg: sigma = BLS(msg || root), then plays the m lotteries. On success *sig holds the
 * won indexes (the caller clears it); GROVE_ERR_LOTTERY_LOST if none was won.
 */
GROVE_API GROVE_MUST_USE grove_status grove_stm_sign(const grove_stm_signer *signer,
                                                     grove_stm_sig *sig, const uint8_t *msg,
                                                     size_t msg_len);
/*
 * Full single-signature check against the closed registration (the signer's entry is taken
 * at sig->signer_index): BLS signature on msg || root, every index < m, ascending and won.
 * GROVE_OK, GROVE_ERR_VERIFY (whatever the reason: no index, an index not won, a sigma that
 * is not a valid G1 point, ...), GROVE_ERR_ENCODING (a malformed vk).
 */
GROVE_API GROVE_MUST_USE grove_status grove_stm_sig_verify(const grove_stm_params *params,
                                                           const grove_stm_sig *sig,
                                                           const uint8_t *msg, size_t msg_len,
                                                           const grove_stm_closed *closed);
/* The same with the entry and the AVK given explicitly (as upstream's verify). */
GROVE_API GROVE_MUST_USE grove_status grove_stm_sig_verify_entry(
    const grove_stm_params *params, const grove_stm_sig *sig, const uint8_t *msg, size_t msg_len,
    const uint8_t vk[GROVE_STM_VK_BYTES], uint64_t stake, const grove_stm_avk *avk);
GROVE_API size_t grove_stm_sig_encoded_bytes(const grove_stm_sig *sig);
GROVE_API GROVE_MUST_USE grove_status grove_stm_sig_to_bytes(const grove_stm_sig *sig, uint8_t *out,
                                                             size_t out_cap, size_t *out_len);
/* Decodes (sigma checked: on curve, in G1, not the identity); *sig must be cleared later. */
GROVE_API GROVE_MUST_USE grove_status grove_stm_sig_from_bytes(grove_stm_sig *sig,
                                                               const uint8_t *in, size_t in_len);

/* ==== aggregation and verification ======================================================== */
typedef struct grove_stm_aggregate grove_stm_aggregate;

/*
 * Clerk: aggregates n single signatures on msg (deterministic given the list). Invalid
 * signatures are dropped; GROVE_ERR_NOT_ENOUGH if fewer than k distinct indexes remain, with
 * *have (if not NULL) set to the number collected. Verification is spread over `threads`.
 */
GROVE_API GROVE_MUST_USE grove_status
grove_stm_aggregate_new(const grove_stm_params *params, grove_stm_aggregate **agg, uint64_t *have,
                        const grove_stm_sig *sigs, size_t n, const uint8_t *msg, size_t msg_len,
                        const grove_stm_closed *closed, unsigned threads);
GROVE_API void grove_stm_aggregate_free(grove_stm_aggregate *agg);
/*
 * Verifies an aggregate on msg against the AVK and the parameters: GROVE_OK or
 * GROVE_ERR_VERIFY (whatever the reason: an index not won or >= m, fewer than k indexes, an
 * index claimed twice, the batch path, the BLS check).
 */
GROVE_API GROVE_MUST_USE grove_status grove_stm_aggregate_verify(const grove_stm_params *params,
                                                                 const grove_stm_aggregate *agg,
                                                                 const uint8_t *msg, size_t msg_len,
                                                                 const grove_stm_avk *avk);
/*
 * grove_stm_aggregate_verify on at most `threads` threads (1 = the calling thread only,
 * GROVE_THREADS_AUTO = one per online CPU, which grove_stm_aggregate_verify uses); from 16
 * signatures on, the two multi-scalar multiplications are split over two threads when more
 * than one is allowed, never more. Same verdict whatever `threads` is.
 */
GROVE_API GROVE_MUST_USE grove_status grove_stm_aggregate_verify_threads(
    const grove_stm_params *params, const grove_stm_aggregate *agg, const uint8_t *msg,
    size_t msg_len, const grove_stm_avk *avk, unsigned threads);
/*
 * Verifies n aggregates (each with its own parameters params[i], message and AVK) with one
 * pairing product; GROVE_OK only if all verify. On GROVE_ERR_VERIFY verify them one by one to
 * find the bad one.
 */
GROVE_API GROVE_MUST_USE grove_status grove_stm_aggregate_verify_batch(
    const grove_stm_params *params, const grove_stm_aggregate *const *aggs,
    const uint8_t *const *msgs, const size_t *msg_lens, const grove_stm_avk *avks, size_t n);
/* Number of signatures in the aggregate and signature i with its entry (vk, stake). */
GROVE_API size_t grove_stm_aggregate_count(const grove_stm_aggregate *agg);
GROVE_API GROVE_MUST_USE grove_status grove_stm_aggregate_get(const grove_stm_aggregate *agg,
                                                              const grove_stm_sig **sig,
                                                              uint8_t vk[GROVE_STM_VK_BYTES],
                                                              uint64_t *stake, size_t i);
GROVE_API size_t grove_stm_aggregate_encoded_bytes(const grove_stm_aggregate *agg);
GROVE_API GROVE_MUST_USE grove_status grove_stm_aggregate_to_bytes(const grove_stm_aggregate *agg,
                                                                   uint8_t *out, size_t out_cap,
                                                                   size_t *out_len);
GROVE_API GROVE_MUST_USE grove_status grove_stm_aggregate_from_bytes(grove_stm_aggregate **agg,
                                                                     const uint8_t *in,
                                                                     size_t in_len);

/* ==== JSON (the serde_json shapes of mithril-stm) ========================================= */
/*
 * Writers take the object first and return in *out a NUL-terminated string allocated with
 * malloc (release it with free()); readers accept exactly one JSON value (whitespace around
 * it allowed), nesting depth <= 16, input <= 64 MiB.
 *   params     {"m":n,"k":n,"phi_f":x}
 *   sig        {"sigma":[48 numbers],"indexes":[...],"signer_index":n}
 *   avk        {"mt_commitment":{"root":[32],"nr_leaves":n,"hasher":null},"total_stake":t}
 *   aggregate  {"signatures":[[sig,[[96 numbers],stake]],...],
 *               "batch_proof":{"values":[[32 numbers],...],"indices":[...],"hasher":null}}
 */
GROVE_API GROVE_MUST_USE grove_status grove_stm_params_to_json(const grove_stm_params *params,
                                                               char **out);
GROVE_API GROVE_MUST_USE grove_status grove_stm_params_from_json(grove_stm_params *params,
                                                                 const char *in, size_t in_len);
GROVE_API GROVE_MUST_USE grove_status grove_stm_sig_to_json(const grove_stm_sig *sig, char **out);
GROVE_API GROVE_MUST_USE grove_status grove_stm_sig_from_json(grove_stm_sig *sig, const char *in,
                                                              size_t in_len);
GROVE_API GROVE_MUST_USE grove_status grove_stm_avk_to_json(const grove_stm_avk *avk, char **out);
GROVE_API GROVE_MUST_USE grove_status grove_stm_avk_from_json(grove_stm_avk *avk, const char *in,
                                                              size_t in_len);
GROVE_API GROVE_MUST_USE grove_status grove_stm_aggregate_to_json(const grove_stm_aggregate *agg,
                                                                  char **out);
GROVE_API GROVE_MUST_USE grove_status grove_stm_aggregate_from_json(grove_stm_aggregate **agg,
                                                                    const char *in, size_t in_len);

/* ==== CBOR v1 (mithril-stm's to_bytes / from_bytes since 0.11) ============================= */
/*
 * Every encoding is 0x01 || one CBOR item; byte fields are arrays of unsigned integers and
 * nested objects carry their own 0x01-prefixed encoding (docs/stm.md gives the schema). The
 * writers produce exactly the crate's bytes (0.11.3; the aggregate in either form below); the
 * readers accept definite or indefinite maps and arrays and keys in any order, but refuse
 * unknown or repeated keys, non-shortest integer heads, tags, other float widths, trailing
 * bytes, nesting deeper than 8 and inputs over 256 MiB (GROVE_ERR_ENCODING), and check values
 * as the binary readers do. A first byte other than 0x01 is GROVE_ERR_ENCODING: the binary
 * layouts above never start with 0x01 (their first byte is 0x00 for every valid object), so
 * grove never takes one encoding for the other (pick the reader by the first byte).
 * Variable-length outputs use (out, out_cap, &out_len); GROVE_ERR_BUFFER_TOO_SMALL sets
 * out_len to the size needed.
 *   params       {"m": n, "k": n, "phi_f": float64}
 *   avk          {"mt_commitment": {"root": [32], "nr_leaves": n, "hasher": null},
 *                 "total_stake": n}
 *   sig          indefinite map {"sigma": [48], "indexes": [...], "signer_index": n}
 *   aggregate    {"signature_type": 0, "proof_bytes": concatenation proof}
 *   initializer  {"stake": n, "params": params map, "sk": [32], "pk": {"vk": [96], "pop": [96]}}
 * The vk + PoP has no CBOR form in mithril-stm 0.11.3: its 192 bytes are the only encoding.
 */
typedef enum grove_stm_cbor_form {
    GROVE_STM_CBOR_0_11 = 0, /* proof_bytes as an array of integers: mithril-stm 0.11.3's bytes */
    GROVE_STM_CBOR_0_12 = 1  /* proof_bytes as a CBOR byte string: mithril-stm 0.12.2 and later */
} grove_stm_cbor_form;

GROVE_API GROVE_MUST_USE grove_status grove_stm_params_to_cbor(const grove_stm_params *params,
                                                               uint8_t *out, size_t out_cap,
                                                               size_t *out_len);
/* Decodes and checks (out-of-range parameters: GROVE_ERR_ENCODING, as the binary reader). */
GROVE_API GROVE_MUST_USE grove_status grove_stm_params_from_cbor(grove_stm_params *params,
                                                                 const uint8_t *in,
                                                                 size_t in_len);
GROVE_API GROVE_MUST_USE grove_status grove_stm_avk_to_cbor(const grove_stm_avk *avk,
                                                            uint8_t *out, size_t out_cap,
                                                            size_t *out_len);
GROVE_API GROVE_MUST_USE grove_status grove_stm_avk_from_cbor(grove_stm_avk *avk,
                                                              const uint8_t *in, size_t in_len);
GROVE_API GROVE_MUST_USE grove_status grove_stm_sig_to_cbor(const grove_stm_sig *sig,
                                                            uint8_t *out, size_t out_cap,
                                                            size_t *out_len);
/* Decodes (sigma checked as grove_stm_sig_from_bytes does); *sig must be cleared later. */
GROVE_API GROVE_MUST_USE grove_status grove_stm_sig_from_cbor(grove_stm_sig *sig,
                                                              const uint8_t *in, size_t in_len);
/* form: GROVE_STM_CBOR_0_11 (the crate 0.11.3's bytes) or GROVE_STM_CBOR_0_12. */
GROVE_API GROVE_MUST_USE grove_status grove_stm_aggregate_to_cbor(const grove_stm_aggregate *agg,
                                                                  uint8_t *out, size_t out_cap,
                                                                  size_t *out_len,
                                                                  grove_stm_cbor_form form);
/* Reads either form of proof_bytes; *form (if not NULL) says which one was read. */
GROVE_API GROVE_MUST_USE grove_status grove_stm_aggregate_from_cbor(grove_stm_aggregate **agg,
                                                                    grove_stm_cbor_form *form,
                                                                    const uint8_t *in,
                                                                    size_t in_len);
/*
 * mithril-stm's Initializer (a party before registration): its stake, the parameters, the
 * secret key and its vk + PoP (derived from sk). The encoding holds the secret key: the caller
 * wipes out (grove_wipe); every temporary copy is wiped.
 */
GROVE_API GROVE_MUST_USE grove_status grove_stm_initializer_to_cbor(
    const grove_stm_params *params, uint8_t *out, size_t out_cap, size_t *out_len, uint64_t stake,
    const uint8_t sk[GROVE_STM_SK_BYTES]);
/* Decodes; the vk + PoP must be the secret key's (GROVE_ERR_ENCODING otherwise). Nothing is
 * written on failure; sk is the caller's to wipe. */
GROVE_API GROVE_MUST_USE grove_status grove_stm_initializer_from_cbor(
    grove_stm_params *params, uint64_t *stake, uint8_t sk[GROVE_STM_SK_BYTES],
    uint8_t vkpop[GROVE_STM_VKPOP_BYTES], const uint8_t *in, size_t in_len);

/* ==== lower level (test vectors, custom protocols) ======================================== */
/* ev = Blake2b-512("map" || msg_with_root || index u64 LE || sigma). */
GROVE_API void grove_stm_lottery_ev(uint8_t ev[GROVE_STM_EV_BYTES], const uint8_t *msg_with_root,
                                    size_t msg_with_root_len, uint64_t index,
                                    const uint8_t sigma[GROVE_STM_SIGMA_BYTES]);
/*
 * The lottery decision exactly as mithril-stm's default backend (exact rationals, Taylor
 * series with error bound): true if won. false if lost, and also for arguments no lottery
 * exists for (total 0, stake > total, phi_f out of range, ev NULL).
 */
GROVE_API bool grove_stm_lottery_won(double phi_f, const uint8_t ev[GROVE_STM_EV_BYTES],
                                     uint64_t stake, uint64_t total_stake);
/* Merkle root (Blake2b-256 heap tree) over n >= 1 entries of 104 bytes each. */
GROVE_API GROVE_MUST_USE grove_status grove_stm_merkle_root(uint8_t root[GROVE_STM_ROOT_BYTES],
                                                            const uint8_t *entries, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* GROVE_HAVE_STM */
#endif
