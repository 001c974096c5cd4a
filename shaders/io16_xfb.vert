#version 450
// 16-bit outputs captured by transform feedback (io16_test.cpp): 16-byte
// records of three halves (bytes 0..5), a 16-bit integer (6..7) and a
// float (8..11); bytes 12..15 are never written.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
layout(location = 0) in vec4 position;
layout(xfb_buffer = 0, xfb_stride = 16) out;
layout(location = 0, xfb_buffer = 0, xfb_offset = 0) out f16vec3 halves;
layout(location = 1, xfb_buffer = 0, xfb_offset = 6) flat out int16_t small;
layout(location = 2, xfb_buffer = 0, xfb_offset = 8) out float single;
void main() {
	gl_Position = position;
	halves = f16vec3(float16_t(gl_VertexIndex) * float16_t(0.5), float16_t(-1.25), float16_t(position.x));
	small = int16_t(-1000 - gl_VertexIndex);
	single = float(gl_VertexIndex) + 0.25;
}
