#version 450
// Uses 64-bit floats: rejected until the engine supports Float64.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { double o[]; };

void main() { o[0] = o[1] * 2.0lf; }
