#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs a program of the -m32 build where the kernel cannot start 32-bit x86 programs (no IA32
# emulation, no binfmt_misc entry for qemu-i386): the CMAKE_CROSSCOMPILING_EMULATOR of
# `tests/port/run.sh --m32-full`.
#   run32.sh <program> [args...]   a 32-bit ELF runs under qemu-i386; anything else (a shell
#                                  script, a wrapper made by `run32.sh --wrap`) runs as it is.
#   run32.sh --wrap <build dir>    replaces every 32-bit ELF program of the build with a
#                                  script that starts it under qemu-i386 (the original is kept as
#                                  <program>.i386; the script calls `run32.sh --as <its path>
#                                  <program>.i386 ...`), so that test scripts which start
#                                  bin/grove, grove-vectors or a test program themselves work too.
set -eu
QEMU=${GROVE_QEMU_I386:-qemu-i386}
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
# qemu-i386 reserves the guest's whole 4 GiB of address space up front, which an address-space
# limit (`ulimit -v`, as tests/cli/limits.sh sets) refuses: then the guest gets the limit less
# 512 MiB (qemu's own code buffer and heap), at least half of it.
qemu_run() {
  lim=$(ulimit -v)
  if [ "$lim" != unlimited ]; then
    r=$(((lim - 524288) * 1024))
    [ $r -lt $((lim * 512)) ] && r=$((lim * 512))
    exec "$QEMU" -L / -R $r "$@"
  fi
  exec "$QEMU" -L / "$@"
}
is_elf32() { [ "$(od -An -tx1 -N5 "$1" 2> /dev/null | tr -d ' \n')" = 7f454c4601 ]; }
if [ "${1:-}" = --wrap ]; then
  n=0
  for f in $(find "$2" -path '*/CMakeFiles' -prune -o -type f -perm -u+x -print); do
    case "$f" in *.so | *.so.* | *.i386) continue ;; esac
    if is_elf32 "$f"; then mv -f "$f" "$f.i386"
    elif [ ! -e "$f.i386" ]; then continue; fi # (else: a wrapper already, written anew)
    printf '#!/bin/sh\nexec %s --as "$0" "%s.i386" "$@"\n' "$SELF" "$f" > "$f.wrap"
    chmod +x "$f.wrap"
    mv -f "$f.wrap" "$f"
    n=$((n + 1))
  done
  echo "run32.sh: $n programs of $2 now start under $QEMU"
  exit 0
fi
if [ "${1:-}" = --as ]; then # from a wrapper: --as <its path> <the program> [args...]
  a0=$2
  shift 2
  qemu_run -0 "$a0" "$@"
fi
if is_elf32 "$1"; then qemu_run "$@"; fi
exec "$@"
