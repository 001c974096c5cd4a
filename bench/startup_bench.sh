#!/usr/bin/env bash
# Start-up cost, Tessera next to lavapipe (and SwiftShader, Chromium's copy,
# when installed) in the same run:
#   1. the demo (examples/demo.cpp): process start to its PNG written and
#      the process gone (instance, device, pipeline creation, one frame);
#   2. `vulkaninfo --summary`: loader + driver initialization and queries.
# Each is run N times and the median wall time is reported. lavapipe is
# measured twice: with its on-disk shader cache disabled
# (MESA_SHADER_CACHE_DISABLE=true: a cold pipeline compile on every run) and
# enabled (a private cache folder, warmed by one run first). SwiftShader is
# measured as installed. Tessera's demo runs without a pipeline cache file.
#
#   bench/startup_bench.sh [build dir (default: build)] [runs (default: 20)]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
runs=${2:-20}
tessera=$build/tessera_icd.json
lavapipe=${LAVAPIPE_ICD:-/usr/share/vulkan/icd.d/lvp_icd.x86_64.json}
swiftshader=${SWIFTSHADER_ICD:-/usr/lib/chromium/vk_swiftshader_icd.json}
demo=$build/examples/tessera-demo
for f in "$tessera" "$lavapipe" "$demo"; do
  test -e "$f" || { echo "missing: $f (build the demo: make -C build tessera-demo)"; exit 1; }
done
command -v vulkaninfo >/dev/null || { echo "vulkaninfo is not installed"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export VK_LOADER_LAYERS_DISABLE='~implicit~'
unset VK_INSTANCE_LAYERS VK_ICD_FILENAMES

# median_ms <label> <env...> -- <command...>: runs it $runs times, prints the
# median, min and max wall time in milliseconds.
median_ms() {
  local label=$1
  shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  local times=()
  for ((i = 0; i < runs; ++i)); do
    local start end
    start=$(date +%s%N)
    env "${envs[@]}" "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; echo "$label: failed"; exit 1; }
    end=$(date +%s%N)
    times+=($(((end - start) / 1000)))
  done
  python3 - "$label" "${times[@]}" <<'PY'
import statistics, sys
label, times = sys.argv[1], [int(t) / 1000 for t in sys.argv[2:]]
print(f"| {label} | {statistics.median(times):.1f} ms | {min(times):.1f} | {max(times):.1f} |")
PY
}

echo "startup_bench: $runs runs each, $(nproc) CPUs, $(date -u +%FT%TZ)"
echo "uptime: $(uptime)"
echo
echo "| what | median | min | max |"
echo "| --- | --- | --- | --- |"
median_ms "demo to PNG, Tessera" VK_DRIVER_FILES="$tessera" -- "$demo" "$work/demo.png"
median_ms "demo to PNG, lavapipe, shader cache disabled" VK_DRIVER_FILES="$lavapipe" MESA_SHADER_CACHE_DISABLE=true -- "$demo" "$work/demo.png"
# Warm lavapipe's cache in a private folder (not the user's ~/.cache).
VK_DRIVER_FILES="$lavapipe" MESA_SHADER_CACHE_DIR="$work/mesa-cache" "$demo" "$work/demo.png" >/dev/null 2>&1
median_ms "demo to PNG, lavapipe, shader cache warm" VK_DRIVER_FILES="$lavapipe" MESA_SHADER_CACHE_DIR="$work/mesa-cache" -- "$demo" "$work/demo.png"
if [ -e "$swiftshader" ]; then
  median_ms "demo to PNG, SwiftShader" VK_DRIVER_FILES="$swiftshader" -- "$demo" "$work/demo.png"
fi
median_ms "vulkaninfo --summary, Tessera" VK_DRIVER_FILES="$tessera" -- vulkaninfo --summary
median_ms "vulkaninfo --summary, lavapipe, shader cache disabled" VK_DRIVER_FILES="$lavapipe" MESA_SHADER_CACHE_DISABLE=true -- vulkaninfo --summary
median_ms "vulkaninfo --summary, lavapipe, shader cache warm" VK_DRIVER_FILES="$lavapipe" MESA_SHADER_CACHE_DIR="$work/mesa-cache" -- vulkaninfo --summary
if [ -e "$swiftshader" ]; then
  median_ms "vulkaninfo --summary, SwiftShader" VK_DRIVER_FILES="$swiftshader" -- vulkaninfo --summary
fi
echo
echo "uptime: $(uptime)"
