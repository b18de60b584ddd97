# SPDX-License-Identifier: MIT OR Apache-2.0
# Test-program stand-ins for builds without OpenSSL or jansson for their target (the cross and
# -m32 builds of tests/port/run.sh; the library itself needs neither with DGSP and STM off):
#  - no OpenSSL: the KAT DRBG's AES-256 from tests/port/aes256.c; test_hash leaves out its
#    OpenSSL comparisons (GROVE_TEST_HAVE_OPENSSL=0), its vectors and kernel checks stay;
#  - no jansson: jansson.h's subset over grove's JSON reader (tests/port/json).
if(TARGET OpenSSL::Crypto AND NOT GROVE_TEST_STANDINS)
  set(GROVE_TEST_OPENSSL OpenSSL::Crypto)
  target_compile_definitions(grove_test_support PUBLIC GROVE_TEST_HAVE_OPENSSL=1)
else()
  set(GROVE_TEST_OPENSSL "")
  target_sources(grove_test_support PRIVATE ${CMAKE_CURRENT_LIST_DIR}/aes256.c)
  target_include_directories(grove_test_support PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  target_compile_definitions(grove_test_support PUBLIC GROVE_TEST_HAVE_OPENSSL=0)
  message(STATUS "grove: no OpenSSL for this target: tests use tests/port/aes256.c")
endif()
if(NOT TARGET PkgConfig::JANSSON)
  add_library(grove_jansson_lite STATIC ${CMAKE_CURRENT_LIST_DIR}/json/jansson_lite.c)
  target_include_directories(grove_jansson_lite PUBLIC ${CMAKE_CURRENT_LIST_DIR}/json)
  target_link_libraries(grove_jansson_lite PUBLIC grove_internal)
  grove_target_defaults(grove_jansson_lite)
  add_library(PkgConfig::JANSSON INTERFACE IMPORTED GLOBAL)
  set_target_properties(PkgConfig::JANSSON PROPERTIES INTERFACE_LINK_LIBRARIES grove_jansson_lite)
  message(STATUS "grove: no jansson for this target: tests use tests/port/json (grove_json)")
endif()
# GMP (the BLS12-381 field tests' oracle): without it for the target, tests/bls12_381 is left
# out and only its vector tests run (they need no GMP).
set(GROVE_TEST_HAVE_GMP ON)
if(CMAKE_CROSSCOMPILING)
  pkg_check_modules(GROVE_TEST_GMP QUIET gmp)
  if(NOT GROVE_TEST_GMP_FOUND)
    set(GROVE_TEST_HAVE_GMP OFF)
    message(STATUS "grove: no GMP for this target: of tests/bls12_381 only the vectors run")
  endif()
endif()
function(grove_port_bls_vectors)
  grove_add_vector_test(vectors_bls12381 bls12381 PATHS bls12381)
  grove_add_vector_test(vectors_bls12381_mithril bls12381 PATHS stm/bls_min_sig_empty_dst.json)
endfunction()
# Tests that start their program through `cmake -E env ...` name the emulator themselves.
set(GROVE_TEST_EMULATOR "")
if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
  set(GROVE_TEST_EMULATOR ${CMAKE_CROSSCOMPILING_EMULATOR})
endif()
