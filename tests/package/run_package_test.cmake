# The install-and-consume test (ctest "package"), run with cmake -P:
#   1. cmake --install the build tree into WORK_DIR/prefix;
#   2. build README.md's Library example (its ```cmake block as
#      CMakeLists.txt, its ```cpp block as main.cpp) with
#      find_package(rockpoint) against that prefix, and run it;
#   3. build the same main.cpp with the flags of `pkg-config rockpoint`
#      alone, and run it;
#   4. build it in a host project that embeds the source tree with
#      add_subdirectory (tests, tools and bench off by default), and run it;
#   5. build README.md's Runtime example (its ```cpp block) against the
#      installed rockpoint::runtime, and run it.
# Each run must print the line the example prints for its stored checkpoint.
# Inputs: SOURCE_DIR, BUILD_DIR, WORK_DIR, GENERATOR, and LAUNCHER and
# WERROR to compile the embedded tree as the main build does (so that a
# compiler cache serves it).
cmake_minimum_required(VERSION 3.25)

function(run_checked what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code
    OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (${code}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

# The body of the first ```<lang> fence after `heading` in `text`.
function(extract_fence text heading lang out_var)
  string(FIND "${text}" "${heading}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "README.md has no '${heading}'")
  endif()
  string(SUBSTRING "${text}" ${at} -1 rest)
  string(FIND "${rest}" "```${lang}\n" open)
  if(open EQUAL -1)
    message(FATAL_ERROR "no ```${lang} block after '${heading}'")
  endif()
  string(LENGTH "```${lang}\n" fence_length)
  math(EXPR body_start "${open} + ${fence_length}")
  string(SUBSTRING "${rest}" ${body_start} -1 rest)
  string(FIND "${rest}" "```" close)
  string(SUBSTRING "${rest}" 0 ${close} body)
  set(${out_var} "${body}" PARENT_SCOPE)
endfunction()

function(expect_example_output output)
  string(FIND "${output}" "thread-1 checkpoint 1ef0001: messages = [\"hello\",\"hi!\"], 1 pending write(s), 1 checkpoint(s) in the thread" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "unexpected example output:\n${output}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run_checked("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR}
  --prefix ${prefix} --component library)

file(READ ${SOURCE_DIR}/README.md readme)
extract_fence("${readme}" "## Library" cmake consumer_cmake)
extract_fence("${readme}" "## Library" cpp consumer_cpp)
set(consumer ${WORK_DIR}/consumer)
file(WRITE ${consumer}/CMakeLists.txt "${consumer_cmake}")
file(WRITE ${consumer}/main.cpp "${consumer_cpp}")

# find_package(rockpoint)
run_checked("configure consumer" ${CMAKE_COMMAND} -S ${consumer}
  -B ${consumer}/build -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix}
  -DCMAKE_BUILD_TYPE=RelWithDebInfo)
run_checked("build consumer" ${CMAKE_COMMAND} --build ${consumer}/build)
file(GLOB consumer_program LIST_DIRECTORIES false ${consumer}/build/agent_store)
run_checked("run consumer" ${consumer_program} ${WORK_DIR}/find_package.rpdb)
expect_example_output("${last_output}")

# pkg-config
find_program(PKG_CONFIG pkg-config REQUIRED)
find_program(CXX NAMES c++ g++ REQUIRED)
set(ENV{PKG_CONFIG_PATH} "")
file(GLOB_RECURSE pc_file ${prefix}/rockpoint.pc)
get_filename_component(pc_dir ${pc_file} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
run_checked("pkg-config" ${PKG_CONFIG} --cflags --libs rockpoint)
string(STRIP "${last_output}" pc_flags)
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
run_checked("pkg-config build" ${CXX} ${consumer}/main.cpp ${pc_flags}
  -o ${WORK_DIR}/pkg_config_consumer)
# pkg-config sets no run path: a shared build is found as users find it.
set(ENV{LD_LIBRARY_PATH} ${pc_dir}/..)
run_checked("run pkg-config consumer" ${WORK_DIR}/pkg_config_consumer
  ${WORK_DIR}/pkg_config.rpdb)
expect_example_output("${last_output}")
# add_subdirectory
set(host ${WORK_DIR}/host)
file(WRITE ${host}/CMakeLists.txt "cmake_minimum_required(VERSION 3.25)
project(host CXX)
add_subdirectory(\"${SOURCE_DIR}\" rockpoint)
add_executable(agent_store main.cpp)
target_link_libraries(agent_store PRIVATE rockpoint::open_embedded)
")
file(COPY ${consumer}/main.cpp DESTINATION ${host})
set(launcher_flags "")
if(LAUNCHER)
  set(launcher_flags -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
# No build type: the embedded core compiles without optimization or debug
# information, the fastest compile (this checks that it builds and runs).
run_checked("configure host" ${CMAKE_COMMAND} -S ${host} -B ${host}/build
  -G ${GENERATOR} -DCMAKE_BUILD_TYPE= ${launcher_flags}
  -DROCKPOINT_WERROR=${WERROR})
if(EXISTS ${host}/build/rockpoint/tests OR EXISTS ${host}/build/rockpoint/tools)
  message(FATAL_ERROR "an embedded rockpoint built its tests or tools")
endif()
run_checked("build host" ${CMAKE_COMMAND} --build ${host}/build
  --target agent_store)
run_checked("run host" ${host}/build/agent_store ${WORK_DIR}/embedded.rpdb)
expect_example_output("${last_output}")
# The runtime example, against the installed package.
extract_fence("${readme}" "## Runtime" cpp runtime_cpp)
set(runtime_consumer ${WORK_DIR}/runtime_consumer)
file(WRITE ${runtime_consumer}/main.cpp "${runtime_cpp}")
file(WRITE ${runtime_consumer}/CMakeLists.txt "cmake_minimum_required(VERSION 3.25)
project(chat CXX)
find_package(rockpoint REQUIRED)
add_executable(chat main.cpp)
target_link_libraries(chat PRIVATE rockpoint::runtime)
")
run_checked("configure runtime consumer" ${CMAKE_COMMAND}
  -S ${runtime_consumer} -B ${runtime_consumer}/build -G ${GENERATOR}
  -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=RelWithDebInfo)
run_checked("build runtime consumer" ${CMAKE_COMMAND}
  --build ${runtime_consumer}/build)
run_checked("run runtime consumer" ${runtime_consumer}/build/chat)
string(FIND "${last_output}" "chat-1: {\"messages\":[\"hello\",\"reply to hello\",\"how are you?\",\"reply to how are you?\"]}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "unexpected runtime example output:\n${last_output}")
endif()
message(STATUS "package: find_package, pkg-config and add_subdirectory consumers and the runtime example built and ran")
