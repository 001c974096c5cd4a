#version 450
// The demo's vertex stage: object space to clip space, normals to world space.
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec3 in_color;  // per instance: one color per object

// 128 bytes: the most every Vulkan device accepts (maxPushConstantsSize).
layout(push_constant) uniform Transform {
	mat4 view_projection;
	mat4 model;
} transform;

layout(location = 0) out vec3 world_position;
layout(location = 1) out vec3 world_normal;
layout(location = 2) flat out vec3 base_color;

void main() {
	vec4 world = transform.model * vec4(in_position, 1.0);
	world_position = world.xyz;
	world_normal = mat3(transform.model) * in_normal;
	base_color = in_color;
	gl_Position = transform.view_projection * world;
}
