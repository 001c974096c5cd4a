#!/usr/bin/env bash
# Tessera's two commands for a fresh Debian machine:
#   ./build.sh demo   installs what is missing, builds, renders tessera-demo.png through the Vulkan loader
#   ./build.sh test   installs what is missing, builds, runs the whole test suite, the unit and e2e tests
#                     again with TESSERA_JIT=sync and off, everything again under ASan+UBSan, the threaded
#                     e2e tests under ThreadSanitizer, then fuzzes the SPIR-V front end and interpreter
#                     (fuzz/: 100,000 runs from a fixed seed, at most two minutes)
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(cmake g++ make python3 pkg-config
  dpkg-dev  # dpkg-shlibdeps: the .deb's Depends (cpack, tested by the suite)
  libvulkan-dev vulkan-validationlayers vulkan-tools mesa-vulkan-drivers
  libglm-dev libstb-dev catch2 libbenchmark-dev
  spirv-tools spirv-headers libhwy-dev glslang-tools
  llvm-19-dev clang-19  # the compiled shader tier (src/jit): LLVM's JIT, and clang to turn the ALU table into bitcode
  astcenc  # the reference ASTC codec the ASTC decoder tests compare with
  libxcb1-dev libx11-dev libx11-xcb-dev libxcb-shm0-dev  # X headers for VK_KHR_xcb/xlib_surface (the libraries are dlopen()ed)
  xvfb xauth  # the windowed presentation test runs vkcube on a virtual X server
  mesa-utils glmark2-x11 libgl1-mesa-dri  # OpenGL through Zink on Tessera: glxinfo, glxgears, glmark2
  libwayland-dev  # Wayland headers for VK_KHR_wayland_surface (libwayland-client is dlopen()ed)
  weston  # the Wayland presentation test runs vkcube under a headless weston
  nodejs chromium  # real applications in the suite: Dawn for Node.js (npm "webgpu"), Chromium WebGL via ANGLE
  clang libclang-rt-14-dev)  # the SPIR-V fuzz target (libFuzzer: libclang_rt.fuzzer)

install_missing() {
  local missing=()
  # Debian's nodejs has npm apart; NodeSource's nodejs brings its own.
  command -v npm >/dev/null || PACKAGES+=(npm)
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "== installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

jobs=$(nproc)
# The bounded fuzz run of `test`: a fixed seed and number of runs, so that a
# finding in CI can be reproduced; at most FUZZ_SECONDS. To explore longer:
# FUZZ_SEED=0 (a random seed) FUZZ_RUNS=-1 (no limit) FUZZ_SECONDS=600.
FUZZ_SECONDS=${FUZZ_SECONDS:-120}
FUZZ_SEED=${FUZZ_SEED:-1}
FUZZ_RUNS=${FUZZ_RUNS:-100000}

# Optimized, with line tables only (-g1): stack traces and sanitizer reports
# keep file and line, and the builds of `test` take about 30% less time
# than with full debug information (-g).
CONFIG=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG")

# shard_pass <build dir> [VAR=value...]: the build's unit and e2e programs
# with that environment, every test once, in $jobs processes of each
# program rather than a process a test. ctest's way pays the Vulkan
# loader's, the validation layer's and LLVM's start-up (and under ASan
# the sanitizer's) for each of about 690 tests: a TESSERA_JIT pass took
# about 95 s that way. A check that could not run (exit 77: a missing
# reference) is not a failure. ctest still runs the other tests, and all
# of them in the first pass, one process each.
shard_pass() {
  local build_dir=$1 program shard rc failed=0 dir
  shift
  dir=$(mktemp -d)
  for program in tessera_unit_tests tessera_e2e_tests; do
    # -f takes names as test specs: their commas, brackets and backslashes
    # escaped. (Catch2 2's listing exits with the number of tests.)
    { "$build_dir/tests/$program" --list-test-names-only || true; } |
      sed -e '/^$/d' -e 's/[\\,[]/\\&/g' > "$dir/$program"
    [ -s "$dir/$program" ] || { echo "$program lists no tests" >&2; return 1; }
    split -n "r/$jobs" -d "$dir/$program" "$dir/$program."
    for shard in "$dir/$program".[0-9]*; do
      (rc=0
       cd "$build_dir/tests" && env "$@" "./$program" -f "$shard" --warn NoTests > "$shard.log" 2>&1 || rc=$?
       echo $rc > "$shard.rc") &
    done
    wait
    for shard in "$dir/$program".[0-9]*[0-9]; do
      rc=$(cat "$shard.rc")
      case $rc in
        0) echo "$program, $(wc -l < "$shard") tests: passed" ;;
        77) echo "$program, $(wc -l < "$shard") tests: passed; $(grep 'could not run' "$shard.log" | tail -1)" ;;
        *)
          cat "$shard.log"
          echo "$program, $(wc -l < "$shard") tests: FAILED (exit status $rc)"
          failed=1
          ;;
      esac
    done
  done
  rm -rf "$dir"
  return $failed
}

build() {  # build <dir> [cmake args...]
  local dir=$1
  shift
  cmake -S . -B "$dir" "${CONFIG[@]}" "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

case "${1:-}" in
  demo)
    install_missing
    build build -DTESSERA_BUILD_TESTS=OFF -DTESSERA_BUILD_BENCH=OFF
    VK_DRIVER_FILES="$PWD/build/tessera_icd.json" ./build/examples/tessera-demo tessera-demo.png
    ;;
  test)
    install_missing
    build build
    results=build/test-results.txt  # the ctest passes, for the closing line
    : > "$results"
    (cd build && ctest --output-on-failure -j "$jobs") | tee -a "$results"
    # The pass above lets shaders tier as users get it (TESSERA_JIT=async:
    # interpreted, compiled once hot); these run each tier alone.
    for tier in sync off; do
      echo "== the unit and e2e tests with TESSERA_JIT=$tier"
      shard_pass build TESSERA_JIT=$tier
    done
    echo "== sanitizer pass (AddressSanitizer + UndefinedBehaviorSanitizer)"
    build build-asan -DTESSERA_SANITIZE=ON -DTESSERA_BUILD_BENCH=OFF -DTESSERA_BUILD_EXAMPLES=OFF
    asan_env=(ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 TESSERA_PIN_DRIVERS=1
      LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)
    shard_pass build-asan "${asan_env[@]}"
    (cd build-asan && env "${asan_env[@]}" ctest --output-on-failure -j "$jobs" -E "^(unit|e2e):") | tee -a "$results"
    echo "== ThreadSanitizer pass (the e2e tests tagged [threads])"
    cmake -S . -B build-tsan "${CONFIG[@]}" -DTESSERA_TSAN=ON -DTESSERA_BUILD_BENCH=OFF \
      -DTESSERA_BUILD_EXAMPLES=OFF >/dev/null
    cmake --build build-tsan -j "$jobs" --target tessera_e2e_tests
    (cd build-tsan &&
      TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/../tests/tsan.supp" \
      ctest --output-on-failure -j "$jobs" -R "^e2e tsan:") | tee -a "$results"
    echo "== fuzzing the shader engine (libFuzzer: seed $FUZZ_SEED, $FUZZ_RUNS runs, at most $FUZZ_SECONDS s)"
    CC=clang CXX=clang++ cmake -S . -B build-fuzz "${CONFIG[@]}" -DTESSERA_BUILD_FUZZ=ON \
      -DTESSERA_BUILD_TESTS=OFF -DTESSERA_BUILD_BENCH=OFF -DTESSERA_BUILD_EXAMPLES=OFF >/dev/null
    cmake --build build-fuzz -j "$jobs" --target tessera_spirv_fuzz tessera_shaders
    corpus=$(mktemp -d)
    trap 'rm -rf "$corpus"' EXIT
    cp build-fuzz/shaders/*.spv fuzz/regressions/* "$corpus"/  # seeds: the corpus shaders, past findings
    # Crash reproducers land in build-fuzz/ (crash-<hash>); a finding fails the run.
    (cd build-fuzz && UBSAN_OPTIONS=print_stacktrace=1 ASAN_OPTIONS=detect_leaks=0 \
      ./fuzz/tessera_spirv_fuzz -seed="$FUZZ_SEED" -runs="$FUZZ_RUNS" -max_total_time="$FUZZ_SECONDS" \
        -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 "$corpus")
    # One closing line for the ctest passes (the fuzzer found nothing, or
    # the script stopped above). ctest counts a skipped test (a reference it
    # compares with is missing) among those "out of"; it lists each as
    # "(Skipped)".
    awk '/tests passed, [0-9]+ tests failed out of/ {total += $NF; failed += $4}
         /^[[:space:]]*[0-9]+ - .*\(Skipped\)$/ {skipped++}
         END {printf "%d passed, %d failed, %d skipped\n", total - failed - skipped, failed, skipped}' "$results"
    ;;
  *)
    echo "usage: $0 demo|test" >&2
    exit 2
    ;;
esac
