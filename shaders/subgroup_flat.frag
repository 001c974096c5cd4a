#version 450
// The vertex stage's flat result as red (subgroup_invariants.vert).
layout(location = 0) flat in uint ok;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(float(ok & 255u) / 255.0, 0.0, 0.0, 1.0); }
