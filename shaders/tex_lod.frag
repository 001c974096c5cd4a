#version 450
// textureLod at (s, t) with the LOD from the varying's z.
layout(set = 0, binding = 2) uniform sampler2D tex;
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 out_color;
void main() { out_color = textureLod(tex, uv.xy, uv.z); }
