// shader::Program to bytes and back, for the pipeline cache
// (src/vk/pipeline_cache.h), whose data an application may keep in a file and
// hand back to another run, another build, or corrupted.
//
// The bytes: "TSPR", kProgramFormatVersion, then every field of the Program
// in declaration order (integers little-endian, bools and enums one byte,
// vectors as a uint32 count then their elements), then the SHA-256 of all of
// that. Reading checks the digest, every length against the bytes left, every
// enum and bool, and then the Program's internal references (CheckProgram):
// what is accepted cannot make the interpreter index outside its arrays.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "shader/ir.h"

namespace tessera::shader {

// Bump when ir.h changes or the front end translates anything differently:
// cached programs of another version are never used (the pipeline cache UUID
// and every cache key include it).
constexpr uint32_t kProgramFormatVersion = 12;  // 12: residency of sparse lookups

std::vector<uint8_t> SerializeProgram(const Program& program);

// False (and `out` unspecified) for anything SerializeProgram of this
// version did not write: truncated, extended, corrupted or inconsistent bytes.
bool DeserializeProgram(std::span<const uint8_t> bytes, Program& out);

// Why the program's internal references are inconsistent (a register, block,
// edge, region or memory word out of range; an operand field misused); empty
// when they are consistent. Every program spirv::Compile makes passes.
std::string CheckProgram(const Program& program);

}  // namespace tessera::shader
