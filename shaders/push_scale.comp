#version 450
// o = a * scale + bias: three descriptors of one set, which the push
// descriptor test pushes whole and then one binding at a time.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform Scale { int scale; int bias; };
layout(set = 0, binding = 1) readonly buffer In { int a[]; };
layout(set = 0, binding = 2) writeonly buffer Out { int o[]; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	o[i] = a[i] * scale + bias;
}
