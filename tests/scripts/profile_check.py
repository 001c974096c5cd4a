#!/usr/bin/env python3
"""Checks a device against a Khronos Vulkan profile (Vulkan-Profiles JSON).

Usage: profile_check.py PROFILE.json DEVICE.json VK_XML [PROFILE_NAME ...]

DEVICE.json is what `vulkaninfo --json` writes: the device's extensions,
features and properties in the profiles schema. Every capability block the
profile lists must hold (a nested list is a choice: one of its blocks must
hold). A required extension must be listed; a required feature must be
true; a required property must compare as its `limittype` in vk.xml says
(the rules of the Vulkan-Profiles layer): max, bits: at least the value;
min: at most; min,mul: at most and dividing it; range: the device's range
covers the profile's; bitmask: every required bit (or a required true);
exact: equal. A profile that names others ("profiles") needs them too.
With PROFILE_NAMEs, only those profiles (and what they name) are checked,
else every profile of the file. Prints each failure; exits 1 on any, 0
when the device meets the profiles.
"""
import json
import sys
import xml.etree.ElementTree as ET


def load_registry(path):
    """Struct aliases, and each struct member's limittype."""
    root = ET.parse(path).getroot()
    aliases, limittypes = {}, {}
    for t in root.iter('type'):
        if t.get('category') != 'struct':
            continue
        name = t.get('name')
        if t.get('alias'):
            aliases[name] = t.get('alias')
            continue
        for m in t.findall('member'):
            member = m.find('name')
            if member is not None and m.get('limittype'):
                limittypes[(name, member.text)] = m.get('limittype')
    return aliases, limittypes


class Checker:
    def __init__(self, device, aliases, limittypes):
        self.aliases = aliases
        self.limittypes = limittypes
        self.extensions = set(device.get('extensions', {}))
        self.features = {self.core(k): v for k, v in device.get('features', {}).items()}
        self.properties = {self.core(k): v for k, v in device.get('properties', {}).items()}

    def core(self, struct):
        while struct in self.aliases:
            struct = self.aliases[struct]
        return struct

    def block(self, name, block):
        failures = []
        for extension in block.get('extensions', {}):
            if extension not in self.extensions:
                failures.append(f'{name}: extension {extension} is not listed')
        for struct, members in block.get('features', {}).items():
            have = self.features.get(self.core(struct))
            for member, required in members.items():
                if required and not (have and have.get(member)):
                    failures.append(f'{name}: feature {struct}.{member} is not on')
        for struct, members in block.get('properties', {}).items():
            have = self.properties.get(self.core(struct))
            if have is None:
                failures.append(f'{name}: no {struct} from the device')
                continue
            failures += self.compare(name, self.core(struct), members, have, struct)
        return failures

    def compare(self, name, struct, required, have, path):
        failures = []
        for member, want in required.items():
            where = f'{path}.{member}'
            if member not in have:
                failures.append(f'{name}: {where} is missing from the device')
                continue
            got = have[member]
            kind = self.limittypes.get((struct, member), 'exact')
            if isinstance(want, dict):  # a nested struct (VkPhysicalDeviceLimits)
                nested = 'VkPhysicalDeviceLimits' if member == 'limits' else 'VkPhysicalDeviceSparseProperties'
                failures += self.compare(name, nested, want, got, where)
                continue
            if not self.holds(kind, want, got):
                failures.append(f'{name}: {where} is {got}, the profile asks {want} ({kind})')
        return failures

    @staticmethod
    def holds(kind, want, got):
        kinds = kind.split(',')
        if 'noauto' in kinds or 'struct' in kinds:
            return True
        if 'range' in kinds:
            return got[0] <= want[0] and got[1] >= want[1]
        if isinstance(want, list) and not 'bitmask' in kinds:
            return len(want) == len(got) and all(Checker.holds(kind, w, g) for w, g in zip(want, got))
        if 'bitmask' in kinds:
            if isinstance(want, bool):
                return got or not want
            return set(want) <= set(got)
        if 'max' in kinds or 'bits' in kinds:
            return got >= want
        if 'min' in kinds:
            return got <= want and ('mul' not in kinds or (got and want % got == 0))
        return got == want


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    profile_file, device_file, registry = sys.argv[1:4]
    with open(profile_file) as f:
        profiles = json.load(f)
    with open(device_file) as f:
        device = json.load(f)['capabilities']['device']
    checker = Checker(device, *load_registry(registry))
    names = sys.argv[4:] or list(profiles['profiles'])
    checked = []
    while names:  # with the profiles each names
        name = names.pop(0)
        if name not in profiles['profiles']:
            print(f'FAIL no profile {name} in {profile_file}')
            return 1
        if name not in checked:
            checked.append(name)
            names += profiles['profiles'][name].get('profiles', [])
    failures = []
    for profile_name in checked:
        profile = profiles['profiles'][profile_name]
        for entry in profile['capabilities']:
            choices = entry if isinstance(entry, list) else [entry]
            results = [checker.block(c, profiles['capabilities'][c]) for c in choices]
            if all(results):
                failures += min(results, key=len)
        print(f'{profile_name}: {len(profile["capabilities"])} capability blocks checked')
    for failure in failures:
        print('FAIL', failure)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
