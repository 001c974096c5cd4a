#version 450
// Subgroup arithmetic on int16_t and uint16_t (shaderSubgroupExtendedTypes):
// every operation, reduce, inclusive and exclusive scan, and one in divergent
// control flow (clustered ones: subgroup_clustered.comp, which lavapipe
// lacks). Output k of invocation i at dst[i * 18 + k].
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { int16_t v[]; } src;
layout(binding = 1) buffer Out { int16_t v[]; } dst;

void main() {
	uint i = gl_GlobalInvocationID.x;
	int16_t x = src.v[i];
	uint16_t u = uint16_t(x);
	uint o = i * 18u;
	dst.v[o + 0] = subgroupAdd(x);
	dst.v[o + 1] = subgroupMul(x);
	dst.v[o + 2] = subgroupMin(x);
	dst.v[o + 3] = subgroupMax(x);
	dst.v[o + 4] = int16_t(subgroupMin(u));
	dst.v[o + 5] = int16_t(subgroupMax(u));
	dst.v[o + 6] = subgroupAnd(x);
	dst.v[o + 7] = subgroupOr(x);
	dst.v[o + 8] = subgroupXor(x);
	dst.v[o + 9] = subgroupInclusiveAdd(x);
	dst.v[o + 10] = subgroupExclusiveAdd(x);
	dst.v[o + 11] = subgroupInclusiveMin(x);
	dst.v[o + 12] = subgroupExclusiveMax(x);
	dst.v[o + 13] = int16_t(subgroupExclusiveMin(u));
	dst.v[o + 14] = subgroupExclusiveMul(x);
	if ((x & int16_t(3)) != int16_t(0)) dst.v[o + 15] = subgroupAdd(x);
	i16vec2 pair = subgroupInclusiveMax(i16vec2(x, -x));
	dst.v[o + 16] = pair.x;
	dst.v[o + 17] = pair.y;
}
