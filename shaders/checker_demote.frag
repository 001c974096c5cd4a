#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// demote on a 4x4-pixel checkerboard: demoted fragments write nothing, the
// others write their color scaled by a derivative that reads the whole quad
// (demoted lanes still compute it, §9.x "Helper Invocations").
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 o;
void main() {
	ivec2 p = ivec2(gl_FragCoord.xy) / 4;
	if (((p.x + p.y) & 1) == 1) demote;
	float slope = abs(dFdx(gl_FragCoord.x));  // 1 everywhere: fine derivatives of x
	o = vec4(color.rgb * slope, helperInvocationEXT() ? 0.0 : 1.0);
}
