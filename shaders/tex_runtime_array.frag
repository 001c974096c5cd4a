#version 450
// Descriptor indexing in a fragment shader: tex_implicit.frag through a
// runtime-sized array of combined image samplers, indexed non-uniformly
// (the varying's r, 0 in the scene).
#extension GL_EXT_nonuniform_qualifier : require
layout(set = 0, binding = 2) uniform sampler2D tex[];
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 out_color;
void main() { out_color = texture(tex[nonuniformEXT(int(uv.z))], uv.xy); }
