#version 450
// 16-bit interface variables (StorageInputOutput16, draw_shader_test.cpp):
// scene.vert with the color passed on as halves, and two 16-bit integer
// attributes (R16G16_SINT at location 2) passed on flat with arithmetic
// done in 16 bits.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 in_color;
layout(location = 2) in i16vec2 in_ints;
layout(location = 0) out f16vec4 color;
layout(location = 1) flat out i16vec2 ints;
layout(location = 2) flat out u16vec2 uints;
void main() {
	gl_Position = position;
	color = f16vec4(in_color);
	ints = in_ints - int16_t(5);
	uints = u16vec2(in_ints) + uint16_t(3);
}
