#!/bin/sh
# Checks Tessera against a Khronos Vulkan profile: vulkaninfo --json writes
# the device's capabilities in the profiles schema, profile_check.py
# compares them with the profile's requirements.
# Usage: profile_test.sh <vulkaninfo> <python3> <work directory> <profile.json> <vk.xml>
set -u
vulkaninfo=$1
python=$2
work=$3
profile=$4
registry=$5
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
"$vulkaninfo" --json >vulkaninfo.log 2>&1 || { echo "vulkaninfo --json failed"; tail -20 vulkaninfo.log; exit 1; }
set -- VP_VULKANINFO_Tessera*.json
[ -e "$1" ] || { echo "vulkaninfo --json wrote no profile for Tessera"; ls; exit 1; }
exec "$python" "$here/profile_check.py" "$profile" "$1" "$registry"
