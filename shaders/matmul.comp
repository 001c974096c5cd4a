#version 450
// C = A * B for n x n row-major float matrices (n a multiple of 16), in
// 16x16 tiles staged through shared memory: the classic barrier-heavy kernel.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Params { uint n; };
shared float tile_a[16][16];
shared float tile_b[16][16];

void main() {
	uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
	uint ly = gl_LocalInvocationID.y, lx = gl_LocalInvocationID.x;
	float sum = 0.0;
	for (uint t = 0u; t < n; t += 16u) {
		tile_a[ly][lx] = a[row * n + t + lx];
		tile_b[ly][lx] = b[(t + ly) * n + col];
		barrier();
		for (uint k = 0u; k < 16u; ++k) sum += tile_a[ly][k] * tile_b[k][lx];
		barrier();
	}
	c[row * n + col] = sum;
}
