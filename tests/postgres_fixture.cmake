# The ctest fixture "postgres" (rockpoint_requires_postgres in
# tests/CMakeLists.txt), run with cmake -P: runs `SCRIPT ACTION DIR`
# (SCRIPT: tools/pg_server.sh, ACTION: start or stop), which starts or stops
# the throwaway server in DIR. When ROCKPOINT_TEST_POSTGRES_URL is set in the
# environment, the tests use that server instead: this does nothing and
# prints "using the external PostgreSQL server", which the fixture's tests
# report as skipped (their SKIP_REGULAR_EXPRESSION).
# Inputs: ACTION, SCRIPT, DIR.
cmake_minimum_required(VERSION 3.25)

if(NOT "$ENV{ROCKPOINT_TEST_POSTGRES_URL}" STREQUAL "")
  message("using the external PostgreSQL server at "
          "ROCKPOINT_TEST_POSTGRES_URL ($ENV{ROCKPOINT_TEST_POSTGRES_URL}); "
          "not running pg_server.sh ${ACTION}")
  return()
endif()
execute_process(COMMAND ${SCRIPT} ${ACTION} ${DIR} RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "${SCRIPT} ${ACTION} ${DIR} failed (${code})")
endif()
