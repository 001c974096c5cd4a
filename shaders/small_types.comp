#version 450
// 8- and 16-bit integers and 16-bit floats: in buffers (natural sizes) and
// in arithmetic (wrapping at their width, halves rounded per operation).
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer Halves { f16vec2 h[]; };
layout(set = 0, binding = 1) readonly buffer Shorts { int16_t s[]; };
layout(set = 0, binding = 2) readonly buffer Bytes { uint8_t b[]; };
layout(set = 0, binding = 3) writeonly buffer OutHalf { float16_t oh[]; };
layout(set = 0, binding = 4) writeonly buffer OutShort { int16_t os[]; };
layout(set = 0, binding = 5) writeonly buffer OutByte { uint8_t ob[]; };
layout(set = 0, binding = 6) writeonly buffer Out { uint o[]; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	f16vec2 v = h[i];
	oh[i] = v.x * v.y + float16_t(0.1);
	int16_t x = s[i];
	os[i * 2u] = x + int16_t(30000);
	os[i * 2u + 1u] = x / int16_t(-7);
	uint8_t y = b[i];
	ob[i] = y * uint8_t(3) + uint8_t(1);
	o[i * 6u + 0u] = uint(int(x));
	o[i * 6u + 1u] = uint(x < int16_t(0)) + 2u * uint(int16_t(x >> 3) < int16_t(-1000));
	o[i * 6u + 2u] = packFloat2x16(v * float16_t(2.0));
	o[i * 6u + 3u] = uint(int(int8_t(y)));
	o[i * 6u + 4u] = uint(y * uint8_t(3));  // wrapped before widening
	o[i * 6u + 5u] = uint(uint16_t(x) * uint16_t(3) > uint16_t(30000));
}
