# Writes the harness version (git describe) into a source file, touching it only on change.
execute_process(COMMAND git -C "${SRC}" describe --always --dirty --tags
  OUTPUT_VARIABLE v OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR v STREQUAL "")
  set(v "unknown")
endif()
set(text "#include \"core/version.h\"\nnamespace caliber {\nconst char* harness_version() { return \"${v}\"; }\n}  // namespace caliber\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUT}" "${text}")
endif()
