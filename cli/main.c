/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* grove: the command-line front end of libgrove. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "man.h"
#include "grove/grove.h"
#include "schemes.h"

int cli_demo(cli_ctx *c);
int cli_bench(cli_ctx *c, int nschemes, const char *const *schemes);

#define GROVE_SCHEME_PTR(v) &v,
static const cli_scheme *const schemes[] = {GROVE_CLI_SCHEMES(GROVE_SCHEME_PTR)};
#define NSCHEMES (sizeof schemes / sizeof schemes[0])

/* The commands that belong to no scheme, at file scope for grove(1) (cli/man.c). */
static const cli_opt bench_opts[] = {
    {"params", "NAME", "only parameter sets whose name contains NAME (e.g. 128f)", 0},
    {"time", "MS", "time per case in milliseconds (default 500)", 0},
    {"threads", "N", "threads for the operations that take them (XMSS keygen, STM, DGSP "
                     "certificates): 1 = the calling thread, 0 = one per CPU (default)", 0},
    {NULL, NULL, NULL, 0},
};
/* Named "[SCHEME...]" so that its --help says "usage: grove bench [SCHEME...] [options]". */
static const cli_command benchcmd = {
    "[SCHEME...]", NULL,
    "operations per second of each SCHEME (slhdsa, sphincs, cross, xmss, stm, bls12_381 or "
    "bls, dgsp, hash; none: a representative set of each), like openssl speed; schemes and "
    "options in any order",
    bench_opts};
static const cli_scheme benchscheme = {"bench", "", NULL};
static const cli_opt demo_opts[] = {{NULL, NULL, NULL, 0}};
static const cli_command democmd = {
    "demo", NULL,
    "tell a complete DGSP group life on the default parameter set, with files in a "
    "temporary folder",
    demo_opts};

static const cli_opt info_opts[] = {
    {"file", "FILE", "any file grove wrote ('-' for stdin); may be given without --file", 1},
    {NULL, NULL, NULL, 0},
};
static const cli_command infocmd = {
    "info", cli_info_any, "say what a grove file is: scheme, parameter set, type, key id",
    info_opts};

static void print_main_help(FILE *f)
{
    fprintf(f,
            "grove %s - post-quantum and group signatures\n\n"
            "usage: grove <scheme> <command> [options]     (add --help for details)\n"
            "       grove hash ALG [FILE]...               (like sha256sum; -c checks)\n"
            "       grove info FILE | demo | bench [SCHEME...] | --version | help [scheme]\n\n"
            "schemes:\n",
            grove_version());
    for (size_t i = 0; i < NSCHEMES; i++)
        fprintf(f, "  %-10s %s\n", schemes[i]->name, schemes[i]->summary);
    fprintf(f, "\nglobal options: --json (print exactly one JSON object)\n"
               "exit codes: 0 success/valid, 1 signature invalid or revoked, 2 usage/input/IO "
               "error, 3 key exhausted or state error\n"
               "  (grove hash ALG [FILE]... works like sha256sum and uses its exit codes: see "
               "'grove hash sha256 --help')\n");
}

static void print_scheme_help(FILE *f, const cli_scheme *s)
{
    fprintf(f, "grove %s - %s\n\ncommands:\n", s->name, s->summary);
    for (const cli_command *c = s->commands; c->name; c++)
        fprintf(f, "  %-22s %s\n", c->name, c->summary);
    fprintf(f, "\n'grove %s <command> --help' describes a command.\n", s->name);
}

static void print_command_help(FILE *f, const cli_scheme *s, const cli_command *c)
{
    const char *pos = NULL;
    for (int i = 0; c->opts && c->opts[i].name; i++)
        if (c->opts[i].positional)
            pos = c->opts[i].arg;
    fprintf(f, "usage: grove %s%s%s [options]%s%s\n%s\n\noptions:\n", s->name, s->name[0] ? " " : "",
            c->name, pos ? " " : "", pos ? pos : "", c->summary);
    for (int i = 0; c->opts && c->opts[i].name; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", c->opts[i].name, c->opts[i].arg ? " " : "",
                 c->opts[i].arg ? c->opts[i].arg : "");
        fprintf(f, "  %-26s %s\n", left, c->opts[i].help);
    }
    fprintf(f, "  %-26s %s\n", "--json", "print exactly one JSON object");
}

static const cli_scheme *find_scheme(const char *name)
{
    for (size_t i = 0; i < NSCHEMES; i++)
        if (strcmp(schemes[i]->name, name) == 0)
            return schemes[i];
    return NULL;
}

/* The hidden `grove help --man [SCHEME]`: grove(1) or grove-SCHEME(1) in roff (cli/man.c), for
 * the build (cmake/GroveMan.cmake). */
static int print_man(int argc, char **argv)
{
    static const cli_command *const globals[] = {&benchcmd, &democmd};
    static const char *const global_usage[] = {"grove bench [SCHEME...]", "grove demo"};
    const cli_man_tables t = {schemes, NSCHEMES, globals, global_usage,
                              sizeof globals / sizeof globals[0]};
    const cli_scheme *s = argc >= 1 ? find_scheme(argv[0]) : NULL;
    if (argc > 1 || (argc == 1 && s == NULL)) {
        fprintf(stderr, "grove: usage: grove help --man [scheme]\n");
        return CLI_EXIT_USAGE;
    }
    cli_man_page(stdout, &t, s);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : CLI_EXIT_USAGE;
}

/* Match a one- or two-word command at argv[0..]; returns words consumed (0 = none). */
static int find_command(const cli_scheme *s, int argc, char **argv, const cli_command **out)
{
    if (argc >= 2) {
        char two[256];
        snprintf(two, sizeof two, "%s %s", argv[0], argv[1]);
        for (const cli_command *c = s->commands; c->name; c++)
            if (strcmp(c->name, two) == 0) {
                *out = c;
                return 2;
            }
    }
    if (argc >= 1)
        for (const cli_command *c = s->commands; c->name; c++)
            if (strcmp(c->name, argv[0]) == 0) {
                *out = c;
                return 1;
            }
    return 0;
}

static void emit_json(cli_ctx *c, int rc)
{
    while (c->depth > 0)
        cli_out_end(c);
    if (!c->has_error)
        cli_out_bool(c, "ok", rc == 0);
    cli_out_int(c, "exit_code", rc);
    if (c->out.oom) /* an incomplete object would not parse: say what happened instead */
        fprintf(cli_text_stream(c),
                "{\"ok\": false, \"error\": \"out of memory writing the JSON output\", "
                "\"exit_code\": %d}\n",
                rc);
    else
        fprintf(cli_text_stream(c), "{%s}\n", c->out.p ? c->out.p : "");
}

/* An output option (its help mentions "stdout") given "-": stdout will carry data. */
static void detect_stdout_data(cli_ctx *c)
{
    for (int i = 0; c->cmd->opts && c->cmd->opts[i].name && i < CLI_MAX_OPTS; i++)
        if (c->cmd->opts[i].arg && strstr(c->cmd->opts[i].help, "stdout") != NULL)
            for (size_t k = 0; k < c->nrepeat[i]; k++)
                if (c->repeat[i][k] != NULL && strcmp(c->repeat[i][k], "-") == 0)
                    c->stdout_data = 1;
}

static int parse_options(cli_ctx *c, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0 || strcmp(a, "-") == 0) {
            int pos = -1;
            for (int j = 0; c->cmd->opts && c->cmd->opts[j].name && j < CLI_MAX_OPTS; j++)
                if (c->cmd->opts[j].positional)
                    pos = j;
            if (pos < 0 || c->present[pos])
                return cli_fail(c, CLI_EXIT_USAGE, 0, "unexpected argument '%s'", a);
            c->present[pos] = 1;
            c->values[pos] = a;
            c->repeat[pos][c->nrepeat[pos]++] = a;
            continue;
        }
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t nl = eq ? (size_t)(eq - name) : strlen(name);
        int idx = -1;
        for (int j = 0; c->cmd->opts && c->cmd->opts[j].name; j++)
            if (strlen(c->cmd->opts[j].name) == nl && strncmp(c->cmd->opts[j].name, name, nl) == 0)
                idx = j;
        if (idx < 0 || idx >= CLI_MAX_OPTS)
            return cli_fail(c, CLI_EXIT_USAGE, 0, "unknown option '%s' (see --help)", a);
        const char *val = NULL;
        if (c->cmd->opts[idx].arg) {
            if (eq)
                val = eq + 1;
            else if (i + 1 < argc)
                val = argv[++i];
            else
                return cli_fail(c, CLI_EXIT_USAGE, 0, "option --%.*s needs a value", (int)nl,
                                name);
        } else if (eq) {
            return cli_fail(c, CLI_EXIT_USAGE, 0, "option --%.*s takes no value", (int)nl, name);
        }
        c->present[idx] = 1;
        c->values[idx] = val;
        if (c->nrepeat[idx] >= CLI_MAX_REPEAT)
            return cli_fail(c, CLI_EXIT_USAGE, 0, "option --%.*s given too many times", (int)nl,
                            name);
        c->repeat[idx][c->nrepeat[idx]++] = val;
    }
    return 0;
}

/* grove bench: the words that are no option (nor an option's value) are the schemes, in any
 * order among the options. Returns the exit code, or -1 after --help. */
static int run_bench(cli_ctx *c, int argc, char **argv)
{
    static const char *names[CLI_MAX_REPEAT];
    int ns = 0, no = 0;
    c->cmd = &benchcmd;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_command_help(stdout, &benchscheme, &benchcmd);
            return -1;
        }
        if (strncmp(argv[i], "--", 2) != 0) {
            if (ns == CLI_MAX_REPEAT)
                return cli_fail(c, CLI_EXIT_USAGE, 0, "too many schemes");
            names[ns++] = argv[i];
            continue;
        }
        argv[no++] = argv[i]; /* the options keep their order, each with its value */
        for (int j = 0; bench_opts[j].name; j++)
            if (strcmp(argv[i] + 2, bench_opts[j].name) == 0 && bench_opts[j].arg && i + 1 < argc)
                argv[no++] = argv[++i];
    }
    int rc = parse_options(c, no, argv);
    return rc ? rc : cli_bench(c, ns, names);
}

int main(int argc, char **argv)
{
    /* First of all: no file may be opened on a closed stdin/stdout/stderr. */
    cli_guard_std_fds();
    static cli_ctx ctx; /* large (repeat table): static, zero-initialised */
    cli_ctx *c = &ctx;
    /* Strip the global --json wherever it appears. */
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            c->json = 1;
        else
            argv[++n] = argv[i];
    }
    argc = n + 1;

    if (argc >= 3 && strcmp(argv[1], "help") == 0 && strcmp(argv[2], "--man") == 0)
        return print_man(argc - 3, argv + 3);
    if (argc < 2 || strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "-h") == 0) {
        if (argc >= 3) {
            const cli_scheme *s = find_scheme(argv[2]);
            if (s) {
                print_scheme_help(stdout, s);
                return 0;
            }
            fprintf(stderr, "grove: unknown scheme '%s'\n", argv[2]);
            return CLI_EXIT_USAGE;
        }
        print_main_help(argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_EXIT_USAGE : 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        if (c->json) {
            cli_out_str(c, "version", grove_version());
            cli_out_str(c, "cpu_path", grove_cpu_path());
            emit_json(c, 0);
            grove_json_buf_free(&c->out);
        } else {
            printf("grove %s (hash path: %s)\n", grove_version(), grove_cpu_path());
        }
        return 0;
    }
    if (strcmp(argv[1], "bench") == 0) {
        int rc = run_bench(c, argc - 2, argv + 2);
        if (rc >= 0 && c->json)
            emit_json(c, rc);
        return rc < 0 ? 0 : rc;
    }
    if (strcmp(argv[1], "info") == 0) { /* grove info FILE: any grove file */
        static const cli_scheme none = {"", "", NULL};
        c->cmd = &infocmd;
        for (int i = 2; i < argc; i++)
            if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
                print_command_help(stdout, &none, &infocmd);
                return 0;
            }
        int rc = parse_options(c, argc - 2, argv + 2);
        if (rc == 0)
            rc = cli_info_any(c);
        if (c->json)
            emit_json(c, rc);
        grove_json_buf_free(&c->out);
        return rc;
    }
    if (strcmp(argv[1], "demo") == 0) {
        c->cmd = &democmd;
        for (int i = 2; i < argc; i++)
            if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
                printf("usage: grove demo [--json]\n%s\n", democmd.summary);
                return 0;
            }
        int rc = parse_options(c, argc - 2, argv + 2);
        if (rc == 0)
            rc = cli_demo(c);
        if (c->json)
            emit_json(c, rc);
        return rc;
    }
    if (strcmp(argv[1], "hash") == 0 && argc >= 3) { /* grove hash sha256 FILE: like sha256sum */
        int rc = cli_hash_sum(c, argc - 2, argv + 2);
        if (rc >= 0) {
            if (c->json)
                emit_json(c, rc);
            grove_json_buf_free(&c->out);
            return rc;
        }
    }
    const cli_scheme *s = find_scheme(argv[1]);
    if (s == NULL) {
        static const cli_command none = {"", NULL, "", NULL};
        c->cmd = &none;
        int rc = cli_fail(c, CLI_EXIT_USAGE, 0, "unknown scheme '%s' (see 'grove help')", argv[1]);
        if (c->json)
            emit_json(c, rc);
        return rc;
    }
    if (argc < 3 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "help") == 0) {
        print_scheme_help(argc < 3 ? stderr : stdout, s);
        return argc < 3 ? CLI_EXIT_USAGE : 0;
    }
    const cli_command *cmd = NULL;
    int used = find_command(s, argc - 2, argv + 2, &cmd);
    c->scheme = s;
    if (used == 0) {
        static const cli_command none = {"", NULL, "", NULL};
        c->cmd = &none;
        int rc = cli_fail(c, CLI_EXIT_USAGE, 0, "unknown command '%s %s' (see 'grove %s --help')",
                          s->name, argv[2], s->name);
        if (c->json)
            emit_json(c, rc);
        return rc;
    }
    c->cmd = cmd;
    int first = 2 + used;
    for (int i = first; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_command_help(stdout, s, cmd);
            return 0;
        }
    if (c->json) {
        char name[256];
        snprintf(name, sizeof name, "%s %s", s->name, cmd->name);
        cli_out_str(c, "command", name);
    }
    int rc = parse_options(c, argc - first, argv + first);
    detect_stdout_data(c);
    if (rc == 0)
        rc = cmd->fn(c);
    if (c->json)
        emit_json(c, rc);
    grove_json_buf_free(&c->out);
    return rc;
}
