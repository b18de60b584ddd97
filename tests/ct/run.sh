#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Constant-time check: a -DGROVE_CT_CHECK build (secrets marked undefined for memcheck) runs
# tests/ct/ct_check under valgrind; any secret-dependent branch or memory index is an error,
# except the documented ones in tests/ct/allow.supp.
#   tests/ct/run.sh [build dir (default build-ct)] [case]
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build-ct}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGROVE_CT_CHECK=ON -DGROVE_WERROR=ON >/dev/null
cmake --build "$B" -j "${JOBS:-$(nproc)}" --target ct_check >/dev/null
# The negative control must be caught, or the check proves nothing.
if valgrind -q --error-exitcode=1 "$B/tests/ct_check" leak >/dev/null 2>&1; then
  echo "constant-time check is blind: the deliberate leak was not reported" >&2
  exit 1
fi
GROVE_CPU=avx2-nosha valgrind -q --error-exitcode=1 --track-origins=yes \
  --suppressions=tests/ct/allow.supp "$B/tests/ct_check" ${2:-}
echo "constant-time check passed"
