#version 450
// 16-bit interface variables (io16.vert): the interpolated halves as the
// color, written from a half output.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
layout(location = 0) in f16vec4 color;
layout(location = 0) out f16vec4 out_color;
void main() { out_color = color; }
