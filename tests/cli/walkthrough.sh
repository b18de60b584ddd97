#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs a document's walk-through: every fenced block whose info string is exactly
# "sh walkthrough", in order, as one bash -e script in an empty temporary folder, with the
# grove under test first on PATH and a private state registry. Fails when a documented
# command fails, when a command shown as "! command" (must fail) succeeds, or when the
# document has no walk-through block.
# Usage: GROVE=/path/to/grove walkthrough.sh DOC.md
set -euo pipefail
doc=$1
: "${GROVE:?set GROVE to the grove binary}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/run" "$work/state"
ln -s "$(cd "$(dirname "$GROVE")" && pwd)/$(basename "$GROVE")" "$work/bin/grove"
# The blocks, in order; each keeps its line numbers in a comment for the error report.
awk -v doc="$doc" '
  /^```sh walkthrough[[:space:]]*$/ { inb = 1; n++; printf "# --- %s:%d (block %d)\n", doc, NR, n; next }
  inb && /^```[[:space:]]*$/ { inb = 0; next }
  # "! cmd" documents a command that must fail: bash -e would not stop if it succeeded.
  inb && /^! / { printf "if %s; then echo \"FAIL: %s:%d is documented to fail, but it succeeded\" >&2; exit 1; fi\n", substr($0, 3), doc, NR; next }
  inb { print }
  END { if (inb) { print "echo \"unterminated walkthrough block\" >&2; exit 1" } }
' "$doc" > "$work/script.sh"
blocks=$(grep -c '^# --- ' "$work/script.sh" || true)
if [ "$blocks" -eq 0 ]; then
  echo "FAIL: $doc has no \`\`\`sh walkthrough block"
  exit 1
fi
echo "running $blocks walk-through block(s) of $doc"
cd "$work/run"
if PATH="$work/bin:$PATH" GROVE_STATE_DIR="$work/state" HOME="$work" \
   bash -eo pipefail -x "$work/script.sh" > "$work/log" 2>&1; then
  echo "PASS: the walk-through of $doc works as documented"
else
  rc=$?
  tail -n 40 "$work/log"
  echo "FAIL: the walk-through of $doc stopped (exit $rc); the last command above is the one the"
  echo "      document shows and that did not work"
  exit 1
fi
