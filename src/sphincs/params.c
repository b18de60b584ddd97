/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The 12 parameter sets, each in the FIPS 205 and the round-3.1 flavour. */
#include <string.h>

#include "sphincs/spx.h"

#define SIG_BYTES(n, h, d, a, k) ((size_t)(n) * (1 + (k) * ((a) + 1) + (h) + (d) * (2 * (n) + 3)))
#define SET(name, n, h, d, hp, a, k, m, sha2, fips, cat)                                      \
    {name, n, h, d, hp, a, k, m, sha2, fips, cat, SIG_BYTES(n, h, d, a, k)}
#define BOTH(fipsname, r3name, n, h, d, hp, a, k, m, sha2, cat)                               \
    SET(fipsname, n, h, d, hp, a, k, m, sha2, 1, cat), SET(r3name, n, h, d, hp, a, k, m, sha2, 0, cat)

static const grove_slhdsa_params spx_sets[] = {
    BOTH("SLH-DSA-SHA2-128s", "sphincs-sha2-128s-simple", 16, 63, 7, 9, 12, 14, 30, 1, 1),
    BOTH("SLH-DSA-SHAKE-128s", "sphincs-shake-128s-simple", 16, 63, 7, 9, 12, 14, 30, 0, 1),
    BOTH("SLH-DSA-SHA2-128f", "sphincs-sha2-128f-simple", 16, 66, 22, 3, 6, 33, 34, 1, 1),
    BOTH("SLH-DSA-SHAKE-128f", "sphincs-shake-128f-simple", 16, 66, 22, 3, 6, 33, 34, 0, 1),
    BOTH("SLH-DSA-SHA2-192s", "sphincs-sha2-192s-simple", 24, 63, 7, 9, 14, 17, 39, 1, 3),
    BOTH("SLH-DSA-SHAKE-192s", "sphincs-shake-192s-simple", 24, 63, 7, 9, 14, 17, 39, 0, 3),
    BOTH("SLH-DSA-SHA2-192f", "sphincs-sha2-192f-simple", 24, 66, 22, 3, 8, 33, 42, 1, 3),
    BOTH("SLH-DSA-SHAKE-192f", "sphincs-shake-192f-simple", 24, 66, 22, 3, 8, 33, 42, 0, 3),
    BOTH("SLH-DSA-SHA2-256s", "sphincs-sha2-256s-simple", 32, 64, 8, 8, 14, 22, 47, 1, 5),
    BOTH("SLH-DSA-SHAKE-256s", "sphincs-shake-256s-simple", 32, 64, 8, 8, 14, 22, 47, 0, 5),
    BOTH("SLH-DSA-SHA2-256f", "sphincs-sha2-256f-simple", 32, 68, 17, 4, 9, 35, 49, 1, 5),
    BOTH("SLH-DSA-SHAKE-256f", "sphincs-shake-256f-simple", 32, 68, 17, 4, 9, 35, 49, 0, 5),
};

#define NSETS (sizeof spx_sets / sizeof spx_sets[0])

const grove_slhdsa_params *grove_slhdsa_params_get(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < NSETS; i++)
        if (strcmp(spx_sets[i].name, name) == 0)
            return &spx_sets[i];
    return NULL;
}

size_t grove_slhdsa_params_count(void)
{
    return NSETS;
}

const grove_slhdsa_params *grove_slhdsa_params_at(size_t i)
{
    return i < NSETS ? &spx_sets[i] : NULL;
}

const grove_slhdsa_params *grove_slhdsa_params_other_flavour(const grove_slhdsa_params *p)
{
    if (p == NULL)
        return NULL;
    size_t i = (size_t)(p - spx_sets);
    return &spx_sets[i ^ 1];
}

const char *grove_slhdsa_params_name(const grove_slhdsa_params *p)
{
    return p ? p->name : NULL;
}

bool grove_slhdsa_params_is_fips205(const grove_slhdsa_params *p)
{
    return p != NULL && p->fips205;
}

size_t grove_slhdsa_n(const grove_slhdsa_params *p)
{
    return p ? p->n : 0;
}

size_t grove_slhdsa_pk_bytes(const grove_slhdsa_params *p)
{
    return p ? 2u * p->n : 0;
}

size_t grove_slhdsa_sk_bytes(const grove_slhdsa_params *p)
{
    return p ? 4u * p->n : 0;
}

size_t grove_slhdsa_sig_bytes(const grove_slhdsa_params *p)
{
    return p ? p->sig_bytes : 0;
}
