#version 450
layout(location = 0) in vec2 uv;
layout(location = 1) flat in ivec2 ids;
layout(location = 0) out vec4 color;
void main() { color = vec4(uv, float(ids.x & 7) / 7.0, 1.0); }
