#version 450
// A per-vertex position and a per-instance attribute: (x, y) offset and a
// color (z, w).
layout(location = 0) in vec4 position;
layout(location = 2) in vec4 per_instance;
layout(location = 0) out vec4 color;
void main() {
	gl_Position = position + vec4(per_instance.xy, 0.0, 0.0);
	color = vec4(per_instance.zw, float(gl_InstanceIndex) / 8.0, 1.0);
}
