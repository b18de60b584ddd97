#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Build the libFuzzer harnesses (clang, ASan+UBSan) and run each for a bounded time.
#   fuzz/run.sh [seconds per fuzzer (default 30)] [build dir (default build-fuzz)]
# Seed corpora come from ../shared/vectors and from files grove writes (fuzz/corpus.py). A
# crash stops with its input saved in <build dir>/artifacts/; copy it into
# fuzz/regressions/<fuzzer>/ once fixed, so the regression runners replay it forever.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-30}
B=${2:-build-fuzz}
VEC=${GROVE_VECTORS_DIR:-$PWD/../shared/vectors}
cmake -S . -B "$B" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGROVE_FUZZ=ON \
  -DGROVE_WERROR=ON -DGROVE_VECTORS_DIR="$VEC" >/dev/null
cmake --build "$B" -j "${JOBS:-$(nproc)}" >/dev/null
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
python3 fuzz/corpus.py "$VEC" "$PWD/$B/bin/grove" "$corpus"
mkdir -p "$B/artifacts"
status=0
for f in "$B"/fuzz/fuzz_*; do
  name=$(basename "$f")
  mkdir -p "$corpus/$name"
  cp fuzz/regressions/"$name"/* "$corpus/$name/" 2>/dev/null || true
  echo "== $name ($SECS s)"
  if ! ASAN_OPTIONS=detect_leaks=1 "$f" -max_total_time="$SECS" -timeout=20 -rss_limit_mb=2048 \
       -artifact_prefix="$B/artifacts/$name-" -print_final_stats=1 "$corpus/$name" \
       > "$B/artifacts/$name.log" 2>&1; then
    echo "FAIL: $name found a problem; see $B/artifacts/$name.log"
    tail -30 "$B/artifacts/$name.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|cov:" "$B/artifacts/$name.log" | tail -2
  fi
done
exit $status
