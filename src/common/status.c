/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Status strings for grove_status (include/grove/common.h). */
#include "grove/common.h"

static const struct {
    int code;
    const char *name;
    const char *text;
} grove_status_table[] = {
    {GROVE_OK, "ok", "success"},
    {GROVE_ERR_INVALID_ARG, "invalid_argument", "invalid argument"},
    {GROVE_ERR_BUFFER_TOO_SMALL, "buffer_too_small", "output buffer too small"},
    {GROVE_ERR_ENCODING, "bad_encoding", "bad encoding or length"},
    {GROVE_ERR_VERIFY, "verify_failed", "verification failed"},
    {GROVE_ERR_REVOKED, "revoked", "revoked"},
    {GROVE_ERR_NOT_FOUND, "not_found", "not found"},
    {GROVE_ERR_EXISTS, "already_exists", "already exists"},
    {GROVE_ERR_EXHAUSTED, "exhausted", "key exhausted: no signature left"},
    {GROVE_ERR_STORAGE, "storage_error", "storage error"},
    {GROVE_ERR_RNG, "rng_failure", "random number generator failure"},
    {GROVE_ERR_UNSUPPORTED, "unsupported", "unsupported parameter set or option"},
    {GROVE_ERR_INSECURE_PROFILE, "insecure_profile", "refused: insecure profile"},
    {GROVE_ERR_INTERNAL, "internal_error", "internal error"},
    {GROVE_ERR_NOMEM, "out_of_memory", "out of memory"},
    {GROVE_ERR_STATE, "state_error", "key state missing, stale or inconsistent"},
    {GROVE_ERR_IO, "io_error", "input/output error"},
    {GROVE_ERR_DENIED, "request_denied", "request denied: bad credential or inactive member"},
    {GROVE_ERR_OVERFLOW, "overflow", "counter or size overflow"},
    {GROVE_ERR_LOTTERY_LOST, "lottery_lost", "no lottery won"},
    {GROVE_ERR_NOT_ENOUGH, "not_enough_signatures", "not enough signatures"},
};

#define GROVE_STATUS_COUNT (sizeof grove_status_table / sizeof grove_status_table[0])

const char *grove_strerror(grove_status status)
{
    for (size_t i = 0; i < GROVE_STATUS_COUNT; i++)
        if (grove_status_table[i].code == status)
            return grove_status_table[i].text;
    return "unknown status";
}

const char *grove_status_name(grove_status status)
{
    for (size_t i = 0; i < GROVE_STATUS_COUNT; i++)
        if (grove_status_table[i].code == status)
            return grove_status_table[i].name;
    return "unknown";
}

const char *grove_version(void)
{
    return GROVE_VERSION_STRING;
}
