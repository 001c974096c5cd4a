#version 450
// Descriptor indexing: arrays of images, samplers, storage images and texel
// buffers indexed with nonuniformEXT, a different element in neighbouring
// lanes of one lane group.
#extension GL_EXT_nonuniform_qualifier : require
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out { vec4 v[]; } o;
layout(set = 0, binding = 1) uniform sampler2D combined[4];            // 4x4 RGBA8, NEAREST
layout(set = 0, binding = 2) uniform texture2D images[4];              // the same images
layout(set = 0, binding = 3) uniform sampler samplers[2];              // NEAREST, LINEAR
layout(set = 0, binding = 4, r32ui) uniform uimage2D storage[2];       // 4x4 R32_UINT counters
layout(set = 0, binding = 5) uniform samplerBuffer texels[2];          // 16 RGBA8 texels
layout(set = 0, binding = 6, r32ui) uniform uimageBuffer counters[2];  // 16 R32_UINT texels

void main() {
	uint i = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
	uint k = (i * 7u + g) % 4u;
	ivec2 p = ivec2(i % 4u, i / 4u);
	vec2 uv = (vec2(p) + 0.5) / 4.0;  // texel centres: LINEAR reads the texel itself
	uint base = gl_GlobalInvocationID.x * 4u;
	o.v[base + 0] = textureLod(combined[nonuniformEXT(k)], uv, 0.0);
	o.v[base + 1] = textureLod(sampler2D(images[nonuniformEXT(3u - k)], samplers[nonuniformEXT(i % 2u)]), uv, 0.0);
	o.v[base + 2] = texelFetch(texels[nonuniformEXT(k % 2u)], int(i));
	imageAtomicAdd(storage[nonuniformEXT(i % 2u)], p, k + 1u);
	imageAtomicAdd(counters[nonuniformEXT((i / 2u) % 2u)], int(i), g + 1u);
	o.v[base + 3] = vec4(float(k), texelFetch(images[nonuniformEXT(k)], p, 0).xyz);
}
