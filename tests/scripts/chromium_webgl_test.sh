#!/bin/sh
# A real application on Tessera: Chromium's WebGL through ANGLE on Vulkan,
# headless (Debian's chromium package; ./build.sh test installs it).
# Usage: chromium_webgl_test.sh <chromium> <tessera_icd.json> <work directory>
#
# webgl_triangle.html draws a red triangle on blue with WebGL, reads pixels
# back and writes the unmasked renderer string and the verdict into the page;
# --dump-dom prints the page. The renderer must name Tessera (ANGLE's Vulkan
# back end on our driver, not SwiftShader) and the pixels must be right.
set -eu
chromium=$1 icd=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
VK_DRIVER_FILES="$icd" timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu-sandbox \
	--use-angle=vulkan --use-vulkan=native --enable-features=Vulkan --enable-unsafe-swiftshader=false \
	--ignore-gpu-blocklist --user-data-dir="$work/profile" --virtual-time-budget=5000 --enable-logging=stderr \
	--dump-dom "file://$here/webgl_triangle.html" >"$work/dom.html" 2>"$work/stderr.log" ||
	{ tail -40 "$work/stderr.log"; echo "FAIL: chromium exited with an error"; exit 1; }
sed -n '/<pre id="out">/,/<\/pre>/p' "$work/dom.html"
grep -q 'RENDERER=ANGLE (.*Tessera' "$work/dom.html" || { grep -v dbus "$work/stderr.log" | tail -40; echo "FAIL: WebGL is not on Tessera"; exit 1; }
grep -q 'RESULT=PASS' "$work/dom.html" || { echo "FAIL: wrong pixels"; exit 1; }
echo PASS
