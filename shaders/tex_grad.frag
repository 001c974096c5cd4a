#version 450
// textureGrad with anisotropic gradients from the varying's z and w:
// d/dx = (z, 0), d/dy = (0, w).
layout(set = 0, binding = 2) uniform sampler2D tex;
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 out_color;
void main() { out_color = textureGrad(tex, uv.xy, vec2(uv.z, 0.0), vec2(0.0, uv.w)); }
