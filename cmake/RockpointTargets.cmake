# Helpers that give every rockpoint target the same shape.
include(GNUInstallDirs)

# Compile options of rockpoint's own code (never propagated to users).
add_library(rockpoint_warnings INTERFACE)
target_compile_options(rockpoint_warnings INTERFACE
  -Wall -Wextra -Wno-unused-parameter
  $<$<BOOL:${ROCKPOINT_WERROR}>:-Werror>
  $<$<AND:$<BOOL:${ROCKPOINT_THREAD_SAFETY}>,$<CXX_COMPILER_ID:Clang>>:-Wthread-safety;-Werror=thread-safety>)

# The source tree as an include root, for private headers ("serde/records.h").
# The libraries use it only while they are built; the tests link it.
add_library(rockpoint_source_tree INTERFACE)
target_include_directories(rockpoint_source_tree INTERFACE ${PROJECT_SOURCE_DIR})
target_link_libraries(rockpoint_source_tree INTERFACE rockpoint_warnings)

# The include root of the code built on the library (tools/, bench/, fuzz/):
# a folder of links to the layers below the backends (base, keys, serde,
# formats) and to that code itself. engine/ and runtime/ are not in it, so an
# include of a private engine header does not compile there: that code sees
# the engine through include/ only.
set(ROCKPOINT_OUTER_TREE ${PROJECT_BINARY_DIR}/outer_include)
file(MAKE_DIRECTORY ${ROCKPOINT_OUTER_TREE})
foreach(dir base keys serde formats tools bench fuzz)
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${dir} ${ROCKPOINT_OUTER_TREE}/${dir}
       SYMBOLIC)
endforeach()
add_library(rockpoint_outer_tree INTERFACE)
target_include_directories(rockpoint_outer_tree INTERFACE ${ROCKPOINT_OUTER_TREE})
target_link_libraries(rockpoint_outer_tree INTERFACE rockpoint_warnings)

# rockpoint_unity_build(target [batch_size]): with ROCKPOINT_UNITY_BUILD,
# the target's sources compile in unity batches of batch_size (default 8).
# Sources of one batch share a translation unit, so names at namespace scope
# (anonymous namespaces included) must be unique across a target's files.
# GCC's -Wsubobject-linkage takes every source of a batch for a header and
# warns about its anonymous-namespace types and lambdas in coroutine frames:
# off for unity targets.
function(rockpoint_unity_build target)
  set(batch_size 8)
  if(ARGC GREATER 1)
    set(batch_size ${ARGV1})
  endif()
  if(ROCKPOINT_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                          UNITY_BUILD_BATCH_SIZE ${batch_size})
    target_compile_options(${target} PRIVATE
      $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
  endif()
endfunction()

# rockpoint_add_library(NAME <short> SOURCES ...): the library
# rockpoint_<short>, aliased rockpoint::<short>, exported as rockpoint::<short>
# with output name rockpoint_<short> (librockpoint_<short>.a / .so.<major>).
function(rockpoint_add_library short)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  set(target rockpoint_${short})
  add_library(${target} ${ARG_SOURCES})
  add_library(rockpoint::${short} ALIAS ${target})
  set_target_properties(${target} PROPERTIES
    EXPORT_NAME ${short}
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
    # Installed shared libraries find each other beside themselves.
    INSTALL_RPATH "$ORIGIN")
  target_link_libraries(${target} PUBLIC rockpoint_headers
    PRIVATE $<BUILD_INTERFACE:rockpoint_source_tree>)
  rockpoint_unity_build(${target})
  set_property(GLOBAL APPEND PROPERTY ROCKPOINT_LIBRARIES ${target})
endfunction()
