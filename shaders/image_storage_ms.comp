#version 450
// A 4-sample storage image: every sample of every texel stored, then each
// read back from another texel and sample, with imageSamples and imageSize.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) buffer Out {
	uvec4 loaded[256];
	ivec4 info;
} o;
layout(set = 0, binding = 1, rgba8ui) uniform uimage2DMS ms;  // 8x8, 4 samples, RGBA8_UINT

void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	for (int s = 0; s < 4; ++s) imageStore(ms, p, s, uvec4(p, s, p.x * 8 + p.y));
	memoryBarrierImage();
	barrier();
	for (int s = 0; s < 4; ++s) o.loaded[(p.y * 8 + p.x) * 4 + s] = imageLoad(ms, ivec2(7 - p.x, p.y), 3 - s);
	if (p == ivec2(0)) o.info = ivec4(imageSize(ms), imageSamples(ms), 0);
}
