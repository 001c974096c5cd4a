#version 450
// The primitive's ID as a color (transform_feedback_test.cpp): red and
// green its two low bytes from the flat input, blue the low byte of
// gl_PrimitiveID; exact in an 8-bit UNORM target.
layout(location = 0) flat in int id;
layout(location = 0) out vec4 color;

void main() {
	color = vec4(float(id % 256) / 255.0, float(id / 256 % 256) / 255.0, float(gl_PrimitiveID % 256) / 255.0, 1.0);
}
