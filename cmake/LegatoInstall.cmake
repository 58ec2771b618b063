# `cmake --install` puts the libraries, their headers, the tools and a CMake
# package in the prefix, so a program outside this tree builds with
#   find_package(Legato REQUIRED)
#   target_link_libraries(my_program PRIVATE Legato::arrays)   # or Legato::runtime
# and includes "arrays/array.hpp" (or "runtime/legato.hpp") as code in this tree does.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LEGATO_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/legato)
set(LEGATO_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Legato)

foreach(lib base trace recorder runtime arrays)
  set_target_properties(legato_${lib} PROPERTIES EXPORT_NAME ${lib})
  target_include_directories(legato_${lib} INTERFACE $<INSTALL_INTERFACE:${LEGATO_INSTALL_INCLUDEDIR}>)
endforeach()
foreach(dir base trace_format recorder runtime arrays)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir} DESTINATION ${LEGATO_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()

# legato_warnings only carries this project's compiler flags; it is exported
# because the static libraries name it, and adds nothing to a user's build.
set_target_properties(legato_warnings PROPERTIES EXPORT_NAME project_warnings)
install(TARGETS legato_base legato_trace legato_recorder legato_runtime legato_arrays legato_warnings
        EXPORT LegatoTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS legate legate_prof RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT LegatoTargets NAMESPACE Legato:: DESTINATION ${LEGATO_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/LegatoConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/LegatoConfig.cmake
                              INSTALL_DESTINATION ${LEGATO_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/LegatoConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/LegatoConfig.cmake ${CMAKE_BINARY_DIR}/LegatoConfigVersion.cmake
        DESTINATION ${LEGATO_INSTALL_CMAKEDIR})
