#version 450
// Reads and writes through a device address taken from push constants. The
// e2e test passes an address that is no allocation of the device: Tessera
// drops those accesses (loads read 0) instead of touching host memory.
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 4) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint w[]; };
layout(push_constant) uniform Params { Words target; };
layout(set = 0, binding = 0) buffer Out { uint o[]; };

void main() {
	uint i = gl_LocalInvocationID.x;
	o[i] = target.w[i] + 1u;
	target.w[i] = 77u;
	atomicAdd(target.w[0], 1u);
}
