/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/envelope.h decoder on arbitrary bytes: it never reads out of bounds, and whatever it
 * accepts as an envelope re-encodes to the same bytes in the same form (the format has one
 * encoding), and to an envelope that decodes to the same fields in the other form.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "grove/envelope.h"

static void same(const grove_envelope *a, const grove_envelope *b)
{
    if (strcmp(a->scheme, b->scheme) != 0 || strcmp(a->set, b->set) != 0 ||
        strcmp(a->type, b->type) != 0 || a->has_key_id != b->has_key_id ||
        memcmp(a->key_id, b->key_id, sizeof a->key_id) != 0 || a->body_len != b->body_len ||
        (a->body_len && memcmp(a->body, b->body, a->body_len) != 0))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf = malloc(size + 1);
    if (buf == NULL)
        return 0;
    grove_envelope env;
    if (grove_envelope_decode(&env, buf, size, data, size, NULL, 0) == GROVE_OK &&
        (env.form == GROVE_ENVELOPE_BINARY || env.form == GROVE_ENVELOPE_ARMORED)) {
        grove_envelope_form other =
            env.form == GROVE_ENVELOPE_BINARY ? GROVE_ENVELOPE_ARMORED : GROVE_ENVELOPE_BINARY;
        size_t n1 = grove_envelope_encoded_bytes(&env, env.form);
        size_t n2 = grove_envelope_encoded_bytes(&env, other), l1 = 0, l2 = 0;
        uint8_t *again = malloc(n1 ? n1 : 1), *alt = malloc(n2 ? n2 : 1), *buf2 = malloc(n2 + 1);
        grove_envelope back;
        if (again == NULL || alt == NULL || buf2 == NULL)
            goto out;
        if (n1 != size || grove_envelope_encode(again, n1, &l1, &env, env.form) != GROVE_OK ||
            l1 != size || memcmp(again, data, size) != 0)
            abort();
        if (grove_envelope_encode(alt, n2, &l2, &env, other) != GROVE_OK ||
            grove_envelope_decode(&back, buf2, n2 + 1, alt, l2, NULL, 0) != GROVE_OK)
            abort();
        same(&env, &back);
    out:
        free(again);
        free(alt);
        free(buf2);
    }
    free(buf);
    return 0;
}
