# Installing Tessera for other projects, and packaging it as a .deb.
#
# Besides the library and the ICD manifest (src/CMakeLists.txt):
#   <libdir>/pkgconfig/tessera.pc                 pkg-config --libs tessera
#   <libdir>/cmake/Tessera/TesseraConfig.cmake    find_package(Tessera) -> Tessera::tessera_vulkan
# Both find the prefix relative to their own location, so an install tree
# can be moved (cmake --install build --prefix anywhere).
include(CMakePackageConfigHelpers)

set(TESSERA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Tessera)
file(RELATIVE_PATH TESSERA_CONFIG_TO_PREFIX
  ${CMAKE_INSTALL_FULL_LIBDIR}/cmake/Tessera ${CMAKE_INSTALL_PREFIX})
file(RELATIVE_PATH TESSERA_PC_TO_PREFIX
  ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" TESSERA_CONFIG_TO_PREFIX "${TESSERA_CONFIG_TO_PREFIX}")
string(REGEX REPLACE "/$" "" TESSERA_PC_TO_PREFIX "${TESSERA_PC_TO_PREFIX}")
# The library is installed under its soname (libtessera_vulkan.so.1), the
# name programs linked against it look for at run time.
get_target_property(TESSERA_SOVERSION tessera_vulkan SOVERSION)
set(TESSERA_LIBRARY_SONAME
  ${CMAKE_SHARED_LIBRARY_PREFIX}tessera_vulkan${CMAKE_SHARED_LIBRARY_SUFFIX}.${TESSERA_SOVERSION})
set(TESSERA_LIBRARY_FILE ${TESSERA_LIBRARY_SONAME})

configure_file(${CMAKE_CURRENT_LIST_DIR}/TesseraConfig.cmake.in
  ${PROJECT_BINARY_DIR}/install/TesseraConfig.cmake @ONLY)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/install/TesseraConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
configure_file(${CMAKE_CURRENT_LIST_DIR}/tessera.pc.in ${PROJECT_BINARY_DIR}/install/tessera.pc @ONLY)

install(FILES ${PROJECT_BINARY_DIR}/install/TesseraConfig.cmake
              ${PROJECT_BINARY_DIR}/install/TesseraConfigVersion.cmake
        DESTINATION ${TESSERA_CMAKE_DIR} COMPONENT dev)
install(FILES ${PROJECT_BINARY_DIR}/install/tessera.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

# cpack -G DEB (from the build folder) makes two packages, as Debian splits
# libraries:
#   tessera-vulkan-driver_<version>_<arch>.deb      the driver (libdir) and its
#       manifest in /usr/share/vulkan/icd.d, where the loader looks; all a
#       Vulkan program needs;
#   tessera-vulkan-driver-dev_<version>_<arch>.deb  libtessera_vulkan.so,
#       tessera.pc and TesseraConfig.cmake, for programs that link Tessera
#       directly (depends on the first, same version).
# The manifest names the library relative to itself, so it stays right
# under the package's prefix.
set(CPACK_PACKAGE_NAME tessera-vulkan-driver)
set(CPACK_PACKAGE_VENDOR "Tessera")
set(CPACK_PACKAGE_CONTACT "Tessera developers <tessera@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Vulkan 1.3 driver that runs on the CPU")
set(CPACK_PACKAGE_DESCRIPTION
  "Tessera is a Vulkan driver (ICD) that runs entirely on the CPU, for machines without a GPU: headless CI, offscreen rendering on servers.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME tessera-vulkan-driver)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME tessera-vulkan-driver-dev)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DESCRIPTION "Files for programs that link the Tessera Vulkan driver directly")
# Debian's Vulkan drivers (mesa-vulkan-drivers) provide vulkan-icd, which the
# loader package recommends.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_PROVIDES vulkan-icd)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS libvulkan1)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "tessera-vulkan-driver (= ${PROJECT_VERSION}), libvulkan-dev")
find_program(TESSERA_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(TESSERA_DPKG_SHLIBDEPS)
  # Depends: computed from the library's imports (libc6, libstdc++6, libgcc-s1, libhwy1).
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "libc6, libstdc++6, libgcc-s1, libhwy1")  # the driver links libhwy
endif()
include(CPack)
