#version 450
// VK_KHR_workgroup_memory_explicit_layout (GL_EXT_shared_memory_block):
// four Workgroup blocks, one storage. Each invocation i of a 64-wide
// workgroup stores word i through Words, then (after a barrier) reads other
// invocations' words as bytes and halves; then it overwrites byte 4i + 1
// through Bytes and half 2i + 1 through Halves and, after a second barrier,
// reads whole words again. Out.v[i * 6 + k] (groups one after another):
//   k = 0: Bytes.b[(4i + 5) % 256]     k = 1: Halves.h[(2i + 3) % 128]
//   k = 2: Words.w[63 - i]             k = 3: Words.w[(i + 1) % 64] afterwards
//   k = 4: Tail.t[i % 4].y (structs laid out from byte 260, past the
//          words), written by invocation (i % 4) ^ 1
//   k = 5: Words.w[i] at the end (the Tail writes lie past it)
#extension GL_EXT_shared_memory_block : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x = 64) in;

layout(std430) shared Words { uint w[64]; } words;
layout(std430) shared Bytes { uint8_t b[256]; } bytes;
layout(std430) shared Halves { uint16_t h[128]; } halves;
struct Pair { uint x, y; };
layout(std430) shared Tail { layout(offset = 260) Pair t[4]; } tail;

layout(set = 0, binding = 0) buffer Out { uint v[]; };

void main() {
	uint i = gl_LocalInvocationIndex;
	uint base = gl_WorkGroupID.x * 64u * 6u + i * 6u;
	words.w[i] = i * 0x01020304u + 0x00112233u + gl_WorkGroupID.x;
	barrier();
	v[base + 0u] = uint(bytes.b[(4u * i + 5u) % 256u]);
	v[base + 1u] = uint(halves.h[(2u * i + 3u) % 128u]);
	v[base + 2u] = words.w[63u - i];
	barrier();
	bytes.b[4u * i + 1u] = uint8_t(i);
	halves.h[2u * i + 1u] = uint16_t(0xbeefu);
	barrier();
	v[base + 3u] = words.w[(i + 1u) % 64u];
	barrier();
	if (i < 4u) tail.t[i ^ 1u].y = 1000u + i;
	barrier();
	v[base + 4u] = tail.t[i % 4u].y;
	v[base + 5u] = words.w[i];
}
