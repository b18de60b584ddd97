/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/common.h - status codes, version and the rules every grove header follows.
 *
 * THE CONTRACT (one rule per situation; every scheme header follows it, tests/sig checks it)
 *
 * Results
 *   - Every function that can fail returns a grove_status: GROVE_OK (0) or one negative code
 *     below, and is marked GROVE_MUST_USE. Functions that cannot fail return void, a size or a
 *     pointer. Predicates (is_..., equal, in_group, ...) return bool.
 *   - Library functions never abort or exit; grove_strerror() describes a status.
 *   - A failed verification is never reported with a "could not run" code, and vice versa.
 *
 * Which status, when
 *   - A NULL pointer where an object is required, a value out of range: GROVE_ERR_INVALID_ARG.
 *     (A message may be NULL when its length is 0.)
 *   - An output capacity smaller than needed: GROVE_ERR_BUFFER_TOO_SMALL; where the function
 *     has an out_len argument it is set to the length needed. Nothing is written.
 *   - A signature (or certificate, proof, aggregate) that does not verify, whatever the reason:
 *     wrong length, malformed encoding, bad padding, a point not on the curve, a bad value:
 *     GROVE_ERR_VERIFY from every verify function. (GROVE_ERR_REVOKED if it verifies but is
 *     revoked.) Verify functions return GROVE_ERR_ENCODING only for a malformed *public key*
 *     or parameter object, which is a configuration error, not a forgery.
 *   - Any other input object (public key, secret key, state, serialized object) of the wrong
 *     length or malformed: GROVE_ERR_ENCODING.
 *   - An unknown parameter-set or option name: the _get(name) lookups return NULL; functions
 *     returning a status return GROVE_ERR_UNSUPPORTED.
 *   - A stateful key with no signature left: GROVE_ERR_EXHAUSTED; its state missing, stale or
 *     inconsistent: GROVE_ERR_STATE.
 *
 * Names and argument order
 *   - Parameter sets: grove_<scheme>_params_get(name) (NULL if unknown; names as
 *     `grove <scheme> params` prints them), grove_<scheme>_params_count(),
 *     grove_<scheme>_params_at(i) (NULL if i >= count), grove_<scheme>_params_name(p).
 *   - Sizes: grove_<scheme>_pk_bytes(p), _sk_bytes(p), _sig_bytes(p) (the maximum where
 *     signatures vary in length).
 *   - Arguments: the parameter set or object acted on first, then the outputs, then the inputs
 *     (message before keys): sign(p, sig, ..., msg, msg_len, sk), verify(p, sig, sig_len, msg,
 *     msg_len, pk), keygen(p, pk, sk).
 *   - Lengths of inputs are <name>_len (msg_len, sig_len, pk_len, ctx_len). A fixed-size output
 *     buffer is <that size>_bytes(p) long and takes no length. A variable-length output takes
 *     (out, out_cap, &out_len): capacity in, length written out.
 *   - Objects: grove_<x>_new / grove_<x>_free, files and stores grove_<x>_open /
 *     grove_<x>_close; free and close accept NULL, wipe secrets and cannot fail.
 *
 * Threads
 *   - A `threads` argument or option means the most threads working at once, the calling
 *     thread included: 1 = the calling thread only, n = at most n, GROVE_THREADS_AUTO (0) = one
 *     per online CPU. Results never depend on it.
 *
 * Secrets
 *   - Secret inputs are never modified; every temporary copy of a secret is wiped on every
 *     path. Secret keys returned in caller buffers are the caller's to wipe (grove_wipe).
 *     Objects holding secrets wipe them in their _free.
 */
#ifndef GROVE_COMMON_H
#define GROVE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(GROVE_BUILDING) && (defined(__GNUC__) || defined(__clang__))
#define GROVE_API __attribute__((visibility("default")))
#else
#define GROVE_API
#endif

/* The result of a function marked GROVE_MUST_USE must not be ignored (a compiler warning). */
#if defined(__GNUC__) || defined(__clang__)
#define GROVE_MUST_USE __attribute__((warn_unused_result))
#else
#define GROVE_MUST_USE
#endif

#define GROVE_VERSION_MAJOR 0
#define GROVE_VERSION_MINOR 1
#define GROVE_VERSION_PATCH 0
#define GROVE_VERSION_STRING "0.1.0"

/* `threads` = GROVE_THREADS_AUTO: one thread per online CPU (see "Threads" above). */
#define GROVE_THREADS_AUTO 0u

typedef enum grove_status {
    GROVE_OK = 0,
    GROVE_ERR_INVALID_ARG = -1,      /* a NULL pointer, an out-of-range value, a bad name       */
    GROVE_ERR_BUFFER_TOO_SMALL = -2, /* an output buffer is smaller than required               */
    GROVE_ERR_ENCODING = -3,         /* bad encoding or length of an input object               */
    GROVE_ERR_VERIFY = -4,           /* a signature, certificate or proof does not verify       */
    GROVE_ERR_REVOKED = -5,          /* the signature or member is revoked                      */
    GROVE_ERR_NOT_FOUND = -6,        /* no such member, key or entry                            */
    GROVE_ERR_EXISTS = -7,           /* the entry already exists (e.g. duplicate username)      */
    GROVE_ERR_EXHAUSTED = -8,        /* a one-time or stateful key has no signature left        */
    GROVE_ERR_STORAGE = -9,          /* the storage backend failed                              */
    GROVE_ERR_RNG = -10,             /* the system random generator failed                      */
    GROVE_ERR_UNSUPPORTED = -11,     /* unknown or unsupported parameter set or option          */
    GROVE_ERR_INSECURE_PROFILE = -12,/* refused: the operation is unsafe in this profile        */
    GROVE_ERR_INTERNAL = -13,        /* an internal invariant failed (a bug)                    */
    GROVE_ERR_NOMEM = -14,           /* memory allocation failed                                */
    GROVE_ERR_STATE = -15,           /* stateful-key state missing, stale or inconsistent       */
    GROVE_ERR_IO = -16,              /* reading or writing a file failed                        */
    GROVE_ERR_DENIED = -17,          /* request refused: bad credential or inactive member      */
    GROVE_ERR_OVERFLOW = -18,        /* a counter or size would overflow                        */
    GROVE_ERR_LOTTERY_LOST = -19,    /* (STM) the signer won no lottery                         */
    GROVE_ERR_NOT_ENOUGH = -20       /* (STM) not enough signatures to aggregate                */
} grove_status;

/* A short, static, English description of a status code (never NULL). */
GROVE_API const char *grove_strerror(grove_status status);

/* The library version string, e.g. "0.1.0". */
GROVE_API const char *grove_version(void);

/* A short machine-readable name of a status code, e.g. "verify_failed" (never NULL). */
GROVE_API const char *grove_status_name(grove_status status);

/*
 * Fill buf with len bytes from the operating system's random generator (getrandom() on
 * Linux, getentropy() on macOS and the BSDs).
 * Returns GROVE_OK or GROVE_ERR_RNG; there is no fallback source.
 */
GROVE_API GROVE_MUST_USE grove_status grove_randombytes(uint8_t *buf, size_t len);

/* Overwrite len bytes at p with zeros in a way the compiler cannot remove. */
GROVE_API void grove_wipe(void *p, size_t len);

/* Name of the hash code path in use ("portable", "avx2", "avx512", with "+sha-ni"). */
GROVE_API const char *grove_cpu_path(void);

#ifdef __cplusplus
}
#endif
#endif
