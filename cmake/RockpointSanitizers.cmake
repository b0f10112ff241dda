# Sanitizer and fuzzing instrumentation for every target of this build.
#
# ROCKPOINT_SANITIZE: a -fsanitize list, e.g. "address,undefined" or
# "thread"; empty (the default) for none. Every target of the build (the
# libraries, the tests and their helper programs, the tools, the fuzz
# targets) is compiled and linked with it, so a test's child processes are
# checked too. UBSan is fatal (-fno-sanitize-recover=all): the first
# undefined behaviour aborts the program, failing its test.
#
# ROCKPOINT_BUILD_FUZZ: the libFuzzer targets of fuzz/ (clang only). Every
# target is then also compiled with -fsanitize=fuzzer-no-link, so that the
# library code a fuzz target calls reports its coverage; the fuzz executables
# add -fsanitize=fuzzer (libFuzzer's main), see fuzz/CMakeLists.txt. Without
# an explicit ROCKPOINT_SANITIZE it defaults to "address,undefined".
#
# Sanitized libraries need the sanitizer runtime in whatever links them, so
# a sanitized build is for this repository's own tests and fuzzing: it does
# not install (ROCKPOINT_INSTALL defaults to OFF and must stay OFF) and does
# not build the Python extension.
# Both are declared in the top-level CMakeLists.txt.

if(ROCKPOINT_BUILD_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ROCKPOINT_BUILD_FUZZ needs clang (libFuzzer); "
                        "configure with -DCMAKE_CXX_COMPILER=clang++-16")
  endif()
  if(ROCKPOINT_SANITIZE STREQUAL "")
    set(ROCKPOINT_SANITIZE "address,undefined")
  endif()
  if(ROCKPOINT_SANITIZE MATCHES "thread|memory")
    message(FATAL_ERROR "ROCKPOINT_BUILD_FUZZ runs with ASan and UBSan; "
                        "ROCKPOINT_SANITIZE=${ROCKPOINT_SANITIZE} cannot be "
                        "combined with it")
  endif()
endif()

if(NOT ROCKPOINT_SANITIZE STREQUAL "")
  if(ROCKPOINT_INSTALL OR ROCKPOINT_BUILD_BINDINGS)
    message(FATAL_ERROR "ROCKPOINT_SANITIZE is for tests and fuzzing: "
                        "configure with ROCKPOINT_INSTALL=OFF and "
                        "ROCKPOINT_BUILD_BINDINGS=OFF")
  endif()
  message(STATUS "rockpoint: -fsanitize=${ROCKPOINT_SANITIZE}")
  # Reports need only line tables (-gline-tables-only), which compile and
  # link faster than full debug info.
  add_compile_options(-fsanitize=${ROCKPOINT_SANITIZE}
                      -fno-sanitize-recover=all -fno-omit-frame-pointer
                      -gline-tables-only)
  add_link_options(-fsanitize=${ROCKPOINT_SANITIZE})
endif()

if(ROCKPOINT_BUILD_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
