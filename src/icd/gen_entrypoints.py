#!/usr/bin/env python3
"""Generates Tessera's entry-point declarations and lookup tables from vk.xml.

Nobody writes 600 prototypes by hand: every Vulkan command of core 1.0-1.3 and
of the extensions listed in extensions.txt is declared in namespace
tessera::entry as a weak symbol. A command the driver implements is defined
somewhere under src/vk; one it does not stays a null pointer, and the
GetProcAddr lookups then return NULL for it, as the spec asks for commands an
implementation does not provide.

Extensions newer than the system's vk.xml come from a supplement in the
same form (--supplement, registry_newer.xml), whose entries count only where
the system registry lacks them (an extension: or has an older specification
version of it); their C definitions are in vulkan_newer.h,
which the declarations include.

Outputs (in the output directory):
  entrypoints.h         declarations, extension enums
  entrypoint_table.cpp  sorted name -> function table, extension tables
  direct_exports.cpp    exported vk* symbols for programs that link directly
"""

import argparse
import os
import sys
import xml.etree.ElementTree as ET

CORE_VERSIONS = {
    "VK_VERSION_1_0": (1, 0),
    "VK_VERSION_1_1": (1, 1),
    "VK_VERSION_1_2": (1, 2),
    "VK_VERSION_1_3": (1, 3),
    "VK_VERSION_1_4": (1, 4),
}

DISPATCH_LEVEL = {
    "VkInstance": "Instance",
    "VkPhysicalDevice": "PhysicalDevice",
    "VkDevice": "Device",
    "VkQueue": "Device",
    "VkCommandBuffer": "Device",
}


def parse_extension_list(path):
    instance, device = [], []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            kind, name = line.split()
            (instance if kind == "instance" else device).append(name)
    return instance, device


class Command:
    def __init__(self, name, ret, params):
        self.name = name  # vkFoo
        self.ret = ret  # C return type
        self.params = params  # list of (decl text, name, type)
        self.alias_of = None
        self.core = None  # (major, minor)
        self.extensions = []
        self.protect = None  # VK_USE_PLATFORM_*: the command needs platform headers

    @property
    def short(self):
        return self.name[2:]


def node_text(node):
    return "".join(node.itertext()).strip()


def parse_commands(root):
    commands = {}
    aliases = []
    for cmd in root.find("commands"):
        if cmd.tag != "command":
            continue
        if cmd.get("api") not in (None, "vulkan") and "vulkan" not in cmd.get("api", ""):
            continue
        if cmd.get("alias"):
            aliases.append((cmd.get("name"), cmd.get("alias")))
            continue
        proto = cmd.find("proto")
        name = proto.find("name").text
        ret = node_text(proto)[: -len(name)].strip()
        params = []
        for p in cmd.findall("param"):
            if p.get("api") not in (None, "vulkan") and "vulkan" not in p.get("api", ""):
                continue
            params.append((" ".join(node_text(p).split()), p.find("name").text, p.find("type").text))
        commands[name] = Command(name, ret, params)
    for name, target in aliases:
        c = Command(name, None, None)
        c.alias_of = target
        commands[name] = c
    return commands


def resolve(commands, name):
    c = commands[name]
    while c.alias_of:
        c = commands[c.alias_of]
    return c


def merge_supplement(root, supplement):
    """Adds the supplement's commands, extensions and versions that root lacks
    (an extension also where root has an older specification version)."""
    def command_name(cmd):
        return cmd.get("name") or cmd.find("proto").find("name").text

    have_commands = {command_name(c) for c in root.find("commands") if c.tag == "command"}
    for c in supplement.find("commands"):
        if command_name(c) not in have_commands:
            root.find("commands").append(c)
    def spec_version(ext):
        for e in ext.iter("enum"):
            if e.get("name", "").endswith("_SPEC_VERSION") and e.get("value"):
                return int(e.get("value"))
        return 0

    extensions = root.find("extensions")
    have_extensions = {e.get("name"): e for e in extensions}
    for e in supplement.find("extensions"):
        old = have_extensions.get(e.get("name"))
        if old is None:
            extensions.append(e)
        elif spec_version(e) > spec_version(old):  # a later version of it
            extensions.remove(old)
            extensions.append(e)
    have_features = {f.get("name") for f in root.findall("feature")}
    for f in supplement.findall("feature"):
        if f.get("name") not in have_features:
            root.append(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--registry", required=True)
    ap.add_argument("--extensions", required=True)
    ap.add_argument("--supplement", help="registry entries newer than --registry (registry_newer.xml)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    root = ET.parse(args.registry).getroot()
    if args.supplement:
        merge_supplement(root, ET.parse(args.supplement).getroot())
    commands = parse_commands(root)
    inst_exts, dev_exts = parse_extension_list(args.extensions)
    ext_index = {n: i for i, n in enumerate(inst_exts + dev_exts)}

    for feat in root.findall("feature"):
        if "vulkan" not in feat.get("api", "vulkan").split(","):
            continue
        ver = CORE_VERSIONS.get(feat.get("name"))
        if ver is None:
            continue
        for req in feat.findall("require"):
            for c in req.findall("command"):
                cmd = commands[c.get("name")]
                if cmd.core is None or cmd.core > ver:
                    cmd.core = ver

    # Window-system extensions (platform="xcb", ...) use types of the
    # platform's headers: their commands are declared only where the
    # platform macro is defined (the one file implementing them, and the
    # table, which defines every macro it needs).
    protects = {p.get("name"): p.get("protect") for p in root.find("platforms")}
    used_protects = []
    spec_versions = {}
    ext_types = {}
    for ext in root.find("extensions"):
        name = ext.get("name")
        if name not in ext_index:
            continue
        if "vulkan" not in ext.get("supported", "").split(","):
            sys.exit(f"{name} is not a Vulkan extension")
        ext_types[name] = ext.get("type")
        for req in ext.findall("require"):
            # A <require depends="..."> block only applies when the other
            # extension or version is there too; we take it when all named
            # extensions are ours or the named version is core.
            dep = req.get("depends") or req.get("extension") or req.get("feature")
            if dep:
                names = [d for d in dep.replace("+", ",").replace("(", "").replace(")", "").split(",") if d]
                if not all(d in ext_index or d in CORE_VERSIONS for d in names):
                    continue
            for e in req.findall("enum"):
                if e.get("name", "").endswith("_SPEC_VERSION") and e.get("value"):
                    spec_versions[name] = e.get("value")
            for c in req.findall("command"):
                commands[c.get("name")].extensions.append(ext_index[name])
                if ext.get("platform"):
                    protect = protects[ext.get("platform")]
                    commands[c.get("name")].protect = protect
                    if protect not in used_protects:
                        used_protects.append(protect)

    missing = [n for n in ext_index if n not in ext_types]
    if missing:
        sys.exit(f"unknown extensions: {missing}")
    for n in inst_exts:
        if ext_types[n] != "instance":
            sys.exit(f"{n} is a {ext_types[n]} extension")
    for n in dev_exts:
        if ext_types[n] != "device":
            sys.exit(f"{n} is a {ext_types[n]} extension")

    exposed = sorted(n for n, c in commands.items() if c.core or c.extensions)
    targets = sorted({resolve(commands, n).name for n in exposed})

    def level(cmd):
        if cmd.name in ("vkGetInstanceProcAddr",):
            return "Global"
        first = cmd.params[0][2]
        return DISPATCH_LEVEL.get(first, "Global")

    def decl(cmd, fname, attrs=""):
        params = ", ".join(p[0] for p in cmd.params) or "void"
        return f"{attrs}{cmd.ret} VKAPI_CALL {fname}({params})"

    os.makedirs(args.out, exist_ok=True)
    header = [
        "// Generated by src/icd/gen_entrypoints.py from vk.xml. Do not edit.",
        "#pragma once",
        "#include <vulkan/vulkan.h>",
        '#include "icd/vulkan_newer.h"',
        "#include <cstddef>",
        "#include <cstdint>",
        "",
        "namespace tessera::entry {",
        "",
        "// Weak: a command that no file defines resolves to nullptr and is",
        "// reported as absent by the GetProcAddr lookups.",
        "#define TESSERA_ENTRY __attribute__((weak, visibility(\"hidden\")))",
        "",
    ]
    for n in targets:
        c = commands[n]
        if c.protect:
            header.append(f"#ifdef {c.protect}")
        header.append(decl(c, c.short, "TESSERA_ENTRY VKAPI_ATTR ") + ";")
        if c.protect:
            header.append("#endif")
    header += [
        "",
        "enum class InstanceExtension : uint32_t {",
    ]
    header += [f"    {n[3:]}," for n in inst_exts]
    header += ["    Count", "};", "", "enum class DeviceExtension : uint32_t {"]
    header += [f"    {n[3:]}," for n in dev_exts]
    header += [
        "    Count",
        "};",
        "",
        "enum class DispatchLevel : uint8_t { Global, Instance, PhysicalDevice, Device };",
        "",
        "struct EntryPoint {",
        "    const char* name;",
        "    PFN_vkVoidFunction function;",
        "    DispatchLevel level;",
        "    uint32_t core_version;  // VK_API_VERSION_1_x, or 0 for extension-only commands",
        "    // Indices into the instance extensions, then the device extensions",
        "    // (offset by InstanceExtension::Count); -1 ends the list.",
        "    int16_t extensions[4];",
        "};",
        "",
        "extern const EntryPoint kEntryPoints[];",
        "extern const size_t kEntryPointCount;",
        "extern const VkExtensionProperties kInstanceExtensions[];",
        "extern const VkExtensionProperties kDeviceExtensions[];",
        "",
        "}  // namespace tessera::entry",
        "",
    ]
    with open(os.path.join(args.out, "entrypoints.h"), "w") as f:
        f.write("\n".join(header))

    table = [
        "// Generated by src/icd/gen_entrypoints.py from vk.xml. Do not edit.",
        *[f"#define {p}" for p in used_protects],
        '#include "entrypoints.h"',
        "",
        "namespace tessera::entry {",
        "",
        "const EntryPoint kEntryPoints[] = {",
    ]
    for n in exposed:
        c = commands[n]
        t = resolve(commands, n)
        core = f"VK_API_VERSION_{c.core[0]}_{c.core[1]}" if c.core else "0"
        exts = (c.extensions + [-1, -1, -1, -1])[:4]
        if len(c.extensions) > 3:
            sys.exit(f"{n}: too many extensions")
        if t.protect:
            table.append(f"#ifdef {t.protect}")
        table.append(
            f'    {{"{n}", reinterpret_cast<PFN_vkVoidFunction>({t.short}), DispatchLevel::{level(t)}, {core}, {{{", ".join(map(str, exts))}}}}},'
        )
        if t.protect:
            table.append("#endif")
    table += ["};", "const size_t kEntryPointCount = sizeof(kEntryPoints) / sizeof(kEntryPoints[0]);", ""]
    for label, exts in (("kInstanceExtensions", inst_exts), ("kDeviceExtensions", dev_exts)):
        table.append(f"const VkExtensionProperties {label}[] = {{")
        for n in exts:
            table.append(f'    {{"{n}", {spec_versions.get(n, "1")}}},')
        if not exts:
            table.append('    {"", 0},')
        table.append("};")
    table += ["", "}  // namespace tessera::entry", ""]
    with open(os.path.join(args.out, "entrypoint_table.cpp"), "w") as f:
        f.write("\n".join(table))

    # Exported vk* symbols for programs that link libtessera_vulkan directly
    # instead of going through the loader. Only core commands are exported,
    # as the loader's libvulkan would.
    direct = [
        "// Generated by src/icd/gen_entrypoints.py from vk.xml. Do not edit.",
        '#include "entrypoints.h"',
        '#include "icd/unimplemented.h"',
        "",
        "using namespace tessera::entry;",
        "",
        'extern "C" {',
    ]
    # A core command named as an alias (Vulkan 1.4's, whose registry entries
    # in the supplement alias the extension commands) is exported too.
    for n in exposed:
        c = commands[n]
        if not c.core:
            continue
        t = resolve(commands, n)
        args_ = ", ".join(p[1] for p in t.params)
        direct.append(decl(t, n, "__attribute__((visibility(\"default\"))) VKAPI_ATTR ") + " {")
        direct.append(f"    if (!{t.short}) return tessera::icd::Unimplemented<{t.ret}>(\"{n}\");")
        direct.append(f"    return {t.short}({args_});")
        direct.append("}")
    direct += ['}  // extern "C"', ""]
    with open(os.path.join(args.out, "direct_exports.cpp"), "w") as f:
        f.write("\n".join(direct))


if __name__ == "__main__":
    main()
