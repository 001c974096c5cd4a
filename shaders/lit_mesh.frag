#version 450
// The demo's fragment stage: a key light and a fill light, Blinn-Phong.
layout(location = 0) in vec3 world_position;
layout(location = 1) in vec3 world_normal;
layout(location = 2) flat in vec3 base_color;
layout(location = 0) out vec4 out_color;

const vec3 kEye = vec3(0.0, 1.2, 4.0);

void main() {
	vec3 n = normalize(world_normal);
	vec3 v = normalize(kEye - world_position);
	vec3 key = normalize(vec3(-0.5, 0.9, 0.6));
	vec3 fill = normalize(vec3(0.7, 0.2, -0.4));
	float diffuse = max(dot(n, key), 0.0) + 0.3 * max(dot(n, fill), 0.0);
	float specular = pow(max(dot(n, normalize(key + v)), 0.0), 48.0);
	vec3 color = base_color * (0.12 + 0.85 * diffuse) + vec3(0.35) * specular;
	out_color = vec4(color, 1.0);
}
