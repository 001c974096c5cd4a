#version 450
// One atomic per fragment and one store per pixel, with no early fragment
// tests: the layout of store_counts.frag, without its helper-lane checks
// (lavapipe 22.3 cannot compile gl_HelperInvocation with a depth attachment).
layout(set = 0, binding = 1) buffer Counts {
	uint fragments;
	uint helpers_wrote;
	uint vertex_seen[6];
	uint pixels[];
} counts;
layout(location = 0) out vec4 color;
void main() {
	atomicAdd(counts.fragments, 1u);
	atomicAdd(counts.pixels[uint(gl_FragCoord.y) * 32u + uint(gl_FragCoord.x)], 1u);
	color = vec4(0.25, 0.5, 1.0, 1.0);
}
