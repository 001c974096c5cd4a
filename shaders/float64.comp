#version 450
// 64-bit floats (shaderFloat64): arithmetic, the GLSL.std.450 functions
// allowed on doubles, comparisons, conversions to and from every type,
// packDouble2x32/unpackDouble2x32, and their layout in buffers.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer A { dvec2 a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { double o[]; };
layout(set = 0, binding = 2) writeonly buffer Out32 { uint w[]; };
// Matrices of doubles in a buffer, column- and row-major (std430: 32-byte
// columns or rows for dvec3).
layout(set = 0, binding = 3) writeonly buffer Mats {
	dmat3 cm[64];
	layout(row_major) dmat3 rm[64];
};

const uint kOut = 36u, kOut32 = 8u;

void main() {
	uint i = gl_GlobalInvocationID.x;
	double x = a[i].x, y = a[i].y;
	uint b = i * kOut, c = i * kOut32;
	o[b + 0u] = x + y;
	o[b + 1u] = x - y;
	o[b + 2u] = x * y;
	o[b + 3u] = x / y;
	o[b + 4u] = mod(x, y);
	o[b + 5u] = sqrt(abs(x));
	o[b + 6u] = inversesqrt(abs(y));
	o[b + 7u] = floor(x);
	o[b + 8u] = ceil(x);
	o[b + 9u] = trunc(x);
	o[b + 10u] = round(x);
	o[b + 11u] = roundEven(x);
	o[b + 12u] = fract(x);
	o[b + 13u] = sign(x) + abs(y);
	o[b + 14u] = -x;
	o[b + 15u] = min(x, y) + max(x, y) * 2.0lf;
	o[b + 16u] = clamp(x, -1.0lf, 1.0lf);
	o[b + 17u] = mix(x, y, 0.25lf);
	o[b + 18u] = fma(x, y, 1.0lf);
	o[b + 19u] = step(y, x) + smoothstep(-2.0lf, 3.0lf, x);
	o[b + 20u] = ldexp(x, int(i) - 8);
	int e;
	o[b + 21u] = frexp(x, e);
	double whole;
	o[b + 22u] = modf(x, whole);
	o[b + 23u] = whole;
	o[b + 24u] = double(float(x));
	o[b + 25u] = double(float16_t(y));
	o[b + 26u] = double(int(clamp(x, -2147483648.0lf, 2147483647.0lf))) + double(uint(clamp(y, 0.0lf, 4294967295.0lf)));
	o[b + 27u] = double(int64_t(clamp(x, -9.2e18lf, 9.2e18lf)));
	o[b + 28u] = double(uint64_t(clamp(y, 0.0lf, 1.8e19lf))) + double(int8_t(i) - int8_t(8)) + double(uint16_t(i));
	o[b + 29u] = packDouble2x32(uvec2(i * 0x9E3779B9u, 0x3ff00000u + i));
	o[b + 30u] = dot(dvec3(x, y, 1.0lf), dvec3(y, x, 0.5lf));
	o[b + 31u] = length(dvec2(x, y)) + distance(dvec2(x, 1.0lf), dvec2(y, 2.0lf));
	dmat3 m3 = dmat3(x, 1.0lf, 2.0lf, y, 3.0lf, -1.0lf, 0.5lf, x, 4.0lf);
	o[b + 32u] = determinant(m3);
	cm[i] = m3;
	rm[i] = m3;
	dmat2 inv = inverse(dmat2(x, y, 1.0lf, 2.0lf));
	o[b + 33u] = inv[0][0] + inv[1][0] * 10.0lf;
	o[b + 34u] = inv[0][1] + inv[1][1] * 10.0lf;
	o[b + 35u] = (m3 * dvec3(1.0lf, x, y)).z;
	uvec2 words = unpackDouble2x32(x);
	w[c + 0u] = words.x;
	w[c + 1u] = words.y;
	w[c + 2u] = uint(x < y) | uint(x <= y) << 1 | uint(x == y) << 2 | uint(x != y) << 3 | uint(x > y) << 4 |
	            uint(x >= y) << 5 | uint(isnan(x)) << 6 | uint(isinf(x)) << 7 | uint(!(x < y)) << 8;
	w[c + 3u] = uint(e);
	w[c + 4u] = floatBitsToUint(float(y));
	w[c + 5u] = uint(float16BitsToUint16(float16_t(x)));
	w[c + 6u] = uint(int(clamp(y, -1e9lf, 1e9lf)));
	dvec2 v = dvec2(x, y) * 2.0lf;
	dmat2 m = dmat2(x, y, 1.0lf, 2.0lf);
	dvec2 mv = m * v;
	w[c + 7u] = uint(mv.x == (x * v.x + 1.0lf * v.y)) | uint(normalize(dvec2(3.0lf, 4.0lf)).y == 0.8lf) << 1;
}
