#!/usr/bin/env bash
# Runs an example program through the loader (VK_DRIVER_FILES set by ctest,
# validation layer on) and checks what it wrote is a valid, non-empty PNG,
# and that the validation layer reported nothing.
#   example_test.sh <out dir> <expected WxH or -> <program> [args...]; the
#   program's last argument is its output file.
set -euo pipefail
out_dir=$1 size=$2
shift 2
mkdir -p "$out_dir"
output=${!#}
rm -f "$output"
log=$("$@" 2>&1) || { echo "$log"; echo "the program failed"; exit 1; }
echo "$log"
if echo "$log" | grep -q "Validation Error"; then echo "validation errors"; exit 1; fi
test -f "$output" || { echo "no $output"; exit 1; }
here=$(dirname "$0")
if [ "$size" = - ]; then
  python3 "$here/png_check.py" "$output"
else
  python3 "$here/png_check.py" "$output" --size ${size%x*} ${size#*x}
fi
