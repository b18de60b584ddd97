# SPDX-License-Identifier: MIT OR Apache-2.0
# Shared prelude of the CLI test scripts (sourced): the grove binary in $G (from $GROVE), a fresh
# temporary folder $d (removed on exit) as the current folder, a private state registry, and
# the check helpers. `check 'COND' 'what'` records a failure; end with `exit $fail`.
set -u
G="${GROVE:?}"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
export GROVE_STATE_DIR="$d/state"
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d$1)"; }
jhas() { python3 -c "import json,sys; d=json.load(sys.stdin); print('$1' in d)"; }
