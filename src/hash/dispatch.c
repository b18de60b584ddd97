/* Picks the hash kernels once, from the CPU features (see dispatch.h). */
#include <pthread.h>

#include "common/cpu.h"
#include "grove/common.h"
#include "hash/dispatch.h"
#include "common/util.h"
#include "hash/keccak.h"

static struct grove_hash_kernels selected;
static pthread_once_t select_once = PTHREAD_ONCE_INIT;

static void select_kernels(void)
{
    struct grove_hash_kernels k = {
        .name = "portable",
        .sha256_compress = grove_sha256_compress_portable,
        .sha512_compress = grove_sha512_compress_portable,
        .keccakf1600 = grove_keccakf1600_portable,
        .keccakf1600_many = NULL,
        .sha256_many = NULL,
        .sha512_many = NULL,
    };
    uint32_t f = grove_cpu_features();
#if GROVE_HAVE_X86_TARGETS
    if ((f & (GROVE_CPU_BMI1 | GROVE_CPU_BMI2)) == (GROVE_CPU_BMI1 | GROVE_CPU_BMI2)) {
        k.name = "portable-bmi";
        k.sha256_compress = grove_sha256_compress_bmi;
        k.sha512_compress = grove_sha512_compress_bmi;
        k.keccakf1600 = grove_keccakf1600_bmi;
    }
#endif
    selected = k;
}

const struct grove_hash_kernels *grove_hash_kernels(void)
{
    pthread_once(&select_once, select_kernels);
    return &selected;
}

const char *grove_cpu_path(void)
{
    return grove_hash_kernels()->name;
}
