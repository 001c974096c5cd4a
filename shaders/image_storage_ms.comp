#version 450
// A 4-sample storage image: every sample of every texel stored, then each
// read back from another texel and sample, with imageSamples and imageSize;
// and one sample of a layer of a 4-sample 2D array.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) buffer Out {
	uvec4 loaded[256];
	ivec4 info;
} o;
layout(set = 0, binding = 1, rgba8ui) uniform uimage2DMS ms;  // 8x8, 4 samples, RGBA8_UINT
layout(set = 0, binding = 2, r32ui) uniform uimage2DMSArray layers;  // 8x8x2, 4 samples, R32_UINT (ImageMSArray)

void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	for (int s = 0; s < 4; ++s) imageStore(ms, p, s, uvec4(p, s, p.x * 8 + p.y));
	memoryBarrierImage();
	barrier();
	for (int s = 0; s < 4; ++s) o.loaded[(p.y * 8 + p.x) * 4 + s] = imageLoad(ms, ivec2(7 - p.x, p.y), 3 - s);
	imageStore(layers, ivec3(p, 1), 2, uvec4(p.y * 8 + p.x + 1000));
	memoryBarrierImage();
	barrier();
	if (p == ivec2(0))
		o.info = ivec4(imageSize(ms), imageSamples(ms), imageLoad(layers, ivec3(5, 6, 1), 2).x);
}
