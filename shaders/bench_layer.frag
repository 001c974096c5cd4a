#version 450
// Benchmarks: the flat color of bench_layer.vert, written as it comes.
layout(location = 0) flat in vec4 color;
layout(location = 0) out vec4 out_color;
void main() { out_color = color; }
