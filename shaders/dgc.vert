#version 460
// The scene of device_generated_commands_test.cpp: a vertex at its attribute,
// moved by the pushed offset and a quarter of the viewport per instance; the
// pushed color, lighter per gl_DrawID, with the pushed sequence index in
// alpha.
layout(location = 0) in vec2 position;
layout(push_constant) uniform Push {
	vec4 color;
	vec2 offset;
	uint sequence;
} pc;
layout(location = 0) flat out vec4 color;
void main() {
	gl_Position = vec4(position + pc.offset + vec2(0.25 * float(gl_InstanceIndex), 0.0), 0.0, 1.0);
	color = vec4(pc.color.r, pc.color.g + 0.125 * float(gl_DrawID), pc.color.b, float(pc.sequence + 1u) / 255.0);
}
