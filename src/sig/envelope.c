/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove_envelope_decode (grove/envelope.h): the envelope codec of src/format/, plus what needs
 * the XMSS code: an XMSS private-key file (an envelope of type "SECRET KEY") is also checked
 * inside (its state and the agreement of the two), and the bare key file of an older grove
 * ("GRVXMSSK") is described. Both go through grove_xmss_keyfile_decode (src/xmss/file.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "format/envelope.h"
#include "grove/xmss.h"

/* Check an XMSS key file in[0..in_len) (either form, or bare) and describe it in env. */
static grove_status describe_xmss_key(grove_envelope *env, uint8_t *buf, size_t buf_cap,
                                      const uint8_t *in, size_t in_len, char *err, size_t err_cap)
{
    grove_xmss_state_info *info = malloc(sizeof *info);
    if (info == NULL)
        return GROVE_ERR_NOMEM;
    const uint8_t *state = NULL;
    size_t state_len = 0;
    char why[200] = "";
    grove_status st = grove_xmss_keyfile_decode(&state, &state_len, info, buf, buf_cap, in,
                                                in_len, why, sizeof why);
    if (st == GROVE_OK) {
        memset(env, 0, sizeof *env);
        snprintf(env->scheme, sizeof env->scheme, "XMSS");
        snprintf(env->set, sizeof env->set, "%s", grove_xmss_params_name(info->params));
        snprintf(env->type, sizeof env->type, "%s", GROVE_XMSS_FILE_TYPE);
        st = grove_envelope_key_id(env->key_id, env->scheme, env->set, info->pk, info->pk_bytes);
        env->has_key_id = st == GROVE_OK;
        env->form = info->form;
        /* a bare file: the state's own format version; an envelope: the envelope's */
        env->version = info->form == GROVE_ENVELOPE_XMSS_KEY_FILE ? info->version
                                                                   : GROVE_ENVELOPE_VERSION;
        env->body = state;
        env->body_len = state_len;
    } else if (err != NULL && err_cap > 0) {
        snprintf(err, err_cap, "%s%s",
                 st == GROVE_ERR_BUFFER_TOO_SMALL ? "grove file: buffer too small"
                                                  : "XMSS private-key file: ",
                 st == GROVE_ERR_BUFFER_TOO_SMALL ? "" : why);
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
    if (!grove_xmss_keyfile_detect(in, in_len))
        return grove_envelope_decode_plain(env, buf, buf_cap, in, in_len, err, err_cap);
    if (err != NULL && err_cap > 0)
        err[0] = '\0';
    return describe_xmss_key(env, buf, buf_cap, in, in_len, err, err_cap);
}
