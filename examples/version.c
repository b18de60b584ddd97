/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The smallest grove program: print the library version and the hash code path in use. */
#include <grove/grove.h>
#include <stdio.h>

int main(void)
{
    uint8_t r[16];
    if (grove_randombytes(r, sizeof r) != GROVE_OK) {
        fprintf(stderr, "randomness failed\n");
        return 1;
    }
    printf("libgrove %s, hash path %s\n", grove_version(), grove_cpu_path());
    return 0;
}
