#version 450
// Clustered subgroup reductions (GroupNonUniformClustered) on 8/16/32/64-bit
// integers and 16/32/64-bit floats. Each invocation reads one int64_t and one
// double and narrows them; results are widened back: 16 integer outputs at
// iout[i * 16 + k], 9 float outputs at fout[i * 9 + k].
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Ints { int64_t v[]; } ints;
layout(binding = 1) readonly buffer Floats { double v[]; } floats;
layout(binding = 2) buffer IntOut { int64_t v[]; } iout;
layout(binding = 3) buffer FloatOut { double v[]; } fout;

#define INT_CASES(T, U, k) \
	iout.v[o + k] = int64_t(subgroupClusteredAdd(T(x), 4u)); \
	iout.v[o + k + 1] = int64_t(subgroupClusteredMax(T(x), 8u)); \
	iout.v[o + k + 2] = int64_t(T(subgroupClusteredMin(U(x), 2u))); \
	iout.v[o + k + 3] = int64_t(subgroupClusteredXor(T(x), 16u));
#define FLOAT_CASES(T, k) \
	fout.v[p + k] = double(subgroupClusteredAdd(T(y), 4u)); \
	fout.v[p + k + 1] = double(subgroupClusteredMul(T(y), 2u)); \
	fout.v[p + k + 2] = double(subgroupClusteredMin(T(y), 8u));

void main() {
	uint i = gl_GlobalInvocationID.x;
	int64_t x = ints.v[i];
	double y = floats.v[i];
	uint o = i * 16u, p = i * 9u;
	INT_CASES(int8_t, uint8_t, 0)
	INT_CASES(int16_t, uint16_t, 4)
	INT_CASES(int, uint, 8)
	INT_CASES(int64_t, uint64_t, 12)
	FLOAT_CASES(float16_t, 0)
	FLOAT_CASES(float, 3)
	FLOAT_CASES(double, 6)
}
