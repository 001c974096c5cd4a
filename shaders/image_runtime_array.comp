#version 450
// A runtime-sized descriptor array (descriptor indexing): one slot until
// pipeline creation sizes it from the layout.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D textures[];
layout(set = 0, binding = 1) buffer Out { vec4 v; } o;
void main() { o.v = textureLod(textures[gl_WorkGroupID.x], vec2(0.5), 0.0); }
