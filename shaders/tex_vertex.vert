#version 450
// A texture read in the vertex stage (explicit LOD: no derivatives there):
// the vertex color is the texel at (s, t) of LOD z.
layout(set = 0, binding = 2) uniform sampler2D tex;
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 uv;
layout(location = 0) out vec4 color;
void main() {
	gl_Position = position;
	color = textureLod(tex, uv.xy, uv.z);
}
