#version 450
// Scene texture tests: texture() with implicit LOD (quad derivatives) at the
// varying's (s, t).
layout(set = 0, binding = 2) uniform sampler2D tex;
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 out_color;
void main() { out_color = texture(tex, uv.xy); }
