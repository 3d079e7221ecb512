# The embedding package: what `cmake --install` puts under the prefix.
#
#   include/vkhlo/*.h                  the public headers (standard library beneath them only)
#   lib/libvkhlo.a                     one archive: vkhlo's static libraries and the static
#                                      glslang / SPIRV-Tools ones they use, bundled
#   lib/libvkhlo_runtime.a             the runtime alone (issue 22): loads and runs compiled
#                                      plans (.vkx); no compiler, parser, passes, interpreter,
#                                      glslang or SPIRV-Tools inside
#   lib/cmake/vkhlo/vkhloConfig*.cmake find_package(vkhlo CONFIG) -> targets vkhlo::vkhlo and
#                                      vkhlo::runtime
#   lib/pkgconfig/vkhlo.pc             pkg-config --cflags --libs vkhlo (vkhlo-runtime)
#
# Shared dependencies stay shared and are found again by the consumer (Vulkan loader, fmt,
# threads). In the build tree the same `vkhlo::vkhlo` target links the internal libraries
# directly, so examples/ builds the same way inside the project and against an installed copy.
# Included at the end of the top-level CMakeLists.txt, when every target exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(vkhlo_package_roots vkhlo_runtime vkhlo_builder)
set(vkhlo_runtime_package_roots vkhlo_runtime_only)
# Imported targets are visible only in the directory that found them: find the static
# dependencies again here so the walk below sees them as targets.
find_package(glslang QUIET)
find_package(SPIRV-Tools-opt QUIET)

add_library(vkhlo INTERFACE)
target_link_libraries(vkhlo INTERFACE ${vkhlo_package_roots})
add_library(vkhlo::vkhlo ALIAS vkhlo)
add_library(vkhlo_runtime_package INTERFACE)
target_link_libraries(vkhlo_runtime_package INTERFACE ${vkhlo_runtime_package_roots})
add_library(vkhlo::runtime ALIAS vkhlo_runtime_package)

# Walks the link closure of `target`, sorting what it finds into static archives to bundle
# (the project's own and imported static ones, as $<TARGET_FILE> or paths) and the shared
# dependencies the consumer must link (imported targets other than static, plain library names).
function(vkhlo_collect_link_closure target)
  get_property(visited GLOBAL PROPERTY vkhlo_package_visited)
  if(target IN_LIST visited)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY vkhlo_package_visited ${target})
  get_target_property(type ${target} TYPE)
  get_target_property(imported ${target} IMPORTED)
  set(links)
  if(type STREQUAL "STATIC_LIBRARY")
    if(imported)
      # The file itself, so that an archive also named by path elsewhere is bundled once.
      get_target_property(location ${target} LOCATION)
      set_property(GLOBAL APPEND PROPERTY vkhlo_package_archives "${location}")
    else()
      set_property(GLOBAL APPEND PROPERTY vkhlo_package_archives "$<TARGET_FILE:${target}>")
      get_target_property(links ${target} LINK_LIBRARIES)
    endif()
  elseif(imported AND NOT type STREQUAL "INTERFACE_LIBRARY")
    set_property(GLOBAL APPEND PROPERTY vkhlo_package_shared ${target})
    return()
  elseif(imported AND NOT target MATCHES "^(vkhlo|glslang|SPIRV)")
    # An imported interface target (Threads::Threads): the consumer finds it again.
    set_property(GLOBAL APPEND PROPERTY vkhlo_package_shared ${target})
    return()
  endif()
  get_target_property(interface_links ${target} INTERFACE_LINK_LIBRARIES)
  foreach(item IN LISTS links interface_links)
    if(item MATCHES "-NOTFOUND$" OR item STREQUAL "")
      continue()
    endif()
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" item "${item}")
    if(TARGET ${item})
      vkhlo_collect_link_closure(${item})
    elseif(item MATCHES "\\.a$")
      set_property(GLOBAL APPEND PROPERTY vkhlo_package_archives "${item}")
    elseif(item MATCHES "^-Wl,--(start|end)-group$")
      # Grouping flags: the bundled archive resolves the cycles itself (one archive).
    elseif(item MATCHES "^\\$<")
      message(WARNING "vkhlo package: cannot bundle the generator expression ${item} (of ${target})")
    elseif(item MATCHES "^(c|dl|m|rt|pthread)$")
      set_property(GLOBAL APPEND PROPERTY vkhlo_package_shared ${item})  # the C library's
    elseif(item MATCHES "^[A-Za-z0-9_.+-]+$" AND NOT item MATCHES "^-")
      # A plain library name (glslang's config names SPIRV-Tools so): bundled when the system
      # has it only as a static archive, else a shared dependency.
      string(MAKE_C_IDENTIFIER ${item} id)
      find_library(VKHLO_PACKAGE_SHARED_${id} NAMES lib${item}.so)
      find_library(VKHLO_PACKAGE_STATIC_${id} NAMES lib${item}.a)
      if(NOT VKHLO_PACKAGE_SHARED_${id} AND VKHLO_PACKAGE_STATIC_${id})
        set_property(GLOBAL APPEND PROPERTY vkhlo_package_archives "${VKHLO_PACKAGE_STATIC_${id}}")
      else()
        set_property(GLOBAL APPEND PROPERTY vkhlo_package_shared ${item})
      endif()
    else()
      set_property(GLOBAL APPEND PROPERTY vkhlo_package_shared ${item})
    endif()
  endforeach()
endfunction()

# Bundles the link closure of `roots` into lib/lib<name>.a and sets <prefix>_FIND_DEPENDENCIES,
# <prefix>_INTERFACE_LINKS and <prefix>_PC_LIBS: the shared dependencies a consumer links.
function(vkhlo_bundle_package name prefix roots)
  set_property(GLOBAL PROPERTY vkhlo_package_visited "")
  set_property(GLOBAL PROPERTY vkhlo_package_archives "")
  set_property(GLOBAL PROPERTY vkhlo_package_shared "")
  foreach(root ${roots})
    vkhlo_collect_link_closure(${root})
  endforeach()
  get_property(vkhlo_package_archives GLOBAL PROPERTY vkhlo_package_archives)
  get_property(vkhlo_package_shared GLOBAL PROPERTY vkhlo_package_shared)
  list(REMOVE_DUPLICATES vkhlo_package_archives)
  list(REMOVE_DUPLICATES vkhlo_package_shared)

  # The shared dependencies as the consumer's config finds them again; anything else would leave
  # the installed package unlinkable, so it fails the configure here rather than in a user's build.
  set(vkhlo_package_find_dependencies)
  set(vkhlo_package_interface_links)
  set(vkhlo_package_pc_libs)
  foreach(dependency ${vkhlo_package_shared})
    if(dependency MATCHES "^Vulkan::")
      list(APPEND vkhlo_package_find_dependencies "find_dependency(Vulkan)")
      list(APPEND vkhlo_package_interface_links Vulkan::Vulkan)
      list(APPEND vkhlo_package_pc_libs -lvulkan)
    elseif(dependency MATCHES "^fmt::")
      list(APPEND vkhlo_package_find_dependencies "find_dependency(fmt)")
      list(APPEND vkhlo_package_interface_links fmt::fmt)
      list(APPEND vkhlo_package_pc_libs -lfmt)
    elseif(dependency STREQUAL "Threads::Threads")
      list(APPEND vkhlo_package_find_dependencies "find_dependency(Threads)")
      list(APPEND vkhlo_package_interface_links Threads::Threads)
      list(APPEND vkhlo_package_pc_libs -pthread)
    elseif(dependency MATCHES "^(c|dl|m|rt|pthread)$")
      list(APPEND vkhlo_package_interface_links ${dependency})
      list(APPEND vkhlo_package_pc_libs -l${dependency})
    else()
      message(FATAL_ERROR "vkhlo package: no rule for the dependency '${dependency}' (cmake/Package.cmake)")
    endif()
  endforeach()
  list(APPEND vkhlo_package_interface_links ${CMAKE_DL_LIBS})
  list(APPEND vkhlo_package_pc_libs -l${CMAKE_DL_LIBS})
  list(REMOVE_DUPLICATES vkhlo_package_find_dependencies)
  list(REMOVE_DUPLICATES vkhlo_package_interface_links)
  list(REMOVE_DUPLICATES vkhlo_package_pc_libs)
  list(JOIN vkhlo_package_find_dependencies "\n" find_dependencies)
  set(${prefix}_FIND_DEPENDENCIES "${find_dependencies}" PARENT_SCOPE)
  set(${prefix}_INTERFACE_LINKS "${vkhlo_package_interface_links}" PARENT_SCOPE)
  list(JOIN vkhlo_package_pc_libs " " pc_libs)
  set(${prefix}_PC_LIBS "${pc_libs}" PARENT_SCOPE)

  # lib<name>.a: the archives merged with an ar MRI script (members keep their names; duplicate
  # names from different archives are fine for the linker, which reads every member).
  set(vkhlo_mri "CREATE ${CMAKE_BINARY_DIR}/package/lib${name}.a\n")
  foreach(archive ${vkhlo_package_archives})
    string(APPEND vkhlo_mri "ADDLIB ${archive}\n")
  endforeach()
  string(APPEND vkhlo_mri "SAVE\nEND\n")
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/package/lib${name}.mri CONTENT "${vkhlo_mri}")
  set(vkhlo_archive_dependencies)
  foreach(archive ${vkhlo_package_archives})
    if(archive MATCHES "^\\$<TARGET_FILE:(.*)>$")
      list(APPEND vkhlo_archive_dependencies ${CMAKE_MATCH_1})
    endif()
  endforeach()
  add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/package/lib${name}.a
    COMMAND ${CMAKE_COMMAND} -E rm -f ${CMAKE_BINARY_DIR}/package/lib${name}.a
    COMMAND sh -c "\"${CMAKE_AR}\" -M < \"${CMAKE_BINARY_DIR}/package/lib${name}.mri\""
    COMMAND ${CMAKE_RANLIB} ${CMAKE_BINARY_DIR}/package/lib${name}.a
    DEPENDS ${vkhlo_archive_dependencies} ${CMAKE_BINARY_DIR}/package/lib${name}.mri
    COMMENT "Bundling lib${name}.a"
    VERBATIM)
  add_custom_target(${name}_bundle ALL DEPENDS ${CMAKE_BINARY_DIR}/package/lib${name}.a)
endfunction()

vkhlo_bundle_package(vkhlo VKHLO "${vkhlo_package_roots}")
vkhlo_bundle_package(vkhlo_runtime VKHLO_RUNTIME "${vkhlo_runtime_package_roots}")
# The runtime's shared dependencies are among the full library's: the config finds those.

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/vkhloConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/vkhloConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vkhlo)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/vkhloConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
file(RELATIVE_PATH VKHLO_PC_PREFIX_FROM_PCDIR /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(${PROJECT_SOURCE_DIR}/cmake/vkhlo.pc.in ${CMAKE_BINARY_DIR}/package/vkhlo.pc @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/vkhlo-runtime.pc.in ${CMAKE_BINARY_DIR}/package/vkhlo-runtime.pc @ONLY)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/vkhlo DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
# Bundled under package/, not lib/: lib/libvkhlo_runtime.a is the build tree's compiler library.
install(FILES ${CMAKE_BINARY_DIR}/package/libvkhlo.a ${CMAKE_BINARY_DIR}/package/libvkhlo_runtime.a
        DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${CMAKE_BINARY_DIR}/package/vkhloConfig.cmake ${CMAKE_BINARY_DIR}/package/vkhloConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vkhlo)
install(FILES ${CMAKE_BINARY_DIR}/package/vkhlo.pc ${CMAKE_BINARY_DIR}/package/vkhlo-runtime.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
