#version 450
layout(location = 0) flat in int v;
layout(location = 0) out vec4 o;
// The int's four bytes as UNORM8 codes (k/255 converts exactly, §3.9.2).
void main() { o = vec4(v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >> 24) & 255) / 255.0; }
