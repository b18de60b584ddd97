/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove_envelope_decode (grove/envelope.h): the envelope codec of src/format/, plus the
 * description of the XMSS private-key file, which needs the XMSS code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "format/envelope.h"
#include "grove/xmss.h"

/* An XMSS private-key file: checked by the XMSS code, described here. */
static grove_status describe_xmss_key(grove_envelope *env, const uint8_t *b, size_t len,
                                      char *err, size_t err_cap)
{
    grove_xmss_state_info *info = malloc(sizeof *info);
    if (info == NULL)
        return GROVE_ERR_NOMEM;
    grove_status st = grove_xmss_state_info_get(info, b, len);
    if (st == GROVE_OK) {
        memset(env, 0, sizeof *env);
        snprintf(env->scheme, sizeof env->scheme, "XMSS");
        snprintf(env->set, sizeof env->set, "%s", grove_xmss_params_name(info->params));
        snprintf(env->type, sizeof env->type, "SECRET KEY");
        st = grove_envelope_key_id(env->key_id, env->scheme, env->set, info->pk, info->pk_bytes);
        env->has_key_id = st == GROVE_OK;
        env->version = info->version;
        env->form = GROVE_ENVELOPE_XMSS_KEY_FILE;
        env->body = b;
        env->body_len = len;
    } else {
        if (err != NULL && err_cap > 0)
            snprintf(err, err_cap,
                     "XMSS private-key file: damaged, truncated or of an unknown version");
    }
    grove_wipe(info, sizeof *info);
    free(info);
    return st;
}

grove_status grove_envelope_decode(grove_envelope *env, uint8_t *buf, size_t buf_cap,
                                   const uint8_t *in, size_t in_len, char *err, size_t err_cap)
{
    if (env == NULL || (buf == NULL && buf_cap) || (in == NULL && in_len))
        return GROVE_ERR_INVALID_ARG;
    if (!grove_envelope_is_xmss_key_file(in, in_len))
        return grove_envelope_decode_plain(env, buf, buf_cap, in, in_len, err, err_cap);
    if (err != NULL && err_cap > 0)
        err[0] = '\0';
    if (in_len > buf_cap) {
        if (err != NULL && err_cap > 0)
            snprintf(err, err_cap, "grove file: buffer too small");
        return GROVE_ERR_BUFFER_TOO_SMALL;
    }
    memmove(buf, in, in_len);
    return describe_xmss_key(env, buf, in_len, err, err_cap);
}

