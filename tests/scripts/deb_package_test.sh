#!/usr/bin/env bash
# Builds the .deb with CPack into a temporary folder and checks what it
# installs: the driver library under /usr/lib, the ICD manifest where the
# loader looks (/usr/share/vulkan/icd.d), the pkg-config and CMake files,
# and a manifest whose library path resolves inside the package.
# cpack first builds the project's `all` target (its preinstall step): run
# after a full build, as ctest is, that is only a dependency check.
set -euo pipefail
build_dir=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cpack -G DEB -B "$out" --config "$build_dir/CPackConfig.cmake" >"$out/cpack.log" 2>&1 || {
  cat "$out/cpack.log"; exit 1; }
deb=$(ls "$out"/tessera-vulkan-driver_*.deb)
echo "built $(basename "$deb")"
contents=$(dpkg-deb -c "$deb")
fail=0
expect() {
  echo "$contents" | grep -Eq "$1" || { echo "missing from the package: $1"; fail=1; }
}
expect ' \./usr/share/vulkan/icd\.d/tessera_icd\.json$'
expect ' \./usr/lib/(x86_64-linux-gnu/)?libtessera_vulkan\.so\.1 -> '
expect ' \./usr/lib/(x86_64-linux-gnu/)?libtessera_vulkan\.so\.[0-9]+\.[0-9]+\.[0-9]+$'
expect ' \./usr/lib/(x86_64-linux-gnu/)?pkgconfig/tessera\.pc$'
expect ' \./usr/lib/(x86_64-linux-gnu/)?cmake/Tessera/TesseraConfig\.cmake$'
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
echo "$depends" | grep -q 'libc6' || { echo "Depends lacks libc6"; fail=1; }
echo "$depends" | grep -q 'libstdc++6' || { echo "Depends lacks libstdc++6"; fail=1; }
# The manifest's library_path, relative to the manifest, must name the
# library the package ships.
dpkg-deb -x "$deb" "$out/root"
manifest="$out/root/usr/share/vulkan/icd.d/tessera_icd.json"
library=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ICD"]["library_path"])' "$manifest")
test -f "$out/root/usr/share/vulkan/icd.d/$library" || { echo "manifest names $library, not in the package"; fail=1; }
if [ $fail -ne 0 ]; then echo "$contents"; exit 1; fi
echo "package contents and manifest path OK"
