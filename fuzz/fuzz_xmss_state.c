/*
 * XMSS private-key state files: grove_xmss_state_info_get on arbitrary bytes, and, when the
 * state passes its checks and the trees are small, grove_xmss_key_load (which rebuilds the node
 * cache). A loaded key must agree with what the state said.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "grove/xmss.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    grove_xmss_state_info info;
    int r = grove_xmss_state_info_get(data, size, &info);
    if (r != GROVE_OK)
        return 0;
    if (info.params == NULL || info.high_water > info.range_end ||
        info.range_start > info.range_end ||
        info.range_end > grove_xmss_total_signatures(info.params))
        abort();
    if (grove_xmss_params_tree_height(info.params) > 5 || info.exhausted)
        return 0;
    grove_xmss_key *key = NULL;
    r = grove_xmss_key_load(data, size, NULL, &key);
    if (r != GROVE_OK)
        return 0;
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES];
    if (grove_xmss_key_params(key) != info.params || grove_xmss_key_public_key(key, pk) != GROVE_OK ||
        memcmp(pk, info.pk, info.pk_bytes) != 0 || grove_xmss_key_index(key) != info.high_water)
        abort();
    grove_xmss_key_free(key);
    return 0;
}
