#!/usr/bin/env bash
# The compiled tier is a library of its own (libtessera_jit.so, beside the
# driver) that the driver loads only when it compiles: the demo, through the
# loader, must not load it nor libLLVM with TESSERA_JIT=off, and must load
# both, from beside the driver, with TESSERA_JIT=sync (its PNG the same
# bytes either way). With TESSERA_JIT=async (the default) and the demo's
# code on disk, it still must not load them: its programs run less than
# loading the JIT would cost, so they never ask the disk cache. The dynamic
# linker's own record (LD_DEBUG=files) says what was loaded.
#   jit_module_test.sh <out dir> <driver library folder> <demo>
set -euo pipefail
out_dir=$1 driver_dir=$2 demo=$3
mkdir -p "$out_dir"
export TESSERA_CACHE_DIR=0  # (a cache hit would load the JIT for its own reason)
unset TESSERA_JIT_MODULE
run() {  # <mode> [env...]: the demo's loaded libraries, one a line
  local log mode=$1
  shift
  log=$(env TESSERA_JIT="$mode" LD_DEBUG=files "$@" "$demo" "$out_dir/jit-$mode.png" 2>&1) ||
    { echo "$log"; echo "the demo failed ($mode)"; exit 1; }
  echo "$log" | sed -n 's/.*file=\([^ ]*\) .*\[0\];  needed by.*/\1/p; s/.*file=\([^ ]*\) .*\[0\];  dynamically loaded by.*/\1/p' | sort -u
}
off=$(run off)
sync=$(run sync)
fail=0
if echo "$off" | grep -Eq 'libLLVM|libtessera_jit'; then
  echo "TESSERA_JIT=off loaded:"; echo "$off" | grep -E 'libLLVM|libtessera_jit'; fail=1
fi
echo "$sync" | grep -qx "$driver_dir/libtessera_jit.so" ||
  { echo "TESSERA_JIT=sync did not load $driver_dir/libtessera_jit.so:"; echo "$sync"; fail=1; }
echo "$sync" | grep -q 'libLLVM' || { echo "TESSERA_JIT=sync did not load libLLVM"; fail=1; }
cmp "$out_dir/jit-off.png" "$out_dir/jit-sync.png" || { echo "the two tiers drew different images"; fail=1; }
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
run sync TESSERA_CACHE_DIR="$cache" >/dev/null
ls "$cache"/*.tjit >/dev/null 2>&1 || { echo "TESSERA_JIT=sync stored no code in $cache"; fail=1; }
async=$(run async TESSERA_CACHE_DIR="$cache")
if echo "$async" | grep -Eq 'libLLVM|libtessera_jit'; then
  echo "TESSERA_JIT=async loaded the JIT for a short run with its code on disk:"; echo "$async" | grep -E 'libLLVM|libtessera_jit'; fail=1
fi
[ $fail -eq 0 ] && echo "libtessera_jit.so and libLLVM load only to compile"
exit $fail
