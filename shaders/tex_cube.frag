#version 450
// A cube map sampled by the direction in the varying's xyz.
layout(set = 0, binding = 2) uniform samplerCube tex;
layout(location = 0) in vec4 dir;
layout(location = 0) out vec4 out_color;
void main() { out_color = texture(tex, dir.xyz); }
