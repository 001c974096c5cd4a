#version 450
// texelFetch at the fragment's pixel (wrapped to the level) of level z.
layout(set = 0, binding = 2) uniform sampler2D tex;
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 out_color;
void main() {
	int lod = int(uv.z);
	ivec2 size = textureSize(tex, lod);
	out_color = texelFetch(tex, ivec2(gl_FragCoord.xy) % size, lod);
}
