#version 450
// Subgroup data movement of 64-bit values: broadcasts and shuffles move
// both words of uint64_t and double.
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint64_t x[64]; double d[64]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint64_t o[]; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	o[i * 4u + 0u] = subgroupBroadcast(x[i], 3u);
	o[i * 4u + 1u] = subgroupShuffleXor(x[i], 1u);
	o[i * 4u + 2u] = doubleBitsToUint64(subgroupShuffle(d[i], (i + 5u) & 31u));
	o[i * 4u + 3u] = doubleBitsToUint64(subgroupBroadcastFirst(d[i]));
}
