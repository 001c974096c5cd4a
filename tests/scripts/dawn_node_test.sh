#!/bin/sh
# A real application on Tessera: Dawn for Node.js (npm package "webgpu"),
# unchanged. It downloads the package from the npm registry on its first
# run; when that fails (no network) the test is skipped (exit 77), not passed.
# Usage: dawn_node_test.sh <node> <npm> <tessera_icd.json> <work directory>
#
# dawn_node.mjs requests a Vulkan adapter (it must name Tessera), doubles 64
# uints in a compute pass and draws a triangle into a 64x64 rgba8unorm
# texture, checking the read-back values and pixels. The validation layer is
# on; Dawn's error scopes must stay empty.
set -eu
node=$1 npm=$2 icd=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
version=0.6.2  # the version this test was written against
mkdir -p "$work"
if [ ! -f "$work/node_modules/webgpu/package.json" ] ||
   ! grep -q "\"version\": \"$version\"" "$work/node_modules/webgpu/package.json"; then
	(cd "$work" && "$npm" install --no-save --no-audit --no-fund --prefix "$work" "webgpu@$version") >"$work/npm.log" 2>&1 ||
		{ cat "$work/npm.log"; echo "SKIPPED: npm install webgpu@$version failed (is the npm registry reachable?)"; exit 77; }
fi
export VK_DRIVER_FILES="$icd" WEBGPU_MODULE_DIR="$work"
export VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation VK_LOADER_LAYERS_DISABLE='~implicit~'
"$node" "$here/dawn_node.mjs" >"$work/out.log" 2>&1 || { cat "$work/out.log"; echo "FAIL: dawn_node.mjs"; exit 1; }
cat "$work/out.log"
# The validation layer prints its messages to stdout when no debug messenger
# takes them; any message is a failure.
if grep -q "Validation Error" "$work/out.log"; then echo "FAIL: validation errors"; exit 1; fi
grep -q '^PASS$' "$work/out.log"
