#version 460
// The draw's vertex numbering as a flat varying: gl_VertexIndex,
// gl_InstanceIndex, gl_BaseVertex, gl_BaseInstance, gl_DrawID. Each
// instance is moved right by a quarter of the viewport.
layout(location = 0) in vec4 position;
layout(location = 0) flat out ivec4 ids;
layout(location = 1) flat out int draw_id;
void main() {
	gl_Position = position + vec4(0.25 * float(gl_InstanceIndex), 0.0, 0.0, 0.0);
	ids = ivec4(gl_VertexIndex, gl_InstanceIndex, gl_BaseVertex, gl_BaseInstance);
	draw_id = gl_DrawID;
}
