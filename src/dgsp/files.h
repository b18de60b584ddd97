/*
 * grove's DGSP file formats (internal; used by the grove command and the demo).
 *
 * Armored:   -----BEGIN GROVE DGSP <TYPE> v1 <params> <flavour> <profile>-----
 *            <base64 body>
 *            -----END GROVE DGSP <TYPE>-----
 * Bodies (big-endian integers):
 *   PUBLIC KEY    manager pk (2N)                      [raw crate layout]
 *   SECRET KEY    manager sk (6N)                      [raw crate layout]
 *   CREDENTIAL    id (8) || cid* (N) || manager pk (2N) || ulen (1) || username
 *   CSR           id (8) || cid* (N) || count (4) || count WOTS+ keys (N each)
 *   CERTIFICATES  id (8) || count (4) || count x (WOTS+ key (N) || certificate)
 *   SIGNATURE     signature                            [raw crate layout]
 *   REVOCATIONS   signed revocation list (grove_dgsp_revocations_sign)
 *   PROOF         id (8) || pi (N)
 * --raw files hold only the raw crate layout (keys, certificate, signature); their parameters
 * come from the command line.
 */
#ifndef GROVE_DGSP_FILES_H
#define GROVE_DGSP_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "grove/dgsp.h"

typedef enum {
    DGSP_FILE_PUBLIC_KEY = 0,
    DGSP_FILE_SECRET_KEY,
    DGSP_FILE_CREDENTIAL,
    DGSP_FILE_CSR,
    DGSP_FILE_CERTIFICATES,
    DGSP_FILE_SIGNATURE,
    DGSP_FILE_REVOCATIONS,
    DGSP_FILE_PROOF,
    DGSP_FILE_TYPES
} dgsp_file_type;

#define DGSP_FILE_VERSION 1
#define DGSP_MAX_BATCH (1u << 20) /* certificates per CSR / certificate file */

const char *dgsp_file_type_name(dgsp_file_type t); /* "SIGNATURE", ... */

/* Encode: a malloc'd armored text. */
char *dgsp_file_encode(dgsp_file_type t, const grove_dgsp_cfg *cfg, const uint8_t *body,
                       size_t len, size_t *outlen);

/*
 * Decode an armored file. expect: the required type, or DGSP_FILE_TYPES for any (reported in
 * *type). The configuration comes from the header; the body length is checked against the
 * type and configuration. err receives a clear message on failure (status returned).
 */
int dgsp_file_decode(const uint8_t *data, size_t len, dgsp_file_type expect, dgsp_file_type *type,
                     grove_dgsp_cfg *cfg, uint8_t **body, size_t *bodylen, char *err,
                     size_t errcap);

/* The exact body length a type must have, given the body (for variable-size types). */
int dgsp_file_check_body(dgsp_file_type t, const grove_dgsp_cfg *cfg, const uint8_t *body,
                         size_t len, char *err, size_t errcap);

#endif
