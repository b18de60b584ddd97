/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Mithril certificates on arbitrary text. Input: a selector byte, then the text. Even: the
 * whole-chain reader and verifier; odd: one certificate, verified without a predecessor. The
 * readers either refuse (GROVE_ERR_ENCODING, GROVE_ERR_NOMEM) or give objects whose
 * verification returns GROVE_OK or GROVE_ERR_VERIFY with a known rule, for every certificate.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "grove/mithril.h"

/* An Ed25519 public key (the devnet's genesis key of the shared vectors). */
static const uint8_t gvk[32] = {32,  253, 186, 201, 177, 11,  117, 135, 187, 167, 181,
                                188, 22,  59,  206, 105, 231, 150, 215, 30,  78,  212,
                                76,  16,  252, 180, 72,  134, 137, 247, 161, 68};

static void rule_ok(grove_mithril_rule r)
{
    if ((int)r < 0 || (int)r > (int)GROVE_MITHRIL_DUPLICATE ||
        strcmp(grove_mithril_rule_name(r), "unknown") == 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned sel = data[0];
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    if (sel % 2 == 0) {
        grove_mithril_chain *ch = NULL;
        grove_status st = grove_mithril_chain_from_json(&ch, text, len);
        if (st != GROVE_OK) {
            if ((st != GROVE_ERR_ENCODING && st != GROVE_ERR_NOMEM) || ch != NULL)
                abort();
            return 0;
        }
        st = grove_mithril_chain_verify(ch, gvk);
        if (st != GROVE_OK && st != GROVE_ERR_VERIFY && st != GROVE_ERR_NOMEM)
            abort();
        size_t bad = 0;
        for (size_t i = 0; st != GROVE_ERR_NOMEM && i < grove_mithril_chain_count(ch); i++) {
            grove_mithril_rule r;
            const char *d;
            if (grove_mithril_chain_result(ch, i, &r, &d) != GROVE_OK)
                abort();
            rule_ok(r);
            bad += r != GROVE_MITHRIL_OK;
            (void)grove_mithril_cert_hash(grove_mithril_chain_cert(ch, i));
        }
        if (st != GROVE_ERR_NOMEM && (bad != 0) != (st == GROVE_ERR_VERIFY))
            abort();
        grove_mithril_chain_free(ch);
    } else {
        grove_mithril_cert *c = NULL;
        grove_status st = grove_mithril_cert_from_json(&c, text, len);
        if (st != GROVE_OK) {
            if ((st != GROVE_ERR_ENCODING && st != GROVE_ERR_NOMEM) || c != NULL)
                abort();
            return 0;
        }
        grove_mithril_rule r = GROVE_MITHRIL_OK;
        const char *d;
        st = grove_mithril_cert_verify(c, &r, &d, NULL, gvk);
        if (st != GROVE_ERR_NOMEM) {
            rule_ok(r);
            if ((st == GROVE_OK) != (r == GROVE_MITHRIL_OK))
                abort();
            /* without a predecessor only a genesis certificate can hold */
            if (st == GROVE_OK && !grove_mithril_cert_is_genesis(c))
                abort();
        }
        grove_mithril_cert_free(c);
    }
    return 0;
}
