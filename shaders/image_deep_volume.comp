#version 450
// A 1x1x4096 volume (maxImageDimension3D deep) with its 13 levels: fetches
// and NEAREST lookups of slices up to the last, and stores to the last
// slices of a second volume.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) uniform usampler3D volume;
layout(set = 0, binding = 2, r32ui) uniform writeonly uimage3D target;

void main() {
	const int slices[4] = int[](4095, 4094, 2049, 0);
	uint i = gl_GlobalInvocationID.x;
	int z = slices[i];
	o[4u * i] = texelFetch(volume, ivec3(0, 0, z), 0);
	o[4u * i + 1u] = textureLod(volume, vec3(0.5, 0.5, (float(z) + 0.5) / 4096.0), 0.0);
	o[4u * i + 2u] = texelFetch(volume, ivec3(0, 0, z >> 4), 4);  // level 4 is 256 deep
	o[4u * i + 3u] = uvec4(textureSize(volume, 0), textureQueryLevels(volume));
	imageStore(target, ivec3(0, 0, 4095 - int(i)), uvec4(1000u + i));
}
