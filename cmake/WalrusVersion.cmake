# Writes OUTPUT, the version and commit the tools print with --version, at
# every build; the file changes only when they do, so only the tools'
# main files recompile. Run with -DSOURCE_DIR, -DOUTPUT and -DVERSION.
execute_process(
  COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT commit)
  set(commit "unknown (not built from a git checkout)")
endif()
set(text "#define WALRUS_VERSION \"${VERSION}\"\n#define WALRUS_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
