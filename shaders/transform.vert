#version 450
// Bindings in a vertex stage: a uniform buffer, push constants and a
// storage buffer written per vertex; a subgroup built-in; a data-dependent loop.
#extension GL_KHR_shader_subgroup_basic : require
layout(location = 0) in vec4 position;
layout(set = 0, binding = 0) uniform Camera {
	mat4 view_projection;
};
layout(push_constant) uniform Push {
	vec4 offset;
	uint steps;
};
layout(set = 0, binding = 1) buffer Seen {
	uint seen[];
};
layout(location = 0) flat out uint lane;
void main() {
	vec4 p = position + offset;
	for (uint i = 0; i < steps + uint(gl_VertexIndex % 3); ++i) p.w += 1.0;
	gl_Position = view_projection * p;
	seen[gl_VertexIndex] = gl_SubgroupInvocationID + 1000u;
	lane = gl_SubgroupInvocationID;
}
