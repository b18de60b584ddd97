/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Common layer: status strings, codecs (strict), constant-time helpers, randomness, endian. */
#include <stdlib.h>
#include <string.h>

#include "common/encoding.h"
#include "common/util.h"
#include "grove/common.h"
#include "test.h"

static void status_strings(void)
{
    const char *seen[64];
    int n = 0;
    for (int code = 0; code >= -20; code--) {
        const char *s = grove_strerror(code);
        CHECK(s != NULL && strcmp(s, "unknown status") != 0);
        for (int i = 0; i < n; i++)
            CHECK(strcmp(seen[i], s) != 0); /* every code has its own text */
        seen[n++] = s;
        CHECK(strcmp(grove_status_name(code), "unknown") != 0);
    }
    CHECK(strcmp(grove_strerror(-999), "unknown status") == 0);
    CHECK(GROVE_ERR_VERIFY != GROVE_ERR_INVALID_ARG);
    CHECK(strcmp(grove_version(), GROVE_VERSION_STRING) == 0);
}

static void hex_codec(void)
{
    uint8_t buf[8];
    char out[17];
    size_t n = 99;
    CHECK_EQ_INT(grove_hex_decode(buf, 8, &n, "00fFa5", 6), GROVE_OK);
    CHECK_EQ_INT(n, 3);
    CHECK(buf[0] == 0 && buf[1] == 0xff && buf[2] == 0xa5);
    CHECK_EQ_INT(grove_hex_decode(buf, 8, &n, "abc", 3), GROVE_ERR_ENCODING);  /* odd */
    CHECK_EQ_INT(grove_hex_decode(buf, 8, &n, "zz", 2), GROVE_ERR_ENCODING);   /* non-hex */
    CHECK_EQ_INT(grove_hex_decode(buf, 8, &n, "0x00", 4), GROVE_ERR_ENCODING); /* prefix */
    /* too long for the buffer: nothing written, the length needed reported */
    memset(buf, 0x5a, sizeof buf);
    CHECK_EQ_INT(grove_hex_decode(buf, 1, &n, "0000", 4), GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(n, 2);
    CHECK(buf[0] == 0x5a);
    CHECK_EQ_INT(grove_hex_decode(buf, 8, NULL, "00", 2), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_hex_decode(buf, 8, &n, "", 0), GROVE_OK);
    CHECK_EQ_INT(n, 0);
    grove_hex_encode(out, (const uint8_t *)"\x01\xab", 2);
    CHECK(strcmp(out, "01ab") == 0);
}

static void base64_codec(void)
{
    const char *plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    const char *enc[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    char out[64];
    uint8_t dec[64];
    for (int i = 0; i < 7; i++) {
        size_t l = strlen(plain[i]);
        grove_base64_encode(out, (const uint8_t *)plain[i], l);
        CHECK(strcmp(out, enc[i]) == 0);
        CHECK_EQ_INT(grove_base64_encoded_len(l), strlen(enc[i]));
        size_t n = 99;
        CHECK_EQ_INT(grove_base64_decode(dec, sizeof dec, &n, enc[i], strlen(enc[i])), GROVE_OK);
        CHECK_EQ_INT(n, l);
        CHECK(memcmp(dec, plain[i], l) == 0);
    }
    const char *bad[] = {"Zg=", "Zg", "Z===", "Zh==", "Zm9=", "Zm9vYg==Zm9v", "Zm 9", "Zm9v\n",
                         "=Zm9", "Zg=A", "Zm-v"};
    size_t n;
    for (size_t i = 0; i < GROVE_ARRAY_LEN(bad); i++)
        CHECK_EQ_INT(grove_base64_decode(dec, sizeof dec, &n, bad[i], strlen(bad[i])),
                     GROVE_ERR_ENCODING);
    /* capacity: nothing written, the length needed reported */
    memset(dec, 0x5a, sizeof dec);
    CHECK_EQ_INT(grove_base64_decode(dec, 2, &n, "Zm9v", 4), GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(n, 3);
    CHECK(dec[0] == 0x5a);
    CHECK_EQ_INT(grove_base64_decode(dec, 1, &n, "Zg==", 4), GROVE_OK);
    CHECK_EQ_INT(n, 1);
    /* random round trips */
    uint64_t rng = 3;
    for (size_t l = 0; l < 40; l++) {
        uint8_t in[40];
        test_rand_bytes(&rng, in, l);
        grove_base64_encode(out, in, l);
        CHECK_EQ_INT(grove_base64_decode(dec, sizeof dec, &n, out, strlen(out)), GROVE_OK);
        CHECK_EQ_INT(n, l);
        CHECK(memcmp(in, dec, l) == 0);
    }
}

static void ct_and_endian(void)
{
    uint8_t a[33], b[33];
    uint64_t rng = 11;
    test_rand_bytes(&rng, a, sizeof a);
    memcpy(b, a, sizeof a);
    CHECK(grove_ct_memeq(a, b, sizeof a) == 1);
    for (size_t i = 0; i < sizeof a; i++) {
        for (int bit = 0; bit < 8; bit++) {
            b[i] ^= (uint8_t)(1u << bit);
            CHECK(grove_ct_memeq(a, b, sizeof a) == 0);
            b[i] ^= (uint8_t)(1u << bit);
        }
    }
    CHECK(grove_ct_memeq(a, b, 0) == 1);
    uint8_t d[4] = {1, 2, 3, 4}, s[4] = {9, 9, 9, 9};
    grove_ct_cmov(d, s, 4, 0);
    CHECK(d[0] == 1 && d[3] == 4);
    grove_ct_cmov(d, s, 4, 1);
    CHECK(d[0] == 9 && d[3] == 9);
    CHECK(grove_ct_is_zero64(0) == ~(uint64_t)0);
    CHECK(grove_ct_is_zero64(1) == 0);
    CHECK(grove_ct_is_zero64(1ULL << 63) == 0);

    uint8_t e[8];
    grove_store64_be(e, 0x0102030405060708ULL);
    CHECK(e[0] == 1 && e[7] == 8);
    CHECK(grove_load64_be(e) == 0x0102030405060708ULL);
    CHECK(grove_load64_le(e) == 0x0807060504030201ULL);
    grove_store32_le(e, 0xAABBCCDDu);
    CHECK(e[0] == 0xDD && e[3] == 0xAA);
    grove_store_be_n(e, 3, 0x123456);
    CHECK(e[0] == 0x12 && e[2] == 0x56 && grove_load_be_n(e, 3) == 0x123456);

    uint8_t w[16];
    memset(w, 0xAA, sizeof w);
    grove_wipe(w, sizeof w);
    for (size_t i = 0; i < sizeof w; i++)
        CHECK(w[i] == 0);
}

static void randomness(void)
{
    uint8_t a[64], b[64], z[64] = {0};
    CHECK_EQ_INT(grove_randombytes(a, sizeof a), GROVE_OK);
    CHECK_EQ_INT(grove_randombytes(b, sizeof b), GROVE_OK);
    CHECK(memcmp(a, b, sizeof a) != 0);
    CHECK(memcmp(a, z, sizeof a) != 0);
    CHECK_EQ_INT(grove_randombytes(NULL, 0), GROVE_OK);
    CHECK_EQ_INT(grove_randombytes(NULL, 1), GROVE_ERR_INVALID_ARG);
    uint8_t *big = malloc(1 << 20);
    CHECK_EQ_INT(grove_randombytes(big, 1 << 20), GROVE_OK);
    free(big);
    CHECK(grove_cpu_path() != NULL);
}

int main(void)
{
    status_strings();
    hex_codec();
    base64_codec();
    ct_and_endian();
    randomness();
    return test_done();
}
