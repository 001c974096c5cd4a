#!/usr/bin/env python3
"""Generates Tessera's format description table from the <formats> block of vk.xml.

Block sizes, block extents, component names, widths and numeric formats,
packing and planes all come from the registry. Bit offsets are derived from
the format's name, which the spec defines as the layout (Vulkan 1.3 "Format
Definition", "Packed Formats"): byte formats list components in memory order, packed
formats from the most significant bit of each word down, words in memory
order, with X (unused) and E (shared exponent) bits named too. The
registry's component list is checked against the name; where they disagree
the registry is wrong (see ERRATA) and generation stops unless the fix is
listed.
"""

import argparse
import os
import re
import xml.etree.ElementTree as ET

# Component (name, bits) lists where vk.xml 1.3.239 contradicts the format's
# name and the spec's format table.
ERRATA = {
    # vk.xml says B10 G11 R10.
    "VK_FORMAT_B10G11R11_UFLOAT_PACK32": [("B", 10), ("G", 11), ("R", 11)],
    # vk.xml swaps R and G.
    "VK_FORMAT_B5G5R5A1_UNORM_PACK16": [("B", 5), ("G", 5), ("R", 5), ("A", 1)],
    # vk.xml names the second component B.
    "VK_FORMAT_R64G64_UINT": [("R", 64), ("G", 64)],
    "VK_FORMAT_R64G64_SINT": [("R", 64), ("G", 64)],
    "VK_FORMAT_R64G64_SFLOAT": [("R", 64), ("G", 64)],
}
# Numeric formats where vk.xml 1.3.239 contradicts the format's name: it
# marks BC4_SNORM and BC5_SNORM as SRGB.
NUMERIC_ERRATA = {
    "VK_FORMAT_BC4_SNORM_BLOCK": "SNORM",
    "VK_FORMAT_BC5_SNORM_BLOCK": "SNORM",
}
# Names that do not spell their layout (the "S10_5" is a fixed-point type).
NAME_NOT_LAYOUT = {"VK_FORMAT_R16G16_S10_5_NV"}


def name_layout(name):
    """The (component, bits) fields the format's name spells, X and E included."""
    fields = []
    for part in name[len("VK_FORMAT_"):].split("_"):
        if re.fullmatch(r"([RGBADSXE]\d+)+", part):
            fields += [(c, int(b)) for c, b in re.findall(r"([RGBADSXE])(\d+)", part)]
    return fields


def bit_offsets(name, packed, comps):
    """Bit offset of each component inside the texel block."""
    if name in NAME_NOT_LAYOUT:
        return [sum(c[1] for c in comps[:i]) for i in range(len(comps))]
    fields = name_layout(name)
    named = [(c, b) for c, b in fields if c not in "XE"]
    if named != [(c[0], c[1]) for c in comps]:
        raise SystemExit(f"{name}: vk.xml lists {[(c[0], c[1]) for c in comps]}, the name says {named}")
    offsets = []
    if packed:
        # Each word holds its fields from the most significant bit down.
        word, top = 0, packed
        for c, bits in fields:
            if top == 0:
                word, top = word + 1, packed
            top -= bits
            if top < 0:
                raise SystemExit(f"{name}: fields overflow a {packed}-bit word")
            if c not in "XE":
                offsets.append(word * packed + top)
    else:
        pos = 0
        for c, bits in fields:
            if c not in "XE":
                offsets.append(pos)
            pos += bits
    return offsets

NUMERIC = ["UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "UFLOAT", "SFLOAT", "SRGB"]
COMPRESSION = {None: "None", "BC": "BC", "ETC2": "ETC2", "EAC": "EAC", "ASTC LDR": "ASTC_LDR", "ASTC HDR": "ASTC_HDR", "PVRTC": "PVRTC"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--registry", required=True)
    ap.add_argument("--supplement", help="formats newer than --registry (registry_newer.xml)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    root = ET.parse(args.registry).getroot()
    formats = list(root.find("formats"))
    if args.supplement:
        # A newer system registry names the format without _KHR (core in
        # Vulkan 1.4); its entry wins.
        have = {f.get("name") for f in formats}
        for fmt in ET.parse(args.supplement).getroot().find("formats"):
            if fmt.get("name").removesuffix("_KHR") not in have and fmt.get("name") not in have:
                formats.append(fmt)

    rows = []
    for fmt in formats:
        name = fmt.get("name")
        extent = [int(x) for x in fmt.get("blockExtent", "1,1,1").split(",")]
        packed = int(fmt.get("packed", "0"))
        comps = []
        for c in fmt.findall("component"):
            bits = c.get("bits")
            bits = 0 if bits == "compressed" else int(bits)
            comps.append([c.get("name"), bits, c.get("numericFormat"), int(c.get("planeIndex", "0")), 0])
        for comp, (fixed_name, fixed_bits) in zip(comps, ERRATA.get(name, [])):
            comp[0], comp[1] = fixed_name, fixed_bits
        # A name with one numeric word (..._SNORM_BLOCK) gives every component
        # that numeric format; stop on a contradiction not listed as an erratum.
        numeric_words = [w for w in name.split("_") if w in NUMERIC]
        if name in NUMERIC_ERRATA:
            for comp in comps:
                comp[2] = NUMERIC_ERRATA[name]
        elif len(numeric_words) == 1 and name not in NAME_NOT_LAYOUT:
            for comp in comps:
                if comp[2] != numeric_words[0]:
                    raise SystemExit(f"{name}: component {comp[0]} is {comp[2]} in vk.xml; add an erratum if the name is right")
        if not fmt.get("compressed") and not fmt.findall("plane"):
            for comp, offset in zip(comps, bit_offsets(name, packed, comps)):
                comp[4] = offset
        planes = [(int(p.get("widthDivisor")), int(p.get("heightDivisor")), p.get("compatible")) for p in fmt.findall("plane")]
        rows.append(
            dict(
                name=name,
                cls=fmt.get("class"),
                block_size=int(fmt.get("blockSize")),
                texels=int(fmt.get("texelsPerBlock")),
                extent=extent,
                packed=packed,
                compression=COMPRESSION[fmt.get("compressed")],
                chroma=fmt.get("chroma") is not None,
                comps=comps,
                planes=planes,
            )
        )

    # A plane's components sit where the components of the plane's compatible
    # format do, in order (G8_B8R8_2PLANE: B in R8G8's R byte, R in its G byte).
    offsets = {r["name"]: [c[4] for c in r["comps"]] for r in rows}
    for r in rows:
        for index, (_, _, compatible) in enumerate(r["planes"]):
            in_plane = [c for c in r["comps"] if c[3] == index]
            for comp, offset in zip(in_plane, offsets[compatible]):
                comp[4] = offset

    out = [
        "// Generated by src/texture/gen_formats.py from vk.xml. Do not edit.",
        '#include "texture/format.h"',
        '#include "icd/vulkan_newer.h"  // formats of the supplement',
        "",
        "namespace tessera::texture {",
        "",
        "const FormatInfo kFormatTable[] = {",
    ]
    for r in rows:
        comps = ", ".join(
            f"{{'{c[0]}', {c[1]}, {c[4]}, NumericFormat::{c[2]}, {c[3]}}}" for c in r["comps"]
        )
        planes = ", ".join(f"{{{w}, {h}, {fmt}}}" for w, h, fmt in r["planes"])
        out.append(
            f'    {{{r["name"]}, "{r["name"][10:]}", "{r["cls"]}", {r["block_size"]}, '
            f'{{{r["extent"][0]}, {r["extent"][1]}, {r["extent"][2]}}}, {r["packed"]}, '
            f'Compression::{r["compression"]}, {str(r["chroma"]).lower()}, {len(r["comps"])}, {{{comps}}}, '
            f'{len(r["planes"])}, {{{planes}}}}},'
        )
    out += [
        "};",
        "",
        "const size_t kFormatTableSize = sizeof(kFormatTable) / sizeof(kFormatTable[0]);",
        "",
        "}  // namespace tessera::texture",
        "",
    ]
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "format_table.cpp"), "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
