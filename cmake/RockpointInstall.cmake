# Install rules: public headers, the libraries, the CLI, the CMake package
# (find_package(rockpoint) -> rockpoint::rockpoint and one target per part)
# and rockpoint.pc.
include(CMakePackageConfigHelpers)

get_property(rockpoint_libraries GLOBAL PROPERTY ROCKPOINT_LIBRARIES)
set_target_properties(rockpoint PROPERTIES EXPORT_NAME rockpoint)
install(TARGETS rockpoint_headers rockpoint ${rockpoint_libraries}
  EXPORT rockpointTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
  NAMELINK_COMPONENT library
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT library)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/rockpoint
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT library
  FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/rockpoint/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/rockpoint COMPONENT library)
if(TARGET rockpoint_cli)
  install(TARGETS rockpoint_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    COMPONENT tools)
endif()

if(BUILD_SHARED_LIBS)
  set(ROCKPOINT_CONFIG_SHARED ON)
else()
  set(ROCKPOINT_CONFIG_SHARED OFF)
endif()

set(ROCKPOINT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/rockpoint)
install(EXPORT rockpointTargets
  NAMESPACE rockpoint::
  DESTINATION ${ROCKPOINT_CMAKE_DIR} COMPONENT library)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/rockpointConfig.cmake.in
  ${PROJECT_BINARY_DIR}/rockpointConfig.cmake
  INSTALL_DESTINATION ${ROCKPOINT_CMAKE_DIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/rockpointConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/rockpointConfig.cmake
  ${PROJECT_BINARY_DIR}/rockpointConfigVersion.cmake
  DESTINATION ${ROCKPOINT_CMAKE_DIR} COMPONENT library)

# pkg-config: static libraries list their own dependencies in Libs; shared
# ones in Libs.private.
set(ROCKPOINT_PC_LIBS "-lrockpoint_store -lrockpoint_open -lrockpoint_postgres -lrockpoint_jsonl -lrockpoint_sqlite -lrockpoint_rocksdb -lrockpoint_formats -lrockpoint_engine -lrockpoint_serde -lrockpoint_keys -lrockpoint_base")
if(ROCKPOINT_BUILD_RUNTIME)
  set(ROCKPOINT_PC_LIBS "-lrockpoint_runtime ${ROCKPOINT_PC_LIBS}")
endif()
set(ROCKPOINT_PC_DEPS "-lrocksdb -lsqlite3 -lpq -lcrypto -pthread")
if(BUILD_SHARED_LIBS)
  set(ROCKPOINT_PC_LIBS_PUBLIC "${ROCKPOINT_PC_LIBS}")
  set(ROCKPOINT_PC_LIBS_PRIVATE "${ROCKPOINT_PC_DEPS}")
else()
  set(ROCKPOINT_PC_LIBS_PUBLIC "${ROCKPOINT_PC_LIBS} ${ROCKPOINT_PC_DEPS}")
  set(ROCKPOINT_PC_LIBS_PRIVATE "")
endif()
# Relocatable: the prefix is found from where rockpoint.pc lies.
file(RELATIVE_PATH ROCKPOINT_PC_TO_PREFIX
  /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/rockpoint.pc.in
  ${PROJECT_BINARY_DIR}/rockpoint.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/rockpoint.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT library)
