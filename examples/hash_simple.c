/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove's hash functions, hex and JSON writer: SHA-256 of a message given in two pieces,
 * checked against the one-shot function, printed as a JSON object.
 */
#include <grove/hash.h>
#include <grove/io.h>
#include <grove/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    const char *msg = "hello, grove";
    size_t half = strlen(msg) / 2;
    grove_hash_ctx ctx;
    uint8_t pieces[32], whole[32];
    if (grove_hash_init(&ctx, GROVE_HASH_SHA256) != GROVE_OK)
        return 1;
    grove_hash_update(&ctx, (const uint8_t *)msg, half);
    grove_hash_update(&ctx, (const uint8_t *)msg + half, strlen(msg) - half);
    if (grove_hash_final(&ctx, pieces, sizeof pieces) != GROVE_OK)
        return 1;
    grove_sha256(whole, (const uint8_t *)msg, strlen(msg));
    if (!grove_ct_equal(pieces, whole, sizeof whole)) {
        fprintf(stderr, "incremental and one-shot SHA-256 differ\n");
        return 1;
    }
    grove_json_buf json = GROVE_JSON_BUF_INIT;
    grove_json_buf_text(&json, "{\"alg\": \"sha256\", \"message\": ");
    grove_json_buf_string(&json, msg, strlen(msg));
    grove_json_buf_text(&json, ", \"digest\": ");
    grove_json_buf_hex(&json, whole, sizeof whole);
    grove_json_buf_text(&json, "}");
    char *text;
    if (grove_json_buf_take(&json, &text) != GROVE_OK)
        return 1;
    printf("%s\n", text);
    free(text);
    return 0;
}
