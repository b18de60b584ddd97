#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The manual pages the build wrote (<build>/man, cmake/GroveMan.cmake) against what grove's
# --help prints, so that the two cannot drift:
#  - one page per scheme of `grove help`, plus grove.1, and no other; each is exactly what
#    `grove help --man [scheme]` prints now (not stale);
#  - every command line of `grove <scheme> --help` is a command of the page (name and summary),
#    and every option line of `grove <scheme> <command> --help` is an option of that command in
#    the page (name, placeholder and help), in both directions;
#  - grove.1 lists every scheme with its summary and grove bench's options; every page has its
#    sections, the exit codes 0-3, and grove.1 names every variable grove reads (getenv in
#    src/ and cli/);
#  - every page renders with groff -man without a warning (-ww); skipped, saying so, when
#    groff is not installed (the checks above do not need it).
# Usage: GROVE=<grove> MANDIR=<build>/man SRC=<source tree> man.sh
set -u
export GROVE="${GROVE:?}" MANDIR="${MANDIR:?}" SRC="${SRC:?}"
python3 - <<'EOF' || exit 1
import os, re, subprocess, sys

G, MANDIR, SRC = os.environ["GROVE"], os.environ["MANDIR"], os.environ["SRC"]
fails = []


def check(ok, what):
    if not ok:
        fails.append(what)
        print("FAIL:", what)


def run(*args):
    return subprocess.run([G, *args], capture_output=True, text=True, check=True).stdout


def norm(s):
    return " ".join(s.split())


def deroff(s):
    esc = {"e": "\\", "-": "-", "&": ""}
    return re.sub(r"\\(e|-|&|f[BIRP])", lambda m: esc.get(m.group(1), ""), s)


def parse(page):
    """Sections of a page: {".SH name" or ".SS name": [items]}, an item being the normalized
    text of a paragraph (.TP tag and body joined, or the text after .SS)."""
    secs, cur, items = {}, None, None
    for line in page.splitlines():
        if line.startswith((".SH ", ".SS ")):
            cur = line[:4] + deroff(line[4:].strip('"'))
            items = secs.setdefault(cur, [])
            items.append("")
        elif line.startswith((".TP", ".PP")) and items is not None:
            items.append("")
        elif line.startswith(".") and items is not None:
            items[-1] = norm(items[-1] + " " + deroff(line.split(" ", 1)[1] if " " in line else ""))
        elif items is not None:
            items[-1] = norm(items[-1] + " " + deroff(line))
    return {k: [i for i in v if i] for k, v in secs.items()}


def block(text, title):
    """The indented lines under 'title:' in a --help text, whitespace normalized."""
    m = re.search(r"^" + title + r":\n((?:  .*\n?)+)", text, re.M)
    return [norm(l) for l in m.group(1).splitlines()] if m else []


for bad in (["nosuch"], ["xmss", "extra"]):
    r = subprocess.run([G, "help", "--man", *bad], capture_output=True, text=True)
    check(r.returncode == 2 and r.stdout == "", f"grove help --man {' '.join(bad)}: exit 2, no page")

help_main = run("help")
schemes = [l.split()[0] for l in block(help_main, "schemes")]
check(len(schemes) > 0, "grove help lists schemes")
pages = {"grove": "grove.1", **{s: f"grove-{s}.1" for s in schemes}}
found = sorted(f for f in os.listdir(MANDIR) if f.endswith(".1"))
check(found == sorted(pages.values()), f"pages in {MANDIR}: {found} (want one per scheme + grove.1)")

getenv = set()
for d in ("src", "cli"):
    for root, _, files in os.walk(os.path.join(SRC, d)):
        for f in files:
            if f.endswith(".c"):
                with open(os.path.join(root, f), encoding="utf-8") as fh:
                    getenv |= set(re.findall(r'getenv\("([A-Z_]+)"\)', fh.read()))
check("GROVE_STATE_DIR" in getenv and "GROVE_CPU" in getenv, f"getenv scan found {getenv}")

for name, file in pages.items():
    path = os.path.join(MANDIR, file)
    if not os.path.exists(path):
        continue
    with open(path, encoding="utf-8") as fh:
        page = fh.read()
    check(page == run("help", "--man", *([] if name == "grove" else [name])),
          f"{file} is what 'grove help --man' prints now")
    secs = parse(page)
    for sh in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS", "ENVIRONMENT",
               "SEE ALSO") + (("FILES",) if name in ("grove", "xmss", "dgsp") else ()):
        check(".SH " + sh in secs, f"{file}: section {sh}")
    codes = [i.split()[0] for i in secs.get(".SH EXIT STATUS", [])]
    check(codes == ["0", "1", "2", "3"], f"{file}: exit codes {codes}")
    env = {i.split()[0] for i in secs.get(".SH ENVIRONMENT", [])}
    if name == "grove":
        check(getenv <= env, f"grove.1: ENVIRONMENT {env} lacks {getenv - env}")
        listed = set(secs.get(".SH SCHEMES", []))
        for line in block(help_main, "schemes"):
            s, summary = line.split(" ", 1)
            check(f"grove-{s} (1) {summary}" in listed, f"grove.1 lists scheme {s}: {summary}")
        cmds = {"grove bench [SCHEME...]": ["bench"], "grove demo": ["demo"]}
    else:
        help_s = run(name, "--help")
        check(norm(help_s.splitlines()[0]) == f"grove {name} - " + secs[".SH NAME"][0].split(" - ", 1)[1],
              f"{file}: NAME is the summary of 'grove {name} --help'")
        sections = {k[4:] for k in secs if k.startswith(".SS ")}
        want = set(block(help_s, "commands"))
        have = {s[len(f"grove {name} "):] + " " + secs[".SS " + s][0] for s in sections}
        check(want == have, f"{file}: commands of 'grove {name} --help' {sorted(want ^ have)}")
        cmds = {s: [name] + s[len(f"grove {name} "):].split() for s in sections}
    for ss, argv in cmds.items():
        out = run(*argv, "--help")
        items = secs.get(".SS " + ss, [])
        summary = out.splitlines()[1]
        check(items[:1] == [norm(summary)], f"{file}: {ss}: summary '{summary}'")
        want, have = set(block(out, "options")), set(items[1:])
        if name == "grove" and argv == ["demo"]:
            want = {"--json print exactly one JSON object"}  # 'usage: grove demo [--json]'
        check(want == have, f"{file}: options of '{ss} --help' {sorted(want ^ have)}")

if subprocess.run(["sh", "-c", "command -v groff"], capture_output=True).returncode != 0:
    print("SKIP: render check: groff is not installed (Debian: apt-get install groff-base)")
else:
    for file in pages.values():
        r = subprocess.run(["groff", "-ww", "-z", "-man", "-Tutf8", os.path.join(MANDIR, file)],
                           capture_output=True, text=True)
        check(r.returncode == 0 and r.stderr == "", f"groff -ww renders {file}: {r.stderr.strip()}")
        r = subprocess.run(["groff", "-man", "-Tutf8", os.path.join(MANDIR, file)],
                           capture_output=True, text=True)
        text = re.sub(r".\x08", "", r.stdout)  # bold and underline as overstrikes
        check("\nCOMMANDS\n" in text and "\nEXIT STATUS\n" in text, f"{file} renders to text")

print(f"{len(pages)} pages checked against --help" + (f", {len(fails)} failures" if fails else ""))
sys.exit(1 if fails else 0)
EOF
