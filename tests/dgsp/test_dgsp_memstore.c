/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The in-memory store's member table (src/dgsp/store/memory.c): names added one at a time and
 * in batches, through many growths of its name table, are each found with their own id; a
 * name already taken is refused alone or inside a batch, and so is a batch naming one member
 * twice, with nothing added; names that share a prefix or differ in one byte stay apart.
 */
#include <stdio.h>
#include <string.h>

#include "grove/dgsp.h"
#include "test.h"

enum { SINGLE = 3000, BATCH = 500 };

int main(void)
{
    grove_dgsp_store *s = NULL;
    CHECK_EQ_INT(grove_dgsp_store_memory_open(&s), GROVE_OK);
    if (s == NULL)
        return test_done();
    char u[64];
    uint64_t id = 0, found = 0, count = 0;
    for (uint64_t i = 0; i < SINGLE; i++) { /* one at a time: the fast path */
        snprintf(u, sizeof u, "member-%llu", (unsigned long long)i);
        const char *one = u;
        CHECK_EQ_INT(grove_dgsp_store_add_members(s, &id, &one, 1), GROVE_OK);
        CHECK(id == i);
    }
    char names[BATCH][32];
    const char *batch[BATCH];
    uint64_t ids[BATCH];
    for (size_t i = 0; i < BATCH; i++) {
        snprintf(names[i], sizeof names[i], "batch-%zu", i);
        batch[i] = names[i];
    }
    CHECK_EQ_INT(grove_dgsp_store_add_members(s, ids, batch, BATCH), GROVE_OK);
    for (size_t i = 0; i < BATCH; i++)
        CHECK(ids[i] == SINGLE + i);
    for (uint64_t i = 0; i < SINGLE; i++) {
        snprintf(u, sizeof u, "member-%llu", (unsigned long long)i);
        CHECK_EQ_INT(s->ops->find_member(s->ctx, u, &found), GROVE_OK);
        CHECK(found == i);
    }
    for (size_t i = 0; i < BATCH; i++) {
        CHECK_EQ_INT(s->ops->find_member(s->ctx, names[i], &found), GROVE_OK);
        CHECK(found == SINGLE + i);
    }
    /* near misses are other names */
    CHECK_EQ_INT(s->ops->find_member(s->ctx, "member-", &found), GROVE_ERR_NOT_FOUND);
    CHECK_EQ_INT(s->ops->find_member(s->ctx, "member-30000", &found), GROVE_ERR_NOT_FOUND);
    CHECK_EQ_INT(s->ops->find_member(s->ctx, "Member-1", &found), GROVE_ERR_NOT_FOUND);

    /* taken names: alone, in a batch, and twice in one batch; nothing is added */
    const char *taken = "member-17";
    CHECK_EQ_INT(grove_dgsp_store_add_members(s, &id, &taken, 1), GROVE_ERR_EXISTS);
    const char *mixed[3] = {"fresh-1", "batch-3", "fresh-2"};
    CHECK_EQ_INT(grove_dgsp_store_add_members(s, ids, mixed, 3), GROVE_ERR_EXISTS);
    const char *twice[3] = {"fresh-1", "fresh-2", "fresh-1"};
    CHECK_EQ_INT(grove_dgsp_store_add_members(s, ids, twice, 3), GROVE_ERR_EXISTS);
    CHECK_EQ_INT(s->ops->member_count(s->ctx, &count), GROVE_OK);
    CHECK(count == SINGLE + BATCH);
    CHECK_EQ_INT(s->ops->find_member(s->ctx, "fresh-1", &found), GROVE_ERR_NOT_FOUND);
    const char *fresh = "fresh-1";
    CHECK_EQ_INT(grove_dgsp_store_add_members(s, &id, &fresh, 1), GROVE_OK);
    CHECK(id == SINGLE + BATCH);
    grove_dgsp_store_close(s);
    return test_done();
}
