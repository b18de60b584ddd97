/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The 21 XMSS and 56 XMSS^MT parameter sets of RFC 8391 and SP 800-208 (IANA registry). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "xmss/xmss_int.h"

#define IDXB(mt, h) ((mt) ? ((h) + 7) / 8 : 4)
#define SIGB(mt, n, h, d) (IDXB(mt, h) + (n) + ((d) * (2 * (n) + 3) + (h)) * (n))
#define SET(nm, hn, o, mt, kind, n, pad, h, d, ap)                                          \
    {nm, hn, o, mt, kind, n, pad, h, d, (h) / (d), 2 * (n) + 3, IDXB(mt, h), ap, 10,        \
     SIGB(mt, n, h, d), 4 + 2 * (n)}

#define X3(pre, post, o, kind, hn, n, pad, ap)                                              \
    SET(pre "_10_" post, hn, o, 0, kind, n, pad, 10, 1, ap),                                \
    SET(pre "_16_" post, hn, (o) + 1, 0, kind, n, pad, 16, 1, ap),                          \
    SET(pre "_20_" post, hn, (o) + 2, 0, kind, n, pad, 20, 1, ap)

#define MT8(pre, post, o, kind, hn, n, pad, ap)                                             \
    SET(pre "_20/2_" post, hn, (o) + 0, 1, kind, n, pad, 20, 2, ap),                        \
    SET(pre "_20/4_" post, hn, (o) + 1, 1, kind, n, pad, 20, 4, ap),                        \
    SET(pre "_40/2_" post, hn, (o) + 2, 1, kind, n, pad, 40, 2, ap),                        \
    SET(pre "_40/4_" post, hn, (o) + 3, 1, kind, n, pad, 40, 4, ap),                        \
    SET(pre "_40/8_" post, hn, (o) + 4, 1, kind, n, pad, 40, 8, ap),                        \
    SET(pre "_60/3_" post, hn, (o) + 5, 1, kind, n, pad, 60, 3, ap),                        \
    SET(pre "_60/6_" post, hn, (o) + 6, 1, kind, n, pad, 60, 6, ap),                        \
    SET(pre "_60/12_" post, hn, (o) + 7, 1, kind, n, pad, 60, 12, ap)

static const grove_xmss_params table[] = {
    X3("XMSS-SHA2", "256", 0x01, XMSS_SHA256, "SHA2-256", 32, 32, 1),
    X3("XMSS-SHA2", "512", 0x04, XMSS_SHA512, "SHA2-512", 64, 64, 0),
    X3("XMSS-SHAKE", "256", 0x07, XMSS_SHAKE128, "SHAKE128", 32, 32, 0),
    X3("XMSS-SHAKE", "512", 0x0a, XMSS_SHAKE256, "SHAKE256", 64, 64, 0),
    X3("XMSS-SHA2", "192", 0x0d, XMSS_SHA256, "SHA2-256/192", 24, 4, 1),
    X3("XMSS-SHAKE256", "256", 0x10, XMSS_SHAKE256, "SHAKE256", 32, 32, 1),
    X3("XMSS-SHAKE256", "192", 0x13, XMSS_SHAKE256, "SHAKE256", 24, 4, 1),
    MT8("XMSSMT-SHA2", "256", 0x01, XMSS_SHA256, "SHA2-256", 32, 32, 1),
    MT8("XMSSMT-SHA2", "512", 0x09, XMSS_SHA512, "SHA2-512", 64, 64, 0),
    MT8("XMSSMT-SHAKE", "256", 0x11, XMSS_SHAKE128, "SHAKE128", 32, 32, 0),
    MT8("XMSSMT-SHAKE", "512", 0x19, XMSS_SHAKE256, "SHAKE256", 64, 64, 0),
    MT8("XMSSMT-SHA2", "192", 0x21, XMSS_SHA256, "SHA2-256/192", 24, 4, 1),
    MT8("XMSSMT-SHAKE256", "256", 0x29, XMSS_SHAKE256, "SHAKE256", 32, 32, 1),
    MT8("XMSSMT-SHAKE256", "192", 0x31, XMSS_SHAKE256, "SHAKE256", 24, 4, 1),
};

#define NSETS (sizeof table / sizeof table[0])

const grove_xmss_params *xmss_params_table(size_t *count)
{
    *count = NSETS;
    return table;
}

/* Names compare without case, with '-' accepted for the '/' of XMSS^MT heights. */
static int name_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = (char)toupper((unsigned char)*a), y = (char)toupper((unsigned char)*b);
        if (x == '-' && y == '/')
            x = '/';
        if (x != y)
            return 0;
    }
    return *a == *b;
}

const grove_xmss_params *grove_xmss_params_get(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < NSETS; i++) {
        /* the '-' alias only stands for the '/' between height and layers */
        const char *slash = strchr(table[i].name, '/');
        if (strcasecmp(name, table[i].name) == 0)
            return &table[i];
        if (slash != NULL && strlen(name) == strlen(table[i].name) &&
            name[slash - table[i].name] == '-' && name_eq(name, table[i].name))
            return &table[i];
    }
    return NULL;
}

const grove_xmss_params *grove_xmss_params_from_oid(grove_xmss_family family, uint32_t oid)
{
    for (size_t i = 0; i < NSETS; i++)
        if (table[i].mt == (unsigned)family && table[i].oid == oid)
            return &table[i];
    return NULL;
}

size_t grove_xmss_params_count(void)
{
    return NSETS;
}

const grove_xmss_params *grove_xmss_params_at(size_t i)
{
    return i < NSETS ? &table[i] : NULL;
}

const char *grove_xmss_params_name(const grove_xmss_params *p)
{
    return p ? p->name : NULL;
}
grove_xmss_family grove_xmss_params_family(const grove_xmss_params *p)
{
    return p && p->mt ? GROVE_XMSS_FAMILY_XMSSMT : GROVE_XMSS_FAMILY_XMSS;
}
uint32_t grove_xmss_params_oid(const grove_xmss_params *p)
{
    return p ? p->oid : 0;
}
const char *grove_xmss_params_hash(const grove_xmss_params *p)
{
    return p ? p->hash_name : NULL;
}
unsigned grove_xmss_params_n(const grove_xmss_params *p)
{
    return p ? p->n : 0;
}
unsigned grove_xmss_params_height(const grove_xmss_params *p)
{
    return p ? p->h : 0;
}
unsigned grove_xmss_params_layers(const grove_xmss_params *p)
{
    return p ? p->d : 0;
}
unsigned grove_xmss_params_tree_height(const grove_xmss_params *p)
{
    return p ? p->hp : 0;
}
unsigned grove_xmss_params_wots_len(const grove_xmss_params *p)
{
    return p ? p->len : 0;
}
bool grove_xmss_params_sp800_208(const grove_xmss_params *p)
{
    return p != NULL && p->approved;
}
size_t grove_xmss_pk_bytes(const grove_xmss_params *p)
{
    return p ? p->pk_bytes : 0;
}
size_t grove_xmss_sig_bytes(const grove_xmss_params *p)
{
    return p ? p->sig_bytes : 0;
}
size_t grove_xmss_index_bytes(const grove_xmss_params *p)
{
    return p ? p->idx_bytes : 0;
}
uint64_t grove_xmss_total_signatures(const grove_xmss_params *p)
{
    return p ? (uint64_t)1 << p->h : 0;
}
