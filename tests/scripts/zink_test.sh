#!/bin/sh
# OpenGL through Mesa's Zink on Tessera, under a virtual X server (issue
# 14: the translation layers need geometry, tessellation and transform
# feedback). With the validation layer off (Zink's own Vulkan use is not
# under test here) and LIBGL_ALWAYS_SOFTWARE=1 (Zink takes a CPU device
# only when asked to):
# 1. glxinfo -B: Zink on Tessera offers OpenGL 4.6 core and compatibility
#    and OpenGL ES 3.2, as on lavapipe (the same Zink, 22.3), and names
#    Tessera as its device; Zink prints no missing-requirement warning.
# 2. glxgears runs for 6 s and reports its frame rate (it renders).
# 3. glmark2 --validate: every scene that has a reference image checks its
#    rendering; none may fail, and at least 25 must succeed.
# Usage: zink_test.sh <xvfb-run> <tessera_icd.json> <work directory>
set -u
xvfb_run=$1
tessera=$2
work=$3
for program in glxinfo glxgears glmark2; do
	if ! command -v $program > /dev/null; then
		echo "SKIP: $program is not installed (Debian mesa-utils, glmark2-x11)"
		exit 77
	fi
done
if ! ls /usr/lib/*/dri/zink_dri.so > /dev/null 2>&1; then
	echo "SKIP: Zink is not installed (Debian libgl1-mesa-dri)"
	exit 77
fi
rm -rf "$work" && mkdir -p "$work/xdg" || exit 1
chmod 700 "$work/xdg"
status=0
# A sanitizer runtime preloaded for the programs (ASan builds) is not
# preloaded into the X server.
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
run() {
	XDG_RUNTIME_DIR="$work/xdg" LIBGL_ALWAYS_SOFTWARE=1 MESA_LOADER_DRIVER_OVERRIDE=zink VK_DRIVER_FILES="$tessera" \
		VK_LOADER_LAYERS_DISABLE='~implicit~' "$xvfb_run" -a -s "-screen 0 1024x768x24" env LD_PRELOAD="$preload" "$@"
}
run glxinfo -B > "$work/glxinfo.txt" 2>&1
for want in "Max core profile version: 4.6" "Max compat profile version: 4.6" "Max GLES\[23\] profile version: 3.2" \
	"zink (Tessera"; do
	if ! grep -q "$want" "$work/glxinfo.txt"; then
		echo "FAIL: glxinfo -B lacks '$want'"
		status=1
	fi
done
if grep -qi "doesn't support base Zink requirements" "$work/glxinfo.txt"; then
	echo "FAIL: Zink reports missing requirements:"
	grep -i "requirements" "$work/glxinfo.txt"
	status=1
fi
run timeout 6 glxgears > "$work/glxgears.txt" 2>&1
if ! grep -q "frames in" "$work/glxgears.txt"; then
	echo "FAIL: glxgears reported no frame rate"
	cat "$work/glxgears.txt"
	status=1
fi
run glmark2 --off-screen --validate > "$work/glmark2.txt" 2>&1
success=$(grep -c "Validation: Success" "$work/glmark2.txt")
if grep -q "Validation: Failure" "$work/glmark2.txt" || [ "$success" -lt 25 ]; then
	echo "FAIL: glmark2 --validate: $success scenes succeeded"
	grep "Validation" "$work/glmark2.txt"
	status=1
fi
echo "glxinfo: $(grep 'core profile version string' "$work/glxinfo.txt")"
echo "glmark2 --validate: $success scenes succeeded, $(grep -c 'Validation: Unknown' "$work/glmark2.txt") have no reference"
[ $status -eq 0 ] && echo "zink_test: passed"
exit $status
