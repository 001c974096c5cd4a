#version 450
#extension GL_EXT_terminate_invocation : require
// terminateInvocation on a 4x4-pixel checkerboard: those fragments stop and
// write nothing.
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 o;
void main() {
	o = vec4(1.0, 0.0, 1.0, 1.0);
	ivec2 p = ivec2(gl_FragCoord.xy) / 4;
	if (((p.x + p.y) & 1) == 1) terminateInvocation;
	o = color;
}
