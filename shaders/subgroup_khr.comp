#version 450
// GL_ARB_shader_ballot and GL_ARB_shader_group_vote, which glslang turns into
// SPV_KHR_shader_ballot and SPV_KHR_subgroup_vote (VK_EXT_shader_subgroup_ballot
// and VK_EXT_shader_subgroup_vote): rules that hold for any subgroup size of
// at least 2 dividing 64 (every subgroup full). Invocation i writes 255 when
// all hold, bit k for rule k.
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_shader_group_vote : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
	uint i = gl_GlobalInvocationID.x;
	uint id = gl_SubGroupInvocationARB;
	uint64_t b = ballotARB(true);
	uint ok = 0u;
	ok |= uint(uint(bitCount(uint(b)) + bitCount(uint(b >> 32))) == gl_SubGroupSizeARB) << 0;
	ok |= uint(((b >> id) & 1ul) == 1ul) << 1;
	ok |= uint(readInvocationARB(i, 1u) == readFirstInvocationARB(i) + 1u) << 2;
	ok |= uint(readFirstInvocationARB(i) == i - id) << 3;
	ok |= uint(anyInvocationARB(id == 1u) && !anyInvocationARB(id == 99u)) << 4;
	ok |= uint(allInvocationsARB(true) && !allInvocationsARB(id == 0u)) << 5;
	ok |= uint(allInvocationsEqualARB(i < 1000u) && !allInvocationsEqualARB(id == 0u)) << 6;
	ok |= uint(gl_SubGroupEqMaskARB == (1ul << id) && gl_SubGroupLtMaskARB == (1ul << id) - 1ul) << 7;
	o[i] = ok;
}
