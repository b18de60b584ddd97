/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * DGSP verify, judge and open on arbitrary signatures. Input: a byte choosing the parameter set
 * and profile, the manager secret key (6N; the public key is its tail), a 2-byte message length,
 * the message, then the signature (any length).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "grove/dgsp.h"

static const char *const sets[] = {"shake-128f", "sha2-128f", "shake-192f", "sha2-192f",
                                   "shake-256f", "sha2-256f", "shake-128s", "sha2-128s"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    unsigned sel = fuzz_byte(&in);
    grove_dgsp_cfg cfg;
    if (grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get(sets[sel % 8]), GROVE_DGSP_FLAVOUR_R31,
                            (sel & 8) ? GROVE_DGSP_PROFILE_DGSP_RS_0_1 : GROVE_DGSP_PROFILE_GROVE))
        return 0;
    const uint8_t *sk, *msg, *sig;
    size_t ml;
    if (!fuzz_take(&in, 6 * cfg.n, &sk))
        return 0;
    ml = fuzz_len(&in, in.left);
    if (!fuzz_take(&in, ml, &msg))
        return 0;
    sig = in.p;
    size_t sl = in.left;
    const uint8_t *pk = sk + 4 * cfg.n;
    int v = grove_dgsp_verify(&cfg, sig, sl, msg, ml, pk, NULL);
    /* grove/common.h: whatever is wrong with a signature, verify says GROVE_ERR_VERIFY */
    if (sl != grove_dgsp_sig_bytes(&cfg) && v != GROVE_ERR_VERIFY)
        abort();
    if (v != GROVE_OK && v != GROVE_ERR_VERIFY)
        abort();
    uint8_t pi[32] = {0};
    int j = grove_dgsp_judge(&cfg, sig, sl, msg, ml, 1, pi);
    if (j != GROVE_OK && j != GROVE_ERR_VERIFY)
        abort();
    grove_dgsp_store *store;
    if (grove_dgsp_store_memory_open(&store) == GROVE_OK) {
        uint64_t id;
        uint8_t cs[32];
        char user[GROVE_DGSP_MAX_USERNAME + 1];
        if (grove_dgsp_join(&cfg, store, &id, cs, "a", sk) != GROVE_OK ||
            grove_dgsp_join(&cfg, store, &id, cs, "b", sk) != GROVE_OK)
            abort(); /* a memory store takes two members */
        int o = grove_dgsp_open(&cfg, store, &id, user, pi, sig, sl, msg, ml, sk);
        if (o == GROVE_OK && id > 1)
            abort();
        if (sl != grove_dgsp_sig_bytes(&cfg) && o != GROVE_ERR_VERIFY)
            abort();
        grove_dgsp_store_close(store);
    }
    return 0;
}
