#!/bin/sh
# Checks Tessera against Khronos Vulkan profiles: tessera-device-capabilities
# writes the device's capabilities in the profiles schema (newer structures
# included, which Debian's vulkaninfo does not know), profile_check.py
# compares them with the profiles' requirements.
# Usage: profile_capabilities_test.sh <tool> <python3> <work directory> <profiles.json> <vk.xml> [profile name ...]
set -u
tool=$1
python=$2
work=$3
profile=$4
registry=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work" || exit 1
"$tool" >"$work/device.json" 2>"$work/tool.log" || { echo "$tool failed"; cat "$work/tool.log"; exit 1; }
exec "$python" "$here/profile_check.py" "$profile" "$work/device.json" "$registry" "$@"
