#version 450
// 64-bit integers: rejected (with the capability named) until supported.
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint64_t o[]; };

void main() { o[0] = o[1] * 3ul; }
