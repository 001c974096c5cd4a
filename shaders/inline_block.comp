#version 450
// Reads a uniform block that may be bound as a uniform buffer or, with the
// same SPIR-V, as an inline uniform block (Vulkan 1.3 inlineUniformBlock).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform Params {
	vec4 scale;
	uint offset;
	int bias[3];
};
layout(set = 0, binding = 1) buffer Out { vec4 o[]; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	o[i] = scale * float(i + offset) + vec4(float(bias[i % 3u]));
}
