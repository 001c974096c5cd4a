#version 450
// o[i] = a[i] + add, add from the push constants (maintenance6_test.cpp:
// bound and pushed with vkCmdBindDescriptorSets2KHR / vkCmdPushConstants2KHR).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { int a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { int o[]; };
layout(push_constant) uniform Params { int add; } pc;

void main() {
	uint i = gl_GlobalInvocationID.x;
	o[i] = a[i] + pc.add;
}
