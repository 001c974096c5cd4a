#version 450
// Subgroup arithmetic on float16_t (shaderSubgroupExtendedTypes): every
// operation, reduce, inclusive and exclusive scan, and one in divergent
// control flow (clustered ones: subgroup_clustered.comp, which lavapipe
// lacks). Output k of invocation i at dst[i * 13 + k].
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float16_t v[]; } src;  // x at 2i, m at 2i + 1
layout(binding = 1) buffer Out { float16_t v[]; } dst;

void main() {
	uint i = gl_GlobalInvocationID.x;
	float16_t x = src.v[2 * i], m = src.v[2 * i + 1];
	uint o = i * 13u;
	dst.v[o + 0] = subgroupAdd(x);
	dst.v[o + 1] = subgroupMul(m);
	dst.v[o + 2] = subgroupMin(x);
	dst.v[o + 3] = subgroupMax(x);
	dst.v[o + 4] = subgroupInclusiveAdd(x);
	dst.v[o + 5] = subgroupExclusiveAdd(x);
	dst.v[o + 6] = subgroupInclusiveMul(m);
	dst.v[o + 7] = subgroupExclusiveMul(m);
	dst.v[o + 8] = subgroupExclusiveMin(x);
	dst.v[o + 9] = subgroupExclusiveMax(x);
	if (x > float16_t(0)) dst.v[o + 10] = subgroupAdd(x);
	f16vec2 pair = subgroupAdd(f16vec2(x, m));
	dst.v[o + 11] = pair.x;
	dst.v[o + 12] = pair.y;
}
