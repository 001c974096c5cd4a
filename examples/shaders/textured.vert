#version 450
// examples/textured.cpp's vertex stage: object to clip space; the normal and
// texture coordinates pass through to the fragment stage.
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;

layout(push_constant) uniform Transform {
	mat4 view_projection;
	mat4 model;
} transform;

layout(location = 0) out vec3 world_normal;
layout(location = 1) out vec2 uv;

void main() {
	world_normal = mat3(transform.model) * in_normal;
	uv = in_uv;
	gl_Position = transform.view_projection * transform.model * vec4(in_position, 1.0);
}
