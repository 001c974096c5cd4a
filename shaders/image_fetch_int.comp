#version 450
// texelFetch of every texel of an 8x8 int texture, and two lookups between
// texels with the test's sampler.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { ivec4 v[]; } o;
layout(set = 0, binding = 1) uniform isampler2D tex;

void main() {
	uint i = gl_GlobalInvocationID.x;
	ivec2 p = ivec2(i % 8u, i / 8u);
	o.v[3u * i] = texelFetch(tex, p, 0);
	o.v[3u * i + 1u] = textureLod(tex, (vec2(p) + vec2(0.37, 0.61)) / 8.0, 0.0);
	o.v[3u * i + 2u] = textureLod(tex, (vec2(p) + vec2(0.81, 0.13)) / 8.0, 0.0);
}
