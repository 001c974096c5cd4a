#!/bin/sh
# Runs vulkaninfo in every output mode it has, on Tessera alone and with the
# validation layer on. Fails when vulkaninfo exits non-zero, when a
# validation message appears, or when the JSON profile does not parse.
# Usage: vulkaninfo_test.sh <vulkaninfo> <python3> <work directory>
set -u
vulkaninfo=$1
python=$2
work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

status=0
for mode in --text --summary --json --show-formats --show-tool-props; do
	log="vulkaninfo$mode.log"
	"$vulkaninfo" "$mode" >"$log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "vulkaninfo $mode exited with $rc"; tail -20 "$log"; status=1
	fi
	if grep -E "Validation Error|VUID-|\[Validation\]" "$log"; then
		echo "vulkaninfo $mode: validation messages (above)"; status=1
	fi
	if ! grep -q "Tessera" "$log" && [ "$mode" != --json ]; then
		echo "vulkaninfo $mode did not list Tessera"; status=1
	fi
done
# --json writes VP_VULKANINFO_<device>_<version>.json into the current folder.
found=0
for f in VP_VULKANINFO_*.json; do
	[ -e "$f" ] || continue
	found=1
	"$python" -c "import json,sys; json.load(open(sys.argv[1]))" "$f" || { echo "$f is not valid JSON"; status=1; }
done
[ $found -eq 1 ] || { echo "vulkaninfo --json wrote no profile"; status=1; }
exit $status
