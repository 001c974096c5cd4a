#version 450
// Subgroup operations across two subgroups, with some lanes inactive.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };

void main() {
	uint i = gl_LocalInvocationIndex;
	uint x = v[i];
	uint base = i * 16u;
	o[base + 0] = gl_SubgroupSize;
	o[base + 1] = gl_SubgroupInvocationID + 100u * gl_SubgroupID + 10000u * gl_NumSubgroups;
	o[base + 2] = subgroupAdd(x);
	o[base + 3] = subgroupInclusiveAdd(x);
	o[base + 4] = subgroupExclusiveMax(x);
	o[base + 5] = subgroupBallot(x > 50u).x;
	o[base + 6] = subgroupShuffleXor(x, 1u);
	o[base + 7] = subgroupClusteredMin(x, 4u);
	o[base + 8] = gl_SubgroupLtMask.x;
	if ((x & 3u) != 0u) {  // a quarter of the lanes sit this out
		o[base + 9] = uint(subgroupElect());
		o[base + 10] = subgroupBroadcastFirst(x);
		o[base + 11] = subgroupAdd(1u);
		o[base + 12] = uint(subgroupAll(x > 2u)) + 2u * uint(subgroupAny(x > 90u));
		o[base + 13] = subgroupBallotBitCount(subgroupBallot(true));
		o[base + 14] = subgroupShuffle(x, 5u);
		o[base + 15] = subgroupBroadcast(x, 3u);
	}
}
