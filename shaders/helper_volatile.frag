#version 460
#extension GL_EXT_demote_to_helper_invocation : require
// SPIR-V 1.6: HelperInvocation is Volatile, so a read after demotion sees the
// lane turned helper, though the same variable was read before it.
layout(location = 0) in float v;
layout(location = 0) out vec4 o;
void main() {
	float before = gl_HelperInvocation ? 1.0 : 0.0;
	if (v < 0.0) demote;
	float after = gl_HelperInvocation ? 1.0 : 0.0;
	o = vec4(before, after, 0.0, 0.0);
}
