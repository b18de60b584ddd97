/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/envelope.h: round trips in both forms, a fixed binary layout (so the format cannot
 * drift silently), every single-byte change of a binary envelope refused, truncation and
 * trailing data refused, armor titles that disagree with the contents refused, type checks
 * with messages naming both types, DGSP armored files described, and name validation.
 */
#include <stdlib.h>
#include <string.h>

#include "grove/envelope.h"
#include "grove/hash.h"
#include "grove/io.h"
#include "grove/xmss.h"
#include "test.h"

static const uint8_t body[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};

static void make(grove_envelope *env)
{
    CHECK_EQ_INT(grove_envelope_init(env, "SLH-DSA", "shake-128f", "PUBLIC KEY", body,
                                     sizeof body),
                 GROVE_OK);
    CHECK_EQ_INT(grove_envelope_key_id(env->key_id, "SLH-DSA", "shake-128f", body, sizeof body),
                 GROVE_OK);
    env->has_key_id = true;
}

static void test_round_trip(grove_envelope_form form)
{
    grove_envelope env, got;
    make(&env);
    size_t n = grove_envelope_encoded_bytes(&env, form), len = 0;
    CHECK(n > sizeof body);
    uint8_t *out = malloc(n), *buf = malloc(n);
    CHECK_EQ_INT(grove_envelope_encode(out, n - 1, &len, &env, form), GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(len, n);
    CHECK_EQ_INT(grove_envelope_encode(out, n, &len, &env, form), GROVE_OK);
    CHECK_EQ_INT(len, n);
    CHECK(grove_envelope_detect(out, len));
    char err[200];
    CHECK_EQ_INT(grove_envelope_decode(&got, buf, n, out, len, err, sizeof err), GROVE_OK);
    CHECK_EQ_INT(got.form, form);
    CHECK_EQ_INT(got.version, GROVE_ENVELOPE_VERSION);
    CHECK(strcmp(got.scheme, "SLH-DSA") == 0 && strcmp(got.set, "shake-128f") == 0 &&
          strcmp(got.type, "PUBLIC KEY") == 0);
    CHECK(got.has_key_id);
    CHECK_MEM(got.key_id, env.key_id, GROVE_ENVELOPE_KEY_ID_BYTES);
    CHECK_EQ_INT(got.body_len, sizeof body);
    CHECK_MEM(got.body, body, sizeof body);
    if (form == GROVE_ENVELOPE_ARMORED)
        CHECK(memcmp(out, "-----BEGIN GROVE SLH-DSA PUBLIC KEY-----\n", 41) == 0);
    /* A short buffer is refused, not overrun. */
    CHECK(grove_envelope_decode(&got, buf, 10, out, len, NULL, 0) != GROVE_OK);
    free(out);
    free(buf);
}

/* The binary layout, byte by byte (envelope.h); the check is recomputed independently. */
static void test_layout(void)
{
    grove_envelope env;
    CHECK_EQ_INT(grove_envelope_init(&env, "CROSS", "", "SIGNATURE", body, 3), GROVE_OK);
    uint8_t out[128];
    size_t len = 0;
    CHECK_EQ_INT(grove_envelope_encode(out, sizeof out, &len, &env, GROVE_ENVELOPE_BINARY),
                 GROVE_OK);
    static const uint8_t want[] = {'G', 'R', 'V', 'E', 1, 0, 5, 'C', 'R', 'O', 'S', 'S', 0, 9,
                                   'S', 'I', 'G', 'N', 'A', 'T', 'U', 'R', 'E', 0, 0, 0, 0, 0,
                                   0, 0, 0, 0, 0, 0, 3, 1, 2, 3};
    CHECK_EQ_INT(len, sizeof want + 32);
    CHECK_MEM(out, want, sizeof want);
    grove_hash_ctx h;
    uint8_t check[32];
    CHECK_EQ_INT(grove_hash_init(&h, GROVE_HASH_SHA256), GROVE_OK);
    grove_hash_update(&h, (const uint8_t *)"grove envelope v1", 17);
    grove_hash_update(&h, out, sizeof want);
    CHECK_EQ_INT(grove_hash_final(&h, check, 32), GROVE_OK);
    CHECK_MEM(out + sizeof want, check, 32);
    /* The key id: SHA-256("grove key id v1" 0 scheme 0 set 0 pk), first 8 bytes. */
    uint8_t id[8], h2[32];
    CHECK_EQ_INT(grove_envelope_key_id(id, "XMSS", "XMSS-SHA2_10_256", body, 4), GROVE_OK);
    CHECK_EQ_INT(grove_hash_init(&h, GROVE_HASH_SHA256), GROVE_OK);
    grove_hash_update(&h, (const uint8_t *)"grove key id v1\0XMSS\0XMSS-SHA2_10_256\0", 38);
    grove_hash_update(&h, body, 4);
    CHECK_EQ_INT(grove_hash_final(&h, h2, 32), GROVE_OK);
    CHECK_MEM(id, h2, 8);
    char hex[17];
    grove_envelope_key_id_hex(hex, id);
    CHECK_EQ_INT(strlen(hex), 16);
}

/* Every single-byte change, every truncation and any trailing byte is refused. */
static void test_tamper(void)
{
    grove_envelope env, got;
    make(&env);
    uint8_t out[256], buf[256];
    size_t len = 0;
    CHECK_EQ_INT(grove_envelope_encode(out, sizeof out, &len, &env, GROVE_ENVELOPE_BINARY),
                 GROVE_OK);
    int accepted = 0;
    for (size_t i = 0; i < len; i++) {
        for (int bit = 0; bit < 8; bit += 3) {
            out[i] ^= (uint8_t)(1u << bit);
            if (grove_envelope_decode(&got, buf, sizeof buf, out, len, NULL, 0) == GROVE_OK)
                accepted++;
            out[i] ^= (uint8_t)(1u << bit);
        }
    }
    CHECK_EQ_INT(accepted, 0);
    for (size_t cut = 0; cut < len; cut++)
        if (grove_envelope_decode(&got, buf, sizeof buf, out, cut, NULL, 0) == GROVE_OK)
            accepted++;
    CHECK_EQ_INT(accepted, 0);
    out[len] = 0;
    char err[200];
    CHECK_EQ_INT(grove_envelope_decode(&got, buf, sizeof buf, out, len + 1, err, sizeof err),
                 GROVE_ERR_ENCODING);
    CHECK(strstr(err, "trailing") != NULL);
    /* A newer format version is UNSUPPORTED, not malformed. */
    out[4] = 2;
    CHECK_EQ_INT(grove_envelope_decode(&got, buf, sizeof buf, out, len, NULL, 0),
                 GROVE_ERR_UNSUPPORTED);
    /* Raw bytes are not a grove file, and the message points to import. */
    CHECK_EQ_INT(grove_envelope_decode(&got, buf, sizeof buf, body, sizeof body, err, sizeof err),
                 GROVE_ERR_ENCODING);
    CHECK(strstr(err, "import") != NULL);
}

/* The armor title must agree with the contents; the body lines are strict. */
static void test_armor_title(void)
{
    grove_envelope env, got;
    make(&env);
    char text[512];
    uint8_t buf[512];
    size_t len = 0;
    CHECK_EQ_INT(grove_envelope_encode((uint8_t *)text, sizeof text, &len, &env,
                                       GROVE_ENVELOPE_ARMORED),
                 GROVE_OK);
    text[len] = '\0';
    char *t = strdup(text);
    char *p = strstr(t, "PUBLIC KEY-----\n"); /* BEGIN title -> SECRET KEY */
    memcpy(p, "SECRET", 6);
    CHECK_EQ_INT(grove_envelope_decode(&got, buf, sizeof buf, (uint8_t *)t, len, NULL, 0),
                 GROVE_ERR_ENCODING);
    strcpy(t, text);
    p = strstr(t, "-----END GROVE SLH-DSA ");
    p[17] = 'X'; /* END title changed */
    CHECK_EQ_INT(grove_envelope_decode(&got, buf, sizeof buf, (uint8_t *)t, len, NULL, 0),
                 GROVE_ERR_ENCODING);
    strcpy(t, text);
    p = strchr(t, '\n') + 5; /* a base64 character changed */
    *p = *p == 'A' ? 'B' : 'A';
    CHECK_EQ_INT(grove_envelope_decode(&got, buf, sizeof buf, (uint8_t *)t, len, NULL, 0),
                 GROVE_ERR_ENCODING);
    free(t);
}

static void test_expect(void)
{
    grove_envelope env;
    make(&env);
    char err[200];
    CHECK_EQ_INT(grove_envelope_expect(&env, "SLH-DSA", "PUBLIC KEY", err, sizeof err), GROVE_OK);
    CHECK_EQ_INT(grove_envelope_expect(&env, NULL, NULL, err, sizeof err), GROVE_OK);
    CHECK_EQ_INT(grove_envelope_expect(&env, "XMSS", "SIGNATURE", err, sizeof err),
                 GROVE_ERR_ENCODING);
    CHECK(strcmp(err, "this is a grove SLH-DSA PUBLIC KEY (shake-128f), a XMSS SIGNATURE was "
                      "expected") == 0);
    CHECK_EQ_INT(grove_envelope_expect(&env, "SLH-DSA", "SECRET KEY", err, sizeof err),
                 GROVE_ERR_ENCODING);
    CHECK(strstr(err, "a SLH-DSA SECRET KEY was expected") != NULL);
}

static void test_dgsp_armor(void)
{
    static const char dgsp[] = "-----BEGIN GROVE DGSP SIGNATURE v1 shake-256f r3.1 grove-----\n"
                               "AAECAw==\n"
                               "-----END GROVE DGSP SIGNATURE-----\n";
    grove_envelope got;
    uint8_t buf[256];
    CHECK(grove_envelope_detect((const uint8_t *)dgsp, sizeof dgsp - 1));
    CHECK_EQ_INT(grove_envelope_decode(&got, buf, sizeof buf, (const uint8_t *)dgsp,
                                       sizeof dgsp - 1, NULL, 0),
                 GROVE_OK);
    CHECK_EQ_INT(got.form, GROVE_ENVELOPE_DGSP_ARMOR);
    CHECK(strcmp(got.scheme, "DGSP") == 0 && strcmp(got.type, "SIGNATURE") == 0 &&
          strcmp(got.set, "shake-256f/r3.1/grove") == 0 && !got.has_key_id &&
          got.version == 1);
    CHECK_EQ_INT(got.body_len, 4);
    static const char bad[] = "-----BEGIN GROVE DGSP SIGNATURE shake-256f-----\n"
                              "AAECAw==\n"
                              "-----END GROVE DGSP SIGNATURE-----\n";
    CHECK_EQ_INT(grove_envelope_decode(&got, buf, sizeof buf, (const uint8_t *)bad,
                                       sizeof bad - 1, NULL, 0),
                 GROVE_ERR_ENCODING);
}

/* An XMSS private-key file is described (set, key id of its public key) and checked. */
static void test_xmss_key_file(void)
{
    const grove_xmss_params *p = grove_xmss_params_get("XMSS-SHA2_10_256");
    uint8_t seed[32] = {7};
    grove_xmss_key *key = NULL;
    grove_xmss_opts opts = {.threads = 1};
    CHECK(p != NULL);
    CHECK_EQ_INT(grove_xmss_keygen_from_seed(p, &key, seed, seed, seed, &opts), GROVE_OK);
    size_t n = grove_xmss_key_state_bytes(key), len = 0;
    uint8_t *state = malloc(n), *buf = malloc(n);
    CHECK_EQ_INT(grove_xmss_key_export(key, state, n, &len), GROVE_OK);
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES], id[8];
    CHECK_EQ_INT(grove_xmss_key_public_key(key, pk), GROVE_OK);
    CHECK_EQ_INT(grove_envelope_key_id(id, "XMSS", "XMSS-SHA2_10_256", pk,
                                       grove_xmss_pk_bytes(p)),
                 GROVE_OK);
    grove_envelope got;
    CHECK(grove_envelope_detect(state, len));
    CHECK_EQ_INT(grove_envelope_decode(&got, buf, n, state, len, NULL, 0), GROVE_OK);
    CHECK_EQ_INT(got.form, GROVE_ENVELOPE_XMSS_KEY_FILE);
    CHECK(strcmp(got.scheme, "XMSS") == 0 && strcmp(got.type, "SECRET KEY") == 0 &&
          strcmp(got.set, "XMSS-SHA2_10_256") == 0 && got.has_key_id);
    CHECK_MEM(got.key_id, id, 8);
    CHECK_EQ_INT(got.body_len, len);
    state[len / 2] ^= 1; /* a damaged key file is refused */
    CHECK(grove_envelope_decode(&got, buf, n, state, len, NULL, 0) != GROVE_OK);
    grove_wipe(state, n);
    grove_wipe(buf, n);
    free(state);
    free(buf);
    grove_xmss_key_free(key);
}

static void test_names(void)
{
    grove_envelope env;
    CHECK_EQ_INT(grove_envelope_init(&env, "slh-dsa", "x", "PUBLIC KEY", body, 1),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_envelope_init(&env, "SLH-DSA", "x y", "PUBLIC KEY", body, 1),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_envelope_init(&env, "SLH-DSA", "x", "PUBLIC  KEY", body, 1),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_envelope_init(&env, "SLH-DSA", "x", "PUBLIC KEY ", body, 1),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_envelope_init(&env, "SPHINCS+", "shake-128f-simple", "SECRET KEY", body,
                                     1),
                 GROVE_OK);
    CHECK_EQ_INT(grove_envelope_init(&env, "STM", "", "PARAMETERS", NULL, 0), GROVE_OK);
    CHECK_EQ_INT(grove_envelope_init(&env, "STM", "", "PARAMETERS", NULL, 1),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_envelope_init(&env, "STM", "", "X", body, (size_t)GROVE_ENVELOPE_MAX_BODY + 1),
                 GROVE_ERR_INVALID_ARG);
}

int main(void)
{
    test_round_trip(GROVE_ENVELOPE_BINARY);
    test_round_trip(GROVE_ENVELOPE_ARMORED);
    test_layout();
    test_tamper();
    test_armor_title();
    test_expect();
    test_dgsp_armor();
    test_xmss_key_file();
    test_names();
    return test_done();
}
