#!/bin/sh
# Windowed presentation (VK_KHR_xcb_surface + VK_KHR_swapchain) under a
# virtual X server, on Tessera and lavapipe, with the validation layer on.
# Usage: wsi_xvfb_test.sh <xvfb-run> <tessera-window> <tessera_icd.json> <lavapipe icd.json> <work directory>
#                         [<capture layer manifest directory> <png_check.py>]
#
# 1. Tessera: 40 frames of tessera-window into an Xvfb window, a resize at
#    frame 20 (the swapchain must go out of date and be recreated), the
#    window read back after the last frame (must hold it exactly), every
#    frame also read back by the program and captured by TESSERA_CAPTURE:
#    the captures must equal the program's readbacks byte for byte.
#    Xvfb offers MIT-SHM: presentation must use it (driver log).
# 2. The same through VK_KHR_xlib_surface (a Display opened with Xlib).
#    Then the core PutImage path (TESSERA_X11_SHM=0), window checked.
# 3. Lavapipe: the same program without the resize; each of its frames is
#    compared with Tessera's: every channel within 2 codes. Coverage must
#    agree (both snap to 8 sub-pixel bits, §28.7.1, and the program puts the
#    vertices on a 1/64-pixel grid), and only the interpolated colors may
#    differ: §28.7.4 lets implementations interpolate with their own
#    precision and §3.10.2 lets the UNORM conversion round either way.
# 4. vkcube --c 60 on Tessera with validation: exits 0, no validation
#    errors, 60 captured frames that change. Then vkcube on Tessera and on
#    lavapipe through VK_LAYER_TESSERA_test_capture
#    (tests/support/capture_layer), which copies present number 30 of each
#    run to a PNG: vkcube turns the cube by a fixed step per frame, so both
#    are the same scene. Compared within a tolerance (see there).
set -u
xvfb_run=$1
program=$2
tessera=$3
lavapipe=$4
work=$5
layer_dir=${6:-}
png_check=${7:-}
rm -rf "$work" && mkdir -p "$work/capture" "$work/tessera" "$work/lavapipe" || exit 1
export VK_LOADER_LAYERS_DISABLE='~implicit~'
status=0
# A sanitizer runtime preloaded for the programs (ASan builds) is not
# preloaded into the X server.
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
xvfb() { "$xvfb_run" -a -s "-screen 0 640x480x24" env ${preload:+LD_PRELOAD="$preload"} "$@"; }

echo "== Tessera, 40 frames, resized at frame 20"
TESSERA_LOG=info TESSERA_CAPTURE="$work/capture" VK_DRIVER_FILES="$tessera" \
	xvfb "$program" --frames 40 --validate --readback "$work/tessera" --check-window --resize-at 20 2>"$work/shm.log" || { cat "$work/shm.log"; status=1; }
grep -q "with MIT-SHM" "$work/shm.log" || { echo "Xvfb offers MIT-SHM but it was not used"; cat "$work/shm.log"; status=1; }
n=$(ls "$work/capture" | wc -l)
[ "$n" -eq 40 ] || { echo "expected 40 captured frames, found $n"; status=1; }
for f in "$work"/tessera/frame-*.png; do
	name=$(basename "$f")
	# The capture holds exactly what was rendered: tolerance 0.
	"$program" --compare "$f" "$work/capture/$name" | grep -q ": 0 channels differ" ||
		{ echo "capture $name differs from the rendered frame"; status=1; }
done

echo "== Tessera, Xlib surface, 20 frames, resized at frame 10"
VK_DRIVER_FILES="$tessera" xvfb "$program" --xlib --frames 20 --validate --check-window --resize-at 10
rc=$?
if [ $rc -eq 2 ]; then echo "tessera-window was built without Xlib: skipped"; elif [ $rc -ne 0 ]; then status=1; fi

echo "== Tessera without MIT-SHM (core PutImage), 20 frames"
TESSERA_X11_SHM=0 TESSERA_LOG=info VK_DRIVER_FILES="$tessera" \
	xvfb "$program" --frames 20 --validate --check-window >"$work/noshm.log" 2>&1 || { cat "$work/noshm.log"; status=1; }
grep -q "with PutImage" "$work/noshm.log" || { echo "TESSERA_X11_SHM=0 did not use PutImage"; status=1; }

echo "== lavapipe vs Tessera, 20 frames"
rm -rf "$work/tessera" "$work/capture" && mkdir -p "$work/tessera"
VK_DRIVER_FILES="$tessera" xvfb "$program" --frames 20 --validate --readback "$work/tessera" || status=1
if [ -e "$lavapipe" ]; then
	VK_DRIVER_FILES="$lavapipe" xvfb "$program" --frames 20 --validate --readback "$work/lavapipe" || status=1
	for f in "$work"/tessera/frame-*.png; do
		"$program" --compare "$f" "$work/lavapipe/$(basename "$f")" >/dev/null ||
			{ "$program" --compare "$f" "$work/lavapipe/$(basename "$f")"; status=1; }
	done
else
	echo "lavapipe not installed: comparison skipped"
fi

if command -v vkcube >/dev/null; then
	echo "== vkcube --c 60 on Tessera"
	mkdir -p "$work/vkcube"
	# With the capture layer (when given) below the validation layer: the
	# validation layer sees vkcube's calls only.
	layers=VK_LAYER_KHRONOS_validation
	if [ -n "$layer_dir" ]; then
		layers=$layers:VK_LAYER_TESSERA_test_capture
		export VK_ADD_LAYER_PATH="$layer_dir" TESSERA_TEST_CAPTURE_FRAME=30
	fi
	TESSERA_CAPTURE="$work/vkcube" VK_DRIVER_FILES="$tessera" VK_INSTANCE_LAYERS=$layers \
		TESSERA_TEST_CAPTURE_FILE="$work/vkcube-tessera.png" xvfb vkcube --c 60 >"$work/vkcube.log" 2>&1
	rc=$?
	if grep -q "No support for R8G8B8A8_UNORM as texture image format" "$work/vkcube.log"; then
		echo "vkcube skipped: Tessera does not sample textures"
	else
		[ $rc -eq 0 ] || { echo "vkcube exited with $rc"; tail -20 "$work/vkcube.log"; status=1; }
		if grep -E "Validation Error|VUID-" "$work/vkcube.log"; then echo "vkcube: validation errors"; status=1; fi
		n=$(ls "$work/vkcube" | wc -l)
		[ "$n" -eq 60 ] || { echo "vkcube: expected 60 captured frames, found $n"; status=1; }
		# The cube turns: the first and last frames differ.
		if "$program" --compare "$work/vkcube/frame-00000.png" "$work/vkcube/frame-00059.png" >/dev/null; then
			echo "vkcube: the first and last frames are the same"; status=1
		fi
		if [ -n "$layer_dir" ] && [ -e "$lavapipe" ]; then
			echo "== vkcube --c 60 on lavapipe, frame 30 compared with Tessera's"
			# The layer's copy and Tessera's own capture of present 30 agree exactly.
			python3 "$png_check" --compare "$work/vkcube-tessera.png" "$work/vkcube/frame-00030.png" || status=1
			VK_DRIVER_FILES="$lavapipe" VK_INSTANCE_LAYERS=VK_LAYER_TESSERA_test_capture \
				TESSERA_TEST_CAPTURE_FILE="$work/vkcube-lavapipe.png" xvfb vkcube --c 60 >"$work/vkcube-lavapipe.log" 2>&1 ||
				{ echo "vkcube on lavapipe failed"; tail -20 "$work/vkcube-lavapipe.log"; status=1; }
			# Coverage agrees (no pixel of the background or the cube's outline
			# differs in practice). vkcube samples its texture with NEAREST
			# filtering, and where the interpolated coordinate falls within
			# rounding of a texel boundary the two drivers pick neighboring texels
			# (§28.7.4 interpolation precision, §16.x subTexelPrecisionBits): a
			# few pixels on the texture's sharp edges differ by up to ~160 codes,
			# the rest by 1-5 codes on its gradients. Measured at presents 0-299
			# of 500x500 frames: at most 109 pixels differ, at most 8 by more than
			# 8 codes. Limits: 250 pixels (0.1%) differ at all, 25 (0.01%) by
			# more than 8 codes.
			python3 "$png_check" --compare "$work/vkcube-tessera.png" "$work/vkcube-lavapipe.png" \
				--tolerance 0 --max-pixels 250 --diff "$work/vkcube-diff.png" || status=1
			python3 "$png_check" --compare "$work/vkcube-tessera.png" "$work/vkcube-lavapipe.png" \
				--tolerance 8 --max-pixels 25 || status=1
		fi
	fi
fi
exit $status
