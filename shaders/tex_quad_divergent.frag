#version 450
// quadDivergentImplicitLod: tex_implicit.frag through an array of two
// combined image samplers, the element alternating pixel by pixel (a
// checkerboard), so that every quad's lanes use both descriptors.
#extension GL_EXT_nonuniform_qualifier : require
layout(set = 0, binding = 2) uniform sampler2D tex[2];
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 out_color;
void main() {
	const int element = (int(gl_FragCoord.x) + int(gl_FragCoord.y)) & 1;
	out_color = texture(tex[nonuniformEXT(element)], uv.xy);
}
