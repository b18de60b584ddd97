/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove's DGSP files (include/grove/dgsp.h): the grove envelope (scheme "DGSP", set
 * "<params>/<flavour>/<profile>", the group's key id on every file), both forms, the stream
 * writer of certificate batches, every refusal, and the older DGSP armor (built here from its
 * layout, and the files an earlier grove wrote, tests/dgsp/old_files, read back).
 * Usage: test_dgsp_files [OLD_FILES_DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grove/dgsp.h"
#include "grove/envelope.h"
#include "grove/hash.h"
#include "grove/io.h"
#include "test.h"

typedef struct {
    grove_dgsp_cfg cfg;
    size_t n;
    uint8_t pk[GROVE_DGSP_MAX_PK_BYTES], sk[GROVE_DGSP_MAX_SK_BYTES];
} keys;

static void keys_new(keys *k, const char *set, grove_dgsp_flavour fl, uint8_t seed_byte)
{
    uint8_t seed[5 * 32];
    memset(seed, seed_byte, sizeof seed);
    CHECK_EQ_INT(grove_dgsp_cfg_init(&k->cfg, grove_dgsp_params_get(set), fl,
                                     GROVE_DGSP_PROFILE_GROVE),
                 GROVE_OK);
    k->n = k->cfg.n;
    CHECK_EQ_INT(grove_dgsp_keygen_manager_from_seed(&k->cfg, k->pk, k->sk, seed), GROVE_OK);
}

/* A malloc'd encoded file. */
static uint8_t *enc(const keys *k, grove_dgsp_file_type t, const uint8_t *body, size_t len,
                    const uint8_t *pk, grove_envelope_form form, size_t *out_len)
{
    *out_len = 0;
    CHECK_EQ_INT(grove_dgsp_file_encode(&k->cfg, NULL, 0, out_len, t, body, len, pk, form),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    uint8_t *out = malloc(*out_len);
    CHECK(out != NULL);
    CHECK_EQ_INT(grove_dgsp_file_encode(&k->cfg, out, *out_len, out_len, t, body, len, pk, form),
                 GROVE_OK);
    return out;
}

static grove_status dec(const uint8_t *in, size_t in_len, grove_dgsp_file_type expect,
                        grove_dgsp_cfg *cfg, grove_dgsp_file_info *fi, uint8_t *body,
                        size_t *bl, char *err)
{
    return grove_dgsp_file_decode(cfg, fi, body, 4096, bl, in, in_len, expect, err, 256);
}

/* Names, key ids, both forms, a key id from the body or from pk. */
static void test_envelope_files(void)
{
    keys k;
    keys_new(&k, "sha2-128f", GROVE_DGSP_FLAVOUR_R31, 7);
    char set[GROVE_ENVELOPE_SET_MAX + 1];
    CHECK_EQ_INT(grove_dgsp_set_name(&k.cfg, set), GROVE_OK);
    CHECK(strcmp(set, "sha2-128f/r3.1/grove") == 0);
    uint8_t id[8], id2[8];
    CHECK_EQ_INT(grove_dgsp_key_id(&k.cfg, id, k.pk), GROVE_OK);
    CHECK_EQ_INT(grove_envelope_key_id(id2, "DGSP", "sha2-128f/r3.1/grove", k.pk, 2 * k.n),
                 GROVE_OK);
    CHECK(memcmp(id, id2, 8) == 0);
    /* the longest set spelling fits the envelope */
    grove_dgsp_cfg wide;
    CHECK_EQ_INT(grove_dgsp_cfg_init(&wide, grove_dgsp_params_get("shake-256s"),
                                     GROVE_DGSP_FLAVOUR_FIPS205, GROVE_DGSP_PROFILE_DGSP_RS_0_1),
                 GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_set_name(&wide, set), GROVE_OK);
    CHECK(strcmp(set, "shake-256s/fips205/dgsp-rs-0.1") == 0);

    for (int form = 0; form < 2; form++) {
        grove_envelope_form f = form ? GROVE_ENVELOPE_BINARY : GROVE_ENVELOPE_ARMORED;
        size_t len, bl;
        grove_dgsp_cfg c2;
        grove_dgsp_file_info fi;
        uint8_t body[4096];
        char err[256];
        /* a PUBLIC KEY gets its own key id, without pk too */
        uint8_t *pub = enc(&k, GROVE_DGSP_FILE_PUBLIC_KEY, k.pk, 2 * k.n, NULL, f, &len);
        CHECK(f == GROVE_ENVELOPE_BINARY
                  ? memcmp(pub, "GRVE", 4) == 0
                  : memcmp(pub, "-----BEGIN GROVE DGSP PUBLIC KEY-----\n", 38) == 0);
        CHECK_EQ_INT(dec(pub, len, GROVE_DGSP_FILE_PUBLIC_KEY, &c2, &fi, body, &bl, err),
                     GROVE_OK);
        CHECK(fi.type == GROVE_DGSP_FILE_PUBLIC_KEY && fi.form == f && !fi.old_format &&
              fi.version == GROVE_ENVELOPE_VERSION && fi.has_key_id &&
              memcmp(fi.key_id, id, 8) == 0 && bl == 2 * k.n && memcmp(body, k.pk, bl) == 0);
        /* grove_envelope_decode describes it: scheme, set, type, key id */
        grove_envelope env;
        uint8_t *buf = malloc(len);
        CHECK_EQ_INT(grove_envelope_decode(&env, buf, len, pub, len, NULL, 0), GROVE_OK);
        CHECK(strcmp(env.scheme, "DGSP") == 0 && strcmp(env.set, "sha2-128f/r3.1/grove") == 0 &&
              strcmp(env.type, "PUBLIC KEY") == 0 && env.has_key_id &&
              memcmp(env.key_id, id, 8) == 0);
        free(buf);
        free(pub);
        /* a PROOF carries the key id of pk, none without */
        uint8_t proof[8 + 16];
        memset(proof, 3, sizeof proof);
        uint8_t *p = enc(&k, GROVE_DGSP_FILE_PROOF, proof, 8 + k.n, k.pk, f, &len);
        CHECK_EQ_INT(dec(p, len, GROVE_DGSP_FILE_ANY, &c2, &fi, body, &bl, err), GROVE_OK);
        CHECK(fi.type == GROVE_DGSP_FILE_PROOF && fi.has_key_id && memcmp(fi.key_id, id, 8) == 0);
        free(p);
        p = enc(&k, GROVE_DGSP_FILE_PROOF, proof, 8 + k.n, NULL, f, &len);
        CHECK_EQ_INT(dec(p, len, GROVE_DGSP_FILE_ANY, &c2, &fi, body, &bl, err), GROVE_OK);
        CHECK(!fi.has_key_id && bl == 8 + k.n && memcmp(body, proof, bl) == 0);
        free(p);
        /* a SECRET KEY: the bare 6N-byte key, the key id of the public key inside it */
        uint8_t *s = enc(&k, GROVE_DGSP_FILE_SECRET_KEY, k.sk, 6 * k.n, NULL, f, &len);
        CHECK_EQ_INT(dec(s, len, GROVE_DGSP_FILE_SECRET_KEY, &c2, &fi, body, &bl, err), GROVE_OK);
        CHECK(fi.has_key_id && memcmp(fi.key_id, id, 8) == 0 && bl == 6 * k.n &&
              memcmp(body, k.sk, bl) == 0);
        /* any damage to a secret key file is GROVE_ERR_STATE (a damaged key) */
        /* (after the magic or title: a file that no longer says what it is is not a grove
         * file, GROVE_ERR_ENCODING) */
        size_t from = f == GROVE_ENVELOPE_BINARY ? 4 : 38, to = f == GROVE_ENVELOPE_BINARY ? len
                                                                                  : len - 36;
        for (size_t at = from; at < to; at += 7) {
            uint8_t was = s[at];
            s[at] = f == GROVE_ENVELOPE_BINARY ? (uint8_t)(was ^ 1)
                    : was == '\n' || was == '-'  ? was
                    : was == 'A'                 ? 'B'
                                                 : 'A';
            if (s[at] != was)
                CHECK_EQ_INT(dec(s, len, GROVE_DGSP_FILE_SECRET_KEY, &c2, &fi, body, &bl, err),
                             GROVE_ERR_STATE);
            s[at] = was;
        }
        CHECK(strstr(err, "damaged") != NULL);
        grove_wipe(s, len);
        free(s);
        grove_wipe(body, sizeof body);
    }
}

/* Every refusal: lengths, types, another scheme, sets, key ids that do not match, damage. */
static void test_refusals(void)
{
    keys k, other;
    keys_new(&k, "sha2-128f", GROVE_DGSP_FLAVOUR_R31, 7);
    keys_new(&other, "sha2-128f", GROVE_DGSP_FLAVOUR_R31, 9);
    size_t len = 0, bl;
    grove_dgsp_cfg c2;
    grove_dgsp_file_info fi;
    uint8_t body[4096], out[4096];
    char err[256] = "";
    /* wrong body length, a pk that is not the one in the body, NULL body, bad form */
    CHECK_EQ_INT(grove_dgsp_file_encode(&k.cfg, out, sizeof out, &len, GROVE_DGSP_FILE_PUBLIC_KEY,
                                        k.pk, 2 * k.n - 1, NULL, GROVE_ENVELOPE_ARMORED),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_dgsp_file_encode(&k.cfg, out, sizeof out, &len, GROVE_DGSP_FILE_PUBLIC_KEY,
                                        k.pk, 2 * k.n, other.pk, GROVE_ENVELOPE_ARMORED),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_dgsp_file_encode(&k.cfg, out, sizeof out, &len, GROVE_DGSP_FILE_PUBLIC_KEY,
                                        NULL, 2 * k.n, NULL, GROVE_ENVELOPE_ARMORED),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_dgsp_file_encode(&k.cfg, out, sizeof out, &len, GROVE_DGSP_FILE_PUBLIC_KEY,
                                        k.pk, 2 * k.n, NULL, GROVE_ENVELOPE_DGSP_ARMOR),
                 GROVE_ERR_INVALID_ARG);
    /* a buffer too small: the size needed, nothing written */
    memset(out, 'Z', sizeof out);
    CHECK_EQ_INT(grove_dgsp_file_encode(&k.cfg, out, 10, &len, GROVE_DGSP_FILE_PUBLIC_KEY, k.pk,
                                        2 * k.n, NULL, GROVE_ENVELOPE_BINARY),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK(len > 10 && out[0] == 'Z');

    /* the wrong type; truncated; trailing data; a body too large for body_cap */
    uint8_t *pub = enc(&k, GROVE_DGSP_FILE_PUBLIC_KEY, k.pk, 2 * k.n, NULL,
                       GROVE_ENVELOPE_BINARY, &len);
    CHECK_EQ_INT(dec(pub, len, GROVE_DGSP_FILE_SIGNATURE, &c2, &fi, body, &bl, err),
                 GROVE_ERR_ENCODING);
    CHECK(strstr(err, "PUBLIC KEY") != NULL && strstr(err, "SIGNATURE") != NULL);
    CHECK_EQ_INT(dec(pub, len - 1, GROVE_DGSP_FILE_ANY, &c2, &fi, body, &bl, err),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_dgsp_file_decode(&c2, &fi, body, 8, &bl, pub, len,
                                        GROVE_DGSP_FILE_PUBLIC_KEY, NULL, 0),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    /* one bit anywhere: refused (the envelope's check) */
    for (size_t at = 0; at < len; at++) {
        pub[at] ^= 0x10;
        CHECK(dec(pub, len, GROVE_DGSP_FILE_ANY, &c2, &fi, body, &bl, err) != GROVE_OK);
        pub[at] ^= 0x10;
    }
    free(pub);

    /* envelopes made by hand: another scheme; sets spelled otherwise; a key id that is not
     * the one of the key inside; a body of the wrong length */
    struct {
        const char *scheme, *set, *type;
        int other_id;
        size_t body_len;
        grove_status want;
        const char *says;
    } cases[] = {
        {"XMSS", "sha2-128f/r3.1/grove", "PUBLIC KEY", 0, 32, GROVE_ERR_ENCODING, "XMSS"},
        {"DGSP", "sha2-128f", "PUBLIC KEY", 0, 32, GROVE_ERR_ENCODING, "configuration"},
        {"DGSP", "sha2-128f/r3.1/grove/x", "PUBLIC KEY", 0, 32, GROVE_ERR_ENCODING, "config"},
        {"DGSP", "nope-128f/r3.1/grove", "PUBLIC KEY", 0, 32, GROVE_ERR_UNSUPPORTED, "nope"},
        {"DGSP", "sphincs_sha2_128f/r3.1/grove", "PUBLIC KEY", 0, 32, GROVE_ERR_UNSUPPORTED, ""},
        {"DGSP", "sha2-128f/r3.1/crate", "PUBLIC KEY", 0, 32, GROVE_ERR_UNSUPPORTED, "crate"},
        {"DGSP", "sha2-128f/r3.1/grove", "PUBLIC KEYS", 0, 32, GROVE_ERR_ENCODING, "unknown"},
        {"DGSP", "sha2-128f/r3.1/grove", "PUBLIC KEY", 1, 32, GROVE_ERR_ENCODING, "key id"},
        {"DGSP", "sha2-128f/r3.1/grove", "PUBLIC KEY", 0, 31, GROVE_ERR_ENCODING, "31 bytes"},
        {"DGSP", "sha2-128f/r3.1/grove", "PUBLIC KEY", 0, 32, GROVE_OK, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        grove_envelope env;
        CHECK_EQ_INT(grove_envelope_init(&env, cases[i].scheme, cases[i].set, cases[i].type, k.pk,
                                         cases[i].body_len),
                     GROVE_OK);
        CHECK_EQ_INT(grove_dgsp_key_id(&k.cfg, env.key_id, cases[i].other_id ? other.pk : k.pk),
                     GROVE_OK);
        env.has_key_id = true;
        CHECK_EQ_INT(grove_envelope_encode(out, sizeof out, &len, &env, GROVE_ENVELOPE_ARMORED),
                     GROVE_OK);
        err[0] = '\0';
        grove_status st = dec(out, len, GROVE_DGSP_FILE_ANY, &c2, &fi, body, &bl, err);
        CHECK_EQ_INT(st, cases[i].want);
        if (st != cases[i].want || strstr(err, cases[i].says) == NULL)
            printf("  case %zu: %s\n", i, err);
        CHECK(strstr(err, cases[i].says) != NULL);
    }
    /* raw bytes */
    CHECK_EQ_INT(dec(k.pk, 2 * k.n, GROVE_DGSP_FILE_PUBLIC_KEY, &c2, &fi, body, &bl, err),
                 GROVE_ERR_ENCODING);
    CHECK(strstr(err, "import") != NULL);
}

/* The stream writer gives exactly the bytes of grove_dgsp_file_encode. */
static void test_stream(void)
{
    keys k;
    keys_new(&k, "shake-128f", GROVE_DGSP_FLAVOUR_FIPS205, 5);
    const size_t n = k.n;
    size_t bl = 12 + n + 3 * n, len = 0, hl = 0;
    uint8_t csr[12 + 16 + 3 * 16], head[GROVE_DGSP_FILE_HEAD_MAX], check[32];
    memset(csr, 0x5a, sizeof csr);
    csr[8 + n] = 0, csr[9 + n] = 0, csr[10 + n] = 0, csr[11 + n] = 3; /* count 3 */
    uint8_t *want = enc(&k, GROVE_DGSP_FILE_CSR, csr, bl, k.pk, GROVE_ENVELOPE_BINARY, &len);
    grove_dgsp_file_stream s;
    CHECK_EQ_INT(grove_dgsp_file_stream_begin(&k.cfg, &s, head, 4, &hl, GROVE_DGSP_FILE_CSR, bl,
                                              k.pk),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(grove_dgsp_file_stream_begin(&k.cfg, &s, head, sizeof head, &hl,
                                              GROVE_DGSP_FILE_CSR, bl, k.pk),
                 GROVE_OK);
    CHECK(hl + bl + 32 == len && memcmp(head, want, hl) == 0);
    grove_dgsp_file_stream_update(&s, csr, 5);
    grove_dgsp_file_stream_update(&s, csr + 5, bl - 5);
    CHECK_EQ_INT(grove_dgsp_file_stream_final(&s, check), GROVE_OK);
    CHECK(memcmp(check, want + hl + bl, 32) == 0);
    /* too few or too many body bytes: final fails */
    CHECK_EQ_INT(grove_dgsp_file_stream_begin(&k.cfg, &s, head, sizeof head, &hl,
                                              GROVE_DGSP_FILE_CSR, bl, k.pk),
                 GROVE_OK);
    grove_dgsp_file_stream_update(&s, csr, bl - 1);
    CHECK_EQ_INT(grove_dgsp_file_stream_final(&s, check), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_dgsp_file_stream_begin(&k.cfg, &s, head, sizeof head, &hl,
                                              GROVE_DGSP_FILE_CSR, bl, k.pk),
                 GROVE_OK);
    grove_dgsp_file_stream_update(&s, csr, bl);
    grove_dgsp_file_stream_update(&s, csr, 1);
    CHECK_EQ_INT(grove_dgsp_file_stream_final(&s, check), GROVE_ERR_INVALID_ARG);
    /* larger than an envelope can hold: refused before anything */
    CHECK_EQ_INT(grove_dgsp_file_stream_begin(&k.cfg, &s, head, sizeof head, &hl,
                                              GROVE_DGSP_FILE_CERTIFICATES,
                                              (size_t)GROVE_ENVELOPE_MAX_BODY + 1, k.pk),
                 GROVE_ERR_INVALID_ARG);
    free(want);
}

/* The older armor, from its layout (include/grove/dgsp.h, "Older files"). */
static size_t old_armor(char *out, size_t cap, const char *title, const char *end,
                        const uint8_t *body, size_t len)
{
    size_t el = grove_base64_encoded_len(len);
    char *b64 = malloc(el + 1);
    grove_base64_encode(b64, body, len);
    size_t o = (size_t)snprintf(out, cap, "-----BEGIN %s-----\n", title);
    for (size_t i = 0; i < el; i += 64)
        o += (size_t)snprintf(out + o, cap - o, "%.*s\n", (int)(el - i < 64 ? el - i : 64),
                              b64 + i);
    o += (size_t)snprintf(out + o, cap - o, "-----END %s-----\n", end);
    free(b64);
    return o;
}

static void test_old_armor(void)
{
    keys k;
    keys_new(&k, "sha2-128f", GROVE_DGSP_FLAVOUR_R31, 7);
    char text[4096];
    uint8_t body[4096];
    size_t bl;
    grove_dgsp_cfg c2;
    grove_dgsp_file_info fi;
    char err[256];
    size_t tl = old_armor(text, sizeof text, "GROVE DGSP PUBLIC KEY v1 sha2-128f r3.1 grove",
                          "GROVE DGSP PUBLIC KEY", k.pk, 2 * k.n);
    CHECK_EQ_INT(dec((const uint8_t *)text, tl, GROVE_DGSP_FILE_PUBLIC_KEY, &c2, &fi, body, &bl,
                     err),
                 GROVE_OK);
    CHECK(fi.old_format && !fi.has_key_id && fi.version == 1 &&
          fi.form == GROVE_ENVELOPE_DGSP_ARMOR && bl == 2 * k.n && memcmp(body, k.pk, bl) == 0 &&
          c2.params == k.cfg.params && c2.spx == k.cfg.spx);
    /* grove_envelope_decode describes it with the same set spelling */
    grove_envelope env;
    uint8_t buf[4096];
    CHECK_EQ_INT(grove_envelope_decode(&env, buf, sizeof buf, (const uint8_t *)text, tl, NULL, 0),
                 GROVE_OK);
    CHECK(env.form == GROVE_ENVELOPE_DGSP_ARMOR && strcmp(env.set, "sha2-128f/r3.1/grove") == 0);

    /* a v2 secret key: sk || SHA-256(label || NUL || title || NUL || sk) */
    const char *title = "GROVE DGSP SECRET KEY v2 sha2-128f r3.1 grove";
    static const char label[] = "grove-dgsp-manager-sk-v2";
    uint8_t skc[6 * 32 + 32];
    grove_hash_ctx h;
    CHECK_EQ_INT(grove_hash_init(&h, GROVE_HASH_SHA256), GROVE_OK);
    grove_hash_update(&h, (const uint8_t *)label, sizeof label);
    grove_hash_update(&h, (const uint8_t *)title, strlen(title) + 1);
    grove_hash_update(&h, k.sk, 6 * k.n);
    memcpy(skc, k.sk, 6 * k.n);
    CHECK_EQ_INT(grove_hash_final(&h, skc + 6 * k.n, 32), GROVE_OK);
    tl = old_armor(text, sizeof text, title, "GROVE DGSP SECRET KEY", skc, 6 * k.n + 32);
    CHECK_EQ_INT(dec((const uint8_t *)text, tl, GROVE_DGSP_FILE_SECRET_KEY, &c2, &fi, body, &bl,
                     err),
                 GROVE_OK);
    CHECK(fi.old_format && fi.version == 2 && bl == 6 * k.n && memcmp(body, k.sk, bl) == 0);
    skc[20] ^= 1; /* a damaged key */
    tl = old_armor(text, sizeof text, title, "GROVE DGSP SECRET KEY", skc, 6 * k.n + 32);
    CHECK_EQ_INT(dec((const uint8_t *)text, tl, GROVE_DGSP_FILE_SECRET_KEY, &c2, &fi, body, &bl,
                     err),
                 GROVE_ERR_STATE);
    /* a v1 secret key: refused, read by _any_version */
    tl = old_armor(text, sizeof text, "GROVE DGSP SECRET KEY v1 sha2-128f r3.1 grove",
                   "GROVE DGSP SECRET KEY", k.sk, 6 * k.n);
    CHECK_EQ_INT(dec((const uint8_t *)text, tl, GROVE_DGSP_FILE_SECRET_KEY, &c2, &fi, body, &bl,
                     err),
                 GROVE_ERR_UNSUPPORTED);
    CHECK(strstr(err, "upgrade-key") != NULL);
    CHECK_EQ_INT(grove_dgsp_file_decode_any_version(&c2, &fi, body, sizeof body, &bl,
                                                    (const uint8_t *)text, tl,
                                                    GROVE_DGSP_FILE_SECRET_KEY, err, sizeof err),
                 GROVE_OK);
    CHECK(fi.old_format && fi.version == 1 && bl == 6 * k.n && memcmp(body, k.sk, bl) == 0);
    /* a version this grove never wrote */
    tl = old_armor(text, sizeof text, "GROVE DGSP PUBLIC KEY v2 sha2-128f r3.1 grove",
                   "GROVE DGSP PUBLIC KEY", k.pk, 2 * k.n);
    CHECK_EQ_INT(dec((const uint8_t *)text, tl, GROVE_DGSP_FILE_ANY, &c2, &fi, body, &bl, err),
                 GROVE_ERR_UNSUPPORTED);
    grove_wipe(body, sizeof body);
    grove_wipe(skc, sizeof skc);
    grove_wipe(text, sizeof text);
}

/* The files an earlier grove wrote (tests/dgsp/old_files, see its README): all read, the key id
 * of those that hold the public key is the group's, and the signature verifies. */
static void test_old_files(const char *dir)
{
    static const struct {
        const char *name;
        grove_dgsp_file_type type;
    } files[] = {
        {"manager.pub", GROVE_DGSP_FILE_PUBLIC_KEY}, {"manager.sk", GROVE_DGSP_FILE_SECRET_KEY},
        {"alice.cred", GROVE_DGSP_FILE_CREDENTIAL},  {"alice.csr", GROVE_DGSP_FILE_CSR},
        {"alice.certs", GROVE_DGSP_FILE_CERTIFICATES}, {"msg.sig", GROVE_DGSP_FILE_SIGNATURE},
        {"group.rl", GROVE_DGSP_FILE_REVOCATIONS},   {"msg.proof", GROVE_DGSP_FILE_PROOF},
    };
    static uint8_t data[8][1 << 17], body[8][1 << 17];
    size_t dl[8] = {0}, bl[8] = {0};
    grove_dgsp_cfg cfg[8];
    for (size_t i = 0; i < 8; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL);
        if (f == NULL)
            return;
        dl[i] = fread(data[i], 1, sizeof data[i], f);
        fclose(f);
        grove_dgsp_file_info fi;
        char err[256] = "";
        CHECK_EQ_INT(grove_dgsp_file_decode(&cfg[i], &fi, body[i], sizeof body[i], &bl[i],
                                            data[i], dl[i], files[i].type, err, sizeof err),
                     GROVE_OK);
        CHECK(fi.old_format && !fi.has_key_id && fi.type == files[i].type &&
              fi.version == (files[i].type == GROVE_DGSP_FILE_SECRET_KEY ? 2u : 1u));
        if (err[0])
            printf("  %s: %s\n", files[i].name, err);
    }
    /* the public key and the one in the secret key and credential are the same */
    const size_t n = cfg[0].n;
    CHECK(bl[0] == 2 * n && memcmp(body[1] + 4 * n, body[0], 2 * n) == 0 &&
          memcmp(body[2] + 8 + n, body[0], 2 * n) == 0);
    /* the signature verifies on msg.txt, and its proof judges it to member 0 */
    char path[1024];
    snprintf(path, sizeof path, "%s/msg.txt", dir);
    FILE *f = fopen(path, "rb");
    uint8_t msg[256];
    size_t ml = f ? fread(msg, 1, sizeof msg, f) : 0;
    if (f)
        fclose(f);
    CHECK_EQ_INT(grove_dgsp_verify(&cfg[0], body[5], bl[5], msg, ml, body[0], NULL), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_judge(&cfg[0], body[5], bl[5], msg, ml, 0, body[7] + 8), GROVE_OK);
    /* re-encoded as envelopes, they read back the same, now with the group's key id */
    uint8_t id[8];
    CHECK_EQ_INT(grove_dgsp_key_id(&cfg[0], id, body[0]), GROVE_OK);
    for (size_t i = 0; i < 8; i++) {
        static uint8_t out[1 << 18], again[1 << 17];
        size_t ol = 0, al = 0;
        grove_dgsp_cfg c2;
        grove_dgsp_file_info fi;
        CHECK_EQ_INT(grove_dgsp_file_encode(&cfg[i], out, sizeof out, &ol, files[i].type, body[i],
                                            bl[i], body[0], GROVE_ENVELOPE_ARMORED),
                     GROVE_OK);
        CHECK_EQ_INT(grove_dgsp_file_decode(&c2, &fi, again, sizeof again, &al, out, ol,
                                            files[i].type, NULL, 0),
                     GROVE_OK);
        CHECK(!fi.old_format && fi.has_key_id && memcmp(fi.key_id, id, 8) == 0 && al == bl[i] &&
              memcmp(again, body[i], al) == 0);
        grove_wipe(out, sizeof out);
    }
    grove_wipe(body[1], sizeof body[1]);
    grove_wipe(data[1], sizeof data[1]);
}

int main(int argc, char **argv)
{
    test_envelope_files();
    test_refusals();
    test_stream();
    test_old_armor();
    if (argc > 1)
        test_old_files(argv[1]);
    return test_done();
}
