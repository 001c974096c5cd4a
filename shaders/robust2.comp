#version 450
// VK_EXT_robustness2: scalar reads at and past the end of a descriptor's
// range, reads of null descriptors, and stores and atomics past the end.
// Invocation i writes five results: u[i].x, u[i].w, s[i], n[i].z and the
// null image's texel i; its store to the null image is dropped.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform U { uvec4 u[16]; };    // bound with a short range
layout(set = 0, binding = 1) readonly buffer S { uint s[]; };  // bound with a short range
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };
layout(set = 0, binding = 3) uniform N { uvec4 n[4]; };     // a null descriptor
layout(set = 0, binding = 4, r32ui) uniform uimage2D img;  // a null descriptor
layout(set = 0, binding = 5) buffer W { uint w[]; };        // bound with a short range

void main() {
	uint i = gl_GlobalInvocationID.x;
	o[i * 5 + 0] = u[i].x;
	o[i * 5 + 1] = u[i].w;
	o[i * 5 + 2] = s[i];
	o[i * 5 + 3] = n[i & 3].z;
	o[i * 5 + 4] = imageLoad(img, ivec2(i, 0)).x;
	imageStore(img, ivec2(i, 0), uvec4(i));  // dropped
	w[i] = 1000 + i;
	atomicAdd(w[16 + i], 1);
}
