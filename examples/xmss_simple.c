/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * XMSS in a few steps: an XMSS-SHA2_10_256 key from a seed, sign, verify, save the key state to
 * a file and load it back (signing goes on with the next index), an XMSS^MT key of height 40
 * with 4 layers, and last the generic stateful API (grove/sig.h), where grove keeps the key in
 * a key file checked against the state registry, as the grove command does.
 *
 * An XMSS key is stateful: every signature uses a fresh index, and the library refuses to sign
 * until it can store the advanced state first (the persistence callback below). Never copy a
 * key file or restore it from a backup: that reuses indices and breaks security.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, mkdtemp, fsync */
#include <fcntl.h>
#include <grove/grove.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Store the key state durably: write a temporary file, fsync it, rename it over the key file. */
static grove_status save_state(void *arg, const uint8_t *state, size_t len)
{
    const char *path = arg;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return GROVE_ERR_STORAGE;
    int ok = write(fd, state, len) == (ssize_t)len && fsync(fd) == 0;
    ok &= close(fd) == 0;
    return ok && rename(tmp, path) == 0 ? GROVE_OK : GROVE_ERR_STORAGE;
}

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = n > 0 ? malloc((size_t)n) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* The generic stateful API: key file + registry in a fresh folder, sign twice, verify. */
static int generic_api(const char *msg)
{
    char dir[] = "/tmp/xmss_simple_stfl.XXXXXX", keypath[64], regdir[64];
    if (mkdtemp(dir) == NULL)
        return 0;
    snprintf(keypath, sizeof keypath, "%s/signer.key", dir);
    snprintf(regdir, sizeof regdir, "%s/state", dir);
    const grove_sig_stfl_alg *a = grove_sig_stfl_alg_get("XMSSMT-SHA2_20/4_256");
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES], *sig = malloc(grove_sig_stfl_sig_bytes(a));
    size_t sig_len = 0;
    grove_registry *reg = NULL;
    grove_sig_stfl_key *key = NULL;
    grove_status rc = sig ? grove_registry_open(&reg, regdir) : GROVE_ERR_NOMEM;
    if (rc == GROVE_OK)
        rc = grove_sig_stfl_keygen(a, pk, keypath, reg);
    if (rc == GROVE_OK)
        rc = grove_sig_stfl_key_open(&key, keypath, reg);
    for (int i = 0; i < 2 && rc == GROVE_OK; i++) {
        /* the index is in the key file and the registry before the signature comes back */
        rc = grove_sig_stfl_sign(key, sig, grove_sig_stfl_sig_bytes(a), &sig_len,
                                 (const uint8_t *)msg, strlen(msg));
        if (rc == GROVE_OK)
            rc = grove_sig_stfl_verify(a, sig, sig_len, (const uint8_t *)msg, strlen(msg), pk);
    }
    printf("generic stateful API, %s: %s; %llu signatures left\n", grove_sig_stfl_alg_name(a),
           rc == GROVE_OK ? "two signatures verify" : grove_strerror(rc),
           (unsigned long long)grove_sig_stfl_remaining(key));
    grove_sig_stfl_key_close(key);
    grove_registry_close(reg);
    free(sig);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return rc == GROVE_OK;
}

int main(void)
{
    const grove_xmss_params *p = grove_xmss_params_get("XMSS-SHA2_10_256");
    const uint8_t *msg = (const uint8_t *)"This is a test for XMSS.";
    const size_t msg_len = strlen((const char *)msg);
    uint8_t seed[96], pk[GROVE_XMSS_MAX_PK_BYTES];
    uint8_t *sig = malloc(GROVE_XMSS_MAX_SIG_BYTES);
    char path[] = "/tmp/xmss_simple.XXXXXX";
    int fd = mkstemp(path);
    if (p == NULL || sig == NULL || fd < 0)
        return 1;
    close(fd);
    for (size_t i = 0; i < sizeof seed; i++) /* a real key: grove_xmss_keygen (random seeds) */
        seed[i] = (uint8_t)i;

    /* 1. key pair from a seed (SK_SEED || SK_PRF || PUB_SEED), two threads */
    grove_xmss_opts opts = {.threads = 2};
    grove_xmss_key *key = NULL;
    grove_status rc = grove_xmss_keygen_from_seed(p, &key, seed, seed + 32, seed + 64, &opts);
    grove_wipe(seed, sizeof seed);
    if (rc == GROVE_OK)
        rc = grove_xmss_key_public_key(key, pk);
    if (rc != GROVE_OK) {
        fprintf(stderr, "keygen: %s\n", grove_strerror(rc));
        return 1;
    }

    /* 2. sign: refused until the key can persist its state */
    rc = grove_xmss_key_sign(key, sig, NULL, msg, msg_len);
    printf("sign without a persistence callback: %s\n", grove_strerror(rc));
    uint64_t idx = 0;
    rc = grove_xmss_key_set_persist(key, save_state, path);
    if (rc == GROVE_OK)
        rc = grove_xmss_key_sign(key, sig, &idx, msg, msg_len);
    if (rc == GROVE_OK)
        rc = grove_xmss_verify(GROVE_XMSS_FAMILY_XMSS, sig, grove_xmss_sig_bytes(p), msg, msg_len,
                               pk, grove_xmss_pk_bytes(p));
    printf("%s: signature %llu (%zu bytes) %s; %llu signatures left\n", grove_xmss_params_name(p),
           (unsigned long long)idx, grove_xmss_sig_bytes(p),
           rc == GROVE_OK ? "verifies" : grove_strerror(rc),
           (unsigned long long)grove_xmss_key_remaining(key));
    int ok = rc == GROVE_OK;

    /* 3. the state file already holds the advanced index: reload it and sign again */
    grove_xmss_key_free(key);
    size_t len = 0;
    uint8_t *state = read_file(path, &len);
    key = NULL;
    rc = state ? grove_xmss_key_load(&key, state, len, &opts) : GROVE_ERR_IO;
    if (state) {
        grove_wipe(state, len);
        free(state);
    }
    if (rc == GROVE_OK)
        rc = grove_xmss_key_set_persist(key, save_state, path);
    if (rc == GROVE_OK)
        rc = grove_xmss_key_sign(key, sig, &idx, msg, msg_len);
    if (rc == GROVE_OK)
        rc = grove_xmss_verify(GROVE_XMSS_FAMILY_XMSS, sig, grove_xmss_sig_bytes(p), msg, msg_len,
                               pk, grove_xmss_pk_bytes(p));
    printf("reloaded key: signature %llu %s\n", (unsigned long long)idx,
           rc == GROVE_OK ? "verifies" : grove_strerror(rc));
    ok = ok && rc == GROVE_OK && idx == 1;
    grove_xmss_key_free(key);
    unlink(path);

    /* 4. XMSS^MT: height 40 in 4 layers (2^40 signatures), random key, all CPUs */
    const grove_xmss_params *mt = grove_xmss_params_get("XMSSMT-SHA2_40/4_256");
    opts.threads = GROVE_THREADS_AUTO;
    rc = grove_xmss_keygen(mt, &key, &opts);
    if (rc == GROVE_OK)
        rc = grove_xmss_key_set_persist(key, save_state, path);
    if (rc == GROVE_OK)
        rc = grove_xmss_key_public_key(key, pk);
    if (rc == GROVE_OK)
        rc = grove_xmss_key_sign(key, sig, &idx, msg, msg_len);
    if (rc == GROVE_OK)
        rc = grove_xmss_verify(GROVE_XMSS_FAMILY_XMSSMT, sig, grove_xmss_sig_bytes(mt), msg,
                               msg_len, pk, grove_xmss_pk_bytes(mt));
    printf("%s: signature %llu (%zu bytes) %s\n", grove_xmss_params_name(mt),
           (unsigned long long)idx, grove_xmss_sig_bytes(mt),
           rc == GROVE_OK ? "verifies" : grove_strerror(rc));
    ok = ok && rc == GROVE_OK;
    grove_xmss_key_free(key);
    unlink(path);
    free(sig);

    /* 5. the same through grove/sig.h, with key files and the state registry */
    ok = generic_api((const char *)msg) && ok;
    return ok ? 0 : 1;
}
