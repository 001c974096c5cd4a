#version 450
// f16vec2 values packed into a uint by OpBitcast: computed ones and
// constants (an OpConstantComposite of float16 constants), as the CTS's fp16
// precision tests write their results; and a constant one read as a float
// (uintBitsToFloat), which SPIRV-Tools 2023.1 folds into a malformed float
// constant (HasMalformedConstants).
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer In { float v[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
layout(set = 0, binding = 2) buffer OutFloat { float f[]; };

void main() {
	uint i = gl_LocalInvocationID.x;
	float16_t h = float16_t(v[i]);
	o[i] = packFloat2x16(f16vec2(h, float16_t(-1.0)));
	o[4u + i] = packFloat2x16(f16vec2(0.0, float16_t(-1.0)));
	o[8u + i] = packFloat2x16(f16vec2(float16_t(0.5), float16_t(-2.0)));
	if (h == float16_t(-0.0)) o[12u + i] = packFloat2x16(f16vec2(0.0, float16_t(-1.0)));
	else o[12u + i] = 7u;
	f[i] = uintBitsToFloat(packFloat2x16(f16vec2(0.0, float16_t(-1.0))));
	f[4u + i] = uintBitsToFloat(packFloat2x16(f16vec2(h, float16_t(-1.0))));
	if (h == float16_t(-0.0)) f[4u + i] = uintBitsToFloat(packFloat2x16(f16vec2(0.0, float16_t(-1.0))));
}
