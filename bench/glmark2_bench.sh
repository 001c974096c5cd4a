#!/usr/bin/env bash
# Small frames of a real OpenGL program: glmark2's scenes (Debian
# glmark2-x11) through Mesa's Zink, on Tessera and on lavapipe in the same
# run, off-screen at 400x300 under Xvfb. Each scene runs for `duration`
# seconds on one driver, then on the other; the table gives both frame
# rates and their ratio (Tessera over lavapipe: below 1, Tessera is
# slower). Full-screen benchmarks hide what these show: per-frame and
# per-draw costs, and lookups that miss a fast path (OpenGL RGB textures are
# RGBA8 views with alpha swizzled to ONE).
#
#   bench/glmark2_bench.sh [build dir (default: build)] [duration s (default: 2)] [glmark2 -b scene ...]
# Without scenes, those of glmark2's default list named below.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
duration=${2:-2}
shift $(($# < 2 ? $# : 2))
tessera=$build/tessera_icd.json
lavapipe=${LAVAPIPE_ICD:-/usr/share/vulkan/icd.d/lvp_icd.x86_64.json}
for f in "$tessera" "$lavapipe"; do
  test -e "$f" || { echo "missing: $f"; exit 1; }
done
for program in glmark2 xvfb-run; do
  command -v $program >/dev/null || { echo "$program is not installed (Debian glmark2-x11, xvfb)"; exit 1; }
done
ls /usr/lib/*/dri/zink_dri.so >/dev/null 2>&1 || { echo "Zink is not installed (Debian libgl1-mesa-dri)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -m 700 "$work/xdg"
list=("$@")
[ ${#list[@]} -gt 0 ] || list=(build:use-vbo=true texture:texture-filter=nearest texture:texture-filter=linear
  texture:texture-filter=mipmap shading:shading=phong bump:bump-render=normals
  'effect2d:kernel=0,1,0;1,-4,1;0,1,0;' 'effect2d:kernel=1,1,1,1,1;1,1,1,1,1;1,1,1,1,1;'
  pulsar:light=false:quads=5:texture=false 'desktop:blur-radius=5:effect=blur:passes=1:separable=true:windows=4'
  jellyfish shadow ideas:speed=duration terrain)
scenes=()
for scene in "${list[@]}"; do scenes+=(-b "$scene:duration=$duration"); done

# run <icd> <out>: every scene on one driver, "scene<TAB>fps" per line.
run() {
  XDG_RUNTIME_DIR="$work/xdg" LIBGL_ALWAYS_SOFTWARE=1 MESA_LOADER_DRIVER_OVERRIDE=zink VK_DRIVER_FILES="$1" \
    VK_LOADER_LAYERS_DISABLE='~implicit~' xvfb-run -a -s "-screen 0 1024x768x24" \
    glmark2 --off-screen -s 400x300 "${scenes[@]}" 2>&1 |
    sed -nE 's/^\[([a-z0-9]+)\] (.*): FPS: ([0-9]+).*/\1 \2\t\3/p' | sed -E 's/duration=[0-9.]+:?//' >"$2"
}
run "$tessera" "$work/tessera.txt"
run "$lavapipe" "$work/lavapipe.txt"
printf '| scene | Tessera fps | lavapipe fps | ratio |\n| --- | --- | --- | --- |\n'
paste "$work/tessera.txt" "$work/lavapipe.txt" |
  awk -F'\t' '$1 == $3 && $4 > 0 { printf "| %s | %d | %d | %.2f |\n", $1, $2, $4, $2 / $4 }' |
  sort -t'|' -k5 -n
