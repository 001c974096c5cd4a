#version 450
#extension GL_ARB_shader_viewport_layer_array : require
// Layered rendering from the vertex stage (shaderOutputLayer): instance i
// draws its triangle into layer i, moved right by 0.6 per layer.
void main() {
	const vec2 corners[3] = vec2[](vec2(-0.9, -0.9), vec2(-0.1, -0.9), vec2(-0.9, -0.1));
	gl_Position = vec4(corners[gl_VertexIndex] + vec2(0.6 * float(gl_InstanceIndex), 0.0), 0.0, 1.0);
	gl_Layer = gl_InstanceIndex;
}
