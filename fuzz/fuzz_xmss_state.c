/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * XMSS private-key files and states: grove_xmss_keyfile_decode (the key-file reader: envelope
 * armored or binary, or a bare state) on arbitrary bytes: what it accepts re-encodes to the same
 * bytes and its state goes through the checks below; grove_xmss_state_info_get on arbitrary
 * bytes, and, when the state passes its checks and the trees are small, grove_xmss_key_load
 * (which rebuilds the node cache). A loaded key must agree with what the state said, and be
 * usable: its next signature uses the high-water index and verifies under the state's public
 * key, the state it persists first reserves that index, and its export reads back as the same
 * key.
 *
 * The state carries an unkeyed integrity tag and a key id derived from its public part, which a
 * mutated input almost never matches. So an input that fails them is also tried re-sealed
 * (key id and tag recomputed here, as a careless or malicious editor of the file would): the
 * counters, the seeds and the node cache then reach the loader's own consistency checks. Those
 * must hold re-sealed states to the same rule: the loader proves at load time that the cache
 * signs validly where signing resumes (layer-0 leaf from SK_SEED, authentication paths and
 * upper-layer signatures up to the public key), so a re-sealed state that loads must also give
 * a verifying signature. fuzz/regressions/fuzz_xmss_state/ holds one state that loaded before
 * that check and signed invalidly (index and high-water mark moved to 33, layer-0 nodes of the
 * authentication path wrong); it must now be refused at load.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "common/util.h"
#include "grove/xmss.h"
#include "hash/sha2.h"
#include "xmss/xmss_int.h"

/* The format's framing (src/xmss/key.c): 72-byte header, key id at 48, SHA-256 tag at the end. */
#define HEADER 72
#define TAG 32
#define TAG_LABEL "GROVE-XMSS-PRIVATE-KEY-v1"
#define ID_LABEL "grove-xmss-key-id-v1"

typedef struct {
    int calls;
    grove_xmss_state_info info;
} persisted;

static grove_status persist(void *arg, const uint8_t *state, size_t len)
{
    persisted *ps = arg;
    ps->calls++;
    if (grove_xmss_state_info_get(&ps->info, state, len) != GROVE_OK)
        abort(); /* the key wrote a state it cannot read back */
    return GROVE_OK;
}

/* Recompute the key id and the tag of a state whose header names a known parameter set. */
static int reseal(uint8_t *s, size_t len)
{
    if (len < HEADER + TAG || s[10] > 1)
        return 0;
    const grove_xmss_params *p =
        grove_xmss_params_from_oid((grove_xmss_family)s[10], grove_load32_be(s + 12));
    if (p == NULL)
        return 0;
    const unsigned n = grove_xmss_params_n(p);
    if (len < HEADER + 4 * (size_t)n + TAG)
        return 0;
    uint8_t b[32];
    grove_sha256_ctx c;
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)ID_LABEL, strlen(ID_LABEL));
    grove_sha256_update(&c, s + 10, 1);
    grove_sha256_update(&c, s + 12, 4);
    grove_sha256_update(&c, s + HEADER + 3 * n, n); /* root */
    grove_sha256_update(&c, s + HEADER + 2 * n, n); /* PUB_SEED */
    grove_sha256_update(&c, s + 32, 8);              /* range start */
    grove_sha256_final(&c, b, 32);
    memcpy(s + 48, b, GROVE_XMSS_KEY_ID_BYTES);
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)TAG_LABEL, strlen(TAG_LABEL));
    grove_sha256_update(&c, s, len - TAG);
    grove_sha256_final(&c, s + len - TAG, TAG);
    return 1;
}

static void check_state(const uint8_t *data, size_t size);

/*
 * The key-file reader: an accepted file agrees with its state, re-encodes (an envelope form) to
 * exactly its bytes, and its state is checked as any state. Returns 1 if data was a key file.
 */
static int check_file(const uint8_t *data, size_t size)
{
    uint8_t *buf = malloc(size ? size : 1);
    if (buf == NULL)
        abort();
    const uint8_t *state = NULL;
    size_t slen = 0;
    grove_xmss_state_info info, again;
    char err[200];
    int r = grove_xmss_keyfile_decode(&state, &slen, &info, buf, size, data, size, err, sizeof err);
    if (r == GROVE_OK) {
        if (grove_xmss_state_info_get(&again, state, slen) != GROVE_OK ||
            again.params != info.params || again.high_water != info.high_water)
            abort();
        if (info.form != GROVE_ENVELOPE_XMSS_KEY_FILE) {
            size_t len = 0, cap = size + 1;
            uint8_t *out = malloc(cap);
            if (out == NULL ||
                grove_xmss_keyfile_encode(out, cap, &len, state, slen, info.form) != GROVE_OK ||
                len != size || memcmp(out, data, size) != 0)
                abort();
            free(out);
            check_state(state, slen);
        }
    } else if (err[0] == '\0') {
        abort(); /* every refusal says why */
    }
    free(buf);
    return r == GROVE_OK && info.form != GROVE_ENVELOPE_XMSS_KEY_FILE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (check_file(data, size))
        return 0; /* an envelope key file, checked whole */
    if (grove_xmss_state_info_get(NULL, data, size) != GROVE_ERR_STATE) {
        check_state(data, size);
        return 0;
    }
    uint8_t *copy = malloc(size);
    if (copy == NULL)
        abort();
    memcpy(copy, data, size);
    if (reseal(copy, size))
        check_state(copy, size);
    free(copy);
    return 0;
}

static void check_state(const uint8_t *data, size_t size)
{
    grove_xmss_state_info info;
    int r = grove_xmss_state_info_get(&info, data, size);
    if (r != GROVE_OK)
        return;
    if (info.params == NULL || info.high_water > info.range_end ||
        info.range_start > info.range_end ||
        info.range_end > grove_xmss_total_signatures(info.params))
        abort();
    if (grove_xmss_params_tree_height(info.params) > 5 || info.exhausted)
        return;
    grove_xmss_key *key = NULL;
    xmss_registry_reset(); /* each input on its own: no reservations of earlier inputs */
    r = grove_xmss_key_load(&key, data, size, NULL);
    if (r != GROVE_OK)
        return;
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES];
    if (grove_xmss_key_params(key) != info.params ||
        grove_xmss_key_public_key(key, pk) != GROVE_OK || memcmp(pk, info.pk, info.pk_bytes) != 0 ||
        grove_xmss_key_index(key) != info.high_water)
        abort();
    const grove_xmss_params *p = info.params;
    persisted ps = {0, {0}};
    uint8_t *sig = malloc(grove_xmss_sig_bytes(p));
    uint64_t idx = 0;
    if (sig == NULL || grove_xmss_key_set_persist(key, persist, &ps) != GROVE_OK)
        abort();
    r = grove_xmss_key_sign(key, sig, &idx, (const uint8_t *)"fuzz", 4);
    if (info.high_water >= info.range_end) {
        if (r != GROVE_ERR_EXHAUSTED)
            abort();
    } else {
        if (r != GROVE_OK || idx != info.high_water || ps.calls != 1 || ps.info.high_water <= idx ||
            memcmp(ps.info.key_id, info.key_id, sizeof info.key_id) ||
            memcmp(ps.info.pk, info.pk, info.pk_bytes) ||
            grove_xmss_verify(grove_xmss_params_family(p), sig, grove_xmss_sig_bytes(p),
                              (const uint8_t *)"fuzz", 4, info.pk, info.pk_bytes) != GROVE_OK)
            abort();
    }
    /* the export reads back as the same key, never behind what was reserved */
    size_t cap = grove_xmss_key_state_bytes(key), len = 0;
    uint8_t *out = malloc(cap);
    grove_xmss_state_info again;
    if (out == NULL || grove_xmss_key_export(key, out, cap, &len) != GROVE_OK ||
        grove_xmss_state_info_get(&again, out, len) != GROVE_OK || again.params != p ||
        memcmp(again.key_id, info.key_id, sizeof info.key_id) ||
        memcmp(again.pk, info.pk, info.pk_bytes) || again.range_end != info.range_end ||
        again.high_water < (r == GROVE_OK ? idx + 1 : info.high_water))
        abort();
    free(out);
    free(sig);
    grove_xmss_key_free(key);
    return;
}
