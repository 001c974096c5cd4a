#version 450
// One triangle over part of the viewport, its edges across several sparse
// blocks of the target (tests/e2e/sparse_image_test.cpp).
void main() {
	const vec2 corners[3] = vec2[3](vec2(-0.9, -0.8), vec2(0.95, -0.3), vec2(-0.2, 0.9));
	gl_Position = vec4(corners[gl_VertexIndex % 3], 0.0, 1.0);
}
