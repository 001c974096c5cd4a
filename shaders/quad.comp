#version 450
// Quad operations: rejected (with the capability named) until supported.
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };

void main() { o[gl_GlobalInvocationID.x] = subgroupQuadBroadcast(gl_GlobalInvocationID.x, 1u); }
