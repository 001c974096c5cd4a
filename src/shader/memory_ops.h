// Memory helpers shared by the interpreter's files.
#pragma once

#include <cstdint>

#include "shader/ir.h"

namespace tessera::shader {

struct Resources;

// One atomic read-modify-write on a 4-byte-aligned word; returns the old value.
uint32_t AtomicApply(Op op, uint32_t* word, uint32_t value, uint32_t comparator);

// Whether `width` bytes at a device address may be accessed
// (physical_memory.cpp): never the null page; with
// Resources::check_device_addresses, only inside live device memory.
bool DeviceAddressReachable(const Resources& resources, uint64_t address, uint32_t width);

}  // namespace tessera::shader
