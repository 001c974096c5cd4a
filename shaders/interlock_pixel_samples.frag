#version 450
#extension GL_ARB_fragment_shader_interlock : require
// interlock_pixel.frag run once a covered sample (it reads gl_SampleID):
// pixel interlock keeps a pixel's sample invocations apart too, so each
// covered sample of each primitive folds in once.
layout(pixel_interlock_ordered) in;
layout(set = 0, binding = 1) buffer Words { uint pixels[]; } words;
layout(location = 0) out vec4 color;
void main() {
	uint i = uint(gl_FragCoord.y) * 32u + uint(gl_FragCoord.x);
	beginInvocationInterlockARB();
	words.pixels[i] = words.pixels[i] * 31u + uint(gl_PrimitiveID) + 1u;
	endInvocationInterlockARB();
	color = vec4(float(gl_SampleID));
}
