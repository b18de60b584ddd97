/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * CROSS v2.2 parameter sets: the table (values of the specification; the sampler bit counts and
 * TREE_NODES_TO_STORE are the derived constants of the reference), name lookup and sizes.
 */
#include <ctype.h>
#include <string.h>

#include "cross/cross_internal.h"

/* name, vector name, rsdpg, category, corner, n, k, m, t, w, lambda, nodes_to_store,
 * bits: n_fp, chall_1, V, e (n or m elements of F_z), W, fixed-weight string */
static const struct grove_cross_params cross_table[] = {
    {"CROSS-RSDP-1-fast", "cross-rsdp-1-fast", 0, 1, 0, 127, 76, 0, 157, 82, 128, 82, 1127, 1421, 28028, 717, 0, 3656},
    {"CROSS-RSDP-1-balanced", "cross-rsdp-1-balanced", 0, 1, 1, 127, 76, 0, 256, 215, 128, 108, 1127, 2170, 28028, 717, 0, 4776},
    {"CROSS-RSDP-1-small", "cross-rsdp-1-small", 0, 1, 2, 127, 76, 0, 520, 488, 128, 129, 1127, 4130, 28028, 717, 0, 10390},
    {"CROSS-RSDP-3-fast", "cross-rsdp-3-fast", 0, 3, 0, 187, 111, 0, 239, 125, 192, 125, 1673, 2163, 60711, 1065, 0, 5264},
    {"CROSS-RSDP-3-balanced", "cross-rsdp-3-balanced", 0, 3, 1, 187, 111, 0, 384, 321, 192, 165, 1673, 3255, 60711, 1065, 0, 8586},
    {"CROSS-RSDP-3-small", "cross-rsdp-3-small", 0, 3, 2, 187, 111, 0, 580, 527, 192, 184, 1673, 4718, 60711, 1065, 0, 12880},
    {"CROSS-RSDP-5-fast", "cross-rsdp-5-fast", 0, 5, 0, 251, 150, 0, 321, 167, 256, 167, 2247, 2905, 108689, 1431, 0, 8343},
    {"CROSS-RSDP-5-balanced", "cross-rsdp-5-balanced", 0, 5, 1, 251, 150, 0, 512, 427, 256, 220, 2247, 4347, 108689, 1431, 0, 10746},
    {"CROSS-RSDP-5-small", "cross-rsdp-5-small", 0, 5, 2, 251, 150, 0, 832, 762, 256, 251, 2247, 6734, 108689, 1431, 0, 18150},
    {"CROSS-RSDPG-1-fast", "cross-rsdpg-1-fast", 1, 1, 0, 55, 36, 25, 147, 76, 128, 76, 729, 1647, 6624, 343, 5677, 3472},
    {"CROSS-RSDPG-1-balanced", "cross-rsdpg-1-balanced", 1, 1, 1, 55, 36, 25, 256, 220, 128, 101, 729, 2682, 6624, 343, 5677, 4776},
    {"CROSS-RSDPG-1-small", "cross-rsdpg-1-small", 1, 1, 2, 55, 36, 25, 512, 484, 128, 117, 729, 5085, 6624, 343, 5677, 9153},
    {"CROSS-RSDPG-3-fast", "cross-rsdpg-3-fast", 1, 3, 0, 79, 48, 40, 224, 119, 192, 119, 1071, 2502, 14211, 539, 11655, 5128},
    {"CROSS-RSDPG-3-balanced", "cross-rsdpg-3-balanced", 1, 3, 1, 79, 48, 40, 268, 196, 192, 138, 1071, 2925, 14211, 539, 11655, 6444},
    {"CROSS-RSDPG-3-small", "cross-rsdpg-3-small", 1, 3, 2, 79, 48, 40, 512, 463, 192, 165, 1071, 5238, 14211, 539, 11655, 9981},
    {"CROSS-RSDPG-5-fast", "cross-rsdpg-5-fast", 1, 5, 0, 106, 69, 48, 300, 153, 256, 153, 1431, 3357, 24192, 679, 20594, 7929},
    {"CROSS-RSDPG-5-balanced", "cross-rsdpg-5-balanced", 1, 5, 1, 106, 69, 48, 356, 258, 256, 185, 1431, 3897, 24192, 679, 20594, 8937},
    {"CROSS-RSDPG-5-small", "cross-rsdpg-5-small", 1, 5, 2, 106, 69, 48, 642, 575, 256, 220, 1431, 6597, 24192, 679, 20594, 15140},
};

#define CROSS_NSETS (sizeof cross_table / sizeof cross_table[0])

size_t grove_cross_params_count(void)
{
    return CROSS_NSETS;
}

const grove_cross_params *grove_cross_params_at(size_t i)
{
    return i < CROSS_NSETS ? &cross_table[i] : NULL;
}

const char *grove_cross_params_name(const grove_cross_params *p)
{
    return p ? p->name : NULL;
}

int grove_cross_params_category(const grove_cross_params *p)
{
    return p ? p->category : 0;
}

/*
 * Normalise a name to the vector spelling "cross-rsdp[g]-<1|3|5>-<corner>": lower case, an
 * optional "cross-" prefix, "rsdp-g" = "rsdpg", 128/192/256 = 1/3/5.
 */
const grove_cross_params *grove_cross_params_get(const char *name)
{
    char buf[64], norm[64];
    size_t len;
    if (name == NULL || (len = strlen(name)) == 0 || len >= sizeof buf)
        return NULL;
    for (size_t i = 0; i <= len; i++)
        buf[i] = (char)tolower((unsigned char)name[i]);
    const char *s = buf;
    if (strncmp(s, "cross-", 6) == 0)
        s += 6;
    const char *prob;
    if (strncmp(s, "rsdp-g-", 7) == 0) {
        prob = "rsdpg";
        s += 7;
    } else if (strncmp(s, "rsdpg-", 6) == 0) {
        prob = "rsdpg";
        s += 6;
    } else if (strncmp(s, "rsdp-", 5) == 0) {
        prob = "rsdp";
        s += 5;
    } else {
        return NULL;
    }
    char cat;
    if (strncmp(s, "128-", 4) == 0 || strncmp(s, "1-", 2) == 0)
        cat = '1';
    else if (strncmp(s, "192-", 4) == 0 || strncmp(s, "3-", 2) == 0)
        cat = '3';
    else if (strncmp(s, "256-", 4) == 0 || strncmp(s, "5-", 2) == 0)
        cat = '5';
    else
        return NULL;
    s = strchr(s, '-') + 1;
    if (strcmp(s, "fast") != 0 && strcmp(s, "balanced") != 0 && strcmp(s, "small") != 0)
        return NULL;
    /* at most 6 + 5 + 3 + 8 + 1 bytes: fits */
    size_t o = 0;
    const char *parts[3] = {"cross-", prob, NULL};
    for (int i = 0; i < 2; i++)
        for (const char *q = parts[i]; *q; q++)
            norm[o++] = *q;
    norm[o++] = '-';
    norm[o++] = cat;
    norm[o++] = '-';
    for (const char *q = s; *q; q++)
        norm[o++] = *q;
    norm[o] = '\0';
    for (size_t i = 0; i < CROSS_NSETS; i++)
        if (strcmp(cross_table[i].vecname, norm) == 0)
            return &cross_table[i];
    return NULL;
}

static size_t packed_bytes(size_t count, uint32_t bits)
{
    return (count * bits + 7) / 8;
}

void cross_sizes_of(const grove_cross_params *p, cross_sizes *z)
{
    z->seed = p->lambda / 8u;
    z->digest = 2u * z->seed;
    z->p = p->rsdpg ? 509u : 127u;
    z->z = p->rsdpg ? 127u : 7u;
    z->bp = p->rsdpg ? 9u : 7u;
    z->bz = p->rsdpg ? 7u : 3u;
    z->nv = p->rsdpg ? p->m : p->n;
    z->py = packed_bytes(p->n, z->bp);
    z->ps = packed_bytes((size_t)(p->n - p->k), z->bp);
    z->pv = packed_bytes(z->nv, z->bz);
    z->resp0 = z->py + z->pv;
    size_t nodes = p->corner == 0 ? p->w : p->nodes_to_store;
    z->path = nodes * z->seed;
    z->proof = nodes * z->digest;
    z->pk = z->digest + z->ps;
    z->sk = z->digest;
    z->off_path = 3 * z->digest;
    z->off_proof = z->off_path + z->path;
    z->off_resp1 = z->off_proof + z->proof;
    z->off_resp0 = z->off_resp1 + (size_t)(p->t - p->w) * z->digest;
    z->sig = z->off_resp0 + (size_t)(p->t - p->w) * z->resp0;
}

size_t grove_cross_pk_bytes(const grove_cross_params *p)
{
    cross_sizes z;
    if (p == NULL)
        return 0;
    cross_sizes_of(p, &z);
    return z.pk;
}

size_t grove_cross_sk_bytes(const grove_cross_params *p)
{
    return p ? 2u * (p->lambda / 8u) : 0;
}

size_t grove_cross_sig_bytes(const grove_cross_params *p)
{
    cross_sizes z;
    if (p == NULL)
        return 0;
    cross_sizes_of(p, &z);
    return z.sig;
}

grove_status grove_cross_strategy_get(grove_cross_strategy *out, const char *name)
{
    if (name == NULL || out == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (strcmp(name, "fast") == 0) {
        *out = GROVE_CROSS_FAST;
        return GROVE_OK;
    }
    if (strcmp(name, "small-memory") == 0 || strcmp(name, "small") == 0 ||
        strcmp(name, "small_memory") == 0) {
        *out = GROVE_CROSS_SMALL_MEMORY;
        return GROVE_OK;
    }
    return GROVE_ERR_UNSUPPORTED;
}

const char *grove_cross_strategy_name(grove_cross_strategy s)
{
    return s == GROVE_CROSS_SMALL_MEMORY ? "small-memory" : "fast";
}
