// Names of SPIR-V enumerants, generated from the grammar (gen_names.py), for
// error messages ("unsupported capability Float64").
#pragma once

#include <cstdint>

namespace tessera::spirv {

const char* OpcodeName(uint32_t op);  // "OpIAdd"
const char* CapabilityName(uint32_t capability);
const char* BuiltInName(uint32_t builtin);
const char* StorageClassName(uint32_t storage_class);
const char* GlslInstructionName(uint32_t instruction);

}  // namespace tessera::spirv
