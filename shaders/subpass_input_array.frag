#version 450
// An array of two input attachments indexed dynamically: by a push constant
// (dynamically uniform: shaderInputAttachmentArrayDynamicIndexing) and by
// the pixel's parity (nonuniformEXT: shaderInputAttachmentArrayNonUniformIndexing).
#extension GL_EXT_nonuniform_qualifier : require
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput inputs[2];
layout(push_constant) uniform Push { uint index; } p;
layout(location = 0) out vec4 color;

void main() {
	ivec2 pixel = ivec2(gl_FragCoord.xy);
	uint parity = uint(pixel.x + pixel.y) & 1u;
	vec4 uniform_read = subpassLoad(inputs[p.index]);
	vec4 lane_read = subpassLoad(inputs[nonuniformEXT(parity)]);
	color = vec4(uniform_read.rg, lane_read.rg);
}
