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
# takes them; any message is a failure, but for what Debian 12's layer
# (1.3.239) cannot know: it predates the extensions of
# src/icd/vulkan_newer.h, and flags
# - the structures of those Dawn chains when Tessera lists them
#   (maintenance5's properties, maximal reconvergence's features) as
#   "unknown VkStructureType (N)", N one of that header's values;
# - the SPIR-V Dawn then writes for them: its SPIRV-Tools rejects
#   SPV_KHR_maximal_reconvergence and its MaximallyReconvergesKHR
#   execution mode (6023), which Tessera reads (src/spirv/newer_extensions.h).
newer=$(grep -o 'VkStructureType([0-9]*)' "$here/../../src/icd/vulkan_newer.h" | tr -dc '0-9\n' | paste -sd'|')
if grep "Validation Error" "$work/out.log" |
	grep -vE "includes a structure with unknown VkStructureType \(($newer)\)" |
	grep -vE "A SPIR-V Extension \(SPV_KHR_maximal_reconvergence\) was declared|Invalid execution mode operand: 6023" |
	grep -q .; then
	echo "FAIL: validation errors"
	exit 1
fi
grep -q '^PASS$' "$work/out.log"
