#version 450
// 64-bit atomics: rejected (with the capability named) until supported.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint64_t o[]; };

void main() { atomicAdd(o[0], 1ul); }
