/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Kind "stm-cbor": mithril-stm 0.11.3's own CBOR v1 and legacy bytes
 * (../shared/vectors/stm-cbor/README.md), recognized by content (a "params" object with
 * "cbor_hex" and an "aggregate" with "cbor_structure"). Per group file:
 *  - parameters, AVK, every single signature and the aggregate: grove decodes the crate's CBOR
 *    and legacy bytes to the recorded values and writes both byte-identically; the aggregate
 *    also in the 0.12.2 form (proof_bytes as a byte string), read back;
 *  - every party's initializer (secret key, stake, parameters, vk + PoP) both ways;
 *  - the registration (the AVK and the signer order), signing (the same signatures, losers
 *    lose), single and aggregate verification on the message and a changed one, and the
 *    clerk's aggregate, which must be the crate's bytes;
 *  - every negative case: where the crate rejects or crashes grove must refuse
 *    (GROVE_ERR_ENCODING); a changed version byte or a missing one is refused even where the
 *    crate accepts garbage; a flip the crate accepts may be accepted only if grove writes the
 *    same bytes back. Inputs are read as grove's tools read them: 0x01 first = CBOR, else the
 *    legacy layout.
 */
#include <stdlib.h>
#include <string.h>

#include "grove/stm.h"
#include "kinds.h"

/* ---- decoding by the first byte, and writing back in the same encoding ------------------- */

enum { OBJ_PARAMS, OBJ_AVK, OBJ_SIG, OBJ_AGG };

/* Decodes in (CBOR if in[0] == 0x01, else legacy) as an object of kind obj and writes it back
 * in the same encoding into *back (malloc'd). Returns the decoder's status. */
static int decode_auto(int obj, const uint8_t *in, size_t len, uint8_t **back, size_t *back_len)
{
    int cbor = len > 0 && in[0] == 0x01, rc;
    size_t cap = len + 64;
    *back = malloc(cap), *back_len = 0;
    if (*back == NULL)
        return GROVE_ERR_NOMEM;
    if (obj == OBJ_PARAMS) {
        grove_stm_params p;
        rc = cbor ? grove_stm_params_from_cbor(&p, in, len) : grove_stm_params_from_bytes(&p, in, len);
        if (rc == GROVE_OK && cbor)
            rc = grove_stm_params_to_cbor(&p, *back, cap, back_len);
        else if (rc == GROVE_OK)
            grove_stm_params_to_bytes(&p, *back), *back_len = GROVE_STM_PARAMS_BYTES;
    } else if (obj == OBJ_AVK) {
        grove_stm_avk a;
        rc = cbor ? grove_stm_avk_from_cbor(&a, in, len) : grove_stm_avk_from_bytes(&a, in, len);
        if (rc == GROVE_OK && cbor)
            rc = grove_stm_avk_to_cbor(&a, *back, cap, back_len);
        else if (rc == GROVE_OK)
            grove_stm_avk_to_bytes(&a, *back), *back_len = GROVE_STM_AVK_BYTES;
    } else if (obj == OBJ_SIG) {
        grove_stm_sig s;
        rc = cbor ? grove_stm_sig_from_cbor(&s, in, len) : grove_stm_sig_from_bytes(&s, in, len);
        if (rc == GROVE_OK)
            rc = cbor ? grove_stm_sig_to_cbor(&s, *back, cap, back_len)
                      : grove_stm_sig_to_bytes(&s, *back, cap, back_len);
        grove_stm_sig_clear(&s);
    } else {
        grove_stm_aggregate *a = NULL;
        grove_stm_cbor_form form = GROVE_STM_CBOR_0_11;
        rc = cbor ? grove_stm_aggregate_from_cbor(&a, &form, in, len)
                  : grove_stm_aggregate_from_bytes(&a, in, len);
        if (rc == GROVE_OK)
            rc = cbor ? grove_stm_aggregate_to_cbor(a, *back, cap, back_len, form)
                      : grove_stm_aggregate_to_bytes(a, *back, cap, back_len);
        grove_stm_aggregate_free(a);
    }
    return rc;
}

/* Decodes hex field `key` of o and expects it back byte-identically. */
static void roundtrip(vec_report *r, const char *what, int obj, const json_t *o, const char *key)
{
    size_t len, blen;
    uint8_t *in = vec_hex(o, key, &len), *back = NULL;
    if (in == NULL) {
        vec_fail(r, "%s: %s missing", what, key);
        return;
    }
    int rc = decode_auto(obj, in, len, &back, &blen);
    vec_check(r, rc == GROVE_OK && blen == len && memcmp(back, in, len) == 0,
              "%s: %s decodes and is written back byte-identically (status %d)", what, key, rc);
    free(in);
    free(back);
}

/* ---- negative cases ----------------------------------------------------------------------- */

static const char *const obj_names[] = {"params", "avk", "single signature", "aggregate"};

static void negatives(vec_report *r, int obj, const json_t *cases)
{
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        const char *name = vec_str(c, "case"), *hex = vec_str(c, "bytes_hex");
        const char *crate = vec_str(json_object_get(c, "verdict"), "crate_from_bytes");
        if (name == NULL || hex == NULL || crate == NULL)
            continue; /* "no rejecting single-byte flip found": nothing to run */
        size_t len, blen;
        uint8_t *in = vec_unhex(hex, &len), *back = NULL;
        if (in == NULL) {
            vec_fail(r, "%s %s: bad hex", obj_names[obj], name);
            continue;
        }
        int rc = decode_auto(obj, in, len, &back, &blen);
        int same = rc == GROVE_OK && blen == len && memcmp(back, in, len) == 0;
        int accepted_flip = strstr(name, "_accepted") != NULL;
        if (accepted_flip)
            vec_check(r, rc == GROVE_ERR_ENCODING || same,
                      "%s %s (crate accepts): grove %s", obj_names[obj], name,
                      rc == GROVE_OK ? "accepts and writes the same bytes" : "refuses");
        else
            vec_check(r, rc == GROVE_ERR_ENCODING,
                      "%s %s (crate: %s): grove refuses with GROVE_ERR_ENCODING (status %d)",
                      obj_names[obj], name, crate, rc);
        free(in);
        free(back);
    }
}

/* ---- one group ---------------------------------------------------------------------------- */

static int group_params(vec_report *r, const json_t *pj, grove_stm_params *p)
{
    const json_t *v = json_object_get(pj, "value");
    int ok1, ok2;
    grove_stm_params want = {vec_u64(v, "m", &ok1), vec_u64(v, "k", &ok2),
                             json_number_value(json_object_get(v, "phi_f"))};
    size_t len;
    uint8_t *in = vec_hex(pj, "cbor_hex", &len);
    int rc = in ? grove_stm_params_from_cbor(p, in, len) : GROVE_ERR_ENCODING;
    int ok = rc == GROVE_OK && ok1 && ok2 && p->m == want.m && p->k == want.k &&
             memcmp(&p->phi_f, &want.phi_f, 8) == 0;
    vec_check(r, ok, "params: CBOR decodes to m=%llu k=%llu phi_f=%.17g", (unsigned long long)want.m,
              (unsigned long long)want.k, want.phi_f);
    free(in);
    roundtrip(r, "params", OBJ_PARAMS, pj, "cbor_hex");
    roundtrip(r, "params", OBJ_PARAMS, pj, "legacy_hex");
    negatives(r, OBJ_PARAMS, vec_array(pj, "negative_cases"));
    return ok;
}

/* Each party's initializer both ways and its vk + PoP; registers the party into reg. */
static void group_parties(vec_report *r, const json_t *parties, const grove_stm_params *params,
                          grove_stm_keyreg *reg)
{
    size_t i;
    json_t *pt;
    json_array_foreach(parties, i, pt) {
        uint8_t sk[GROVE_STM_SK_BYTES], want_sk[GROVE_STM_SK_BYTES];
        uint8_t vkpop[GROVE_STM_VKPOP_BYTES], want_vkpop[GROVE_STM_VKPOP_BYTES];
        grove_stm_params p;
        uint64_t stake = 0;
        int ok;
        uint64_t want_stake = vec_u64(pt, "stake", &ok);
        size_t len, olen = 0;
        uint8_t *in = vec_hex(pt, "initializer_cbor_hex", &len);
        if (in == NULL || !vec_hex_fixed(pt, "sk_hex", want_sk, sizeof want_sk) ||
            !vec_hex_fixed(pt, "vkpop_legacy_hex", want_vkpop, sizeof want_vkpop)) {
            vec_fail(r, "party %zu: fields missing", i);
            free(in);
            continue;
        }
        int rc = grove_stm_initializer_from_cbor(&p, &stake, sk, vkpop, in, len);
        vec_check(r, rc == GROVE_OK && stake == want_stake && !memcmp(sk, want_sk, sizeof sk) &&
                      !memcmp(vkpop, want_vkpop, sizeof vkpop) && p.m == params->m &&
                      p.k == params->k && memcmp(&p.phi_f, &params->phi_f, 8) == 0,
                  "party %zu: initializer CBOR decodes (stake, params, sk, vk + PoP) (status %d)",
                  i, rc);
        uint8_t *out = malloc(len + 16);
        rc = out ? grove_stm_initializer_to_cbor(params, out, len + 16, &olen, want_stake, want_sk)
                 : GROVE_ERR_NOMEM;
        vec_check(r, rc == GROVE_OK && olen == len && memcmp(out, in, len) == 0,
                  "party %zu: initializer written byte-identically", i);
        /* a changed secret key (its first byte's low bit: still well-formed CBOR) no longer
         * matches the vk + PoP: refused */
        for (size_t j = 0; j + 6 < len; j++)
            if (!memcmp(in + j, "\x62sk\x98\x20", 5)) {
                in[j + 5 + (in[j + 5] >= 0x18)] ^= 0x01;
                break;
            }
        uint8_t junk[GROVE_STM_SK_BYTES], jv[GROVE_STM_VKPOP_BYTES];
        vec_check(r, grove_stm_initializer_from_cbor(&p, &stake, junk, jv, in, len) != GROVE_OK,
                  "party %zu: a changed initializer is refused", i);
        rc = grove_stm_vkpop_from_sk(vkpop, want_sk);
        vec_check(r, rc == GROVE_OK && !memcmp(vkpop, want_vkpop, sizeof vkpop),
                  "party %zu: vk + PoP (legacy, the only form) from the secret key", i);
        if (grove_stm_keyreg_add(reg, want_stake, want_vkpop) != GROVE_OK)
            vec_fail(r, "party %zu: registration refused", i);
        grove_wipe(sk, sizeof sk);
        grove_wipe(want_sk, sizeof want_sk);
        if (out)
            grove_wipe(out, len + 16);
        free(out);
        grove_wipe(in, len);
        free(in);
    }
}

static void group_avk(vec_report *r, const json_t *aj, const grove_stm_avk *mine)
{
    grove_stm_avk a;
    int ok1, ok2;
    size_t len;
    uint8_t root[32], *in = vec_hex(aj, "cbor_hex", &len);
    int rc = in ? grove_stm_avk_from_cbor(&a, in, len) : GROVE_ERR_ENCODING;
    vec_check(r, rc == GROVE_OK && vec_hex_fixed(aj, "merkle_root_hex", root, 32) &&
                  !memcmp(a.root, root, 32) && a.nr_leaves == vec_u64(aj, "nr_leaves", &ok1) &&
                  a.total_stake == vec_u64(aj, "total_stake", &ok2) && ok1 && ok2,
              "avk: CBOR decodes to the root, leaves and total stake (status %d)", rc);
    vec_check(r, rc == GROVE_OK && !memcmp(mine->root, a.root, 32) &&
                  mine->nr_leaves == a.nr_leaves && mine->total_stake == a.total_stake,
              "avk: grove's registration of the parties gives the crate's AVK");
    free(in);
    roundtrip(r, "avk", OBJ_AVK, aj, "cbor_hex");
    roundtrip(r, "avk", OBJ_AVK, aj, "legacy_hex");
    negatives(r, OBJ_AVK, vec_array(aj, "negative_cases"));
}

/* The winners' signatures: decoding, encodings, grove's own signing (the same bytes),
 * verification. The signatures are appended to sigs (for the clerk). Losers must lose. */
static void group_sigs(vec_report *r, const json_t *root, const grove_stm_params *params,
                       const grove_stm_closed *closed, const uint8_t *msg, size_t msg_len,
                       grove_stm_sig *sigs, size_t *n_sigs)
{
    const json_t *parties = vec_array(root, "parties");
    uint8_t wrong[64];
    memcpy(wrong, msg, msg_len);
    wrong[0] ^= 1;
    size_t i;
    json_t *sj;
    json_array_foreach(vec_array(root, "single_signatures"), i, sj) {
        int ok;
        uint64_t party = vec_u64(sj, "party", &ok);
        uint8_t sk[GROVE_STM_SK_BYTES];
        grove_stm_signer *signer = NULL;
        grove_stm_sig mine;
        memset(&mine, 0, sizeof mine);
        if (!ok || !vec_hex_fixed(json_array_get(parties, (size_t)party), "sk_hex", sk, 32) ||
            grove_stm_signer_new(params, &signer, sk, closed) != GROVE_OK) {
            vec_fail(r, "signature %zu: no signer", i);
            continue;
        }
        int rc = grove_stm_sign(signer, &mine, msg, msg_len);
        grove_stm_signer_free(signer);
        grove_wipe(sk, sizeof sk);
        if (json_is_null(json_object_get(sj, "signature"))) {
            vec_check(r, rc == GROVE_ERR_LOTTERY_LOST, "party %llu: loses every lottery as in "
                      "the crate (status %d)", (unsigned long long)party, rc);
            grove_stm_sig_clear(&mine);
            continue;
        }
        size_t len, olen = 0;
        uint8_t *in = vec_hex(sj, "cbor_hex", &len), *out = malloc(len + 16);
        grove_stm_sig s;
        memset(&s, 0, sizeof s);
        int drc = in ? grove_stm_sig_from_cbor(&s, in, len) : GROVE_ERR_ENCODING;
        int enc = rc == GROVE_OK && out &&
                  grove_stm_sig_to_cbor(&mine, out, len + 16, &olen) == GROVE_OK;
        vec_check(r, enc && olen == len && !memcmp(out, in, len),
                  "party %llu: grove signs the crate's signature, CBOR byte-identical",
                  (unsigned long long)party);
        roundtrip(r, "single signature", OBJ_SIG, sj, "cbor_hex");
        roundtrip(r, "single signature", OBJ_SIG, sj, "legacy_hex");
        if (drc == GROVE_OK) {
            int want = vec_bool(sj, "expected_verify", 1);
            int want_w = vec_bool(sj, "expected_verify_wrong_message", 0);
            vec_check(r, (grove_stm_sig_verify(params, &s, msg, msg_len, closed) == GROVE_OK) == want,
                      "party %llu: verifies as in the crate (%d)", (unsigned long long)party, want);
            vec_check(r, (grove_stm_sig_verify(params, &s, wrong, msg_len, closed) == GROVE_OK) ==
                             want_w,
                      "party %llu: changed message as in the crate (%d)",
                      (unsigned long long)party, want_w);
            if (grove_stm_sig_copy(&sigs[*n_sigs], &s) == GROVE_OK)
                (*n_sigs)++;
        } else {
            vec_fail(r, "party %llu: CBOR signature does not decode (%d)",
                     (unsigned long long)party, drc);
        }
        grove_stm_sig_clear(&s);
        grove_stm_sig_clear(&mine);
        free(in);
        free(out);
    }
    const json_t *neg = json_object_get(root, "single_signature_negative_cases");
    negatives(r, OBJ_SIG, vec_array(neg, "cases"));
}

/* The crate's aggregate in the 0.12.2 form: the same bytes up to the "proof_bytes" key, then
 * the nested proof (cbor_structure) as a byte string. NULL if the file lacks a part. */
static uint8_t *form_0_12(const json_t *aj, size_t *out_len)
{
    const json_t *st = json_object_get(json_object_get(aj, "cbor_structure"), "cbor");
    size_t len, plen;
    uint8_t *in = vec_hex(aj, "cbor_hex", &len);
    uint8_t *proof = vec_hex(json_object_get(st, "proof_bytes"), "hex", &plen);
    uint8_t *out = NULL;
    static const uint8_t key[] = "\x6bproof_bytes";
    for (size_t i = 0; in && proof && plen <= 0xffff && i + sizeof key - 1 <= len; i++)
        if (!memcmp(in + i, key, sizeof key - 1) && (out = malloc(i + 12 + 3 + plen)) != NULL) {
            size_t o = i + sizeof key - 1;
            memcpy(out, in, o);
            if (plen > 0xff)
                out[o] = 0x59, out[o + 1] = (uint8_t)(plen >> 8), out[o + 2] = (uint8_t)plen, o += 3;
            else
                out[o] = 0x58, out[o + 1] = (uint8_t)plen, o += 2;
            memcpy(out + o, proof, plen);
            *out_len = o + plen;
            break;
        }
    free(in);
    free(proof);
    return out;
}

static void group_aggregate(vec_report *r, const json_t *aj, const grove_stm_params *params,
                            const grove_stm_closed *closed, const grove_stm_avk *avk,
                            const uint8_t *msg, size_t msg_len, const grove_stm_sig *sigs,
                            size_t n_sigs)
{
    size_t len, len12 = 0, olen = 0;
    uint8_t *in = vec_hex(aj, "cbor_hex", &len), *in12 = form_0_12(aj, &len12);
    uint8_t wrong[64], *out = malloc(len + 64);
    memcpy(wrong, msg, msg_len);
    wrong[0] ^= 1;
    grove_stm_aggregate *a = NULL, *mine = NULL, *b = NULL;
    grove_stm_cbor_form form = GROVE_STM_CBOR_0_12;
    int rc = in ? grove_stm_aggregate_from_cbor(&a, &form, in, len) : GROVE_ERR_ENCODING;
    vec_check(r, rc == GROVE_OK && form == GROVE_STM_CBOR_0_11,
              "aggregate: the crate's CBOR decodes (form 0.11: proof_bytes an array) (%d)", rc);
    if (rc == GROVE_OK) {
        int want = vec_bool(aj, "expected_verify", 1);
        int want_w = vec_bool(aj, "expected_verify_wrong_message", 0);
        vec_check(r, (grove_stm_aggregate_verify(params, a, msg, msg_len, avk) == GROVE_OK) == want,
                  "aggregate: verifies as in the crate (%d)", want);
        vec_check(r, (grove_stm_aggregate_verify(params, a, wrong, msg_len, avk) == GROVE_OK) ==
                         want_w, "aggregate: changed message as in the crate (%d)", want_w);
        rc = out ? grove_stm_aggregate_to_cbor(a, out, len + 64, &olen, GROVE_STM_CBOR_0_12)
                 : GROVE_ERR_NOMEM;
        vec_check(r, in12 && rc == GROVE_OK && olen == len12 && !memcmp(out, in12, len12),
                  "aggregate: written in the 0.12.2 form (proof_bytes a byte string)");
    }
    rc = in12 ? grove_stm_aggregate_from_cbor(&b, &form, in12, len12) : GROVE_ERR_ENCODING;
    vec_check(r, rc == GROVE_OK && form == GROVE_STM_CBOR_0_12 &&
                     grove_stm_aggregate_to_cbor(b, out, len + 64, &olen, GROVE_STM_CBOR_0_11) ==
                         GROVE_OK && olen == len && !memcmp(out, in, len),
              "aggregate: the 0.12.2 form reads back to the crate's 0.11.3 bytes (%d)", rc);
    roundtrip(r, "aggregate", OBJ_AGG, aj, "cbor_hex");
    roundtrip(r, "aggregate", OBJ_AGG, aj, "legacy_hex");
    /* grove's clerk on the winners' signatures: the crate's aggregate, byte for byte */
    rc = grove_stm_aggregate_new(params, &mine, NULL, sigs, n_sigs, msg, msg_len, closed, 1);
    vec_check(r, rc == GROVE_OK && out &&
                     grove_stm_aggregate_to_cbor(mine, out, len + 64, &olen,
                                                 GROVE_STM_CBOR_0_11) == GROVE_OK &&
                     olen == len && !memcmp(out, in, len),
              "aggregate: grove's clerk writes the crate's aggregate byte-identically (%d)", rc);
    negatives(r, OBJ_AGG, vec_array(aj, "negative_cases"));
    grove_stm_aggregate_free(a);
    grove_stm_aggregate_free(b);
    grove_stm_aggregate_free(mine);
    free(in);
    free(in12);
    free(out);
}

int vec_kind_stm_cbor(json_t *root, vec_report *r)
{
    const json_t *pj = json_object_get(root, "params");
    const json_t *aj = json_object_get(root, "aggregate");
    if (!json_is_object(pj) || !json_object_get(pj, "cbor_hex") || !json_is_object(aj) ||
        !json_object_get(aj, "cbor_structure"))
        return 0;
    grove_stm_params params;
    if (!group_params(r, pj, &params))
        return 1;
    size_t msg_len;
    uint8_t *msg = vec_hex(root, "message_hex", &msg_len);
    grove_stm_keyreg *reg = NULL;
    grove_stm_closed *closed = NULL;
    const json_t *parties = vec_array(root, "parties");
    grove_stm_sig *sigs = calloc(json_array_size(parties) + 1, sizeof *sigs);
    size_t n_sigs = 0;
    if (msg == NULL || msg_len == 0 || msg_len > 64 || sigs == NULL ||
        grove_stm_keyreg_new(&reg) != GROVE_OK) {
        vec_fail(r, "message or memory");
        goto out;
    }
    group_parties(r, parties, &params, reg);
    if (grove_stm_keyreg_close(reg, &closed) != GROVE_OK) {
        vec_fail(r, "registration does not close");
        goto out;
    }
    size_t i;
    json_t *e;
    json_array_foreach(vec_array(root, "registration_order"), i, e) {
        uint8_t vk[GROVE_STM_VK_BYTES], want[GROVE_STM_VK_BYTES];
        uint64_t stake;
        vec_check(r, vec_hex_fixed(e, "vk_hex", want, sizeof want) &&
                         grove_stm_closed_entry(closed, vk, &stake, i) == GROVE_OK &&
                         !memcmp(vk, want, sizeof vk),
                  "registration: signer index %zu is the crate's", i);
    }
    grove_stm_avk avk;
    grove_stm_closed_avk(closed, &avk);
    group_avk(r, json_object_get(root, "avk"), &avk);
    group_sigs(r, root, &params, closed, msg, msg_len, sigs, &n_sigs);
    group_aggregate(r, aj, &params, closed, &avk, msg, msg_len, sigs, n_sigs);
out:
    for (size_t j = 0; j < n_sigs; j++)
        grove_stm_sig_clear(&sigs[j]);
    free(sigs);
    free(msg);
    grove_stm_closed_free(closed);
    grove_stm_keyreg_free(reg);
    return 1;
}
