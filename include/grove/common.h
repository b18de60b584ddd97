/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/common.h - status codes, version and small shared definitions.
 *
 * Every libgrove function that can fail returns a grove_status: GROVE_OK (0) on success or one
 * negative code below. A failed verification (GROVE_ERR_VERIFY, GROVE_ERR_REVOKED) is never
 * reported with the same code as "could not run" (invalid argument, storage error, ...).
 * Library functions never abort or exit. grove_strerror() gives a short English description.
 */
#ifndef GROVE_COMMON_H
#define GROVE_COMMON_H

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
GROVE_API const char *grove_strerror(int status);

/* The library version string, e.g. "0.1.0". */
GROVE_API const char *grove_version(void);

/* A short machine-readable name of a status code, e.g. "verify_failed" (never NULL). */
GROVE_API const char *grove_status_name(int status);

/*
 * Fill buf with len bytes from the operating system's random generator (getrandom()).
 * Returns GROVE_OK or GROVE_ERR_RNG; there is no fallback source.
 */
GROVE_API int grove_randombytes(uint8_t *buf, size_t len);

/* Overwrite len bytes at p with zeros in a way the compiler cannot remove. */
GROVE_API void grove_wipe(void *p, size_t len);

/* Name of the hash code path in use ("portable", "avx2", "avx512", with "+sha-ni"). */
GROVE_API const char *grove_cpu_path(void);

#ifdef __cplusplus
}
#endif
#endif
