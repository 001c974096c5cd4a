#!/usr/bin/env bash
# Installs the build into a fresh prefix and checks that the loader finds
# Tessera there through its standard search path, with no VK_DRIVER_FILES.
set -euo pipefail
build_dir=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build_dir" --prefix "$prefix" --component runtime  # the driver and its manifest, no -dev files >/dev/null
manifest="$prefix/share/vulkan/icd.d/tessera_icd.json"
test -f "$manifest" || { echo "no manifest at $manifest"; exit 1; }
unset VK_DRIVER_FILES VK_ICD_FILENAMES
out=$(XDG_DATA_DIRS="$prefix/share" XDG_CONFIG_DIRS=/nonexistent VK_LOADER_LAYERS_DISABLE='~implicit~' vulkaninfo --summary 2>&1) || {
  echo "$out"; exit 1; }
echo "$out" | grep -q "deviceName *= Tessera" || { echo "$out"; echo "Tessera not found through the installed manifest"; exit 1; }
echo "installed manifest found by the loader: $manifest"
# The compiled tier's module is installed beside the driver, which loads it
# from there when it compiles (the demo, when it was built).
demo="$build_dir/examples/tessera-demo"
if [ -x "$demo" ]; then
  loaded=$(XDG_DATA_DIRS="$prefix/share" XDG_CONFIG_DIRS=/nonexistent VK_LOADER_LAYERS_DISABLE='~implicit~' \
    TESSERA_JIT=sync TESSERA_CACHE_DIR=0 LD_DEBUG=files "$demo" "$prefix/demo.png" 2>&1) || {
    echo "$loaded" | tail -20; echo "the demo failed on the installed driver"; exit 1; }
  echo "$loaded" | grep -q "file=$prefix/[^ ]*/libtessera_jit.so " ||
    { echo "the installed driver did not load the installed libtessera_jit.so"; exit 1; }
  echo "installed JIT module loaded: $(echo "$loaded" | grep -o "file=$prefix/[^ ]*/libtessera_jit.so" | head -1)"
fi
