#version 450
// 16-bit interface variables (io16.vert): the interpolated halves, and the
// flat 16-bit integers; written as 16-bit integers to an R32G32B32A32_SINT
// attachment: x the integer from the vertex, y a second one through 16-bit
// wrap-around, z the color's red times 1000, w the unsigned value's low
// half as a signed value.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
layout(location = 0) in f16vec4 color;
layout(location = 1) flat in i16vec2 ints;
layout(location = 2) flat in u16vec2 uints;
layout(location = 0) out i16vec4 out_value;
void main() {
	out_value = i16vec4(ints.x, ints.y * int16_t(300), int16_t(color.r * float16_t(1000.0)), int16_t(uints.x));
}
