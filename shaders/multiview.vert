#version 450
#extension GL_EXT_multiview : require
// A small triangle in the lower left, moved right by 0.3 per view
// (gl_ViewIndex) and up by 0.95 per instance, so that each layer of a
// multiview pass shows which view drew it and which draw.
void main() {
	const vec2 corners[3] = vec2[](vec2(-0.9, -0.9), vec2(-0.1, -0.9), vec2(-0.9, -0.1));
	vec2 offset = vec2(0.3 * float(gl_ViewIndex), 0.95 * float(gl_InstanceIndex));
	gl_Position = vec4(corners[gl_VertexIndex] + offset, 0.0, 1.0);
}
