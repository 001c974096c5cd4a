#version 450
// What each invocation sees of its subgroup, for computeFullSubgroups: with
// VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT every subgroup
// of this 64 x 2 workgroup must have all its invocations active.
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64, local_size_y = 2) in;
layout(binding = 0) buffer Out { uvec4 v[]; } dst;

void main() {
	uint i = gl_WorkGroupID.x * 128u + gl_LocalInvocationIndex;
	uint awake = subgroupBallotBitCount(subgroupBallot(true));
	dst.v[i] = uvec4(gl_SubgroupSize, awake, gl_SubgroupInvocationID + 1000u * gl_SubgroupID, gl_NumSubgroups);
}
