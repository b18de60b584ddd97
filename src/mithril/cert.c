/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Mithril certificates: decoding the aggregator's JSON and the hashes mithril-common computes
 * (certificate, metadata, protocol parameters, protocol message, signed entity type).
 *
 * Hashes (all SHA-256, "hex" = lower-case hex text fed as ASCII):
 *   parameters   k u64be || m u64be || U8F24(phi_f) u32be
 *   party        party_id || stake u64be
 *   metadata     network || version || hex(parameters) || initiated_at ns i64be ||
 *                sealed_at ns i64be || hex(party) for each signer in order
 *   message      for each part in the key order of ProtocolMessagePartKey: key || value
 *   certificate  previous_hash || epoch u64be || hex(metadata) || hex(message) ||
 *                signed_message || hex(JSON of the AVK) || [standard: signed entity type] ||
 *                genesis: hex(64-byte signature) | standard: hex(JSON of the multi-signature)
 *   entity type  [CardanoBlocksTransactions: its index 5 as u16be] || its numbers as u64be
 * The JSON of the AVK and of the multi-signature is mithril-stm's serde JSON as grove writes
 * it again (grove_stm_*_to_json), as upstream serializes the decoded objects again.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/encoding.h"
#include "common/util.h"
#include "hash/sha2.h"
#include "mithril/mithril_internal.h"

/* ---- small helpers ------------------------------------------------------------------------ */

static void sha_hex_update(grove_sha256_ctx *h, const uint8_t *p, size_t n)
{
    char buf[129];
    while (n > 0) {
        size_t t = n < 64 ? n : 64;
        grove_hex_encode(buf, p, t);
        grove_sha256_update(h, (const uint8_t *)buf, 2 * t);
        p += t;
        n -= t;
    }
}

static void sha_u64(grove_sha256_ctx *h, uint64_t v)
{
    uint8_t b[8];
    grove_store64_be(b, v);
    grove_sha256_update(h, b, 8);
}

static void sha_final_hex(grove_sha256_ctx *h, char out[65])
{
    uint8_t d[32];
    grove_sha256_final(h, d, 32);
    grove_hex_encode(out, d, 32);
}

static const grove_json_node *get_type(const grove_json_doc *doc, const grove_json_node *obj,
                                       const char *key, grove_json_type type)
{
    const grove_json_node *n = grove_json_get(doc, obj, key);
    return n != NULL && n->type == (uint32_t)type ? n : NULL;
}

/* A NUL-terminated copy of a string member; NULL with *nomem if allocation failed. */
static char *dup_str(const grove_json_doc *doc, const grove_json_node *n, size_t *len)
{
    size_t l;
    const char *s = grove_json_str(doc, n, &l);
    char *d = malloc(l + 1);
    if (d == NULL)
        return NULL;
    if (l > 0)
        memcpy(d, s, l);
    d[l] = '\0';
    if (len != NULL)
        *len = l;
    return d;
}

/* Hex text of at most max_bytes bytes into a fresh buffer (NULL: bad hex, too long, or NOMEM
 * with *nomem set). */
static uint8_t *unhex(const char *s, size_t l, size_t max_bytes, size_t *out_len, bool *nomem)
{
    if (l % 2 != 0 || l / 2 > max_bytes)
        return NULL;
    uint8_t *b = malloc(l / 2 + 1);
    if (b == NULL) {
        *nomem = true;
        return NULL;
    }
    if (grove_hex_decode(b, l / 2 + 1, out_len, s, l) != GROVE_OK) {
        free(b);
        return NULL;
    }
    return b;
}

bool mithril_json_bytes(uint8_t *out, size_t n, const char *text, size_t len)
{
    grove_json_doc *doc = NULL;
    if (grove_json_parse(&doc, text, len) != GROVE_OK)
        return false;
    const grove_json_node *a = grove_json_root(doc);
    bool ok = a->type == GROVE_JSON_ARRAY && a->count == n;
    size_t i = 0;
    for (const grove_json_node *e = ok ? grove_json_first(doc, a) : NULL; e;
         e = grove_json_next(doc, e)) {
        uint64_t v;
        if (grove_json_u64(e, &v) != GROVE_OK || v > 255) {
            ok = false;
            break;
        }
        out[i++] = (uint8_t)v;
    }
    grove_json_free(doc);
    return ok;
}

/* ---- protocol parameters ------------------------------------------------------------------ */

/* phi_f as U8F24: round(phi_f * 2^24) to nearest, ties to even; false outside [0, 256). */
static bool phi_to_fixed(double phi, uint32_t *fixed)
{
    if (!(phi >= 0.0) || !(phi < 256.0))
        return false;
    double x = phi * 16777216.0; /* exact: a power of two */
    double f = floor(x), r = x - f;
    if (r > 0.5 || (r == 0.5 && fmod(f, 2.0) != 0.0))
        f += 1.0;
    if (f >= 4294967296.0)
        return false;
    *fixed = (uint32_t)f;
    return true;
}

static bool parse_params(const grove_json_doc *doc, const grove_json_node *obj, mithril_params *p,
                         char hash[65])
{
    const grove_json_node *k = get_type(doc, obj, "k", GROVE_JSON_NUMBER),
                          *m = get_type(doc, obj, "m", GROVE_JSON_NUMBER),
                          *phi = get_type(doc, obj, "phi_f", GROVE_JSON_NUMBER);
    if (k == NULL || m == NULL || phi == NULL || grove_json_u64(k, &p->k) != GROVE_OK ||
        grove_json_u64(m, &p->m) != GROVE_OK ||
        grove_json_double(doc, phi, &p->phi_f) != GROVE_OK ||
        !phi_to_fixed(p->phi_f, &p->phi_fixed))
        return false;
    grove_sha256_ctx h;
    grove_sha256_init(&h);
    sha_u64(&h, p->k);
    sha_u64(&h, p->m);
    uint8_t b[4];
    grove_store32_be(b, p->phi_fixed);
    grove_sha256_update(&h, b, 4);
    sha_final_hex(&h, hash);
    return true;
}

/* ---- timestamps --------------------------------------------------------------------------- */

static bool digits(const char *s, size_t n, unsigned *v)
{
    unsigned x = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        x = x * 10 + (unsigned)(s[i] - '0');
    }
    *v = x;
    return true;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t mp = (int64_t)((m + 9) % 12);
    int64_t doy = (153 * mp + 2) / 5 + (int64_t)d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/*
 * An RFC 3339 time (YYYY-MM-DDTHH:MM:SS[.fraction]Z or with +HH:MM / -HH:MM) as chrono's
 * timestamp_nanos_opt().unwrap_or_default(): nanoseconds since 1970 as i64, 0 when they do not
 * fit. At most 9 fraction digits; no leap second.
 */
static bool parse_time(const char *s, size_t n, int64_t *ns_out)
{
    unsigned y, mo, d, h, mi, sec, frac = 0, oh = 0, om = 0;
    if (n < 20 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-' ||
        !digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't') || !digits(s + 11, 2, &h) ||
        s[13] != ':' || !digits(s + 14, 2, &mi) || s[16] != ':' || !digits(s + 17, 2, &sec))
        return false;
    size_t i = 19;
    if (s[i] == '.') {
        size_t j = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == j || i - j > 9 || !digits(s + j, i - j, &frac))
            return false;
        for (size_t z = i - j; z < 9; z++)
            frac *= 10;
    }
    int sign = 0;
    if (i + 1 == n && (s[i] == 'Z' || s[i] == 'z'))
        sign = 0;
    else if (i + 6 == n && (s[i] == '+' || s[i] == '-') && digits(s + i + 1, 2, &oh) &&
             s[i + 3] == ':' && digits(s + i + 4, 2, &om) && oh < 24 && om < 60)
        sign = s[i] == '+' ? 1 : -1;
    else
        return false;
    static const unsigned mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || (mo == 2 && d == 29 && !leap) ||
        h > 23 || mi > 59 || sec > 59)
        return false;
    int64_t secs = days_from_civil((int64_t)y, mo, d) * 86400 + (int64_t)h * 3600 +
                   (int64_t)mi * 60 + (int64_t)sec - sign * ((int64_t)oh * 3600 + (int64_t)om * 60);
    /* secs * 10^9 + frac within int64? (|secs| < 2^38 here, no overflow in secs itself) */
    const int64_t lim = INT64_C(9223372036); /* floor(2^63 / 10^9) */
    int64_t ns;
    if (secs > lim || (secs == lim && frac > 854775807u))
        ns = 0;
    else if (secs < -lim - 1 || (secs == -lim - 1 && frac < 145224192u))
        ns = 0;
    else if (secs == -lim - 1)
        ns = (secs + 1) * 1000000000 + ((int64_t)frac - 1000000000);
    else
        ns = secs * 1000000000 + (int64_t)frac;
    *ns_out = ns;
    return true;
}

/* ---- metadata ----------------------------------------------------------------------------- */

static const char *parse_metadata(const grove_json_doc *doc, const grove_json_node *md,
                                  grove_mithril_cert *c, char hash[65])
{
    const grove_json_node *net = get_type(doc, md, "network", GROVE_JSON_STRING),
                          *ver = get_type(doc, md, "version", GROVE_JSON_STRING),
                          *par = get_type(doc, md, "parameters", GROVE_JSON_OBJECT),
                          *ini = get_type(doc, md, "initiated_at", GROVE_JSON_STRING),
                          *sea = get_type(doc, md, "sealed_at", GROVE_JSON_STRING),
                          *sig = get_type(doc, md, "signers", GROVE_JSON_ARRAY);
    if (net == NULL || ver == NULL)
        return "metadata.network/version";
    if (par == NULL || !parse_params(doc, par, &c->params, c->params_hash))
        return "metadata.parameters";
    int64_t t0, t1;
    size_t l0, l1;
    const char *s0 = ini ? grove_json_str(doc, ini, &l0) : NULL,
               *s1 = sea ? grove_json_str(doc, sea, &l1) : NULL;
    if (s0 == NULL || !parse_time(s0, l0, &t0) || s1 == NULL || !parse_time(s1, l1, &t1))
        return "metadata.initiated_at/sealed_at";
    if (sig == NULL)
        return "metadata.signers";
    grove_sha256_ctx h;
    grove_sha256_init(&h);
    size_t l;
    const char *s = grove_json_str(doc, net, &l);
    grove_sha256_update(&h, (const uint8_t *)s, l);
    s = grove_json_str(doc, ver, &l);
    grove_sha256_update(&h, (const uint8_t *)s, l);
    grove_sha256_update(&h, (const uint8_t *)c->params_hash, 64);
    sha_u64(&h, (uint64_t)t0);
    sha_u64(&h, (uint64_t)t1);
    for (const grove_json_node *e = grove_json_first(doc, sig); e; e = grove_json_next(doc, e)) {
        const grove_json_node *pid = get_type(doc, e, "party_id", GROVE_JSON_STRING),
                              *st = get_type(doc, e, "stake", GROVE_JSON_NUMBER);
        uint64_t stake;
        if (e->type != GROVE_JSON_OBJECT || pid == NULL || st == NULL ||
            grove_json_u64(st, &stake) != GROVE_OK)
            return "metadata.signers";
        grove_sha256_ctx ph;
        grove_sha256_init(&ph);
        s = grove_json_str(doc, pid, &l);
        grove_sha256_update(&ph, (const uint8_t *)s, l);
        sha_u64(&ph, stake);
        char phex[65];
        sha_final_hex(&ph, phex);
        grove_sha256_update(&h, (const uint8_t *)phex, 64);
    }
    sha_final_hex(&h, hash);
    return NULL;
}

/* ---- protocol message --------------------------------------------------------------------- */

/* ProtocolMessagePartKey in its declaration order (the order of the hash). */
static const char *const part_keys[] = {
    "snapshot_digest",
    "cardano_transactions_merkle_root",
    "cardano_blocks_transactions_merkle_root",
    "next_aggregate_verification_key",
    "next_protocol_parameters",
    "current_epoch",
    "latest_block_number",
    "cardano_blocks_transactions_block_number_offset",
    "cardano_stake_distribution_epoch",
    "cardano_stake_distribution_merkle_root",
    "cardano_database_merkle_root",
    "next_aggregate_verification_key_snark",
};
enum { PART_NEXT_AVK = 3, PART_NEXT_PARAMS = 4, PART_CURRENT_EPOCH = 5 };
#define NPARTS (sizeof part_keys / sizeof part_keys[0])

/* The AVK from its certificate encoding: hex of mithril-stm's JSON, else hex of its bytes (CBOR
 * v1 or the legacy layout). */
static bool decode_avk(grove_stm_avk *avk, const char *s, size_t l, bool *nomem)
{
    size_t n;
    uint8_t *b = unhex(s, l, GROVE_JSON_MAX_INPUT, &n, nomem);
    if (b == NULL)
        return false;
    bool ok = grove_stm_avk_from_json(avk, (const char *)b, n) == GROVE_OK ||
              (n > 0 && b[0] == 0x01 && grove_stm_avk_from_cbor(avk, b, n) == GROVE_OK) ||
              grove_stm_avk_from_bytes(avk, b, n) == GROVE_OK;
    free(b);
    return ok;
}

static const char *parse_message(const grove_json_doc *doc, const grove_json_node *pm,
                                 grove_mithril_cert *c, bool *nomem)
{
    const grove_json_node *scheme = grove_json_get(doc, pm, "hash_scheme");
    if (scheme != NULL) {
        size_t l;
        const char *s = scheme->type == GROVE_JSON_STRING ? grove_json_str(doc, scheme, &l) : NULL;
        if (s == NULL || l != 6 || memcmp(s, "legacy", 6) != 0)
            return "protocol_message.hash_scheme";
    }
    const grove_json_node *parts = get_type(doc, pm, "message_parts", GROVE_JSON_OBJECT);
    if (parts == NULL)
        return "protocol_message.message_parts";
    const grove_json_node *by_key[NPARTS] = {NULL};
    for (const grove_json_node *e = grove_json_first(doc, parts); e; e = grove_json_next(doc, e)) {
        size_t kl;
        const char *k = grove_json_key(doc, e, &kl);
        size_t i = 0;
        while (i < NPARTS && !(strlen(part_keys[i]) == kl && memcmp(part_keys[i], k, kl) == 0))
            i++;
        if (i == NPARTS || e->type != GROVE_JSON_STRING)
            return "protocol_message.message_parts";
        by_key[i] = e; /* keys are unique (grove/json.h) */
    }
    grove_sha256_ctx h;
    grove_sha256_init(&h);
    for (size_t i = 0; i < NPARTS; i++) {
        if (by_key[i] == NULL)
            continue;
        size_t l;
        const char *v = grove_json_str(doc, by_key[i], &l);
        grove_sha256_update(&h, (const uint8_t *)part_keys[i], strlen(part_keys[i]));
        grove_sha256_update(&h, (const uint8_t *)v, l);
    }
    sha_final_hex(&h, c->message_hash);
    if (by_key[PART_CURRENT_EPOCH] != NULL &&
        (c->current_epoch = dup_str(doc, by_key[PART_CURRENT_EPOCH], NULL)) == NULL)
        *nomem = true;
    if (by_key[PART_NEXT_PARAMS] != NULL &&
        (c->next_params = dup_str(doc, by_key[PART_NEXT_PARAMS], NULL)) == NULL)
        *nomem = true;
    if (by_key[PART_NEXT_AVK] != NULL) {
        size_t l;
        const char *v = grove_json_str(doc, by_key[PART_NEXT_AVK], &l);
        c->next_avk_ok = decode_avk(&c->next_avk, v, l, nomem);
    }
    return NULL;
}

/* ---- signed entity type ------------------------------------------------------------------- */

/* Feeds the signed entity type into the certificate hash; NULL or the reason it is refused. */
static const char *hash_entity_type(const grove_json_doc *doc, const grove_json_node *se,
                                    grove_sha256_ctx *h)
{
    const char *bad = "signed_entity_type";
    if (se == NULL || se->type != GROVE_JSON_OBJECT || se->count != 1)
        return bad;
    const grove_json_node *v = grove_json_first(doc, se);
    size_t kl;
    const char *k = grove_json_key(doc, v, &kl);
#define IS(name) (kl == sizeof(name) - 1 && memcmp(k, name, kl) == 0)
    uint64_t x[3];
    size_t nx;
    if (IS("MithrilStakeDistribution") || IS("CardanoStakeDistribution")) {
        if (v->type != GROVE_JSON_NUMBER || grove_json_u64(v, &x[0]) != GROVE_OK)
            return bad;
        nx = 1;
    } else if (IS("CardanoDatabase")) {
        const grove_json_node *e = get_type(doc, v, "epoch", GROVE_JSON_NUMBER),
                              *f = get_type(doc, v, "immutable_file_number", GROVE_JSON_NUMBER);
        if (e == NULL || f == NULL || grove_json_u64(e, &x[0]) != GROVE_OK ||
            grove_json_u64(f, &x[1]) != GROVE_OK)
            return bad;
        nx = 2;
    } else if (IS("CardanoTransactions") || IS("CardanoBlocksTransactions")) {
        nx = IS("CardanoTransactions") ? 2 : 3;
        if (v->type != GROVE_JSON_ARRAY || v->count != nx)
            return bad;
        size_t i = 0;
        for (const grove_json_node *e = grove_json_first(doc, v); e; e = grove_json_next(doc, e))
            if (grove_json_u64(e, &x[i++]) != GROVE_OK)
                return bad;
        if (nx == 3) {
            const uint8_t idx[2] = {0, 5}; /* CardanoBlocksTransactions' index, u16 big-endian */
            grove_sha256_update(h, idx, 2);
        }
    } else {
        return bad;
    }
#undef IS
    for (size_t i = 0; i < nx; i++)
        sha_u64(h, x[i]);
    return NULL;
}

/* ---- the certificate ---------------------------------------------------------------------- */

static const char *decode_cert(const grove_json_doc *doc, const grove_json_node *o,
                               grove_mithril_cert *c, bool *nomem, bool *unsupported,
                               stm_vk_cache *cache)
{
    /* SNARK-era fields change the hash and the verification: not supported. */
    if (grove_json_get(doc, o, "ancillary_prover_data") != NULL ||
        grove_json_get(doc, o, "ancillary_verifier_data") != NULL ||
        grove_json_get(doc, o, "aggregate_verification_key_snark") != NULL ||
        grove_json_get(doc, o, "genesis_schnorr_signature") != NULL) {
        *unsupported = true;
        return "SNARK-era ancillary data or keys";
    }
    const grove_json_node *ep = get_type(doc, o, "epoch", GROVE_JSON_NUMBER),
                          *md = get_type(doc, o, "metadata", GROVE_JSON_OBJECT),
                          *pm = get_type(doc, o, "protocol_message", GROVE_JSON_OBJECT),
                          *sm = get_type(doc, o, "signed_message", GROVE_JSON_STRING),
                          *avk = get_type(doc, o, "aggregate_verification_key", GROVE_JSON_STRING),
                          *ms = get_type(doc, o, "multi_signature", GROVE_JSON_STRING),
                          *gs = get_type(doc, o, "genesis_signature", GROVE_JSON_STRING),
                          *se = grove_json_get(doc, o, "signed_entity_type");
    if (c->hash == NULL || c->previous_hash == NULL)
        return "hash/previous_hash";
    if (ep == NULL || grove_json_u64(ep, &c->epoch) != GROVE_OK)
        return "epoch";
    if (sm == NULL)
        return "signed_message";
    if ((c->signed_message = dup_str(doc, sm, &c->signed_message_len)) == NULL) {
        *nomem = true;
        return "signed_message";
    }
    if (ms == NULL || gs == NULL)
        return "multi_signature/genesis_signature";
    char md_hash[65];
    const char *why;
    if (md == NULL)
        return "metadata";
    if ((why = parse_metadata(doc, md, c, md_hash)) != NULL)
        return why;
    if (pm == NULL)
        return "protocol_message";
    if ((why = parse_message(doc, pm, c, nomem)) != NULL || *nomem)
        return why ? why : "protocol_message";
    size_t l;
    const char *s;
    if (avk == NULL || (s = grove_json_str(doc, avk, &l), !decode_avk(&c->avk, s, l, nomem)))
        return "aggregate_verification_key";

    grove_sha256_ctx h;
    grove_sha256_init(&h);
    grove_sha256_update(&h, (const uint8_t *)c->previous_hash, c->previous_hash_len);
    sha_u64(&h, c->epoch);
    grove_sha256_update(&h, (const uint8_t *)md_hash, 64);
    grove_sha256_update(&h, (const uint8_t *)c->message_hash, 64);
    grove_sha256_update(&h, (const uint8_t *)c->signed_message, c->signed_message_len);
    char *json = NULL;
    grove_status st = grove_stm_avk_to_json(&c->avk, &json);
    if (st != GROVE_OK) {
        *nomem = true;
        return "aggregate_verification_key";
    }
    sha_hex_update(&h, (const uint8_t *)json, strlen(json));
    free(json);
    json = NULL;

    /* The signed entity type is decoded for every certificate (the message requires it) and
     * hashed for standard ones only. */
    size_t gl;
    const char *gtext = grove_json_str(doc, gs, &gl);
    c->genesis = gl > 0;
    grove_sha256_ctx unused;
    grove_sha256_init(&unused);
    if ((why = hash_entity_type(doc, se, c->genesis ? &unused : &h)) != NULL)
        return why;
    if (c->genesis) {
        size_t n;
        uint8_t *b = unhex(gtext, gl, GROVE_JSON_MAX_INPUT, &n, nomem);
        if (b == NULL)
            return "genesis_signature";
        /* hex of the 64 bytes, or hex of the JSON array of them */
        bool ok = n == 64;
        if (ok)
            memcpy(c->genesis_sig, b, 64);
        else
            ok = mithril_json_bytes(c->genesis_sig, 64, (const char *)b, n);
        free(b);
        if (!ok)
            return "genesis_signature";
        sha_hex_update(&h, c->genesis_sig, 64);
    } else {
        s = grove_json_str(doc, ms, &l);
        size_t n;
        uint8_t *b = unhex(s, l, GROVE_JSON_MAX_INPUT, &n, nomem);
        if (b == NULL)
            return "multi_signature";
        st = (grove_status)stm_aggregate_from_json_cached(&c->agg, (const char *)b, n, cache);
        if (st != GROVE_OK && st != GROVE_ERR_NOMEM && n > 0 && b[0] == 0x01)
            st = (grove_status)stm_aggregate_from_cbor_cached(&c->agg, NULL, b, n, cache);
        else if (st != GROVE_OK && st != GROVE_ERR_NOMEM)
            st = (grove_status)stm_aggregate_from_bytes_cached(&c->agg, b, n, cache);
        free(b);
        if (st == GROVE_ERR_NOMEM)
            *nomem = true;
        if (st != GROVE_OK)
            return "multi_signature";
        if (grove_stm_aggregate_to_json(c->agg, &json) != GROVE_OK) {
            *nomem = true;
            return "multi_signature";
        }
        sha_hex_update(&h, (const uint8_t *)json, strlen(json));
        free(json);
    }
    sha_final_hex(&h, c->computed_hash);
    return NULL;
}

grove_status mithril_cert_from_node(grove_mithril_cert **out, const grove_json_doc *doc,
                                    const grove_json_node *o, stm_vk_cache *cache)
{
    if (out == NULL || doc == NULL || o == NULL || o->type != GROVE_JSON_OBJECT)
        return GROVE_ERR_INVALID_ARG;
    *out = NULL;
    grove_mithril_cert *c = calloc(1, sizeof *c);
    if (c == NULL)
        return GROVE_ERR_NOMEM;
    bool nomem = false, unsupported = false;
    const grove_json_node *hn = get_type(doc, o, "hash", GROVE_JSON_STRING),
                          *pn = get_type(doc, o, "previous_hash", GROVE_JSON_STRING);
    if (hn != NULL && (c->hash = dup_str(doc, hn, &c->hash_len)) == NULL)
        nomem = true;
    if (pn != NULL && (c->previous_hash = dup_str(doc, pn, &c->previous_hash_len)) == NULL)
        nomem = true;
    const char *why = nomem ? NULL : decode_cert(doc, o, c, &nomem, &unsupported, cache);
    if (nomem) {
        grove_mithril_cert_free(c);
        return GROVE_ERR_NOMEM;
    }
    if (why != NULL) {
        c->decode_rule = unsupported ? GROVE_MITHRIL_UNSUPPORTED : GROVE_MITHRIL_DECODE;
        c->decode_detail = why;
        grove_stm_aggregate_free(c->agg);
        c->agg = NULL;
    }
    *out = c;
    return GROVE_OK;
}

grove_status grove_mithril_cert_from_json(grove_mithril_cert **cert, const char *in,
                                          size_t in_len)
{
    if (cert == NULL || (in == NULL && in_len > 0))
        return GROVE_ERR_INVALID_ARG;
    *cert = NULL;
    grove_json_doc *doc = NULL;
    grove_status st = grove_json_parse(&doc, in, in_len);
    if (st != GROVE_OK)
        return st;
    const grove_json_node *root = grove_json_root(doc);
    st = root->type == GROVE_JSON_OBJECT ? mithril_cert_from_node(cert, doc, root, NULL)
                                         : GROVE_ERR_ENCODING;
    grove_json_free(doc);
    return st;
}

void grove_mithril_cert_free(grove_mithril_cert *c)
{
    if (c == NULL)
        return;
    free(c->hash);
    free(c->previous_hash);
    free(c->signed_message);
    free(c->current_epoch);
    free(c->next_params);
    grove_stm_aggregate_free(c->agg);
    free(c);
}

const char *grove_mithril_cert_hash(const grove_mithril_cert *c)
{
    return c != NULL && c->hash != NULL ? c->hash : "";
}

const char *grove_mithril_cert_previous_hash(const grove_mithril_cert *c)
{
    return c != NULL && c->previous_hash != NULL ? c->previous_hash : "";
}

uint64_t grove_mithril_cert_epoch(const grove_mithril_cert *c)
{
    return c != NULL ? c->epoch : 0;
}

bool grove_mithril_cert_is_genesis(const grove_mithril_cert *c)
{
    return c != NULL && c->decode_rule == GROVE_MITHRIL_OK && c->genesis;
}
