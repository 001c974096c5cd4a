#version 450
// Descriptor indexing: runtime-sized descriptor arrays of combined image
// samplers, storage buffers and texel buffers, indexed non-uniformly and by
// a constant. The push constants give how many elements each array holds.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; } o;
layout(set = 0, binding = 1) buffer S { uint data[]; } ssbos[];
layout(set = 0, binding = 2) uniform utextureBuffer texels[];
layout(set = 0, binding = 3) uniform usampler2D textures[];  // 2x2 R32_UINT
layout(push_constant) uniform P { uint ssbos, texels, textures; } counts;

void main() {
	uint i = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
	uint base = gl_GlobalInvocationID.x * 6u;
	uint s = (i + g) % counts.ssbos, t = (i * 3u + g) % counts.texels, x = (i * 5u + g) % counts.textures;
	o.v[base + 0] = ssbos[nonuniformEXT(s)].data[i];
	o.v[base + 1] = ssbos[nonuniformEXT(s)].data.length();
	o.v[base + 2] = texelFetch(texels[nonuniformEXT(t)], int(i)).x;
	o.v[base + 3] = texelFetch(textures[nonuniformEXT(x)], ivec2(i % 2u, (i / 2u) % 2u), 0).x;
	o.v[base + 4] = texelFetch(textures[1], ivec2(i % 2u, 0), 0).x + ssbos[0].data[15u - i];
	atomicAdd(ssbos[nonuniformEXT(s)].data[16], 1u);
}
