#version 450
// y = a * x + y over n elements.
// The workgroup width is a specialization constant (default 64) so that
// benchmarks can compare lane group widths.
layout(local_size_x = 64, local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform Params { float a; uint n; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	if (i < n) y[i] = a * x[i] + y[i];
}
