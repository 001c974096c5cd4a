#version 450
// Subgroup operations: rejected (with the capability named) until supported.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };

void main() { o[gl_GlobalInvocationID.x] = subgroupAdd(gl_GlobalInvocationID.x); }
