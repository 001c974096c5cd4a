#version 450
// Subgroup operations in a vertex shader: the rules of
// subgroup_invariants.frag that do not need quads, their bits in the
// flat output (255 when all hold), read by subgroup_flat.frag.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 in_color;
layout(location = 0) flat out uint ok;
void main() {
	gl_Position = position;
	uint bits = 0u;
	uvec4 ballot = subgroupBallot(true);
	uint lanes = subgroupBallotBitCount(ballot);
	bits |= uint(subgroupAdd(1u) == lanes) << 0;
	bits |= uint(subgroupBallotBitExtract(ballot, gl_SubgroupInvocationID)) << 1;
	bits |= uint(gl_SubgroupInvocationID < gl_SubgroupSize) << 2;
	bits |= uint(subgroupExclusiveAdd(1u) == subgroupBallotExclusiveBitCount(ballot)) << 3;
	uint v = gl_SubgroupInvocationID * 7u + 3u;
	bits |= uint(subgroupShuffle(v, gl_SubgroupInvocationID) == v) << 4;
	// The largest vertex index in the subgroup is at least this one's.
	bits |= uint(subgroupMax(uint(gl_VertexIndex)) >= uint(gl_VertexIndex)) << 5;
	bits |= uint(subgroupAllEqual(lanes)) << 6;
	bits |= uint(subgroupAll(true) && subgroupAdd(subgroupElect() ? 1u : 0u) == 1u) << 7;
	ok = bits;
}
