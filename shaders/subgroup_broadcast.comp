#version 450
// subgroupBroadcast with an id that is not a constant but dynamically
// uniform (Vulkan 1.2 subgroupBroadcastDynamicId, SPIR-V 1.5+): from a push
// constant, and from a buffer value reduced modulo gl_SubgroupSize.
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { uint id; uint v[]; } src;
layout(binding = 1) buffer Out { uint v[]; } dst;
layout(push_constant) uniform Push { uint lane; } push;

void main() {
	uint i = gl_GlobalInvocationID.x;
	uint x = src.v[i];
	dst.v[2 * i] = subgroupBroadcast(x, push.lane);
	dst.v[2 * i + 1] = subgroupBroadcast(x * 3u, src.id % gl_SubgroupSize);
}
