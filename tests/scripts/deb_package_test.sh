#!/usr/bin/env bash
# Builds the two .debs with CPack into a temporary folder and checks what
# they install: tessera-vulkan-driver has the driver library in the
# multiarch folder (/usr/lib/x86_64-linux-gnu) and the ICD manifest where the
# loader looks (/usr/share/vulkan/icd.d), with a library path that resolves
# inside the package; tessera-vulkan-driver-dev has the link-time name, the
# pkg-config and CMake files, and depends on the first at the same version.
# cpack first builds the project's `all` target (its preinstall step): run
# after a full build, as ctest is, that is only a dependency check.
set -euo pipefail
build_dir=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cpack -G DEB -B "$out" --config "$build_dir/CPackConfig.cmake" >"$out/cpack.log" 2>&1 || {
  cat "$out/cpack.log"; exit 1; }
deb=$(ls "$out"/tessera-vulkan-driver_*.deb)
dev=$(ls "$out"/tessera-vulkan-driver-dev_*.deb)
echo "built $(basename "$deb") $(basename "$dev")"
contents=$(dpkg-deb -c "$deb")
dev_contents=$(dpkg-deb -c "$dev")
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
lib="\\./usr/lib/$multiarch"
fail=0
expect() {  # expect <listing> <regex>
  echo "$1" | grep -Eq "$2" || { echo "missing from the package: $2"; fail=1; }
}
reject() {  # reject <listing> <regex>
  ! echo "$1" | grep -Eq "$2" || { echo "in the wrong package: $2"; fail=1; }
}
expect "$contents" ' \./usr/share/vulkan/icd\.d/tessera_icd\.json$'
expect "$contents" " $lib/libtessera_vulkan\\.so\\.1 -> "
expect "$contents" " $lib/libtessera_vulkan\\.so\\.[0-9]+\\.[0-9]+\\.[0-9]+\$"
expect "$contents" " $lib/libtessera_jit\\.so\$"
reject "$contents" 'tessera\.pc|TesseraConfig|libtessera_vulkan\.so -> '
expect "$dev_contents" " $lib/libtessera_vulkan\\.so -> libtessera_vulkan\\.so\\.1\$"
expect "$dev_contents" " $lib/pkgconfig/tessera\\.pc\$"
expect "$dev_contents" " $lib/cmake/Tessera/TesseraConfig\\.cmake\$"
dev_depends=$(dpkg-deb -f "$dev" Depends)
echo "dev Depends: $dev_depends"
echo "$dev_depends" | grep -q "tessera-vulkan-driver (= $(dpkg-deb -f "$deb" Version))" ||
  { echo "the dev package does not depend on the driver at its version"; fail=1; }
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
echo "$depends" | grep -q 'libc6' || { echo "Depends lacks libc6"; fail=1; }
echo "$depends" | grep -q 'libstdc++6' || { echo "Depends lacks libstdc++6"; fail=1; }
# libLLVM, which the JIT module links (the driver loads the module with dlopen).
echo "$depends" | grep -q 'libllvm19' || { echo "Depends lacks libllvm19"; fail=1; }
# The manifest's library_path, relative to the manifest, must name the
# library the package ships.
dpkg-deb -x "$deb" "$out/root"
manifest="$out/root/usr/share/vulkan/icd.d/tessera_icd.json"
library=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ICD"]["library_path"])' "$manifest")
test -f "$out/root/usr/share/vulkan/icd.d/$library" || { echo "manifest names $library, not in the package"; fail=1; }
# With both unpacked, the dev package's link-time name reaches the library.
dpkg-deb -x "$dev" "$out/root"
test -e "$out/root/usr/lib/$multiarch/libtessera_vulkan.so" || { echo "libtessera_vulkan.so dangles"; fail=1; }
if [ $fail -ne 0 ]; then echo "$contents"; echo "$dev_contents"; exit 1; fi
echo "package contents and manifest path OK"
