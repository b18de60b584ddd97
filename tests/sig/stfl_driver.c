/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A small program on the generic stateful API for stfl_crash.sh (the state registry is the
 * default folder, e.g. $GROVE_STATE_DIR):
 *   stfl_driver keygen ALG KEY PUB      a key file KEY and its public key PUB
 *   stfl_driver sign KEY MSG SIG        sign the file MSG, the signature into SIG
 * Exit codes: 0 done, 3 exhausted or a refused key file (state), 1 anything else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grove/sig.h"
#include "grove/state.h"

static int write_all(const char *path, const uint8_t *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    int ok = f != NULL && fwrite(b, 1, len, f) == len;
    if (f != NULL && fclose(f) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    uint8_t *b = malloc(1u << 16);
    *len = b ? fread(b, 1, 1u << 16, f) : 0;
    fclose(f);
    return b;
}

static int exit_for(grove_status st, const char *what)
{
    fprintf(stderr, "stfl_driver: %s: %s\n", what, grove_strerror(st));
    return st == GROVE_ERR_EXHAUSTED || st == GROVE_ERR_STATE ? 3 : 1;
}

static int keygen(grove_registry *reg, const char *alg, const char *key, const char *pub)
{
    const grove_sig_stfl_alg *a = grove_sig_stfl_alg_get(alg);
    uint8_t pk[256];
    if (a == NULL || grove_sig_stfl_pk_bytes(a) > sizeof pk)
        return exit_for(GROVE_ERR_UNSUPPORTED, alg);
    grove_status st = grove_sig_stfl_keygen(a, pk, key, reg);
    if (st != GROVE_OK)
        return exit_for(st, "keygen");
    return write_all(pub, pk, grove_sig_stfl_pk_bytes(a)) == 0 ? 0 : 1;
}

static int sign(grove_registry *reg, const char *key, const char *msgpath, const char *out)
{
    grove_sig_stfl_key *k = NULL;
    grove_status st = grove_sig_stfl_key_open(&k, key, reg);
    if (st != GROVE_OK)
        return exit_for(st, "open");
    size_t msg_len = 0, cap = grove_sig_stfl_sig_bytes(grove_sig_stfl_key_alg(k)), sig_len = 0;
    uint8_t *msg = read_all(msgpath, &msg_len), *sig = malloc(cap);
    int rc = 1;
    if (msg != NULL && sig != NULL) {
        st = grove_sig_stfl_sign(k, sig, cap, &sig_len, msg, msg_len);
        rc = st == GROVE_OK ? write_all(out, sig, sig_len) == 0 ? 0 : 1 : exit_for(st, "sign");
    }
    free(msg);
    free(sig);
    grove_sig_stfl_key_close(k);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 5 || (strcmp(argv[1], "keygen") != 0 && strcmp(argv[1], "sign") != 0)) {
        fprintf(stderr, "usage: stfl_driver keygen ALG KEY PUB | sign KEY MSG SIG\n");
        return 2;
    }
    grove_registry *reg = NULL;
    grove_status st = grove_registry_open(&reg, NULL);
    if (st != GROVE_OK)
        return exit_for(st, "registry");
    int rc = strcmp(argv[1], "keygen") == 0 ? keygen(reg, argv[2], argv[3], argv[4])
                                            : sign(reg, argv[2], argv[3], argv[4]);
    grove_registry_close(reg);
    return rc;
}
