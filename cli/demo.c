/* grove demo: a short end-to-end tour of what grove does, in plain words. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common/encoding.h"
#include "hash/sha2.h"

int cli_demo(cli_ctx *c);
int cli_demo(cli_ctx *c)
{
    uint8_t d[32];
    char hex[65];
    const char *msg = "grove";
    grove_sha256(d, (const uint8_t *)msg, strlen(msg));
    grove_hex_encode(hex, d, sizeof d);
    cli_say(c, "grove %s demo (hash path: %s)", grove_version(), grove_cpu_path());
    cli_say(c, "SHA-256(\"%s\") = %s", msg, hex);
    cli_out_str(c, "sha256", hex);
    return 0;
}
