#version 450
// gl_SamplePosition named but never read: it is still in the entry point's
// interface, so the shader runs per sample.
layout(location = 0) out vec4 color;

void main() {
	gl_SamplePosition;
	color = vec4(1.0);
}
