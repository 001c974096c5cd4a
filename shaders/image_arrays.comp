#version 450
// Descriptor arrays of images, samplers, storage images and texel buffers
// indexed at run time: each workgroup picks its elements, and workgroups
// share lane groups, so one instruction sees several descriptors.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { vec4 v[]; } o;
layout(set = 0, binding = 1) uniform texture2D images[3];     // 4x4 RGBA8, different contents
layout(set = 0, binding = 2) uniform sampler samplers[2];     // NEAREST, LINEAR
layout(set = 0, binding = 3) uniform sampler2D combined[3];   // the images with the LINEAR sampler
layout(set = 0, binding = 4, r32ui) uniform uimage2D storage[2];  // 4x5 R32_UINT: atomics on rows 0-3, loads from row 4
layout(set = 0, binding = 5) uniform samplerBuffer texels[2];     // RGBA8 texel buffers

void main() {
	uint g = gl_WorkGroupID.x, l = gl_LocalInvocationID.x;
	uint base = gl_GlobalInvocationID.x * 4u;
	vec2 uv = vec2(float(l) * 0.27 + 0.06, float(g % 7u) * 0.13 + 0.05);
	o.v[base + 0] = textureLod(sampler2D(images[g % 3u], samplers[(g / 3u) % 2u]), uv, 0.0);
	o.v[base + 1] = textureLod(combined[(g + 1u) % 3u], uv.yx, 0.0);
	o.v[base + 2] = texelFetch(texels[g % 2u], int(g * 4u + l) % 16);
	imageAtomicAdd(storage[g % 2u], ivec2(l, g % 4u), g + 1u);
	o.v[base + 3] = vec4(imageLoad(storage[(g + 1u) % 2u], ivec2(l, 4)).x, texelFetch(combined[g % 3u], ivec2(l, 0), 0).xyz);
}
