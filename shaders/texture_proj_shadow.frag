#version 450
// textureProj of a shadow sampler: the Dref is divided by q too, and that
// division must come before the lookup's operand run
// (tests/unit/spirv/image_args_test.cpp; the CTS's
// glsl.texture_functions.textureproj*.sampler2dshadow_*).
layout(location = 0) in vec4 coord;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2DShadow shadow;
void main() { color = vec4(textureProj(shadow, coord), textureProjOffset(shadow, coord, ivec2(1, -1)), 0.0, 1.0); }
