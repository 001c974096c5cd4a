#!/usr/bin/env bash
# Peak memory (maximum resident set size) of each scene of the benchmarks,
# Tessera next to lavapipe, each scene and driver in a process of its own:
# the peak only grows within a process, so scenes run together would report
# the largest one. The figure is the whole process's (the benchmark's own
# buffers and images count for both drivers alike), as GNU time reports it,
# with only the measured driver given to the loader.
# Tessera runs with the shader JIT as configured (TESSERA_JIT, default
# async) and again with TESSERA_JIT=off: LLVM's code and compile memory is
# part of the first figure only.
#
#   bench/peak_memory.sh [build dir (default: build)] [scene filter regex]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
only=${2:-.}
time_bin=/usr/bin/time
test -x "$time_bin" || { echo "GNU time is not installed (apt-get install time)"; exit 1; }
for p in tessera_draw_bench tessera_texture_bench tessera_compute_bench; do
  test -x "$build/bench/$p" || { echo "missing: $build/bench/$p (make -C $build $p)"; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TESSERA_CACHE_DIR=0 MESA_SHADER_CACHE_DISABLE=true

tessera_icd=$build/tessera_icd.json
lavapipe_icd=${LAVAPIPE_ICD:-/usr/share/vulkan/icd.d/lvp_icd.x86_64.json}
test -f "$lavapipe_icd" || { echo "lavapipe's manifest not found: $lavapipe_icd"; exit 1; }

# peak_kb <program> <filter> <manifest> [env...]: the process's peak RSS in
# KiB, with only that driver for the loader to load (the benchmarks name
# every driver they compare, and each driver's libraries would count).
peak_kb() {
  local program=$1 filter=$2 manifest=$3
  shift 3
  "$time_bin" -o "$work/rss" -f %M env VK_DRIVER_FILES="$manifest" "$@" "$build/bench/$program" --benchmark_filter="$filter" \
    --benchmark_min_time=0.2 >"$work/out" 2>&1 || { echo "failed"; return; }
  grep -q real_time "$work/out" || { echo "not run"; return; }
  tail -1 "$work/rss"
}

echo "peak_memory: peak RSS in MiB, $(nproc) CPUs, $(date -u +%FT%TZ)"
printf '| %-60s | %9s | %9s | %9s |\n' "scene (program, filter)" "Tessera" "JIT off" "lavapipe"
# program, scene filter with DRIVER where the driver's name goes, and the
# drivers' names (the compute benchmarks spell Tessera with a capital).
while read -r program scene tessera lavapipe; do
  [[ "$scene" =~ $only ]] || continue
  t=$(peak_kb "$program" "${scene//DRIVER/$tessera}" "$tessera_icd")
  o=$(peak_kb "$program" "${scene//DRIVER/$tessera}" "$tessera_icd" TESSERA_JIT=off)
  l=$(peak_kb "$program" "${scene//DRIVER/$lavapipe}" "$lavapipe_icd")
  mib() { [[ "$1" =~ ^[0-9]+$ ]] && echo $(($1 / 1024)) || echo "$1"; }
  printf '| %-60s | %9s | %9s | %9s |\n' "$program ${scene//DRIVER/*}" "$(mib "$t")" "$(mib "$o")" "$(mib "$l")"
done <<'EOF'
tessera_texture_bench BM_Overdraw/DRIVER/0/ tessera lavapipe
tessera_texture_bench BM_Overdraw/DRIVER/1/ tessera lavapipe
tessera_draw_bench BM_ScatteredTriangles/DRIVER/ tessera lavapipe
tessera_draw_bench BM_Sheet/DRIVER/512/ tessera lavapipe
tessera_draw_bench BM_Sheet/DRIVER/64/ tessera lavapipe
tessera_draw_bench BM_ManyDraws/DRIVER/ tessera lavapipe
tessera_draw_bench BM_Sheet/geometry_amplify_DRIVER/256/ tessera lavapipe
tessera_draw_bench BM_Sheet/tessellated_terrain_DRIVER/64/ tessera lavapipe
tessera_texture_bench BM_TexturedPlane/DRIVER/1/0/0/ tessera lavapipe
tessera_texture_bench BM_TexturedPlane/DRIVER/16/0/0/ tessera lavapipe
tessera_texture_bench BM_EnvironmentCube/DRIVER/ tessera lavapipe
tessera_texture_bench BM_ShadowPlane/DRIVER/ tessera lavapipe
tessera_texture_bench BM_Mandelbrot/DRIVER/ tessera lavapipe
tessera_compute_bench Saxpy_16M/DRIVER/ Tessera lavapipe
tessera_compute_bench MatmulShared_512/DRIVER/ Tessera lavapipe
tessera_compute_bench Reduce_16M/DRIVER/ Tessera lavapipe
EOF
