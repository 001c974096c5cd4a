#version 450
#extension GL_ARB_fragment_shader_interlock : require
// Fragment shader interlock (VK_EXT_fragment_shader_interlock): a plain
// read-modify-write of the pixel's word in the critical section, which
// pixel_interlock_ordered runs one invocation at a time per pixel, in
// primitive order, so each word folds the primitives covering it in order
// (interlock_test.cpp). Without the interlock, two triangles' invocations
// of one pixel may read the same old value.
layout(pixel_interlock_ordered) in;
layout(set = 0, binding = 1) buffer Words { uint pixels[]; } words;
layout(location = 0) out vec4 color;
void main() {
	uint i = uint(gl_FragCoord.y) * 32u + uint(gl_FragCoord.x);
	beginInvocationInterlockARB();
	words.pixels[i] = words.pixels[i] * 31u + uint(gl_PrimitiveID) + 1u;
	endInvocationInterlockARB();
	color = vec4(1.0);
}
