#version 450
// The MinLod image operand (shaderResourceMinLod): textureGradClampARB
// against the lookups it must equal.
#extension GL_ARB_sparse_texture_clamp : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { vec4 v[]; } o;
layout(set = 0, binding = 1) uniform sampler2D tex;  // 16x16, 5 levels, LINEAR

void main() {
	uint i = gl_GlobalInvocationID.x;
	vec2 uv = (vec2(i % 8u, i / 8u) + vec2(0.3, 0.7)) / 8.0;
	// Gradients for lambda = 0.5: MinLod 2.25 raises it to 2.25.
	vec2 small = vec2(sqrt(2.0) / 16.0, 0.0);
	o.v[4u * i + 0u] = textureGradClampARB(tex, uv, small, small.yx, 2.25);
	o.v[4u * i + 1u] = textureLod(tex, uv, 2.25);
	// Gradients for lambda = 3: MinLod 1.0 changes nothing.
	vec2 big = vec2(0.5, 0.0);
	o.v[4u * i + 2u] = textureGradClampARB(tex, uv, big, big.yx, 1.0);
	o.v[4u * i + 3u] = textureGrad(tex, uv, big, big.yx);
}
