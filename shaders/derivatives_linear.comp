// VK_KHR_compute_shader_derivatives, DerivativeGroupLinearKHR (written with
// GL_NV_compute_shader_derivatives, which Debian's glslang knows: the same
// SPIR-V capability and execution mode; tests/e2e/compute_derivatives_test.cpp).
// Invocations 4q..4q+3 form quad q, invocation 4q + 2dy + dx at (dx, dy).
// No subgroup operations or barriers: several workgroups share a lane group,
// and the compiled tier can take the program whole.
#version 450
#extension GL_NV_compute_shader_derivatives : require
layout(local_size_x = 12) in;
layout(derivative_group_linearNV) in;
layout(std430, binding = 0) buffer Out { vec4 o[]; };
void main() {
	uint i = gl_GlobalInvocationID.x;
	float v = float(i * i);
	o[i] = vec4(dFdxFine(v), dFdyFine(v), dFdxCoarse(v), dFdyCoarse(v));
}
