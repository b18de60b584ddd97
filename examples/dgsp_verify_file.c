/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* grove-example-needs: GROVE_HAVE_DGSP */
/*
 * Verify, from a C program, what the grove command wrote: the group public key (manager.pub),
 * a signature (`grove dgsp member sign`) and optionally the signed revocation list
 * (`grove dgsp manager export-revocations`), all read with grove_dgsp_file_decode.
 *
 *   dgsp_verify_file PUB MSG SIG [REVOCATIONS]
 *   exit 0: valid; 1: invalid or revoked; 2: a file is unreadable, malformed or of another group
 *
 * The files are grove envelopes (or the older DGSP armor); a signature or revocation list that
 * carries the key id of another group is refused before anything is verified.
 *
 * Without arguments it makes a group, a member and a signature itself, encodes them as the
 * grove command does, and checks them the same way.
 */
#include <grove/grove.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE (256u << 20)

/* The body of a file of type `type`, malloc'd; its group configuration in *cfg, its key id
 * (if any) in *info. */
static uint8_t *decode(const char *what, grove_dgsp_file_type type, const uint8_t *text,
                       size_t text_len, grove_dgsp_cfg *cfg, grove_dgsp_file_info *info,
                       size_t *len)
{
    char err[256];
    uint8_t *body = malloc(text_len ? text_len : 1); /* a body is shorter than its file */
    if (body == NULL)
        return NULL;
    grove_status st = grove_dgsp_file_decode(cfg, info, body, text_len, len, text, text_len, type,
                                             err, sizeof err);
    if (st != GROVE_OK) {
        fprintf(stderr, "%s: %s (%s)\n", what, err, grove_strerror(st));
        free(body);
        return NULL;
    }
    return body;
}

static int same_group(const grove_dgsp_cfg *a, const grove_dgsp_cfg *b)
{
    return a->spx == b->spx && a->profile == b->profile;
}

/* A file that carries a key id must carry the group's (that of the public key pk). */
static int of_group(const char *what, const grove_dgsp_file_info *info,
                    const grove_dgsp_cfg *cfg, const uint8_t *pk)
{
    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES];
    if (!info->has_key_id)
        return 1; /* an older file, or one written without the public key */
    if (grove_dgsp_key_id(cfg, id, pk) != GROVE_OK || memcmp(id, info->key_id, sizeof id) != 0) {
        char a[17], b[17];
        grove_envelope_key_id_hex(a, info->key_id);
        grove_envelope_key_id_hex(b, id);
        fprintf(stderr, "%s: of the group with key id %s, the public key is %s\n", what, a, b);
        return 0;
    }
    return 1;
}

/* The verdict on files: 0 valid, 1 invalid or revoked, 2 bad input. rl may be NULL. */
static int verify_texts(const uint8_t *pub, size_t pub_len, const uint8_t *msg, size_t msg_len,
                        const uint8_t *sig_text, size_t sig_text_len, const uint8_t *rl,
                        size_t rl_len)
{
    grove_dgsp_cfg cfg, scfg, rcfg;
    grove_dgsp_file_info pinfo, sinfo, rinfo;
    size_t pk_len = 0, sig_len = 0, list_len = 0;
    uint8_t *pk = decode("public key", GROVE_DGSP_FILE_PUBLIC_KEY, pub, pub_len, &cfg, &pinfo,
                         &pk_len);
    uint8_t *sig = decode("signature", GROVE_DGSP_FILE_SIGNATURE, sig_text, sig_text_len, &scfg,
                          &sinfo, &sig_len);
    uint8_t *list = rl ? decode("revocations", GROVE_DGSP_FILE_REVOCATIONS, rl, rl_len, &rcfg,
                                &rinfo, &list_len)
                       : NULL;
    grove_dgsp_store *revoked = NULL;
    int verdict = 2;
    if (pk == NULL || sig == NULL || (rl != NULL && list == NULL))
        goto done;
    if (!same_group(&cfg, &scfg) || (list != NULL && !same_group(&cfg, &rcfg))) {
        fprintf(stderr, "the files belong to groups of different parameters\n");
        goto done;
    }
    if (!of_group("signature", &sinfo, &cfg, pk) ||
        (list != NULL && !of_group("revocations", &rinfo, &cfg, pk)))
        goto done;
    if (list != NULL) {
        /* only a list signed by this group's manager is used */
        const uint8_t *zetas;
        uint64_t count, seq;
        grove_status st = grove_dgsp_revocations_verify(&cfg, &seq, NULL, &zetas, &count, list,
                                                        list_len, pk);
        if (st != GROVE_OK) {
            fprintf(stderr, "revocations: not signed by this group's manager (%s)\n",
                    grove_strerror(st));
            goto done;
        }
        if (grove_dgsp_store_memory_open(&revoked) != GROVE_OK ||
            revoked->ops->add_revoked(revoked->ctx, zetas, (size_t)count) != GROVE_OK)
            goto done;
        printf("revocation list #%llu: %llu entries\n", (unsigned long long)seq,
               (unsigned long long)count);
    }
    grove_status st = grove_dgsp_verify(&cfg, sig, sig_len, msg, msg_len, pk, revoked);
    printf("signature: %s\n", st == GROVE_OK ? "valid" : grove_strerror(st));
    verdict = st == GROVE_OK ? 0 : (st == GROVE_ERR_VERIFY || st == GROVE_ERR_REVOKED) ? 1 : 2;
done:
    grove_dgsp_store_close(revoked);
    free(pk);
    free(sig);
    free(list);
    return verdict;
}

/* A whole file, malloc'd (NULL if unreadable or larger than MAX_FILE). */
static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    long size = -1;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    uint8_t *buf = size >= 0 && size <= (long)MAX_FILE && fseek(f, 0, SEEK_SET) == 0
                    ? malloc((size_t)size + 1)
                    : NULL;
    if (buf != NULL && fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        buf = NULL;
    }
    if (f != NULL)
        fclose(f);
    if (buf == NULL)
        fprintf(stderr, "%s: cannot read (or larger than %u bytes)\n", path, MAX_FILE);
    *len = buf ? (size_t)size : 0;
    return buf;
}

/* The armored file of a body with the group's key id, malloc'd (what `grove dgsp` writes). */
static uint8_t *armor(const grove_dgsp_cfg *cfg, grove_dgsp_file_type type, const uint8_t *body,
                      size_t len, const uint8_t *pk, size_t *text_len)
{
    if (grove_dgsp_file_encode(cfg, NULL, 0, text_len, type, body, len, pk,
                               GROVE_ENVELOPE_ARMORED) != GROVE_ERR_BUFFER_TOO_SMALL)
        return NULL;
    uint8_t *text = malloc(*text_len);
    if (text && grove_dgsp_file_encode(cfg, text, *text_len, text_len, type, body, len, pk,
                                       GROVE_ENVELOPE_ARMORED) != GROVE_OK) {
        free(text);
        text = NULL;
    }
    return text;
}

/* Without arguments: a group, one signature, its files in memory, then the same checks. */
static int self_check(void)
{
#if GROVE_HAVE_SQLITE /* the member's wallet */
    grove_dgsp_cfg cfg;
    uint8_t pk[GROVE_DGSP_MAX_PK_BYTES], sk[GROVE_DGSP_MAX_SK_BYTES];
    uint8_t cid[GROVE_DGSP_MAX_N], wots_pk[GROVE_DGSP_MAX_N];
    uint64_t id;
    grove_dgsp_store *store = NULL;
    grove_dgsp_wallet *w = NULL;
    uint8_t *cert = malloc(GROVE_DGSP_MAX_CERT_BYTES), *sig = malloc(GROVE_DGSP_MAX_SIG_BYTES);
    const uint8_t msg[] = "pay 10 to bob";
    int ok = cert && sig &&
             grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get("sha2-128f"), GROVE_DGSP_FLAVOUR_R31,
                                 GROVE_DGSP_PROFILE_GROVE) == GROVE_OK &&
             grove_dgsp_keygen_manager(&cfg, pk, sk) == GROVE_OK &&
             grove_dgsp_store_memory_open(&store) == GROVE_OK &&
             grove_dgsp_join(&cfg, store, &id, cid, "alice", sk) == GROVE_OK &&
             grove_dgsp_wallet_memory_open(&cfg, &w, NULL, id, cid) == GROVE_OK &&
             grove_dgsp_wallet_csr(w, wots_pk, 1) == GROVE_OK &&
             grove_dgsp_gen_cert(&cfg, store, cert, wots_pk, 1, id, cid, sk, 1) == GROVE_OK &&
             grove_dgsp_wallet_import(w, cert, wots_pk, 1, pk) == GROVE_OK &&
             grove_dgsp_wallet_sign(w, sig, msg, sizeof msg - 1) == GROVE_OK;
    size_t pub_len = 0, sig_len = 0;
    uint8_t *pub = ok ? armor(&cfg, GROVE_DGSP_FILE_PUBLIC_KEY, pk, grove_dgsp_pk_bytes(&cfg), pk,
                              &pub_len)
                      : NULL;
    uint8_t *sig_text = ok ? armor(&cfg, GROVE_DGSP_FILE_SIGNATURE, sig,
                                   grove_dgsp_sig_bytes(&cfg), pk, &sig_len)
                           : NULL;
    int good = pub && sig_text ? verify_texts(pub, pub_len, msg, sizeof msg - 1, sig_text,
                                              sig_len, NULL, 0)
                               : 2;
    int bad = pub && sig_text ? verify_texts(pub, pub_len, (const uint8_t *)"pay 99 to bob", 13,
                                             sig_text, sig_len, NULL, 0)
                              : 2;
    grove_wipe(sk, sizeof sk);
    grove_dgsp_wallet_close(w);
    grove_dgsp_store_close(store);
    free(pub);
    free(sig_text);
    free(cert);
    free(sig);
    return good == 0 && bad == 1 ? 0 : 1;
#else
    printf("(no SQLite in this build: no wallet to sign with; give files as arguments)\n");
    return 0;
#endif
}

int main(int argc, char **argv)
{
    if (argc == 1)
        return self_check();
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: dgsp_verify_file PUB MSG SIG [REVOCATIONS]\n");
        return 2;
    }
    size_t lens[4] = {0, 0, 0, 0};
    uint8_t *data[4] = {NULL, NULL, NULL, NULL};
    int verdict = 2, missing = 0;
    for (int i = 0; i < argc - 1; i++)
        missing |= (data[i] = read_file(argv[i + 1], &lens[i])) == NULL;
    if (!missing)
        verdict = verify_texts(data[0], lens[0], data[1], lens[1], data[2], lens[2], data[3],
                               lens[3]);
    for (int i = 0; i < 4; i++)
        free(data[i]);
    return verdict;
}
