#!/bin/sh
# Wayland presentation (VK_KHR_wayland_surface + VK_KHR_swapchain through
# wl_shm) under a headless weston, on Tessera and lavapipe, with the
# validation layer on.
# Usage: wsi_wayland_test.sh <weston> <tessera-window> <tessera_icd.json> <lavapipe icd.json> <work directory>
#
# weston runs with its headless backend and the pixman renderer (so that it
# composites client buffers and weston-screenshooter can read its output;
# --debug exposes the screenshooter), on a private XDG_RUNTIME_DIR.
# 1. vulkaninfo on Tessera: the Wayland surface's capabilities (currentExtent
#    0xFFFFFFFF: the swapchain decides the size), composite alphas and
#    present modes.
# 2. vkcube (Wayland) on Tessera, FIFO: exits 0, no validation errors, every
#    frame captured (TESSERA_CAPTURE), the cube turns, the driver presented
#    through wl_shm; a screenshot of weston's output taken mid-run holds one
#    of the captured frames exactly (the presented buffer reached the
#    compositor unchanged).
# 3. vkcube on Tessera with MAILBOX and with IMMEDIATE (30 frames each): exit
#    0, no validation errors, every frame captured.
# 4. The same vkcube and screenshot on lavapipe (the harness checked on a
#    reference driver): exits 0, no validation errors, a cube-sized window
#    with vkcube's clear color in the screenshot, not one flat color.
# 5. weston killed under vkcube on Tessera: the driver reports the surface
#    lost (VK_ERROR_SURFACE_LOST_KHR) and neither crashes nor hangs.
set -u
weston=$1
program=$2
tessera=$3
lavapipe=$4
work=$5
scripts=$(dirname "$0")
rm -rf "$work" && mkdir -p "$work/config" || exit 1
# The compositor's socket goes here: a short path (sockets' names are at
# most 107 bytes), mode 0700 as libwayland wants.
runtime=$(mktemp -d) || exit 1
export XDG_RUNTIME_DIR="$runtime" XDG_CONFIG_HOME="$work/config"
export VK_LOADER_LAYERS_DISABLE='~implicit~'
unset DISPLAY
status=0

if command -v vkcube-wayland >/dev/null; then
	vkcube="vkcube-wayland"  # Debian's vulkan-tools: one program per window system
else
	vkcube="vkcube --wsi wayland"
fi
# vkcube picks B8G8R8A8_UNORM and clears to 0.2: 51 in each color channel.
clear_color=51,51,51

# A sanitizer runtime preloaded for the programs (ASan builds) is not
# preloaded into the compositor.
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
socket="tessera-wsi-$$"
# No animations: the screenshots must show client buffers as they are (the
# default startup animation fades the desktop in from black).
printf '[shell]\nstartup-animation=none\nanimation=none\nclose-animation=none\nfocus-animation=none\n' \
	>"$work/weston.ini"
env WAYLAND_DISPLAY= "$weston" --backend=headless-backend.so --use-pixman --debug --config="$work/weston.ini" \
	--idle-time=0 --width=800 --height=600 --socket="$socket" >"$work/weston.log" 2>&1 &
weston_pid=$!
trap 'kill $weston_pid 2>/dev/null; rm -rf "$runtime"' EXIT
i=0
while [ ! -S "$XDG_RUNTIME_DIR/$socket" ]; do
	i=$((i + 1))
	if [ $i -gt 100 ] || ! kill -0 $weston_pid 2>/dev/null; then
		echo "weston did not start:"; cat "$work/weston.log"; exit 1
	fi
	sleep 0.1
done
export WAYLAND_DISPLAY="$socket"
run() { env ${preload:+LD_PRELOAD="$preload"} "$@"; }

# window_shot <label>: screenshots of weston's output (weston-screenshooter
# saves into the current directory) until one shows vkcube's 500x500 window,
# cut out into <label>-window.png; tried again while vkcube runs (a window
# not mapped yet).
window_shot() {
	for try in 1 2 3 4 5 6 7 8 9 10; do
		rm -f "$work"/wayland-screenshot-*.png
		(cd "$work" && weston-screenshooter) || { echo "$1: weston-screenshooter failed"; return 1; }
		mv "$work"/wayland-screenshot-*.png "$work/$1-screen.png"
		python3 "$scripts/wayland_window_crop.py" "$work/$1-screen.png" 500 500 $clear_color "$work/$1-window.png" &&
			return 0
		kill -0 $vkcube_pid 2>/dev/null || break
		sleep 0.3
	done
	echo "$1: vkcube's window is not in the screenshot"
	return 1
}

# vkcube <label> <icd> <frames> <capture dir or ""> [vkcube options]: in the
# background; $vkcube_pid.
start_vkcube() {
	label=$1 icd=$2 frames=$3 capture=$4
	shift 4
	if [ -n "$capture" ]; then mkdir -p "$capture"; fi
	TESSERA_LOG=info TESSERA_CAPTURE="$capture" VK_DRIVER_FILES="$icd" VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
		run timeout 60 $vkcube --c "$frames" "$@" >"$work/$label.log" 2>&1 &
	vkcube_pid=$!
}
finish_vkcube() {  # finish_vkcube <label>
	wait $vkcube_pid
	rc=$?
	[ $rc -eq 0 ] || { echo "$1: vkcube exited with $rc"; tail -20 "$work/$1.log"; status=1; }
	if grep -E "Validation Error|VUID-" "$work/$1.log"; then echo "$1: validation errors"; status=1; fi
}
check_captures() {  # check_captures <label> <dir> <count>
	n=$(ls "$2" | wc -l)
	[ "$n" -eq "$3" ] || { echo "$1: expected $3 captured frames, found $n"; status=1; return; }
	python3 "$scripts/png_check.py" "$2/frame-00000.png" --size 500 500 >/dev/null || status=1
	last=$(printf "frame-%05d.png" $(($3 - 1)))
	if "$program" --compare "$2/frame-00000.png" "$2/$last" >/dev/null; then
		echo "$1: the first and last frames are the same"; status=1
	fi
}

echo "== vulkaninfo on Tessera: the Wayland surface"
VK_DRIVER_FILES="$tessera" run vulkaninfo >"$work/vulkaninfo.txt" 2>&1
awk '/Presentable Surfaces/,/Device Groups/' "$work/vulkaninfo.txt" >"$work/surface.txt"
for want in "Surface type = VK_KHR_wayland_surface" "width  = 4294967295" "height = 4294967295" \
	COMPOSITE_ALPHA_OPAQUE_BIT_KHR COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR PRESENT_MODE_FIFO_KHR \
	PRESENT_MODE_MAILBOX_KHR PRESENT_MODE_IMMEDIATE_KHR "format = FORMAT_B8G8R8A8_UNORM"; do
	grep -q -- "$want" "$work/surface.txt" || { echo "vulkaninfo: no '$want'"; status=1; }
done
[ $status -eq 0 ] || cat "$work/surface.txt"

echo "== vkcube on Tessera, FIFO, 60 frames, a screenshot mid-run"
start_vkcube fifo "$tessera" 60 "$work/fifo"
i=0
while [ "$(ls "$work/fifo" | wc -l)" -lt 5 ] && [ $i -lt 300 ] && kill -0 $vkcube_pid 2>/dev/null; do
	i=$((i + 1))
	sleep 0.1
done
window_shot fifo
shot=$?
finish_vkcube fifo
check_captures fifo "$work/fifo" 60
grep -q "through wl_shm" "$work/fifo.log" || { echo "fifo: the driver did not present through wl_shm"; status=1; }
if [ $shot -eq 0 ]; then
	match=""
	for f in "$work"/fifo/frame-*.png; do
		if "$program" --compare "$work/fifo-window.png" "$f" | grep -q ": 0 channels differ"; then
			match=$f
			break
		fi
	done
	# An opaque XRGB8888 buffer composited 1:1 by pixman: an exact copy.
	[ -n "$match" ] && echo "the screenshot shows $(basename "$match")" ||
		{ echo "fifo: the window in the screenshot is none of the presented frames"; status=1; }
else
	status=1
fi

for mode in 1:mailbox 0:immediate; do
	echo "== vkcube on Tessera, ${mode#*:}, 30 frames"
	start_vkcube "${mode#*:}" "$tessera" 30 "$work/${mode#*:}" --present_mode "${mode%%:*}"
	finish_vkcube "${mode#*:}"
	check_captures "${mode#*:}" "$work/${mode#*:}" 30
done

if [ -e "$lavapipe" ]; then
	echo "== vkcube on lavapipe, FIFO, 120 frames, a screenshot mid-run"
	start_vkcube lavapipe "$lavapipe" 120 ""
	sleep 0.5
	if window_shot lavapipe; then python3 "$scripts/png_check.py" "$work/lavapipe-window.png" || status=1; else status=1; fi
	finish_vkcube lavapipe
else
	echo "lavapipe not installed: skipped"
fi

echo "== the compositor goes away under vkcube on Tessera"
start_vkcube gone "$tessera" 100000 ""
i=0
while ! grep -q "through wl_shm" "$work/gone.log" && [ $i -lt 100 ]; do
	i=$((i + 1))
	sleep 0.1
done
kill $weston_pid
wait $vkcube_pid
rc=$?
# vkcube gives up on its own: on VK_ERROR_SURFACE_LOST_KHR it destroys the
# surface before the swapchain (validation errors of its own), then asserts
# on the failed swapchain re-creation (exit 134). The driver must report
# the loss, and neither crash (139) nor hang (124).
grep -q "Wayland surface lost" "$work/gone.log" || { echo "gone: the driver did not report the lost surface"; status=1; }
if [ $rc -eq 139 ] || [ $rc -eq 124 ] || grep -q -i "segmentation" "$work/gone.log"; then
	echo "gone: vkcube exited with $rc"; tail -5 "$work/gone.log"; status=1
fi
exit $status
