#version 450
// BM_TexturedPlane on a 2D array view: texture() with implicit LOD at the
// varying's (s, t), layer 0 of a one-layer array.
layout(set = 0, binding = 2) uniform sampler2DArray tex;
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 out_color;
void main() { out_color = texture(tex, vec3(uv.xy, 0.0)); }
