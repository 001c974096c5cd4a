#version 450
// VK_KHR_shader_subgroup_uniform_control_flow: subgroup operations where
// the lanes of a subgroup meet again after diverging, in an entry point
// declared SubgroupUniformControlFlowKHR. Invocation i (2 workgroups of 64)
// writes Out.v[i * 5 + k]:
//   k = 0: gl_SubgroupSize
//   k = 1: subgroupAdd(x) after an if/else, x = i * 3 for i % 4 == 1, else i + 7
//   k = 2: subgroupMax(y) after a loop of i % 5 trips that adds j to y and
//          breaks once y > 4
//   k = 3: how many lanes of the subgroup left that loop with an odd y
//          (subgroupBallotBitCount)
//   k = 4: subgroupAdd(z) after a switch on i % 3
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_EXT_subgroup_uniform_control_flow : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; } result;

void main() [[subgroup_uniform_control_flow]] {
	uint i = gl_GlobalInvocationID.x;
	uint x;
	if (i % 4u == 1u)
		x = i * 3u;
	else
		x = i + 7u;
	uint y = 0u;
	for (uint j = 0u; j < i % 5u; ++j) {
		y += j;
		if (y > 4u) break;
	}
	uint z;
	switch (i % 3u) {
	case 0u: z = 1u; break;
	case 1u: z = i; break;
	default: z = 100u; break;
	}
	result.v[i * 5u + 0u] = gl_SubgroupSize;
	result.v[i * 5u + 1u] = subgroupAdd(x);
	result.v[i * 5u + 2u] = subgroupMax(y);
	result.v[i * 5u + 3u] = subgroupBallotBitCount(subgroupBallot((y & 1u) == 1u));
	result.v[i * 5u + 4u] = subgroupAdd(z);
}
