/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* In-memory DGSP store: member list + revocation list, one mutex, nothing persisted. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "common/util.h"
#include "dgsp/dgsp_int.h"
#include "grove/dgsp.h"

typedef struct {
    char *username; /* in one of the store's name chunks */
    uint64_t ctr;
    uint32_t ulen; /* at most GROVE_DGSP_MAX_USERNAME */
    bool active;
    /* 24 bytes: the name's hash lives in the name table's slot only */
} mem_member;

/* A slot of the name table (8 bytes, eight to a cache line): member id + 1 (0 = empty) and
 * the name's 32-bit hash, compared before the name itself so that a probe past other names
 * reads no member. 32-bit ids: the memory store holds at most MAX_MEMBERS members. */
typedef struct {
    uint32_t id1, hash;
} name_slot;
#define MAX_MEMBERS ((uint64_t)1 << 31)

/* Usernames are packed into chunks of at least NAME_CHUNK bytes (one allocation for many
 * members instead of one per member); a chunk is never moved, so members point into it. */
#define NAME_CHUNK (64 * 1024)
typedef struct name_chunk {
    struct name_chunk *next;
    size_t used, cap;
    char data[];
} name_chunk;

typedef struct {
    uint64_t w[2]; /* the zeta's bytes as two native words */
} zeta_slot_t;

typedef struct {
    pthread_mutex_t lock;
    /* members in segments that never move: segment k holds SEG0 << k of them (no realloc
     * copying a large array, which glibc does once its mmap threshold has risen) */
    mem_member *seg[64];
    name_chunk *chunks; /* the newest first */
    uint64_t nmembers, capmembers;
    unsigned nseg;
    /* username -> member, open addressing (linear probing, at most half full) */
    name_slot *names;
    size_t names_cap;
    unsigned names_shift; /* 32 - log2(names_cap) */
    /* revoked zetas, open addressing (linear probing, at most half full): a slot is the zeta
     * itself, all zero when empty; the all-zero zeta, should AES ever give it, is zeta_zero */
    zeta_slot_t *zetas;
    size_t zeta_cap, zeta_count;
    unsigned zeta_shift; /* 64 - log2(zeta_cap): a zeta's home slot is its top bits */
    bool zeta_zero;
    struct mem_meta {
        char key[64];
        uint8_t val[256];
        size_t len;
    } meta[16];
    size_t nmeta;
    /* the open transaction's changes, applied by mem_tx_end (the lock is held meanwhile) */
    uint8_t *tx_zetas;
    size_t tx_nzetas, tx_zetas_cap;
    uint64_t *tx_off; /* members to deactivate */
    size_t tx_noff, tx_off_cap;
} mem_store;

/*
 * Large tables (the name table, the revocation set, the member array) on transparent huge
 * pages where Linux offers them on request: each growth of a table touches all of a fresh
 * allocation, and in 4 KiB pages that is one page fault per 256 zetas (measured: most of the
 * faults of `bench_dgsp --count N sha2-128f revoke`); a 2 MiB page is one fault. Only a hint on
 * the 2 MiB-aligned inside of [p, p + len): nothing changes if the kernel declines it.
 */
#define HUGE_PAGE ((size_t)2 << 20)
static void hint_huge(void *p, size_t len)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (len < 2 * HUGE_PAGE)
        return;
    uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t e = ((uintptr_t)p + len) & ~(uintptr_t)(HUGE_PAGE - 1);
    if (e > a)
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)len;
#endif
}

/*
 * A table's memory: zeroed, and from the kernel directly when large (Linux), so that it comes
 * as fresh zero pages hinted onto huge pages before the first touch. From malloc instead, a
 * large calloc is memset once glibc's mmap threshold has risen (it does after the first large
 * free), which costs a pass over the table on each growth. table_free takes the same size.
 */
#define TABLE_MMAP_MIN ((size_t)1 << 20)
static void *table_calloc(size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size)
        return NULL;
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    if (n * size >= TABLE_MMAP_MIN) {
        void *p = mmap(NULL, n * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        hint_huge(p, n * size);
        return p;
    }
#endif
    return calloc(n, size);
}

static void table_free(void *p, size_t bytes)
{
    if (p == NULL)
        return;
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    if (bytes >= TABLE_MMAP_MIN) {
        (void)munmap(p, bytes);
        return;
    }
#endif
    (void)bytes;
    free(p);
}

/* floor(log2(x)), x > 0 */
static unsigned log2_floor(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return 63 - (unsigned)__builtin_clzll(x);
#else
    unsigned r = 0;
    for (unsigned k = 32; k > 0; k /= 2)
        if (x >> k) {
            x >>= k;
            r += k;
        }
    return r;
#endif
}

#define SEG0_BITS 6 /* the first segment: 64 members */

/* Member id (below capmembers). */
static mem_member *member_at(const mem_store *m, uint64_t id)
{
    uint64_t x = id + ((uint64_t)1 << SEG0_BITS);
    unsigned top = log2_floor(x);
    return &m->seg[top - SEG0_BITS][x - ((uint64_t)1 << top)];
}

/* FNV-1a with a final mix, so that the top bits (a name's home slot) depend on every byte */
static uint32_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 1099511628211ULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return (uint32_t)(h >> 32);
}

/* The home slot of hash h: its top bits. Order-preserving like the revocation set's (see
 * there), so that the table's growth walks both tables in order. */
static size_t name_home(const mem_store *m, uint32_t h)
{
    return (size_t)(h >> m->names_shift);
}

/* Member named u (its hash h = hash_str(u)) into *id; 0 if there is none. */
static int name_find(const mem_store *m, const char *u, uint32_t h, uint64_t *id)
{
    if (m->names_cap == 0)
        return 0;
    size_t mask = m->names_cap - 1;
    for (size_t i = name_home(m, h);; i = (i + 1) & mask) {
        const name_slot *sl = &m->names[i];
        if (sl->id1 == 0)
            return 0;
        if (sl->hash == h && strcmp(member_at(m, sl->id1 - 1)->username, u) == 0) {
            *id = sl->id1 - 1;
            return 1;
        }
    }
}

static void name_put(name_slot *t, size_t mask, size_t home, name_slot v)
{
    size_t i = home;
    while (t[i].id1 != 0)
        i = (i + 1) & mask;
    t[i] = v;
}

static void name_insert(mem_store *m, uint64_t id, uint32_t h)
{
    name_put(m->names, m->names_cap - 1, name_home(m, h), (name_slot){(uint32_t)(id + 1), h});
}

/* Make room for `extra` more members (arrays and name table); all or nothing. */
static int grow_members(mem_store *m, uint64_t extra)
{
    uint64_t need = m->nmembers + extra;
    if (need < m->nmembers || need > MAX_MEMBERS - 1 || need > SIZE_MAX / 4 / sizeof(name_slot))
        return GROVE_ERR_OVERFLOW;
    while (need > m->capmembers) {
        if (m->nseg >= 64 - SEG0_BITS)
            return GROVE_ERR_OVERFLOW;
        size_t n = (size_t)1 << (SEG0_BITS + m->nseg);
        if (n > SIZE_MAX / sizeof(mem_member))
            return GROVE_ERR_NOMEM;
        mem_member *sg = table_calloc(n, sizeof *sg);
        if (sg == NULL)
            return GROVE_ERR_NOMEM; /* the segments made so far stay, unused: harmless */
        m->seg[m->nseg++] = sg;
        m->capmembers += n;
    }
    if (2 * need > m->names_cap) {
        size_t cap = m->names_cap ? m->names_cap : 128;
        unsigned shift = m->names_cap ? m->names_shift : 32 - 7;
        while (cap < 2 * need) {
            cap *= 2;
            shift--;
        }
        name_slot *nn = table_calloc(cap, sizeof *nn);
        if (nn == NULL)
            return GROVE_ERR_NOMEM;
        /* the old table in order from after an empty slot (a cluster wrapping round the end
         * moves in its probe order): home h goes to 2h or 2h+1, the writes follow the reads */
        size_t ocap = m->names_cap, start = 0;
        while (start < ocap && m->names[start].id1 != 0)
            start++;
        for (size_t k = 0; k < ocap; k++) {
            const name_slot *sl = &m->names[(start + k) & (ocap - 1)];
            if (sl->id1 != 0)
                name_put(nn, cap - 1, (size_t)(sl->hash >> shift), *sl);
        }
        table_free(m->names, ocap * sizeof *m->names);
        m->names = nn;
        m->names_cap = cap;
        m->names_shift = shift;
    }
    return GROVE_OK;
}

static int cmp_str_ptr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static grove_status mem_add_members(void *ctx, const char *const *usernames, size_t count,
                                    uint64_t *ids)
{
    mem_store *m = ctx;
    int r = GROVE_OK;
    if (count > 1) { /* a name twice in the batch */
        const char **sorted = malloc(count * sizeof *sorted);
        if (sorted == NULL)
            return GROVE_ERR_NOMEM;
        memcpy(sorted, usernames, count * sizeof *sorted);
        qsort(sorted, count, sizeof *sorted, cmp_str_ptr);
        for (size_t i = 1; i < count; i++)
            if (strcmp(sorted[i - 1], sorted[i]) == 0)
                r = GROVE_ERR_EXISTS;
        free(sorted);
        if (r != GROVE_OK)
            return r;
    }
    pthread_mutex_lock(&m->lock);
    uint64_t tmp;
    for (size_t i = 0; i < count && r == GROVE_OK; i++)
        if (name_find(m, usernames[i], hash_str(usernames[i]), &tmp))
            r = GROVE_ERR_EXISTS;
    if (r == GROVE_OK)
        r = grow_members(m, count);
    /* room for every name in the newest chunk, or a new chunk: all or nothing */
    size_t bytes = 0;
    for (size_t i = 0; r == GROVE_OK && i < count; i++) {
        size_t l = strlen(usernames[i]) + 1;
        if (l > GROVE_DGSP_MAX_USERNAME + 1)
            r = GROVE_ERR_INVALID_ARG;
        else if (l > SIZE_MAX - bytes - sizeof(name_chunk))
            r = GROVE_ERR_OVERFLOW;
        else
            bytes += l;
    }
    if (r == GROVE_OK && count > 0 &&
        (m->chunks == NULL || m->chunks->cap - m->chunks->used < bytes)) {
        /* chunks double while smaller than 4 bytes per member so far: fewer, larger ones */
        size_t cap = m->chunks == NULL ? NAME_CHUNK : m->chunks->cap;
        if (cap < SIZE_MAX / 4 && cap < (size_t)m->nmembers * 4)
            cap *= 2;
        if (cap < bytes)
            cap = bytes;
        name_chunk *c = malloc(sizeof *c + cap);
        if (c == NULL) {
            r = GROVE_ERR_NOMEM;
        } else {
            hint_huge(c, sizeof *c + cap);
            c->next = m->chunks;
            c->used = 0;
            c->cap = cap;
            m->chunks = c;
        }
    }
    if (r == GROVE_OK) {
        for (size_t i = 0; i < count; i++) {
            uint64_t id = m->nmembers++;
            size_t l = strlen(usernames[i]);
            char *u = m->chunks->data + m->chunks->used;
            memcpy(u, usernames[i], l + 1);
            m->chunks->used += l + 1;
            *member_at(m, id) = (mem_member){u, 0, (uint32_t)l, 1};
            name_insert(m, id, hash_str(u));
            if (ids)
                ids[i] = id;
        }
    }
    pthread_mutex_unlock(&m->lock);
    return r;
}

static grove_status mem_get_member(void *ctx, uint64_t id, grove_dgsp_member *out)
{
    mem_store *m = ctx;
    int r = GROVE_ERR_NOT_FOUND;
    pthread_mutex_lock(&m->lock);
    if (id < m->nmembers) {
        mem_member *e = member_at(m, id);
        out->id = id;
        out->ctr = e->ctr;
        out->active = e->active;
        out->username_len = e->ulen;
        memcpy(out->username, e->username, e->ulen + 1);
        r = GROVE_OK;
    }
    pthread_mutex_unlock(&m->lock);
    return r;
}

static grove_status mem_find_member(void *ctx, const char *username, uint64_t *id)
{
    mem_store *m = ctx;
    pthread_mutex_lock(&m->lock);
    int found = name_find(m, username, hash_str(username), id);
    pthread_mutex_unlock(&m->lock);
    return found ? GROVE_OK : GROVE_ERR_NOT_FOUND;
}

static grove_status mem_member_count(void *ctx, uint64_t *count)
{
    mem_store *m = ctx;
    pthread_mutex_lock(&m->lock);
    *count = m->nmembers;
    pthread_mutex_unlock(&m->lock);
    return GROVE_OK;
}

static grove_status mem_reserve(void *ctx, uint64_t id, uint64_t count, uint64_t *first)
{
    mem_store *m = ctx;
    int r = GROVE_OK;
    pthread_mutex_lock(&m->lock);
    if (id >= m->nmembers)
        r = GROVE_ERR_NOT_FOUND;
    else if (!member_at(m, id)->active)
        r = GROVE_ERR_REVOKED;
    else if (member_at(m, id)->ctr > UINT64_MAX - count)
        r = GROVE_ERR_OVERFLOW;
    else {
        *first = member_at(m, id)->ctr;
        member_at(m, id)->ctr += count;
    }
    pthread_mutex_unlock(&m->lock);
    return r;
}

/* ---- revocation set --------------------------------------------------------------------- */

/*
 * The zetas are AES outputs, uniformly spread, so their first 8 bytes (big-endian) are the
 * hash and a zeta's home slot is their top log2(cap) bits. That order-preserving choice makes
 * the table's growth a stream: a zeta at home h moves to home 2h or 2h+1 of the doubled table,
 * so walking the old table in order writes the new one almost in order (no cache miss per zeta,
 * unlike a rehash that scatters). One slot, one cache line per probe: the used flag is the
 * slot's content itself.
 */
static uint64_t zeta_key(const uint8_t z[16])
{
    return grove_load64_be(z);
}

static bool slot_empty(const zeta_slot_t *s)
{
    return (s->w[0] | s->w[1]) == 0;
}

/* Slot of zeta z (as words zw) in the table, or the empty slot where it would go. */
static size_t zeta_probe(const zeta_slot_t *t, size_t mask, unsigned shift, uint64_t key,
                         const zeta_slot_t *zw, int *found)
{
    for (size_t i = (size_t)(key >> shift);; i = (i + 1) & mask) {
        const zeta_slot_t *s = &t[i];
        if (s->w[0] == zw->w[0] && s->w[1] == zw->w[1]) {
            *found = 1;
            return i;
        }
        if (slot_empty(s)) {
            *found = 0;
            return i;
        }
    }
}

static bool zeta_is_zero(const zeta_slot_t *zw)
{
    return slot_empty(zw);
}

static int zeta_present(const mem_store *m, const uint8_t z[16])
{
    zeta_slot_t zw;
    memcpy(&zw, z, 16);
    if (zeta_is_zero(&zw))
        return m->zeta_zero;
    if (m->zeta_cap == 0)
        return 0;
    int found;
    zeta_probe(m->zetas, m->zeta_cap - 1, m->zeta_shift, zeta_key(z), &zw, &found);
    return found;
}

/* Room for `extra` more zetas with the table at most half full; all or nothing. */
static int zeta_reserve(mem_store *m, size_t extra)
{
    size_t need = m->zeta_count + extra;
    if (need < m->zeta_count || need > SIZE_MAX / 64)
        return GROVE_ERR_NOMEM;
    if (2 * need <= m->zeta_cap)
        return GROVE_OK;
    size_t cap = m->zeta_cap ? m->zeta_cap : 1024;
    unsigned shift = m->zeta_cap ? m->zeta_shift : 64 - 10;
    while (cap < 2 * need) {
        cap *= 2;
        shift--;
    }
    zeta_slot_t *nt = table_calloc(cap, sizeof *nt);
    if (nt == NULL)
        return GROVE_ERR_NOMEM;
    const zeta_slot_t *ot = m->zetas;
    size_t ocap = m->zeta_cap;
    /* old table in order, starting after an empty slot so that a cluster wrapping round the
     * end is moved in its probe order */
    size_t start = 0;
    while (start < ocap && !slot_empty(&ot[start]))
        start++;
    for (size_t k = 0; k < ocap; k++) {
        const zeta_slot_t *s = &ot[(start + k) & (ocap - 1)];
        if (slot_empty(s))
            continue;
        uint8_t zb[16];
        memcpy(zb, s, 16);
        int f;
        size_t i = zeta_probe(nt, cap - 1, shift, zeta_key(zb), s, &f);
        nt[i] = *s;
    }
    table_free(m->zetas, ocap * sizeof *m->zetas);
    m->zetas = nt;
    m->zeta_cap = cap;
    m->zeta_shift = shift;
    return GROVE_OK;
}

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH_W(p) __builtin_prefetch((p), 1)
#else
#define PREFETCH_W(p) ((void)(p))
#endif

/* Adds z (room reserved by zeta_reserve). */
static void zeta_insert(mem_store *m, const uint8_t z[16])
{
    zeta_slot_t zw;
    memcpy(&zw, z, 16);
    if (zeta_is_zero(&zw)) {
        m->zeta_count += !m->zeta_zero;
        m->zeta_zero = true;
        return;
    }
    int found;
    size_t i = zeta_probe(m->zetas, m->zeta_cap - 1, m->zeta_shift, zeta_key(z), &zw, &found);
    if (!found) {
        m->zetas[i] = zw;
        m->zeta_count++;
    }
}

/* Adds zetas[0..count) (room reserved): the home slots of a group are fetched together first,
 * so that their cache misses overlap instead of coming one after the other. */
static void zeta_insert_many(mem_store *m, const uint8_t *zetas, size_t count)
{
    enum { GROUP = 16 };
    for (size_t g = 0; g < count; g += GROUP) {
        size_t k = count - g < GROUP ? count - g : GROUP;
        for (size_t i = 0; i < k; i++)
            PREFETCH_W(&m->zetas[zeta_key(zetas + 16 * (g + i)) >> m->zeta_shift]);
        for (size_t i = 0; i < k; i++)
            zeta_insert(m, zetas + 16 * (g + i));
    }
}

/*
 * Transactions: the lock is held from tx_begin to tx_end; the changes are collected and
 * applied together by tx_end once room for them is reserved, so a rollback just drops them.
 */
static grove_status mem_tx_begin(void *ctx)
{
    mem_store *m = ctx;
    pthread_mutex_lock(&m->lock);
    m->tx_nzetas = m->tx_noff = 0;
    return GROVE_OK;
}

static grove_status mem_tx_get_member(void *ctx, uint64_t id, grove_dgsp_member *out)
{
    mem_store *m = ctx;
    if (id >= m->nmembers)
        return GROVE_ERR_NOT_FOUND;
    mem_member *e = member_at(m, id);
    out->id = id;
    out->ctr = e->ctr;
    out->active = e->active;
    for (size_t i = 0; i < m->tx_noff; i++)
        if (m->tx_off[i] == id)
            out->active = false;
    out->username_len = e->ulen;
    memcpy(out->username, e->username, e->ulen + 1);
    return GROVE_OK;
}

/* A growing array p with room for `extra` more items of `size` bytes (NULL: out of memory,
 * p unchanged). */
static void *grow(void *p, size_t *cap, size_t used, size_t extra, size_t size)
{
    if (extra > SIZE_MAX / size / 2 - used)
        return NULL;
    if (p != NULL && used + extra <= *cap)
        return p;
    size_t c = *cap ? *cap : 64;
    while (c < used + extra)
        c *= 2;
    void *q = realloc(p, c * size);
    if (q != NULL)
        *cap = c;
    return q;
}

static grove_status mem_tx_deactivate(void *ctx, uint64_t id)
{
    mem_store *m = ctx;
    if (id >= m->nmembers)
        return GROVE_ERR_NOT_FOUND;
    uint64_t *off = grow(m->tx_off, &m->tx_off_cap, m->tx_noff, 1, sizeof *off);
    if (off == NULL)
        return GROVE_ERR_NOMEM;
    m->tx_off = off;
    m->tx_off[m->tx_noff++] = id;
    return GROVE_OK;
}

static grove_status mem_tx_add_revoked(void *ctx, const uint8_t *zetas, size_t count)
{
    mem_store *m = ctx;
    uint8_t *z = grow(m->tx_zetas, &m->tx_zetas_cap, m->tx_nzetas, count, 16);
    if (z == NULL)
        return GROVE_ERR_NOMEM;
    m->tx_zetas = z;
    if (count)
        memcpy(m->tx_zetas + 16 * m->tx_nzetas, zetas, 16 * count);
    m->tx_nzetas += count;
    return GROVE_OK;
}

static grove_status mem_tx_end(void *ctx, grove_status status)
{
    mem_store *m = ctx;
    if (status == GROVE_OK)
        status = (grove_status)zeta_reserve(m, m->tx_nzetas); /* the only step that can fail */
    if (status == GROVE_OK) {
        zeta_insert_many(m, m->tx_zetas, m->tx_nzetas);
        for (size_t i = 0; i < m->tx_noff; i++)
            member_at(m, m->tx_off[i])->active = false;
    }
    m->tx_nzetas = m->tx_noff = 0;
    pthread_mutex_unlock(&m->lock);
    return status;
}

static grove_status mem_is_revoked(void *ctx, const uint8_t zeta[16], bool *present)
{
    mem_store *m = ctx;
    pthread_mutex_lock(&m->lock);
    *present = zeta_present(m, zeta) != 0;
    pthread_mutex_unlock(&m->lock);
    return GROVE_OK;
}

static grove_status mem_add_revoked(void *ctx, const uint8_t *zetas, size_t count)
{
    mem_store *m = ctx;
    pthread_mutex_lock(&m->lock);
    int r = zeta_reserve(m, count);
    if (r == GROVE_OK)
        zeta_insert_many(m, zetas, count);
    pthread_mutex_unlock(&m->lock);
    return r;
}

static int cmp16(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

static grove_status mem_list_revoked(void *ctx, grove_status (*fn)(void *, const uint8_t *, size_t),
                                     void *arg)
{
    mem_store *m = ctx;
    pthread_mutex_lock(&m->lock);
    size_t n = m->zeta_count;
    uint8_t *copy = malloc(n ? 16 * n : 1);
    if (copy == NULL) {
        pthread_mutex_unlock(&m->lock);
        return GROVE_ERR_NOMEM;
    }
    size_t o = 0;
    if (m->zeta_zero)
        memset(copy + 16 * o++, 0, 16);
    for (size_t i = 0; i < m->zeta_cap; i++)
        if (!slot_empty(&m->zetas[i]))
            memcpy(copy + 16 * o++, &m->zetas[i], 16);
    pthread_mutex_unlock(&m->lock);
    qsort(copy, n, 16, cmp16);
    int r = GROVE_OK;
    for (size_t i = 0; i < n && r == GROVE_OK; i += 4096)
        r = fn(arg, copy + 16 * i, n - i < 4096 ? n - i : 4096);
    free(copy);
    return r;
}

static void mem_close(void *ctx)
{
    mem_store *m = ctx;
    while (m->chunks != NULL) {
        name_chunk *c = m->chunks;
        m->chunks = c->next;
        free(c);
    }
    for (unsigned k = 0; k < m->nseg; k++)
        table_free(m->seg[k], ((size_t)1 << (SEG0_BITS + k)) * sizeof(mem_member));
    table_free(m->names, m->names_cap * sizeof *m->names);
    table_free(m->zetas, m->zeta_cap * sizeof *m->zetas);
    free(m->tx_zetas);
    free(m->tx_off);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

static struct mem_meta *meta_find(mem_store *m, const char *key)
{
    for (size_t i = 0; i < m->nmeta; i++)
        if (strcmp(m->meta[i].key, key) == 0)
            return &m->meta[i];
    return NULL;
}

static grove_status mem_meta_get(void *ctx, const char *key, uint8_t *val, size_t cap, size_t *len)
{
    mem_store *m = ctx;
    pthread_mutex_lock(&m->lock);
    struct mem_meta *e = meta_find(m, key);
    int r = e == NULL ? GROVE_ERR_NOT_FOUND : e->len > cap ? GROVE_ERR_BUFFER_TOO_SMALL : GROVE_OK;
    if (r == GROVE_OK) {
        memcpy(val, e->val, e->len);
        *len = e->len;
    }
    pthread_mutex_unlock(&m->lock);
    return r;
}

static grove_status mem_meta_set(void *ctx, const char *key, const uint8_t *val, size_t len)
{
    mem_store *m = ctx;
    if (strlen(key) >= sizeof m->meta[0].key || len > sizeof m->meta[0].val)
        return GROVE_ERR_INVALID_ARG;
    pthread_mutex_lock(&m->lock);
    struct mem_meta *e = meta_find(m, key);
    int r = GROVE_OK;
    if (e == NULL && m->nmeta < GROVE_ARRAY_LEN(m->meta)) {
        e = &m->meta[m->nmeta++];
        snprintf(e->key, sizeof e->key, "%s", key);
    }
    if (e == NULL) {
        r = GROVE_ERR_NOMEM;
    } else {
        memcpy(e->val, val, len);
        e->len = len;
    }
    pthread_mutex_unlock(&m->lock);
    return r;
}

static grove_status mem_meta_next(void *ctx, const char *key, uint64_t *value)
{
    uint8_t b[8];
    size_t l = 0;
    uint64_t v = 0;
    mem_store *m = ctx;
    /* a get + set pair under the lock of each: callers of the memory store are one process */
    if (mem_meta_get(m, key, b, 8, &l) == GROVE_OK && l == 8)
        v = grove_load64_be(b);
    grove_store64_be(b, ++v);
    int r = mem_meta_set(m, key, b, 8);
    if (r == GROVE_OK)
        *value = v;
    return r;
}

static const grove_dgsp_store_ops mem_ops = {
    .add_members = mem_add_members,
    .get_member = mem_get_member,
    .find_member = mem_find_member,
    .member_count = mem_member_count,
    .reserve = mem_reserve,
    .is_revoked = mem_is_revoked,
    .add_revoked = mem_add_revoked,
    .list_revoked = mem_list_revoked,
    .tx_begin = mem_tx_begin,
    .tx_end = mem_tx_end,
    .tx_get_member = mem_tx_get_member,
    .tx_deactivate = mem_tx_deactivate,
    .tx_add_revoked = mem_tx_add_revoked,
    .close = mem_close,
    .meta_get = mem_meta_get,
    .meta_set = mem_meta_set,
    .meta_next = mem_meta_next,
    /* no last_error; no restore protection (guard, recover): nothing is persisted */
};

grove_status grove_dgsp_store_meta_get(grove_dgsp_store *store, uint8_t *val, size_t cap,
                                       size_t *len, const char *key)
{
    if (store == NULL || key == NULL || len == NULL || (val == NULL && cap))
        return GROVE_ERR_INVALID_ARG;
    if (store->ops->meta_get == NULL)
        return GROVE_ERR_NOT_FOUND;
    return store->ops->meta_get(store->ctx, key, val, cap, len);
}

grove_status grove_dgsp_store_meta_set(grove_dgsp_store *store, const char *key, const uint8_t *val,
                                       size_t len)
{
    if (store == NULL || key == NULL || (val == NULL && len))
        return GROVE_ERR_INVALID_ARG;
    if (store->ops->meta_set == NULL)
        return GROVE_ERR_UNSUPPORTED;
    int r = dgsp_guard_enter(store);
    if (r != GROVE_OK)
        return r;
    return dgsp_guard_leave(store, store->ops->meta_set(store->ctx, key, val, len));
}

grove_status grove_dgsp_store_meta_next(grove_dgsp_store *store, uint64_t *value, const char *key)
{
    if (store == NULL || key == NULL || value == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (store->ops->meta_next == NULL)
        return GROVE_ERR_UNSUPPORTED;
    int r = dgsp_guard_enter(store);
    if (r != GROVE_OK)
        return r;
    return dgsp_guard_leave(store, store->ops->meta_next(store->ctx, key, value));
}

const char *grove_dgsp_store_error(grove_dgsp_store *store)
{
    const char *g = dgsp_guard_message(store);
    if (g != NULL)
        return g; /* restore protection refused the last change */
    if (store == NULL || store->ops->last_error == NULL)
        return NULL;
    return store->ops->last_error(store->ctx);
}

grove_status grove_dgsp_store_memory_open(grove_dgsp_store **out)
{
    if (out == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_dgsp_store *s = calloc(1, sizeof *s);
    mem_store *m = calloc(1, sizeof *m);
    if (s == NULL || m == NULL || pthread_mutex_init(&m->lock, NULL) != 0) {
        free(s);
        free(m);
        return GROVE_ERR_NOMEM;
    }
    s->ops = &mem_ops;
    s->ctx = m;
    *out = s;
    return GROVE_OK;
}

void grove_dgsp_store_close(grove_dgsp_store *store)
{
    if (store == NULL)
        return;
    if (store->ops && store->ops->close)
        store->ops->close(store->ctx);
    dgsp_guard_free(store->guard);
    free(store);
}
