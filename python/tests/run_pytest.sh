#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Run the Python package's pytest suite against a built libgrove (ctest: python_pytest).
#   GROVE_LIBRARY  path of the libgrove.so to test (required)
#   GROVE_CLI      the grove command of the same build (the interoperability tests)
#   GROVE_PRELOAD  a sanitizer runtime to preload into Python (sanitizer builds)
#   GROVE_PYTHON   the interpreter to use (default: the first of python3, /usr/bin/python3 that
#                  has pytest)
# Exit 77 (skipped) when no interpreter has pytest, unless GROVE_REQUIRE_PYTEST or
# GROVE_REQUIRE_VECTORS (set by CI) is set: then it fails.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
py=""
for c in ${GROVE_PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$c" >/dev/null 2>&1 && "$c" -c "import pytest" >/dev/null 2>&1; then
    py=$c
    break
  fi
done
if [ -z "$py" ]; then
  if [ -n "${GROVE_REQUIRE_PYTEST:-}${GROVE_REQUIRE_VECTORS:-}" ]; then
    echo "run_pytest.sh: no python3 with pytest (install python3-pytest)" >&2
    exit 1
  fi
  echo "run_pytest.sh: no python3 with pytest; skipped (install python3-pytest)"
  exit 77
fi
: "${GROVE_LIBRARY:?GROVE_LIBRARY must name the libgrove.so to test}"
case $GROVE_LIBRARY in /*) ;; *) GROVE_LIBRARY=$PWD/$GROVE_LIBRARY ;; esac
case ${GROVE_CLI:-/} in /*) ;; *) GROVE_CLI=$PWD/$GROVE_CLI ;; esac
export GROVE_LIBRARY
[ -n "${GROVE_CLI:-}" ] && export GROVE_CLI
export PYTHONDONTWRITEBYTECODE=1
if [ -n "${GROVE_PRELOAD:-}" ]; then
  # Python itself is not instrumented: leaks it keeps at exit are not libgrove's.
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
  export LD_PRELOAD="$GROVE_PRELOAD"
fi
exec "$py" -m pytest -p no:cacheprovider -q --rootdir "$here/.." "$here" "$@"
