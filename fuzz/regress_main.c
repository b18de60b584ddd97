/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Replays every file of the given folders through LLVMFuzzerTestOneInput (regression runner). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return 1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n < 0 || n > (64L << 20)) {
        fclose(f);
        return 1;
    }
    uint8_t *buf = malloc((size_t)n + 1);
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    if (buf == NULL || got != (size_t)n) {
        free(buf);
        return 1;
    }
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0;
    /* always run the empty input and a few fixed patterns too */
    static const uint8_t fixed[64] = {0};
    LLVMFuzzerTestOneInput(fixed, 0);
    LLVMFuzzerTestOneInput(fixed, sizeof fixed);
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            continue;
        if (!S_ISDIR(st.st_mode)) {
            files += run_file(argv[i]) == 0;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *de;
        while (d && (de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", argv[i], de->d_name);
            files += run_file(p) == 0;
        }
        if (d)
            closedir(d);
    }
    printf("replayed %d inputs without a crash\n", files);
    return 0;
}
