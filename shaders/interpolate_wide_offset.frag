#version 450
// InterpolateAtOffset two pixels away (maxInterpolationOffset 2.0,
// minInterpolationOffset -2.0): the color of scene.vert, linear in screen
// space when w = 1, where the pixel (x + 1.75, y - 2) is.
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 out_color;
void main() { out_color = interpolateAtOffset(color, vec2(1.75, -2.0)); }
