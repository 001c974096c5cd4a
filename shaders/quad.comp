#version 450
// Quad operations: aligned groups of 4 lanes of a subgroup.
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) writeonly buffer Out { uvec4 o[]; };

void main() {
	uint x = gl_GlobalInvocationID.x * 3u + 1u;
	o[gl_GlobalInvocationID.x] = uvec4(subgroupQuadBroadcast(x, 2u), subgroupQuadSwapHorizontal(x),
	                                   subgroupQuadSwapVertical(x), subgroupQuadSwapDiagonal(x));
}
