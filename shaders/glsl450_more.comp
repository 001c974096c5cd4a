#version 450
// The GLSL.std.450 functions on whole matrices and structs: inverse,
// determinant of 4x4, frexp, modf, pack/unpack.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) readonly buffer In { mat4 m; vec4 x; };
layout(set = 0, binding = 1) writeonly buffer Out { mat4 inv; mat3 inv3; float det4; float mantissa; int exponent;
	float fraction; float whole; uint packed; vec2 unpacked; vec4 unorm; };

void main() {
	inv = inverse(m);
	inv3 = inverse(mat3(m));
	det4 = determinant(m);
	mantissa = frexp(x.x, exponent);
	fraction = modf(x.y, whole);
	packed = packHalf2x16(x.zw);
	unpacked = unpackHalf2x16(packed);
	unorm = unpackUnorm4x8(0x80ff4000u);
}
