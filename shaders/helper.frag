#version 450
// gl_HelperInvocation without demotion: the caller's helper word as read.
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) buffer B {
	uint count;
};
void main() {
	o = vec4(gl_HelperInvocation ? 1.0 : 0.0);
	atomicAdd(count, 1u);
}
