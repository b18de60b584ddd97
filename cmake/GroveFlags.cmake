# SPDX-License-Identifier: MIT OR Apache-2.0
# Compiler flags shared by every grove target.
set(GROVE_WARNINGS
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Wmissing-prototypes -Wstrict-prototypes -Wvla -Wformat=2 -Wundef
    -Wcast-align -Wpointer-arith)
if(GROVE_WERROR)
  list(APPEND GROVE_WARNINGS -Werror)
endif()

if(GROVE_CT_CHECK)
  add_compile_definitions(GROVE_CT_CHECK)
endif()
# 64-bit file offsets and inode numbers on 32-bit targets: without it readdir() fails with
# EOVERFLOW on file systems with large inode numbers, and files over 2 GiB cannot be read.
# (No public header uses off_t or struct stat, so the ABI does not depend on it.)
add_compile_definitions(_FILE_OFFSET_BITS=64)

set(GROVE_SAN_FLAGS "")
if(GROVE_FUZZ)
  set(GROVE_SANITIZE ON)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
if(GROVE_SANITIZE)
  set(GROVE_SAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_compile_options(${GROVE_SAN_FLAGS})
  add_link_options(${GROVE_SAN_FLAGS})
endif()

# grove_target_defaults(<target>): warnings and hardening for one of our targets.
function(grove_target_defaults tgt)
  target_compile_options(${tgt} PRIVATE ${GROVE_WARNINGS})
  target_compile_definitions(${tgt} PRIVATE _DEFAULT_SOURCE)
endfunction()
