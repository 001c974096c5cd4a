#version 450
// A full-screen quad drawn as a receding plane (w from 1 at the bottom to 8
// at the top) without vertex buffers: vertex i of 6 is a corner; (s, t) is
// affine on the plane: 8 repeats across the near edge, 16 along (texture benchmarks).
layout(location = 0) out vec4 uv;
void main() {
	const vec2 corners[6] = vec2[](vec2(-1, 1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(1, -1), vec2(-1, -1));
	vec2 c = corners[gl_VertexIndex];
	float w = c.y > 0.0 ? 1.0 : 8.0;
	gl_Position = vec4(c * w, 0.5, w);
	// s follows the world x (clip x), so (s, t) is affine on the plane.
	uv = vec4((c.x * w * 0.5 + 0.5) * 8.0, (0.5 - c.y * 0.5) * 16.0, 0.0, 0.0);
}
