/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove mithril: Mithril certificate chains (grove/mithril.h, docs/mithril.md).
 *
 *   grove mithril verify-chain --certificates FILE --genesis-key FILE [--json]
 *
 * Exit 0: every certificate and link holds. 1: at least one does not (each is named with the
 * rule it breaks; a field that does not decode makes its certificate invalid). 2: usage, I/O, a
 * genesis key that does not decode, or a file that is not certificate JSON at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grove/mithril.h"

static const cli_opt verify_chain_opts[] = {
    {"certificates", "FILE",
     "the certificates as a Mithril aggregator's API serves them: one certificate, a JSON "
     "array of them, or an object mapping each hash to its certificate ('-' for stdin)",
     0},
    {"genesis-key", "FILE",
     "the network's genesis verification key (genesis.vkey: hex of the JSON array of its 32 "
     "bytes, or 64 hex digits)",
     0},
    {NULL, NULL, NULL, 0},
};

/* A hash as given, made printable for the terminal (at most 64 characters shown). */
static void printable(char out[72], const char *s)
{
    size_t i = 0;
    for (; s[i] != '\0' && i < 64; i++)
        out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
    if (s[i] != '\0')
        out[i++] = '.', out[i++] = '.', out[i++] = '.';
    out[i] = '\0';
    if (i == 0)
        snprintf(out, 72, "(no hash)");
}

static int cmd_verify_chain(cli_ctx *c)
{
    const char *certs = cli_require(c, "certificates"), *keyf = cli_require(c, "genesis-key");
    if (certs == NULL || keyf == NULL)
        return CLI_EXIT_USAGE;
    uint8_t *kt = NULL, *ct = NULL, vk[GROVE_MITHRIL_GENESIS_VK_BYTES];
    size_t kl, cl;
    int rc = cli_read_file(c, keyf, 4096, &kt, &kl);
    if (rc != 0)
        return rc;
    grove_status st = grove_mithril_genesis_key_from_text(vk, (const char *)kt, kl);
    free(kt);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st,
                        "%s: not a genesis verification key (hex of the JSON array of 32 bytes)",
                        keyf);
    if ((rc = cli_read_file(c, certs, GROVE_MITHRIL_MAX_INPUT, &ct, &cl)) != 0)
        return rc;
    grove_mithril_chain *ch = NULL;
    st = grove_mithril_chain_from_json(&ch, (const char *)ct, cl);
    free(ct);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st,
                        "%s: not certificate JSON (one certificate, an array of them or a map "
                        "by hash)",
                        certs);
    size_t n = grove_mithril_chain_count(ch);
    if (n == 0) {
        grove_mithril_chain_free(ch);
        return cli_fail(c, CLI_EXIT_USAGE, 0, "%s: no certificate", certs);
    }
    st = grove_mithril_chain_verify(ch, vk);
    if (st != GROVE_OK && st != GROVE_ERR_VERIFY) {
        grove_mithril_chain_free(ch);
        return cli_fail_status(c, st, "verification could not run");
    }
    size_t invalid = 0, genesis = 0;
    uint64_t emin = UINT64_MAX, emax = 0;
    for (size_t i = 0; i < n; i++) {
        const grove_mithril_cert *cert = grove_mithril_chain_cert(ch, i);
        grove_mithril_rule r = GROVE_MITHRIL_OK;
        if (grove_mithril_chain_result(ch, i, &r, NULL) != GROVE_OK || r != GROVE_MITHRIL_OK) {
            invalid++;
            continue;
        }
        genesis += grove_mithril_cert_is_genesis(cert);
        uint64_t e = grove_mithril_cert_epoch(cert);
        emin = e < emin ? e : emin;
        emax = e > emax ? e : emax;
    }
    cli_out_bool(c, "valid", invalid == 0);
    cli_out_u64(c, "certificates", n);
    cli_out_u64(c, "invalid", invalid);
    cli_out_u64(c, "genesis", genesis);
    if (emin <= emax) {
        cli_out_u64(c, "first_epoch", emin);
        cli_out_u64(c, "last_epoch", emax);
    }
    cli_out_begin_array(c, "failures");
    for (size_t i = 0; i < n; i++) {
        const grove_mithril_cert *cert = grove_mithril_chain_cert(ch, i);
        grove_mithril_rule r = GROVE_MITHRIL_OK;
        const char *detail = NULL;
        if (grove_mithril_chain_result(ch, i, &r, &detail) != GROVE_OK || r == GROVE_MITHRIL_OK)
            continue;
        const char *h = grove_mithril_cert_hash(cert);
        cli_out_begin_object(c, NULL);
        cli_out_str(c, "hash", h);
        cli_out_u64(c, "index", i);
        cli_out_u64(c, "epoch", grove_mithril_cert_epoch(cert));
        cli_out_str(c, "rule", grove_mithril_rule_name(r));
        cli_out_str(c, "reason", grove_mithril_rule_text(r));
        if (detail != NULL)
            cli_out_str(c, "detail", detail);
        cli_out_end(c);
        char ph[72];
        printable(ph, h);
        cli_say(c, "INVALID %s (certificate %zu, epoch %llu): %s: %s%s%s%s", ph, i,
                (unsigned long long)grove_mithril_cert_epoch(cert), grove_mithril_rule_name(r),
                grove_mithril_rule_text(r), detail ? " (" : "", detail ? detail : "",
                detail ? ")" : "");
    }
    cli_out_end(c);
    grove_mithril_chain_free(ch);
    if (invalid != 0)
        return cli_fail(c, CLI_EXIT_INVALID, GROVE_ERR_VERIFY,
                        "certificate chain INVALID: %zu of %zu certificates fail", invalid, n);
    cli_say(c, "certificate chain valid: %zu certificates (%zu genesis), epochs %llu-%llu", n,
            genesis, (unsigned long long)emin, (unsigned long long)emax);
    return CLI_EXIT_OK;
}

static const cli_command mithril_commands[] = {
    {"verify-chain", cmd_verify_chain,
     "verify Mithril certificates as mithril-client does: hashes, signed messages, STM "
     "multi-signatures or the genesis signature, and the links back to genesis (exit 1 naming "
     "each certificate that fails and the rule)",
     verify_chain_opts},
    {NULL, NULL, NULL, NULL},
};

const cli_scheme cli_scheme_mithril = {"mithril", "Mithril certificate chains (verification)",
                                       mithril_commands};
