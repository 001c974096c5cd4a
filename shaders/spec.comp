#version 450
// Specialization constants, including the workgroup size.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint kScale = 2u;
layout(constant_id = 2) const bool kNegate = false;
layout(constant_id = 3) const float kBias = 0.5;
layout(set = 0, binding = 0) writeonly buffer Out { float o[]; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	float v = float(i * kScale) + kBias;
	o[i] = kNegate ? -v : v;
	if (i == 0u) o[1023] = float(gl_WorkGroupSize.x);
}
