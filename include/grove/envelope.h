/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The grove file envelope: one self-describing wrapper for every file grove writes (keys,
 * signatures, STM files, ...). It says what the file is (scheme, parameter set, object type),
 * which key it belongs to (a key id derived from the public key) and checks its own integrity.
 *
 * Binary form (integers big-endian):
 *   magic "GRVE" (4) || format version (1) = 1 || flags (1): bit 0 = a key id is present
 *   || scheme length (1) || scheme || set length (1) || set || type length (1) || type
 *   || key id (8; zeros if absent) || body length (4) || body
 *   || check (32) = SHA-256("grove envelope v1" || every byte before the check)
 * Armored form (the default for files): RFC 7468-style text whose body is the binary form,
 *   -----BEGIN GROVE <scheme> <type>-----
 *   <standard base64 of the binary form, 64 characters a line>
 *   -----END GROVE <scheme> <type>-----
 * and whose title must agree with the binary form inside.
 *
 * Names: scheme 1..16 characters of [A-Z0-9+-] ("SLH-DSA", "SPHINCS+", "CROSS", "XMSS",
 * "STM"); set 0..48 characters of [A-Za-z0-9_/.+-] (empty where a scheme has no set); type
 * 1..32 characters of [A-Z] in words separated by single spaces ("PUBLIC KEY", "SECRET KEY",
 * "SIGNATURE", ...). The body is the scheme's own raw layout (docs/formats.md).
 *
 * The key id is the first 8 bytes of SHA-256("grove key id v1" || 0x00 || scheme || 0x00 ||
 * set || 0x00 || public key): the same public key always has the same id, and a file made
 * with a key (its secret key, its signatures) carries that key's id.
 *
 * DGSP files are envelopes of scheme "DGSP", set "<params>/<flavour>/<profile>" and the key id
 * of the group's manager public key (include/grove/dgsp.h). grove_envelope_decode also
 * recognises the older DGSP armor ("-----BEGIN GROVE DGSP <type> v<version> <set> <flavour>
 * <profile>-----"), which predates the envelope: it is described (form
 * GROVE_ENVELOPE_DGSP_ARMOR, scheme "DGSP", the same set spelling, no key id, no check) so that
 * one reader can tell what any grove file is; grove_dgsp_file_decode checks it.
 * The XMSS private-key file (include/grove/xmss.h, "KEY FILE") is an envelope of scheme "XMSS",
 * type "SECRET KEY" whose body is the key state; grove_envelope_decode also checks that state
 * (integrity, counters) and that the envelope's set and key id are the key's. A bare key file of
 * an older grove (the state alone, magic "GRVXMSSK") is checked and described the same way:
 * scheme "XMSS", type "SECRET KEY", its set, the key id of the public key it holds (form
 * GROVE_ENVELOPE_XMSS_KEY_FILE, version = the state's format version; body = the whole file).
 */
#ifndef GROVE_ENVELOPE_H
#define GROVE_ENVELOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grove/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GROVE_ENVELOPE_VERSION 1
#define GROVE_ENVELOPE_KEY_ID_BYTES 8
#define GROVE_ENVELOPE_SCHEME_MAX 16
#define GROVE_ENVELOPE_SET_MAX 48
#define GROVE_ENVELOPE_TYPE_MAX 32
#define GROVE_ENVELOPE_MAX_BODY (1u << 30)

typedef enum grove_envelope_form {
    GROVE_ENVELOPE_BINARY = 0,
    GROVE_ENVELOPE_ARMORED = 1,
    GROVE_ENVELOPE_DGSP_ARMOR = 2,   /* decode only: a DGSP armored file, described       */
    GROVE_ENVELOPE_XMSS_KEY_FILE = 3 /* decode only: a bare XMSS key file of an older grove */
} grove_envelope_form;

typedef struct grove_envelope {
    char scheme[GROVE_ENVELOPE_SCHEME_MAX + 1];
    char set[GROVE_ENVELOPE_SET_MAX + 1];
    char type[GROVE_ENVELOPE_TYPE_MAX + 1];
    bool has_key_id;
    uint8_t key_id[GROVE_ENVELOPE_KEY_ID_BYTES];
    unsigned version;         /* decode: the file's format version                        */
    grove_envelope_form form; /* decode: the form read                                    */
    const uint8_t *body;      /* encode: the caller's body; decode: points into the buffer */
    size_t body_len;
} grove_envelope;

/*
 * Fill env for encoding: names checked (GROVE_ERR_INVALID_ARG), no key id (set one with
 * grove_envelope_key_id into env->key_id and env->has_key_id = true), body referenced.
 */
GROVE_API GROVE_MUST_USE grove_status grove_envelope_init(grove_envelope *env, const char *scheme,
                                                          const char *set, const char *type,
                                                          const uint8_t *body, size_t body_len);

/* The key id of a public key (see above). */
GROVE_API GROVE_MUST_USE grove_status grove_envelope_key_id(uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES],
                                                            const char *scheme, const char *set,
                                                            const uint8_t *pk, size_t pk_len);

/* The exact size of env encoded in form (0 if env is not valid for encoding). */
GROVE_API size_t grove_envelope_encoded_bytes(const grove_envelope *env, grove_envelope_form form);

/*
 * Encode env in form (BINARY or ARMORED) into out: (out, out_cap, &out_len) as in common.h
 * (GROVE_ERR_BUFFER_TOO_SMALL with *out_len set). No NUL is written after armored text.
 * Secret bodies: the library wipes its temporary copies; wipe out yourself.
 */
GROVE_API GROVE_MUST_USE grove_status grove_envelope_encode(uint8_t *out, size_t out_cap,
                                                            size_t *out_len,
                                                            const grove_envelope *env,
                                                            grove_envelope_form form);

/*
 * Decode a file in either form (or a DGSP armored file, see above). buf receives the decoded
 * data (buf_cap >= in_len always suffices) and env->body points into it; wipe buf when the
 * body is secret. Statuses: GROVE_ERR_ENCODING for anything that is not a well-formed
 * envelope or whose check fails, GROVE_ERR_UNSUPPORTED for a format version newer than this
 * library's; err (may be NULL) receives a sentence saying what is wrong.
 */
GROVE_API GROVE_MUST_USE grove_status grove_envelope_decode(grove_envelope *env, uint8_t *buf,
                                                            size_t buf_cap, const uint8_t *in,
                                                            size_t in_len, char *err,
                                                            size_t err_cap);

/* True if in starts like an envelope (binary magic, "-----BEGIN GROVE " or a bare XMSS key
 * file of an older grove). */
GROVE_API bool grove_envelope_detect(const uint8_t *in, size_t in_len);

/*
 * Check that a decoded envelope is of this scheme and type (NULL: any). On a mismatch
 * GROVE_ERR_ENCODING, and err receives a sentence naming both, e.g. "this is a grove XMSS
 * SIGNATURE (XMSS-SHA2_10_256), a SLH-DSA PUBLIC KEY was expected".
 */
GROVE_API GROVE_MUST_USE grove_status grove_envelope_expect(const grove_envelope *env,
                                                            const char *scheme, const char *type,
                                                            char *err, size_t err_cap);

/* The key id as 16 lowercase hexadecimal characters and a NUL. */
GROVE_API void grove_envelope_key_id_hex(char out[2 * GROVE_ENVELOPE_KEY_ID_BYTES + 1],
                                         const uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES]);

#ifdef __cplusplus
}
#endif
#endif
