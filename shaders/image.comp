#version 450
// A storage image store (the smallest image program).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D target;

void main() { imageStore(target, ivec2(gl_GlobalInvocationID.xy), vec4(1.0)); }
