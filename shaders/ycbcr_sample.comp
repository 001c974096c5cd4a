#version 450
// Sampling a Y'CbCr image through an immutable sampler with a sampler Y'CbCr
// conversion (ycbcr_test.cpp): one lookup a lane over a width x height grid,
// at texel centers moved by a push-constant offset (in texels).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { vec4 v[]; } o;
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(push_constant) uniform Params { uint width; uint height; vec2 offset; } pc;

void main() {
	uint i = gl_GlobalInvocationID.x;
	if (i >= pc.width * pc.height) return;
	vec2 texel = vec2(i % pc.width, i / pc.width) + 0.5 + pc.offset;
	o.v[i] = textureLod(tex, texel / vec2(pc.width, pc.height), 0.0);
}
