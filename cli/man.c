/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove(1) and grove-<scheme>(1) in roff, from the tables --help prints (cli/man.h). Every text
 * from a table goes through roff_text / roff_word, so no help string can start a request or
 * hold an escape by accident.
 */
#include "man.h"

#include <ctype.h>
#include <string.h>

#include "grove/grove.h"

/* Text on a line of its own: "\&" first (a leading '.' or '\'' is no request), '\' as "\e";
 * a newline starts a fresh protected line. */
static void roff_text(FILE *f, const char *s)
{
    fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '\n')
            fputs("\n\\&", f);
        else
            fputc(*s, f);
    }
}

/* A command, option or placeholder typed as it is: '-' as the minus sign "\-" too. */
static void roff_word(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
    }
}

/* The exit codes of every command (README, DEVELOPERS.md). */
static const char *const exit_status[][2] = {
    {"0", "success; a signature is valid"},
    {"1", "a well-formed signature that is invalid or revoked"},
    {"2", "usage, input or I/O error (a signature file of the wrong length or encoding "
          "included)"},
    {"3", "key exhausted or state error (a one-time key already used; a restored, copied or "
          "concurrently used key file, wallet or store refused by the state registry)"},
};

/* The environment variables grove reads (getenv in src/ and cli/); schemes: the pages that list
 * one (space-separated scheme names), NULL for every page. */
static const struct {
    const char *name, *schemes, *text;
} environment[] = {
    {"GROVE_CPU", NULL,
     "caps the CPU features the hash kernels use: baseline (none), portable (the portable C "
     "kernels), avx2 (no AVX-512); on AArch64 neon (NEON only) or armv8-sha2 (NEON and the "
     "SHA-256 instructions); a value containing nosha also leaves out the SHA "
     "instructions, e.g. avx2-nosha; one containing shani1 keeps x86 SHA-NI to one "
     "compression at a time, e.g. avx512-shani1. Unset: the best path this CPU has "
     "('grove --version' prints it)."},
    {"GROVE_STATE_DIR", "xmss dgsp", "the state registry folder (see FILES); --state-dir wins."},
    {"XDG_STATE_HOME", "xmss dgsp",
     "when GROVE_STATE_DIR is unset and this is an absolute path, the state registry is "
     "$XDG_STATE_HOME/grove."},
    {"HOME", "xmss dgsp",
     "when neither variable above is set, the state registry is $HOME/.local/state/grove."},
    {"GROVE_XMSS_STATE_DIR", "xmss",
     "grove 0.1's variable: accepted only when it names a folder called xmss, whose parent "
     "is then the registry; set GROVE_STATE_DIR instead."},
    {"GROVE_STORE", "dgsp",
     "the manager store when --store is not given: a PostgreSQL connection string "
     "(postgresql://...) or an SQLite file; unset, the group folder's group.db."},
};

static int lists(const char *schemes, const char *name)
{
    if (schemes == NULL || name == NULL)
        return 1;
    size_t n = strlen(name);
    for (const char *p = schemes; (p = strstr(p, name)) != NULL; p += n)
        if ((p == schemes || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return 1;
    return 0;
}

static void header(FILE *f, const char *page, const char *summary)
{
    fputs(".TH ", f);
    for (const char *p = page; *p; p++) {
        if (*p == '-')
            fputs("\\-", f);
        else
            fputc(toupper((unsigned char)*p), f);
    }
    fprintf(f, " 1 \"\" \"grove %s\" \"grove manual\"\n.nh\n.SH NAME\n", grove_version());
    roff_word(f, page);
    fputs(" \\- ", f);
    roff_text(f, summary);
    fputs("\n", f);
}

/* One command: its usage, summary and options, then --json, as its --help prints them. */
static void command(FILE *f, const char *usage, const cli_command *c)
{
    fputs(".SS \"", f);
    roff_word(f, usage);
    fputs("\"\n", f);
    roff_text(f, c->summary);
    fputs("\n", f);
    for (int i = 0; c->opts && c->opts[i].name; i++) {
        fputs(".TP\n\\fB\\-\\-", f);
        roff_word(f, c->opts[i].name);
        fputs("\\fR", f);
        if (c->opts[i].arg) {
            fputs(" \\fI", f);
            roff_word(f, c->opts[i].arg);
            fputs("\\fR", f);
        }
        fputs("\n", f);
        roff_text(f, c->opts[i].help);
        fputs("\n", f);
    }
    fputs(".TP\n\\fB\\-\\-json\\fR\n\\&print exactly one JSON object\n", f);
}

static void tail(FILE *f, const cli_man_tables *t, const cli_scheme *s)
{
    fputs(".SH EXIT STATUS\n", f);
    for (size_t i = 0; i < sizeof exit_status / sizeof exit_status[0]; i++) {
        fprintf(f, ".TP\n.B %s\n", exit_status[i][0]);
        roff_text(f, exit_status[i][1]);
        fputs("\n", f);
    }
    fputs(".SH ENVIRONMENT\n", f);
    for (size_t i = 0; i < sizeof environment / sizeof environment[0]; i++) {
        if (s != NULL && !lists(environment[i].schemes, s->name))
            continue;
        fputs(".TP\n.B ", f);
        roff_word(f, environment[i].name);
        fputs("\n", f);
        roff_text(f, environment[i].text);
        fputs("\n", f);
    }
    if (s == NULL || lists("xmss dgsp", s->name))
        fputs(".SH FILES\n.TP\n.I ~/.local/state/grove/\n"
              "\\&The state registry (grove/state.h): one locked, checksummed entry per XMSS key "
              "(xmss/), DGSP wallet (dgsp\\-wallet/) and SQLite manager store (dgsp\\-store/), "
              "so that a restored, copied or concurrently used key file is refused instead of "
              "signing again. The folder is \\-\\-state\\-dir when given, else "
              "$GROVE_STATE_DIR, else $XDG_STATE_HOME/grove, else ~/.local/state/grove. Keep "
              "it out of the backups key files are restored from.\n",
              f);
    fputs(".SH SEE ALSO\n", f);
    int first = 1;
    if (s != NULL) {
        fputs(".BR grove (1)", f);
        first = 0;
    }
    for (size_t i = 0; i < t->nschemes; i++) {
        if (t->schemes[i] == s)
            continue;
        fputs(first ? ".BR grove\\-" : ",\n.BR grove\\-", f);
        roff_word(f, t->schemes[i]->name);
        fputs(" (1)", f);
        first = 0;
    }
    fputs("\n.PP\n\\&The documents under docs/ in grove's source tree, and the C headers in "
          "include/grove/.\n",
          f);
}

static void scheme_page(FILE *f, const cli_man_tables *t, const cli_scheme *s)
{
    char page[128];
    snprintf(page, sizeof page, "grove-%s", s->name);
    header(f, page, s->summary);
    fputs(".SH SYNOPSIS\n.B grove ", f);
    roff_word(f, s->name);
    fputs("\n.I command\n.RI [ options ]\n.RB [ \\-\\-json ]\n.br\n.B grove ", f);
    roff_word(f, s->name);
    fputs("\n.RI [ command ]\n.B \\-\\-help\n.SH DESCRIPTION\n", f);
    roff_text(f, s->summary);
    fputs(".\n.PP\n\\&Options are given as \\fB\\-\\-name\\fR \\fIvalue\\fR or "
          "\\fB\\-\\-name\\fR=\\fIvalue\\fR; \\fB\\-\\-json\\fR makes the command print exactly "
          "one JSON object (on stderr when an output given as \\- puts data on stdout). "
          "\\fBgrove ",
          f);
    roff_word(f, s->name);
    fputs(" \\fIcommand\\fB \\-\\-help\\fR prints what the COMMANDS section says about one "
          "command.\n.SH COMMANDS\n",
          f);
    for (const cli_command *c = s->commands; c->name; c++) {
        char usage[256];
        snprintf(usage, sizeof usage, "grove %s %s", s->name, c->name);
        command(f, usage, c);
    }
    tail(f, t, s);
}

static void main_page(FILE *f, const cli_man_tables *t)
{
    header(f, "grove", "post-quantum and group signatures");
    fputs(".SH SYNOPSIS\n.B grove\n.I scheme command\n.RI [ options ]\n.RB [ \\-\\-json ]\n"
          ".br\n.B grove help\n.RI [ scheme ]\n.br\n.B grove \\-\\-version\n",
          f);
    for (size_t i = 0; i < t->nglobals; i++) {
        fputs(".br\n.B ", f);
        roff_word(f, t->global_usage[i]);
        fputs("\n", f);
    }
    fputs(".br\n.B grove hash\n.I ALG\n.RI [ option ]...\n.RI [ FILE ]...\n", f);
    fputs(".SH DESCRIPTION\n\\&grove signs and verifies with post-quantum and group signature "
          "schemes through libgrove. Each scheme has its own commands, described in its own "
          "page and by \\fBgrove \\fIscheme\\fB \\-\\-help\\fR.\n.SH SCHEMES\n",
          f);
    for (size_t i = 0; i < t->nschemes; i++) {
        fputs(".TP\n.BR grove\\-", f);
        roff_word(f, t->schemes[i]->name);
        fputs(" (1)\n", f);
        roff_text(f, t->schemes[i]->summary);
        fputs("\n", f);
    }
    fputs(".SH COMMANDS\n", f);
    for (size_t i = 0; i < t->nglobals; i++)
        command(f, t->global_usage[i], t->globals[i]);
    command(f, "grove hash ALG [FILE]...", &cli_hash_sum_command); /* cli/cmd_hash.c */
    fputs(".SH OPTIONS\n.TP\n.B \\-\\-json\n\\&print exactly one JSON object (any command)\n"
          ".TP\n.B \\-\\-help\n\\&describe grove, a scheme or a command\n"
          ".TP\n.B \\-\\-version\n\\&print the version and the hash code path (GROVE_CPU)\n",
          f);
    tail(f, t, NULL);
}

void cli_man_page(FILE *f, const cli_man_tables *t, const cli_scheme *s)
{
    if (s != NULL)
        scheme_page(f, t, s);
    else
        main_page(f, t);
}
