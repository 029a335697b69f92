HOST_TAP_TESTS += selftests/lint/run
