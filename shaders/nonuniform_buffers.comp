#version 450
// Descriptor indexing: arrays of uniform and storage buffers indexed with
// nonuniformEXT, a different element in neighbouring lanes of one lane group.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; } o;
layout(set = 0, binding = 1) uniform U { uvec4 x[4]; } ubos[3];
layout(set = 0, binding = 2) buffer S { uint counters[16]; uint data[16]; } ssbos[3];

void main() {
	uint i = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
	uint k = (i + g) % 3u;
	uint j = (i * 5u + 1u) % 3u;
	uint base = gl_GlobalInvocationID.x * 2u;
	o.v[base + 0] = ubos[nonuniformEXT(k)].x[i % 4u][i / 4u];
	o.v[base + 1] = ssbos[nonuniformEXT(j)].data[i];
	atomicAdd(ssbos[nonuniformEXT(k)].counters[i], g + 1u);
}
