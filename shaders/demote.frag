#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// Demotion: the lane goes on as a helper (derivatives still see it), its
// buffer stores and atomics are dropped, helperInvocationEXT() reads true.
layout(location = 0) in float v;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) buffer B {
	uint count;
	uint data[];
};
void main() {
	uint lane = uint(gl_FragCoord.x);
	if (v < 0.0) demote;
	data[lane] = helperInvocationEXT() ? 2u : 1u;
	atomicAdd(count, 1u);
	o = vec4(dFdx(v), helperInvocationEXT() ? 1.0 : 0.0, gl_HelperInvocation ? 1.0 : 0.0, 0.0);
}
