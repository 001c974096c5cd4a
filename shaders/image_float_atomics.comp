#version 450
// VK_EXT_shader_atomic_float(2) on R32_SFLOAT storage images: imageAtomicAdd
// into a 4x4 image, imageAtomicMin / Max into the two rows of a 4x2 one, and
// imageAtomicExchange. The values are small integers and halves, so every
// order of the adds gives the same sums exactly.
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) buffer Out { float exchanged_old[256]; } o;
layout(set = 0, binding = 1, r32f) uniform image2D sums;      // 4x4
layout(set = 0, binding = 2, r32f) uniform image2D extremes;  // 4x2: minimums, then maximums
layout(set = 0, binding = 3, r32f) uniform image2D swapped;   // 1x1
void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	int index = p.y * 16 + p.x;
	float v = float((index * 7) % 13) - 6.0;
	imageAtomicAdd(sums, p % 4, v);
	imageAtomicMin(extremes, ivec2(index % 4, 0), v * 0.5 + float(index % 5));
	imageAtomicMax(extremes, ivec2(index % 4, 1), v * 0.5 - float(index % 3));
	o.exchanged_old[index] = imageAtomicExchange(swapped, ivec2(0), float(index));
}
