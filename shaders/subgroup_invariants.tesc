#version 450
// Subgroup operations in a tessellation control shader
// (subgroup_graphics_test.cpp): the rules of subgroup_invariants.geom,
// with the invocation's vertex, each invocation's bits in its vertex of
// the patch, and their AND in the patch output (255 when all hold). Fixed
// levels of 4.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_quad : require
layout(vertices = 3) out;
layout(location = 0) out uint vertex_ok[];
layout(location = 1) patch out uint patch_ok;
void main() {
	gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
	uint bits = 0u;
	uvec4 ballot = subgroupBallot(true);
	uint lanes = subgroupBallotBitCount(ballot);
	uint id = gl_SubgroupInvocationID;
	bits |= uint(subgroupAdd(1u) == lanes) << 0;
	bits |= uint(subgroupBallotBitExtract(ballot, id)) << 1;
	bits |= uint(id < gl_SubgroupSize) << 2;
	bits |= uint(subgroupExclusiveAdd(1u) == subgroupBallotExclusiveBitCount(ballot)) << 3;
	uint v = id * 7u + 3u;
	bits |= uint(subgroupShuffle(v, id) == v) << 4;
	bits |= uint(subgroupMax(uint(gl_InvocationID)) >= uint(gl_InvocationID)) << 5;
	bits |= uint(subgroupAllEqual(lanes)) << 6;
	uint quad = id & ~3u;
	bool full = true;
	for (uint k = 0u; k < 4u; ++k) full = full && subgroupBallotBitExtract(ballot, quad + k);
	bits |= uint(!full || subgroupQuadBroadcast(id, 0u) == quad) << 7;
	vertex_ok[gl_InvocationID] = bits;
	barrier();
	if (gl_InvocationID == 0) {
		patch_ok = vertex_ok[0] & vertex_ok[1] & vertex_ok[2];
		gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = gl_TessLevelOuter[2] = 4.0;
		gl_TessLevelInner[0] = 4.0;
	}
}
