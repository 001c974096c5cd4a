#version 450
// examples/textured.cpp's fragment stage: the texture, sampled with mipmaps,
// lit by one directional light and an ambient term.
layout(set = 0, binding = 0) uniform sampler2D albedo;

layout(location = 0) in vec3 world_normal;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 out_color;

void main() {
	vec3 light = normalize(vec3(-0.4, 0.8, 0.6));
	float diffuse = max(dot(normalize(world_normal), light), 0.0);
	vec3 color = texture(albedo, uv).rgb * (0.2 + 0.8 * diffuse);
	out_color = vec4(color, 1.0);
}
