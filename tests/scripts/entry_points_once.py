#!/usr/bin/env python3
"""Every Vulkan entry point is defined once in src/.

Entry points are weak symbols (src/icd/gen_entrypoints.py), so that a command
Tessera lacks resolves to null. The linker then takes either of two
definitions of one command without a word; this check makes that an error.
Exits 1 and names each command defined more than once.
"""
import re
import sys
from pathlib import Path

DEFINITION = re.compile(r"VKAPI_ATTR\s+[\w\s\*]+?\s+VKAPI_CALL\s*\n?\s*(\w+)\s*\(", re.M)


def main(root):
    places = {}
    for path in sorted(Path(root).rglob("*.cpp")):
        text = path.read_text()
        for match in DEFINITION.finditer(text):
            # A definition has a body: the first of ';' and '{' after the
            # parameter list is '{'.
            rest = text[match.end():]
            depth, i = 1, 0
            while i < len(rest) and depth:
                depth += {"(": 1, ")": -1}.get(rest[i], 0)
                i += 1
            after = rest[i:].lstrip()
            if after.startswith("{"):
                places.setdefault(match.group(1), []).append(f"{path}:{text.count(chr(10), 0, match.start()) + 1}")
    twice = {name: where for name, where in places.items() if len(where) > 1}
    for name, where in sorted(twice.items()):
        print(f"{name} is defined {len(where)} times: {', '.join(where)}")
    print(f"{len(places)} entry points, {len(twice)} defined more than once")
    return 1 if twice else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "src"))
