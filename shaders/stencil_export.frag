#version 450
// VK_EXT_shader_stencil_export: each fragment's stencil reference from its
// position (gl_FragStencilRefARB; only the low 8 bits count), 0 on odd
// columns when push constant `odd_zero` is set.
#extension GL_ARB_shader_stencil_export : require
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 o;
layout(push_constant) uniform Push { uint odd_zero; };
void main() {
	ivec2 p = ivec2(gl_FragCoord.xy);
	int reference = p.x * 7 + p.y * 3 + 0x300;  // above 255: masked to 8 bits
	gl_FragStencilRefARB = (odd_zero != 0u && (p.x & 1) != 0) ? 0 : reference;
	o = vec4(color.rgb, 1.0);
}
