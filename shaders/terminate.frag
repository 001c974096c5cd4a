#version 450
#extension GL_EXT_terminate_invocation : require
layout(location = 0) in float v;
layout(location = 0) out vec4 o;
void main() {
	o = vec4(1.0);
	if (v < 0.0) terminateInvocation;
	o = vec4(v);
}
