#version 450
// Benchmarks: bench_image_filter.comp over texel buffers. Each invocation
// fetches five RGBA8 texels of a 1920x1080 picture held in a uniform texel
// buffer, row after row (a cross, clamped to the picture), and stores their
// weighted mean into a storage texel buffer.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform samplerBuffer src;
layout(set = 0, binding = 1, rgba8) uniform writeonly imageBuffer dst;

const ivec2 kSize = ivec2(1920, 1080);

vec4 Texel(ivec2 p) {
	p = clamp(p, ivec2(0), kSize - 1);
	return texelFetch(src, p.y * kSize.x + p.x);
}

void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	vec4 sum = Texel(p) * 4.0;
	sum += Texel(p + ivec2(1, 0));
	sum += Texel(p - ivec2(1, 0));
	sum += Texel(p + ivec2(0, 1));
	sum += Texel(p - ivec2(0, 1));
	imageStore(dst, p.y * kSize.x + p.x, sum * 0.125);
}
