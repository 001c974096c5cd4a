#version 450
// A cube array storage image (2 cubes of 4x4): loads and stores address
// (x, y, layer * 6 + face), three coordinates.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 12) in;
layout(set = 0, binding = 0) buffer Out { uvec4 loaded[192]; } o;
layout(set = 0, binding = 1, rgba8ui) uniform uimageCubeArray cubes;  // 4x4, 12 faces, RGBA8_UINT

void main() {
	ivec3 p = ivec3(gl_GlobalInvocationID);
	uvec4 v = imageLoad(cubes, p);
	o.loaded[(p.z * 4 + p.y) * 4 + p.x] = v;
	barrier();
	// (v & 127) + z: no value past 255, where conversion is undefined.
	imageStore(cubes, ivec3(3 - p.x, p.y, 11 - p.z), (v.yzwx & 127u) + uvec4(p.z));
}
