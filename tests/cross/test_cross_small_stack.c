/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * CROSS sign and verify keep no workspace on the stack (issue 17): every set, both strategies,
 * run on a thread with a 128 KiB stack and give the same signature as on the main thread (the
 * fast strategy used to put up to 1 MiB of workspace on the stack, in one of ~130 size-class
 * functions, and crashed there). Also: the caller-provided workspace gives the same bytes.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cross/cross_internal.h"
#include "grove/cross.h"
#include "test.h"

#define SMALL_STACK (128u * 1024u)

typedef struct job {
    const grove_cross_params *p;
    grove_cross_strategy s;
    const uint8_t *sk, *pk, *rnd, *msg;
    size_t mlen;
    uint8_t *sig;
    int sign_rc, verify_rc;
} job;

static void run_job(job *j)
{
    size_t seed = grove_cross_sk_bytes(j->p) / 2;
    j->sign_rc = cross_sign_derand(j->p, j->s, j->sig, j->msg, j->mlen, j->sk, j->rnd,
                                   j->rnd + seed, NULL, 0);
    j->verify_rc =
        grove_cross_verify(j->p, j->s, j->sig, grove_cross_sig_bytes(j->p), j->msg, j->mlen, j->pk);
}

static void *thread_main(void *arg)
{
    run_job((job *)arg);
    return NULL;
}

/* Runs the job on a thread whose stack is SMALL_STACK bytes; 0 if the thread could not run. */
static int run_on_small_stack(job *j)
{
    pthread_attr_t attr;
    pthread_t th;
    if (pthread_attr_init(&attr) != 0)
        return 0;
    int ok = pthread_attr_setstacksize(&attr, SMALL_STACK) == 0 &&
             pthread_create(&th, &attr, thread_main, j) == 0;
    pthread_attr_destroy(&attr);
    return ok && pthread_join(th, NULL) == 0;
}

static void test_set(const grove_cross_params *p)
{
    size_t pkl = grove_cross_pk_bytes(p), skl = grove_cross_sk_bytes(p);
    size_t sl = grove_cross_sig_bytes(p);
    uint8_t pk[256], sk[64], seed[64], rnd[96], msg[33];
    for (size_t i = 0; i < sizeof seed; i++)
        seed[i] = (uint8_t)(7 * i + 1);
    for (size_t i = 0; i < sizeof rnd; i++)
        rnd[i] = (uint8_t)(13 * i + 5);
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)i;
    CHECK(pkl <= sizeof pk && skl <= sizeof sk);
    CHECK_EQ_INT(grove_cross_keygen_from_seed(p, pk, sk, seed), GROVE_OK);
    uint8_t *ref = calloc(1, sl), *thr = calloc(1, sl), *wsig = calloc(1, sl);
    CHECK(ref != NULL && thr != NULL && wsig != NULL);
    for (int si = 0; si < 2; si++) {
        grove_cross_strategy s = si ? GROVE_CROSS_SMALL_MEMORY : GROVE_CROSS_FAST;
        job main_job = {p, s, sk, pk, rnd, msg, sizeof msg, ref, -1, -1};
        run_job(&main_job);
        CHECK_EQ_INT(main_job.sign_rc, GROVE_OK);
        CHECK_EQ_INT(main_job.verify_rc, GROVE_OK);
        job small = {p, s, sk, pk, rnd, msg, sizeof msg, thr, -1, -1};
        CHECK(run_on_small_stack(&small));
        CHECK_EQ_INT(small.sign_rc, GROVE_OK);
        CHECK_EQ_INT(small.verify_rc, GROVE_OK);
        CHECK(memcmp(ref, thr, sl) == 0);
        /* the same bytes with the caller's workspace */
        size_t need = grove_cross_workspace_bytes(p, s, GROVE_CROSS_OP_SIGN);
        uint64_t *ws = malloc(need);
        CHECK(ws != NULL);
        size_t seedlen = skl / 2;
        CHECK_EQ_INT(cross_sign_derand(p, s, wsig, msg, sizeof msg, sk, rnd, rnd + seedlen, ws,
                                       need),
                     GROVE_OK);
        CHECK(memcmp(ref, wsig, sl) == 0);
        free(ws);
    }
    free(ref);
    free(thr);
    free(wsig);
}

int main(void)
{
    for (size_t i = 0; i < grove_cross_params_count(); i++)
        test_set(grove_cross_params_at(i));
    return test_done();
}
