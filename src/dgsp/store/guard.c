/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Restore protection of DGSP manager stores (grove_dgsp_store_set_registry in grove/dgsp.h).
 *
 * The state registry entry ("dgsp-store", SHA-256("grove-dgsp-store-v1" || group_pk)) holds
 *   grove-dgsp-store v1
 *   generation G / members M / ctr-max C / revocations-seq S   (one "key value" line each)
 *   store PATH                                                   (for messages only)
 * A change goes: lock the entry; compare the store's summary with the record (any field behind:
 * refused, GROVE_ERR_STATE); set the store's floor to G so the change's own transaction refuses
 * an older store too; commit the change; write the store's new summary to the entry (durable);
 * unlock. Only then does the caller release what the change produced.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "dgsp/dgsp_int.h"
#include "hash/sha2.h"

#define GUARD_KIND "dgsp-store"
#define GUARD_LABEL "grove-dgsp-store-v1"
#define GUARD_HEADER "grove-dgsp-store v1\n"

struct grove_dgsp_guard {
    grove_registry *reg;
    uint8_t id[32];
    char where[512];
    grove_registry_entry *entry; /* held between enter and leave */
    uint64_t floor;              /* the record's generation at the last enter */
    char msg[1024];              /* why the last change was refused */
};

static const char *const field_names[4] = {"generation", "members", "ctr-max", "revocations-seq"};

static uint64_t *field(grove_dgsp_store_summary *s, int i)
{
    uint64_t *f[4] = {&s->generation, &s->members, &s->ctr_max, &s->revocations_seq};
    return f[i];
}

/* Read the record: GROVE_OK, GROVE_ERR_NOT_FOUND (none yet) or GROVE_ERR_STATE (damaged). */
static int record_read(grove_dgsp_guard *g, grove_registry_entry *e, grove_dgsp_store_summary *rec)
{
    char *text = NULL;
    size_t len = 0;
    int r = e ? grove_registry_read(e, &text, &len)
              : grove_registry_peek(g->reg, &text, &len, GUARD_KIND, g->id, sizeof g->id);
    if (r != GROVE_OK)
        return r;
    if (strncmp(text, GUARD_HEADER, sizeof GUARD_HEADER - 1) != 0)
        r = GROVE_ERR_STATE;
    for (int i = 0; i < 4 && r == GROVE_OK; i++)
        if (grove_record_u64(field(rec, i), text, field_names[i]) != GROVE_OK)
            r = GROVE_ERR_STATE;
    free(text);
    return r;
}

static int record_write(grove_dgsp_guard *g, grove_dgsp_store_summary *sum)
{
    char text[1024];
    int n = snprintf(text, sizeof text,
                     GUARD_HEADER "generation %llu\nmembers %llu\nctr-max %llu\n"
                                  "revocations-seq %llu\nstore %s\n",
                     (unsigned long long)sum->generation, (unsigned long long)sum->members,
                     (unsigned long long)sum->ctr_max, (unsigned long long)sum->revocations_seq,
                     g->where);
    if (n < 0 || (size_t)n >= sizeof text)
        return GROVE_ERR_INTERNAL;
    return grove_registry_write(g->entry, text, (size_t)n);
}

grove_status grove_dgsp_store_set_registry(grove_dgsp_store *store, grove_registry *reg,
                                           const uint8_t *group_pk, size_t pk_len,
                                           const char *where)
{
    if (store == NULL || reg == NULL || group_pk == NULL || pk_len == 0 ||
        pk_len > GROVE_DGSP_MAX_PK_BYTES)
        return GROVE_ERR_INVALID_ARG;
    if (store->ops->guard == NULL || store->ops->recover == NULL)
        return GROVE_ERR_UNSUPPORTED;
    grove_dgsp_guard *g = calloc(1, sizeof *g);
    if (g == NULL)
        return GROVE_ERR_NOMEM;
    g->reg = reg;
    grove_sha256_ctx c;
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)GUARD_LABEL, sizeof GUARD_LABEL - 1);
    grove_sha256_update(&c, group_pk, pk_len);
    grove_sha256_final(&c, g->id, sizeof g->id);
    /* one line of text: control characters in the path are shown as '?' */
    snprintf(g->where, sizeof g->where, "%s", where ? where : "(unnamed store)");
    for (char *p = g->where; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    dgsp_guard_free(store->guard);
    store->guard = g;
    return GROVE_OK;
}

void dgsp_guard_free(grove_dgsp_guard *g)
{
    if (g == NULL)
        return;
    grove_registry_unlock(g->entry);
    free(g);
}

const char *dgsp_guard_message(const grove_dgsp_store *store)
{
    return store && store->guard && store->guard->msg[0] ? store->guard->msg : NULL;
}

/* The first field in which the store is behind the record, or -1. */
static int behind(grove_dgsp_store_summary *st, grove_dgsp_store_summary *rec)
{
    for (int i = 0; i < 4; i++)
        if (*field(st, i) < *field(rec, i))
            return i;
    return -1;
}

int dgsp_guard_enter(grove_dgsp_store *store)
{
    grove_dgsp_guard *g = store->guard;
    if (g == NULL)
        return GROVE_OK;
    g->msg[0] = '\0';
    if (g->entry != NULL)
        return GROVE_ERR_INTERNAL; /* nested changes */
    int r = grove_registry_lock(g->reg, &g->entry, GUARD_KIND, g->id, sizeof g->id);
    if (r != GROVE_OK) {
        snprintf(g->msg, sizeof g->msg, "cannot lock the state registry entry of this group "
                                        "in %s", grove_registry_dir(g->reg));
        return r;
    }
    grove_dgsp_store_summary rec = {0, 0, 0, 0}, st;
    int have = 1;
    r = record_read(g, g->entry, &rec);
    if (r == GROVE_ERR_NOT_FOUND) {
        have = 0; /* first use on this machine: the store is adopted as it is */
        r = GROVE_OK;
    } else if (r == GROVE_ERR_STATE) {
        snprintf(g->msg, sizeof g->msg,
                 "the state registry entry %s is damaged; nothing was changed (restore the "
                 "registry folder, or see docs/dgsp.md on recovery)",
                 grove_registry_entry_path(g->entry));
    }
    if (r == GROVE_OK) {
        g->floor = rec.generation;
        r = store->ops->guard(store->ctx, g->floor, &st);
    }
    int i = r == GROVE_OK && have ? behind(&st, &rec) : -1;
    if (i >= 0) {
        snprintf(g->msg, sizeof g->msg,
                 "the store %s is older than what was already issued from it on this machine "
                 "(its %s is %llu, the state registry %s records %llu): it was restored from a "
                 "backup or copied, and using it would issue member ids or certificate counters a "
                 "second time. Nothing was changed. Use the newest store; if this old copy is all "
                 "you have, run `grove dgsp manager recover` (docs/dgsp.md)",
                 g->where, field_names[i], (unsigned long long)*field(&st, i),
                 grove_registry_entry_path(g->entry), (unsigned long long)*field(&rec, i));
        r = GROVE_ERR_STATE;
    }
    if (r != GROVE_OK) {
        grove_registry_unlock(g->entry);
        g->entry = NULL;
    }
    return r;
}

int dgsp_guard_leave(grove_dgsp_store *store, int r)
{
    grove_dgsp_guard *g = store->guard;
    if (g == NULL || g->entry == NULL)
        return r;
    if (r == GROVE_ERR_STATE && g->msg[0] == '\0')
        snprintf(g->msg, sizeof g->msg,
                 "the store %s was refused: it is older than the state registry's record (a "
                 "restored or copied store); nothing was changed. See `grove dgsp manager "
                 "recover` (docs/dgsp.md)",
                 g->where);
    /* Even after a failed change: the record follows the store (it never goes down). */
    grove_dgsp_store_summary st, rec;
    int w = store->ops->guard(store->ctx, g->floor, &st);
    int have = record_read(g, g->entry, &rec);
    if (w == GROVE_OK && have == GROVE_OK && behind(&st, &rec) >= 0)
        w = GROVE_ERR_STATE; /* never lower the record */
    else if (w == GROVE_OK)
        w = record_write(g, &st);
    if (w != GROVE_OK && r == GROVE_OK) {
        snprintf(g->msg, sizeof g->msg,
                 "the change was committed to the store but the state registry entry %s could "
                 "not be updated (%s): nothing it produced is released",
                 grove_registry_entry_path(g->entry), grove_strerror(w));
        r = w == GROVE_ERR_STATE ? w : GROVE_ERR_IO;
    }
    grove_registry_unlock(g->entry);
    g->entry = NULL;
    return r;
}

grove_status grove_dgsp_store_summary_get(grove_dgsp_store *store, grove_dgsp_store_summary *sum,
                                          grove_dgsp_store_summary *registry, bool *recorded)
{
    if (store == NULL || sum == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (store->ops->guard == NULL)
        return GROVE_ERR_UNSUPPORTED;
    grove_dgsp_guard *g = store->guard;
    int r = store->ops->guard(store->ctx, g ? g->floor : 0, sum);
    if (recorded)
        *recorded = 0;
    if (r == GROVE_OK && g != NULL && registry != NULL) {
        memset(registry, 0, sizeof *registry);
        int q = record_read(g, NULL, registry);
        if (q == GROVE_OK && recorded)
            *recorded = 1;
        else if (q != GROVE_ERR_NOT_FOUND && q != GROVE_OK)
            r = q;
    }
    return r;
}

grove_status grove_dgsp_store_recover(grove_dgsp_store *store, uint64_t *added, uint64_t *raised)
{
    if (store == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_dgsp_guard *g = store->guard;
    if (g == NULL || store->ops->recover == NULL)
        return GROVE_ERR_UNSUPPORTED;
    g->msg[0] = '\0';
    int r = grove_registry_lock(g->reg, &g->entry, GUARD_KIND, g->id, sizeof g->id);
    if (r != GROVE_OK)
        return r;
    grove_dgsp_store_summary rec = {0, 0, 0, 0};
    r = record_read(g, g->entry, &rec);
    if (r == GROVE_ERR_NOT_FOUND)
        r = GROVE_OK; /* nothing recorded: nothing to raise (the call is harmless) */
    if (r == GROVE_OK)
        r = store->ops->recover(store->ctx, &rec, "recovered-", added, raised);
    if (r == GROVE_ERR_EXISTS)
        snprintf(g->msg, sizeof g->msg, "a member is already named recovered-<id>: rename it "
                                        "and run recover again");
    return dgsp_guard_leave(store, r);
}

grove_status grove_dgsp_store_add_members(grove_dgsp_store *store, uint64_t *ids,
                                          const char *const *usernames, size_t count)
{
    if (store == NULL || (usernames == NULL && count))
        return GROVE_ERR_INVALID_ARG;
    for (size_t i = 0; i < count; i++)
        if (!grove_dgsp_username_is_valid(usernames[i]))
            return GROVE_ERR_INVALID_ARG;
    int r = dgsp_guard_enter(store);
    if (r != GROVE_OK)
        return r;
    r = store->ops->add_members(store->ctx, usernames, count, ids);
    return dgsp_guard_leave(store, r);
}
