#version 450
// Vertex-stage stores: each vertex records that it ran (vertexPipelineStoresAndAtomics).
layout(location = 0) in vec2 position;
layout(set = 0, binding = 1) buffer Counts {
	uint fragments;       // fragments shaded (atomic)
	uint helpers_wrote;   // must stay 0: helper invocations never write
	uint vertex_seen[6];  // per gl_VertexIndex
	uint pixels[];        // per pixel: fragments shaded there
} counts;
void main() {
	atomicAdd(counts.vertex_seen[gl_VertexIndex], 1u);
	gl_Position = vec4(position, 0.0, 1.0);
}
