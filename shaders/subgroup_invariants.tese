#version 450
// Subgroup operations in a tessellation evaluation shader
// (subgroup_graphics_test.cpp): the rules of subgroup_invariants.geom,
// ANDed with the control stage's patch result, in the flat output (255
// when all hold), read by subgroup_flat.frag.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_quad : require
layout(triangles, equal_spacing, ccw) in;
layout(location = 1) patch in uint patch_ok;
layout(location = 0) flat out uint ok;
void main() {
	vec3 t = gl_TessCoord;
	gl_Position = t.x * gl_in[0].gl_Position + t.y * gl_in[1].gl_Position + t.z * gl_in[2].gl_Position;
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
	bits |= uint(subgroupMax(uint(gl_PrimitiveID)) >= uint(gl_PrimitiveID)) << 5;
	bits |= uint(subgroupAllEqual(lanes)) << 6;
	uint quad = id & ~3u;
	bool full = true;
	for (uint k = 0u; k < 4u; ++k) full = full && subgroupBallotBitExtract(ballot, quad + k);
	bits |= uint(!full || subgroupQuadBroadcast(id, 0u) == quad) << 7;
	ok = bits & patch_ok;
}
