#version 450
// Benchmarks: a compute image filter as image-processing programs write it.
// Each invocation loads five RGBA8 texels of a storage image (a cross,
// clamped to the image) and stores their weighted mean into another.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;

void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	ivec2 last = imageSize(src) - 1;
	vec4 sum = imageLoad(src, p) * 4.0;
	sum += imageLoad(src, clamp(p + ivec2(1, 0), ivec2(0), last));
	sum += imageLoad(src, clamp(p - ivec2(1, 0), ivec2(0), last));
	sum += imageLoad(src, clamp(p + ivec2(0, 1), ivec2(0), last));
	sum += imageLoad(src, clamp(p - ivec2(0, 1), ivec2(0), last));
	imageStore(dst, p, sum * 0.125);
}
