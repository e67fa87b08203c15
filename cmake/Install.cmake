# Installs headers (with the generated .h.inc and the TableGen sources),
# libraries, tools and a CMake package: a downstream project does
# find_package(Walrus) and links Walrus::* targets.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(WALRUS_INSTALL_INCLUDE_DIR ${CMAKE_INSTALL_INCLUDEDIR})
set(WALRUS_INSTALL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/walrus)
set(WALRUS_LIBRARIES WalrusBIR WalrusPlacement WalrusSchedule WalrusAnalysis
  WalrusImportTosa WalrusLinalgToBir
  WalrusTransforms WalrusPipelines
  WalrusInterpreter
  WalrusTarget WalrusRegistration)

foreach(library ${WALRUS_LIBRARIES})
  target_include_directories(${library} INTERFACE
    $<INSTALL_INTERFACE:${WALRUS_INSTALL_INCLUDE_DIR}>)
endforeach()

install(TARGETS ${WALRUS_LIBRARIES} EXPORT WalrusTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS walrus-opt walrus-run walrus-lsp-server walrus-translate
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET WalrusCAPI)
  # Walrus::WalrusCAPI (Walrus's C API) brings Walrus::WalrusMLIRCAPI
  # (MLIR's) with it.
  target_include_directories(WalrusCAPI INTERFACE
    $<INSTALL_INTERFACE:${WALRUS_INSTALL_INCLUDE_DIR}>)
  install(TARGETS WalrusCAPI WalrusMLIRCAPI EXPORT WalrusTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/Walrus-c
    DESTINATION ${WALRUS_INSTALL_INCLUDE_DIR})
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/Walrus
  DESTINATION ${WALRUS_INSTALL_INCLUDE_DIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/Walrus
  DESTINATION ${WALRUS_INSTALL_INCLUDE_DIR}
  FILES_MATCHING PATTERN "*.h.inc")
install(EXPORT WalrusTargets NAMESPACE Walrus::
  DESTINATION ${WALRUS_INSTALL_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/WalrusConfig.cmake.in
  ${PROJECT_BINARY_DIR}/WalrusConfig.cmake
  INSTALL_DESTINATION ${WALRUS_INSTALL_CMAKE_DIR}
  PATH_VARS WALRUS_INSTALL_INCLUDE_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/WalrusConfigVersion.cmake
  VERSION 0.1.0 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/WalrusConfig.cmake
  ${PROJECT_BINARY_DIR}/WalrusConfigVersion.cmake
  DESTINATION ${WALRUS_INSTALL_CMAKE_DIR})
