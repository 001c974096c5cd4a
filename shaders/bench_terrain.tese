#version 450
// Tessellated terrain (bench/draw_bench.cpp): the cell's corners
// interpolated, then rippled as the sheet is, lit by lit_mesh.frag.
layout(quads, equal_spacing, ccw) in;
layout(push_constant) uniform Transform {
	mat4 view_projection;
	mat4 model;
} transform;
layout(location = 0) in vec3 position[];
layout(location = 1) patch in vec3 patch_color;
layout(location = 0) out vec3 world_position;
layout(location = 1) out vec3 world_normal;
layout(location = 2) flat out vec3 base_color;

void main() {
	vec2 t = gl_TessCoord.xy;
	vec3 p = mix(mix(position[0], position[1], t.x), mix(position[2], position[3], t.x), t.y);
	p.y = 0.15 * sin(3.0 * p.x) * cos(3.0 * p.z);
	float dx = 0.45 * cos(3.0 * p.x) * cos(3.0 * p.z), dz = -0.45 * sin(3.0 * p.x) * sin(3.0 * p.z);
	vec4 world = transform.model * vec4(p, 1.0);
	world_position = world.xyz;
	world_normal = mat3(transform.model) * normalize(vec3(-dx, 1.0, -dz));
	base_color = patch_color;
	gl_Position = transform.view_projection * world;
}
