#version 450
// robustBufferAccess: indices run past the end of the bound ranges.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
layout(push_constant) uniform Params { uint offset; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	uint value = v[i + offset];        // past the end: reads 0
	o[i * 2u] = value + 1u;            // past the end: dropped
	o[i * 2u + 1u] = v[i - 1000000u];  // wraps far out: reads 0
}
