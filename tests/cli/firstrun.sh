#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# First run: `./grove.sh demo` installs only what the build needs (no test tools: no ARM cross
# compiler, QEMU, PostgreSQL server, valgrind, multilib, clang) and builds the grove command
# only; `./grove.sh test` installs everything. grove.sh runs in a scratch folder with stand-ins
# for dpkg-query, apt-get, sudo and cmake on PATH that record what they are asked to do.
set -u
SRC="${SRC:?the source tree}"
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/repo" "$T/stub"
cp "$SRC/grove.sh" "$T/repo/"
LOG="$T/log"
# nothing is installed yet; apt-get and sudo only record; cmake records and "builds" a grove
# that runs its demo
cat > "$T/stub/dpkg-query" <<'EOF'
#!/bin/sh
exit 1
EOF
cat > "$T/stub/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >> "$LOG"
EOF
cat > "$T/stub/sudo" <<'EOF'
#!/bin/sh
exec "$@"
EOF
cat > "$T/stub/cmake" <<EOF
#!/bin/sh
echo "cmake \$*" >> "$LOG"
mkdir -p build/bin
printf '#!/bin/sh\necho "demo ran: \$*"\n' > build/bin/grove
chmod +x build/bin/grove
EOF
chmod +x "$T/stub/"*

installed() { grep '^apt-get .*install' "$LOG" | sed 's/.*--no-install-recommends //'; }
heavy="clang postgresql valgrind gcc-multilib gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm groff-base python3 python3-pytest"
# the libraries the default configuration requires (CMakeLists.txt) and their Debian packages
needed="gcc cmake pkg-config libssl-dev libsqlite3-dev libpq-dev libgmp-dev libjansson-dev"

: > "$LOG"
out=$(cd "$T/repo" && PATH="$T/stub:$PATH" ./grove.sh demo 2>&1); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | grep -q "demo ran: demo"' "grove.sh demo builds and runs the demo ($out)"
pk=" $(installed) "
for p in $needed; do
  check '[[ "$pk" == *" $p "* ]]' "grove.sh demo installs $p"
done
for p in $heavy; do
  check '[[ "$pk" != *" $p "* ]]' "grove.sh demo does not install $p"
done
check 'grep -q "^cmake --build build .*--target grove" "$LOG"' "grove.sh demo builds the grove target only"
check '[ "$(grep -c "^cmake --build" "$LOG")" -eq 1 ]' "grove.sh demo runs one build"
check '! grep -q "^cmake -S .*GROVE_WITH_[A-Z]*=OFF" "$LOG"' "grove.sh demo keeps the default configuration (the same build/ as ./grove.sh test)"
if command -v ccache >/dev/null 2>&1; then
  check 'grep -q "^cmake -S .*-DCMAKE_C_COMPILER_LAUNCHER=ccache" "$LOG"' "grove.sh uses ccache when it is installed"
fi

# ./grove.sh test installs the test tools as well (stop at the first build: cmake fails)
: > "$LOG"
sed -i 's/^mkdir -p build\/bin/exit 1/' "$T/stub/cmake"
(cd "$T/repo" && PATH="$T/stub:$PATH" ./grove.sh test >/dev/null 2>&1)
pk=" $(installed) "
for p in $needed $heavy build-essential; do
  check '[[ "$pk" == *" $p "* ]]' "grove.sh test installs $p"
done
: > "$LOG"
(cd "$T/repo" && PATH="$T/stub:$PATH" ./grove.sh deps >/dev/null 2>&1)
check '[ "$(installed | tr " " "\n" | sort)" = "$(echo $pk | tr " " "\n" | sort)" ]' "grove.sh deps installs what grove.sh test installs"

# .ci/run goes through ./grove.sh test, so CI still gets every package
check 'grep -q "^\./grove\.sh test" "$SRC/.ci/run"' ".ci/run runs ./grove.sh test"

[ $fail -eq 0 ] && echo "all first-run checks passed"
exit $fail
