#version 450
// interpolateAtOffset of an input array element picked per pixel (the CTS's
// multisample_interpolation.nonuniform_interpolant_indexing.offset): each
// lane's result follows its own element's gradient, although the lanes of
// a quad pick different elements (tests/unit/shader/stage_test.cpp).
layout(location = 0) in float v[4];
layout(location = 0) out vec4 result;
void main() {
	int index = int(gl_FragCoord.x) % 4;
	result = vec4(interpolateAtOffset(v[index], vec2(0.5, -0.25)), float(index), 0.0, 1.0);
}
