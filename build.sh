#!/usr/bin/env bash
# Tessera's two commands for a fresh Debian machine:
#   ./build.sh demo   installs what is missing, builds, renders tessera-demo.png through the Vulkan loader
#   ./build.sh test   installs what is missing, builds, runs the whole test suite, then again under ASan+UBSan
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(cmake g++ make python3 pkg-config
  libvulkan-dev vulkan-validationlayers vulkan-tools mesa-vulkan-drivers
  libglm-dev libstb-dev catch2 libbenchmark-dev
  spirv-tools spirv-headers libhwy-dev glslang-tools
  astcenc)  # the reference ASTC codec the ASTC decoder tests compare with

install_missing() {
  local missing=()
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

build() {  # build <dir> [cmake args...]
  local dir=$1
  shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
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
    (cd build && ctest --output-on-failure -j "$jobs")
    echo "== sanitizer pass (AddressSanitizer + UndefinedBehaviorSanitizer)"
    build build-asan -DTESSERA_SANITIZE=ON -DTESSERA_BUILD_BENCH=OFF -DTESSERA_BUILD_EXAMPLES=OFF
    (cd build-asan &&
      ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 TESSERA_PIN_DRIVERS=1 \
      LSAN_OPTIONS="suppressions=$PWD/../tests/lsan.supp:print_suppressions=0" \
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --output-on-failure -j "$jobs")
    ;;
  *)
    echo "usage: $0 demo|test" >&2
    exit 2
    ;;
esac
