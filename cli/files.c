/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* grove files: reading and writing the envelope (grove/envelope.h) for every scheme's command. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* What the first line of a file says it is ("GROVE XMSS SIGNATURE"), for a file too large. */
static void first_title(const char *path, char *out, size_t cap)
{
    out[0] = '\0';
    if (strcmp(path, "-") == 0)
        return;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return;
    char line[128];
    ssize_t n = read(fd, line, sizeof line - 1);
    close(fd);
    if (n <= 16 || memcmp(line, "-----BEGIN ", 11) != 0)
        return;
    line[n] = '\0';
    char *end = strstr(line + 11, "-----");
    if (end != NULL) {
        *end = '\0';
        snprintf(out, cap, "%s", line + 11);
    }
}

int cli_read_grove_file(cli_ctx *c, const char *path, const char *scheme, const char *type,
                        size_t maxlen, int secret, cli_file *f)
{
    memset(f, 0, sizeof *f);
    f->secret = secret;
    /* A regular file too large for what is expected: say what it is, if it says so. */
    struct stat sb;
    char title[128];
    if (strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
        (uint64_t)sb.st_size > maxlen) {
        first_title(path, title, sizeof title);
        if (title[0] != '\0')
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING, "%s is a %s file, not a %s%s%s",
                            path, title, scheme ? scheme : "", scheme && type ? " " : "",
                            type ? type : "grove file");
    }
    uint8_t *raw = NULL;
    size_t len = 0;
    int r = cli_read_file(c, path, maxlen, &raw, &len);
    if (r != 0)
        return r;
    f->buf = malloc(len ? len : 1);
    f->cap = len ? len : 1;
    if (f->buf == NULL) {
        cli_free_secret(raw, len);
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    }
    char err[200];
    grove_status st = grove_envelope_decode(&f->env, f->buf, f->cap, raw, len, err, sizeof err);
    cli_free_secret(raw, len);
    if (st == GROVE_OK)
        st = grove_envelope_expect(&f->env, scheme, type, err, sizeof err);
    if (st != GROVE_OK) {
        cli_file_free(f);
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: %s", path, err);
    }
    return 0;
}

void cli_file_free(cli_file *f)
{
    if (f->buf != NULL) {
        if (f->secret)
            grove_wipe(f->buf, f->cap);
        free(f->buf);
    }
    memset(f, 0, sizeof *f);
}

int cli_write_grove_file(cli_ctx *c, const char *path, const grove_envelope *env, unsigned flags)
{
    grove_envelope_form form =
        cli_opt_flag(c, "binary") ? GROVE_ENVELOPE_BINARY : GROVE_ENVELOPE_ARMORED;
    size_t need = grove_envelope_encoded_bytes(env, form), len = 0;
    if (need == 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INTERNAL, "cannot encode %s", path);
    uint8_t *out = malloc(need);
    if (out == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    grove_status st = grove_envelope_encode(out, need, &len, env, form);
    int r = st == GROVE_OK ? cli_write_file_ex(c, path, out, len, flags)
                           : cli_fail_status(c, st, "encoding the file");
    cli_free_secret(out, need);
    return r;
}

int cli_check_params(cli_ctx *c, const char *path, const grove_envelope *env)
{
    const char *want = cli_opt_str(c, "params");
    if (want == NULL || strcasecmp(want, env->set) == 0)
        return 0;
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                    "%s is a %s %s of set %s, but --params says %s", path, env->scheme,
                    env->type, env->set, want);
}

int cli_check_key_id(cli_ctx *c, const cli_file *a, const char *apath, const cli_file *b,
                     const char *bpath)
{
    if (!a->env.has_key_id || !b->env.has_key_id ||
        memcmp(a->env.key_id, b->env.key_id, GROVE_ENVELOPE_KEY_ID_BYTES) == 0)
        return 0;
    char ha[17], hb[17];
    grove_envelope_key_id_hex(ha, a->env.key_id);
    grove_envelope_key_id_hex(hb, b->env.key_id);
    return cli_fail(c, CLI_EXIT_INVALID, GROVE_ERR_VERIFY,
                    "signature INVALID: %s was made by key %s, %s is key %s", bpath, hb, apath,
                    ha);
}

static const char *form_name(grove_envelope_form f)
{
    return f == GROVE_ENVELOPE_BINARY      ? "binary"
           : f == GROVE_ENVELOPE_ARMORED   ? "armored"
           : f == GROVE_ENVELOPE_DGSP_ARMOR ? "dgsp-armor"
                                           : "xmss-key-file";
}

void cli_describe_file(cli_ctx *c, const char *path, const cli_file *f)
{
    const grove_envelope *e = &f->env;
    char id[17] = "";
    if (e->has_key_id)
        grove_envelope_key_id_hex(id, e->key_id);
    cli_out_str(c, "file", path);
    cli_out_str(c, "scheme", e->scheme);
    cli_out_str(c, "params", e->set);
    cli_out_str(c, "type", e->type);
    if (e->has_key_id)
        cli_out_str(c, "key_id", id);
    cli_out_str(c, "encoding", form_name(e->form));
    cli_out_int(c, "format_version", (long long)e->version);
    cli_out_u64(c, "body_bytes", e->body_len);
    cli_say(c, "%s: grove %s %s%s%s%s%s", path, e->scheme, e->type, e->set[0] ? ", set " : "",
            e->set, e->has_key_id ? ", key id " : "", id);
    cli_say(c, "  %s, format version %u, %zu bytes of content", form_name(e->form), e->version,
            e->body_len);
}

int cli_info_any(cli_ctx *c)
{
    const char *path = cli_require(c, "file");
    if (path == NULL)
        return CLI_EXIT_USAGE;
    cli_file f;
    int r = cli_read_grove_file(c, path, NULL, NULL, CLI_MAX_INPUT, 1, &f);
    if (r != 0)
        return r;
    cli_describe_file(c, path, &f);
    cli_file_free(&f);
    return 0;
}

int cli_fail_self_check(cli_ctx *c, int status)
{
    return cli_fail(c, CLI_EXIT_USAGE, status,
                    "signature self-check failed: the secret key or the machine is faulty; "
                    "nothing written");
}

void cli_out_key_id(cli_ctx *c, const uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES],
                    char hex[2 * GROVE_ENVELOPE_KEY_ID_BYTES + 1])
{
    grove_envelope_key_id_hex(hex, id);
    cli_out_str(c, "key_id", hex);
}
