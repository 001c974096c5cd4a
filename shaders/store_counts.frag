#version 450
// Fragment-stage stores and atomics (fragmentStoresAndAtomics): one atomic
// per fragment and one plain store per pixel. Derivatives make quads with
// helper lanes, whose writes must be dropped (Vulkan 1.3 §9.4).
layout(set = 0, binding = 1) buffer Counts {
	uint fragments;
	uint helpers_wrote;
	uint vertex_seen[6];
	uint pixels[];
} counts;
layout(location = 0) out vec4 color;
void main() {
	float slope = dFdx(gl_FragCoord.x);  // needs the whole quad
	atomicAdd(counts.fragments, 1u);
	if (gl_HelperInvocation) counts.helpers_wrote = 1u;
	counts.pixels[uint(gl_FragCoord.y) * 32u + uint(gl_FragCoord.x)] += 1u;
	color = vec4(slope, 0.0, 0.0, 1.0);
}
