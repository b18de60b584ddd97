/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A small strict CBOR (RFC 8949) reader and writer for exactly the shapes of mithril-stm's
 * "v1" encodings: unsigned integers, definite text strings, definite byte strings, definite
 * and indefinite arrays and maps, float64, null. Nothing else is read: no negative integers,
 * tags, half/single floats, booleans, indefinite strings, reserved heads; integer heads must be
 * in their shortest form. Nesting depth is limited (STM_CBOR_MAX_DEPTH) and every count read
 * from the input is checked against the bytes left before anything is allocated.
 */
#ifndef GROVE_STM_CBOR_H
#define GROVE_STM_CBOR_H

#include <stddef.h>
#include <stdint.h>

#define STM_CBOR_VERSION 0x01         /* first byte of every v1 encoding (and nested one) */
#define STM_CBOR_MAX_DEPTH 8          /* arrays/maps open at once inside one envelope     */
#define STM_CBOR_MAX_INPUT (1u << 28) /* largest encoding read (bytes)                    */
#define STM_CBOR_INDEF SIZE_MAX       /* the count of an indefinite array or map          */

/* ---- writer: a growing buffer; old blocks are wiped (an initializer holds a secret key) -- */
typedef struct stm_cbor_buf {
    uint8_t *p;
    size_t len, cap;
    int err; /* out of memory: every later write does nothing */
} stm_cbor_buf;

void stm_cbor_buf_free(stm_cbor_buf *b); /* wipes */
void stm_cbor_raw(stm_cbor_buf *b, const void *p, size_t n);
void stm_cbor_head(stm_cbor_buf *b, unsigned major, uint64_t v);
void stm_cbor_uint(stm_cbor_buf *b, uint64_t v);
void stm_cbor_text(stm_cbor_buf *b, const char *s);
void stm_cbor_bstr(stm_cbor_buf *b, const uint8_t *p, size_t n);
/* n bytes as an array of n unsigned integers (serde's Vec<u8> / [u8; N] in ciborium). */
void stm_cbor_byte_array(stm_cbor_buf *b, const uint8_t *p, size_t n);
void stm_cbor_f64(stm_cbor_buf *b, double x);
void stm_cbor_null(stm_cbor_buf *b);
void stm_cbor_indef_map(stm_cbor_buf *b);
void stm_cbor_break(stm_cbor_buf *b);
/* Copies the finished encoding to (out, out_cap, out_len) as the public encoders do and frees
 * the buffer: GROVE_OK, GROVE_ERR_BUFFER_TOO_SMALL (out_len set) or GROVE_ERR_NOMEM. */
int stm_cbor_finish(stm_cbor_buf *b, uint8_t *out, size_t out_cap, size_t *out_len);

/* ---- reader: every function returns GROVE_OK, GROVE_ERR_ENCODING or GROVE_ERR_NOMEM ----- */
typedef struct stm_cbor_in {
    const uint8_t *p;
    size_t len, pos;
    int depth;
} stm_cbor_in;

/* Starts reading an envelope: in[0] must be 0x01 and in_len <= STM_CBOR_MAX_INPUT. */
int stm_cbor_open(stm_cbor_in *c, const uint8_t *in, size_t in_len);
/* 1 if every byte was read (no trailing bytes). */
int stm_cbor_done(const stm_cbor_in *c);
int stm_cbor_read_uint(stm_cbor_in *c, uint64_t *v);
int stm_cbor_read_f64(stm_cbor_in *c, double *x);
int stm_cbor_read_null(stm_cbor_in *c);
/* A definite text string: a pointer into the input and its length. */
int stm_cbor_read_text(stm_cbor_in *c, const char **s, size_t *n);
/*
 * Opens a map or an array: *count is its length, or STM_CBOR_INDEF. stm_cbor_more(c, &left)
 * returns 1 if another element (map entry) follows, 0 at the end (consuming the break of an
 * indefinite one; left counts down for a definite one), or GROVE_ERR_ENCODING; every opened
 * container is closed by it returning 0.
 * max bounds a definite count (and is also checked against the bytes left).
 */
int stm_cbor_open_map(stm_cbor_in *c, size_t *count, size_t max);
int stm_cbor_open_array(stm_cbor_in *c, size_t *count, size_t max);
int stm_cbor_more(stm_cbor_in *c, size_t *left);
/* An array of exactly n unsigned integers <= 255 into out. */
int stm_cbor_read_byte_array(stm_cbor_in *c, uint8_t *out, size_t n);
/* An array of at most max unsigned integers: *v malloc'd (the caller frees; NULL if none). */
int stm_cbor_read_u64_list(stm_cbor_in *c, uint64_t **v, size_t *n, size_t max);
/*
 * Bytes given as an array of uints <= 255 (always) or, with allow_bstr, a definite byte string:
 * *out is malloc'd (the caller frees), at most max bytes. *was_bstr tells which form.
 */
int stm_cbor_read_bytes(stm_cbor_in *c, uint8_t **out, size_t *n, size_t max, int allow_bstr,
                        int *was_bstr);


/* ---- helpers of the STM object codecs ------------------------------------------------------ */
/* A map key, which must be one of names (n <= 16) not seen before; *idx is its position. */
int stm_cbor_key(stm_cbor_in *c, const char *const *names, size_t n, unsigned *seen, size_t *idx);
#define STM_CBOR_ALL_KEYS(n) ((1u << (n)) - 1u)
/*
 * A map whose keys are exactly names (n <= 16; each once, in any order, definite or
 * indefinite): field(c, idx, arg) reads the value of names[idx]. GROVE_ERR_ENCODING for a
 * missing, repeated or unknown key.
 */
typedef int (*stm_cbor_field_fn)(stm_cbor_in *c, size_t idx, void *arg);
int stm_cbor_read_struct(stm_cbor_in *c, const char *const *names, size_t n,
                         stm_cbor_field_fn field, void *arg);
/* A nested encoding (0x01 || one item, no trailing bytes) held in an array of uints (or, with
 * allow_bstr, a byte string: *was_bstr, if not NULL, says which) and decoded by fn. */
typedef int (*stm_cbor_nested_fn)(stm_cbor_in *in, void *arg);
int stm_cbor_nested(stm_cbor_in *c, int allow_bstr, int *was_bstr, stm_cbor_nested_fn fn,
                    void *arg);
/* Writes a finished nested encoding into b (an array of uints, or a byte string) and frees
 * inner. */
void stm_cbor_put_nested(stm_cbor_buf *b, stm_cbor_buf *inner, int bstr);

/* Objects shared by the codecs (cbor_objects.c): parameters as a map (no prefix), a single
 * signature as its full encoding (0x01 || map); stm_cbor_sig_read's arg is a grove_stm_sig. */
struct grove_stm_params;
struct grove_stm_sig;
void stm_cbor_params_write(stm_cbor_buf *b, const struct grove_stm_params *p);
int stm_cbor_params_read(stm_cbor_in *c, struct grove_stm_params *p);
void stm_cbor_sig_write(stm_cbor_buf *b, const struct grove_stm_sig *s);
int stm_cbor_sig_read(stm_cbor_in *c, void *arg);
/* The same without decoding sigma (the aggregate readers decode every point once, later). */
int stm_cbor_sig_parse(stm_cbor_in *c, void *arg);

#endif
