/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove's DGSP file formats (internal; used by the grove command and the demo).
 *
 * Armored:   -----BEGIN GROVE DGSP <TYPE> v1 <params> <flavour> <profile>-----
 *            <base64 body>
 *            -----END GROVE DGSP <TYPE>-----
 * Bodies (big-endian integers):
 *   PUBLIC KEY    manager pk (2N)                      [raw crate layout]
 *   SECRET KEY    v2: manager sk (6N) || check (32)    v1 (legacy): manager sk (6N)
 *                 check = SHA-256("grove-dgsp-manager-sk-v2" || header title || sk); the sk
 *                 ends with the public key (PK.seed || PK.root), which the grove command
 *                 compares with manager.pub. A v1 key has no check and is refused (exit 2)
 *                 except by `grove dgsp manager upgrade-key`.
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
#define DGSP_SK_FILE_VERSION 2 /* SECRET KEY files carry an integrity check from v2 on */
#define DGSP_SK_CHECK_BYTES 32
#define DGSP_MAX_BATCH (1u << 20) /* certificates per CSR / certificate file */

const char *dgsp_file_type_name(dgsp_file_type t); /* "SIGNATURE", ... */

/* Encode: a malloc'd armored text (a SECRET KEY body is the 6N-byte key: the v2 check is added
 * here). */
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
/*
 * Like dgsp_file_decode, also accepting a v1 (unchecked) SECRET KEY (*version receives 1 or 2
 * for secret keys, 1 for the rest). Only for `manager upgrade-key` and `info`.
 */
int dgsp_file_decode_any_version(const uint8_t *data, size_t len, dgsp_file_type expect,
                                 dgsp_file_type *type, grove_dgsp_cfg *cfg, uint8_t **body,
                                 size_t *bodylen, int *version, char *err, size_t errcap);
/* The largest armored text of a type's object for this configuration (read caps). For CSR and
 * CERTIFICATES: with `count` entries. */
size_t dgsp_file_max_text(dgsp_file_type t, const grove_dgsp_cfg *cfg, size_t count);

/* The exact body length a type must have, given the body (for variable-size types). */
int dgsp_file_check_body(dgsp_file_type t, const grove_dgsp_cfg *cfg, const uint8_t *body,
                         size_t len, char *err, size_t errcap);

#endif
