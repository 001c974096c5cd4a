#version 450
// Matrices in memory (column- and row-major, std140 and std430) and matrix
// arithmetic: products, transpose, outer product, determinant.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, std140) uniform Params {
	mat3 a;                     // column-major, columns 16 bytes apart
	layout(row_major) mat3 b;   // row-major
	vec3 v;
} p;
layout(set = 0, binding = 1, std430) buffer Out {
	layout(row_major) mat2x3 stored;  // written through a row-major layout
	float o[];
};

void main() {
	uint i = gl_GlobalInvocationID.x;
	float s = float(i + 1u);
	mat3 a = p.a * s;
	vec3 av = a * p.v;
	vec3 va = p.v * p.b;
	mat3 ab = a * p.b;
	mat3 t = transpose(p.b);
	mat3 op = outerProduct(p.v, vec3(1.0, 2.0, 3.0));
	uint base = i * 16u;
	o[base + 0] = av.x; o[base + 1] = av.y; o[base + 2] = av.z;
	o[base + 3] = va.x; o[base + 4] = va.y; o[base + 5] = va.z;
	o[base + 6] = ab[0][0]; o[base + 7] = ab[1][2]; o[base + 8] = ab[2][1];
	o[base + 9] = t[0][1]; o[base + 10] = t[2][0];
	o[base + 11] = op[2][1];
	o[base + 12] = determinant(a);
	o[base + 13] = determinant(mat2(a[0].xy, a[1].xy));
	o[base + 14] = p.b[1][2];   // row-major element: column 1, row 2
	o[base + 15] = p.a[2].y;
	if (i == 0u) stored = mat2x3(vec3(1.0, 2.0, 3.0), vec3(4.0, 5.0, 6.0));
}
