#include "texture/sampling_math.h"

#include <algorithm>
#include <cstdlib>

namespace tessera::texture {

namespace {

int32_t Mirror(int32_t n) { return n >= 0 ? n : -(1 + n); }

// Positive remainder (the spec's "mod").
int32_t Modulo(int32_t a, int32_t b) {
	int32_t r = a % b;
	return r < 0 ? r + b : r;
}

uint32_t CubeFaceOf(float ax, float ay, float az, bool x_negative, bool y_negative, bool z_negative) {
	if (az >= ay && az >= ax) return z_negative ? 5 : 4;
	if (ay >= ax) return y_negative ? 3 : 2;
	return x_negative ? 1 : 0;
}

}  // namespace

int32_t WrapTexelCoordinate(int32_t i, int32_t size, VkSamplerAddressMode mode) {
	switch (mode) {
	case VK_SAMPLER_ADDRESS_MODE_REPEAT: return Modulo(i, size);
	case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: return (size - 1) - Mirror(Modulo(i, 2 * size) - size);
	case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER: return std::clamp(i, -1, size);
	case VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE: return std::clamp(Mirror(i), 0, size - 1);
	case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE:
	default: return std::clamp(i, 0, size - 1);
	}
}

CubeFaceCoordinates SelectCubeFace(float x, float y, float z) {
	uint32_t face = CubeFaceOf(std::fabs(x), std::fabs(y), std::fabs(z), x < 0.0f, y < 0.0f, z < 0.0f);
	const float v[3] = {x, y, z};
	const CubeAxes& a = kCubeAxes[face];
	return {face, a.s_sign * v[a.s_axis], a.t_sign * v[a.t_axis], std::fabs(v[a.r_axis])};
}

void CubeFaceDerivatives(const CubeFaceCoordinates& c, const float d[3], float* ds_face, float* dt_face) {
	const CubeAxes& a = kCubeAxes[c.face];
	float dsc = a.s_sign * d[a.s_axis];
	float dtc = a.t_sign * d[a.t_axis];
	float drc = a.r_sign * d[a.r_axis];
	float inv = 0.5f / (c.rc * c.rc);
	*ds_face = (c.rc * dsc - c.sc * drc) * inv;
	*dt_face = (c.rc * dtc - c.tc * drc) * inv;
}

// Works on the cube [-size, size]^3 in half-texel units, where the centre of
// texel (i, j) of a face has face coordinates (2i + 1 - size, 2j + 1 - size)
// and the major axis coordinate +-size. A centre one texel beyond an edge
// folds over it onto the neighbouring face: the coordinate past the edge
// drops to +-size, the old major axis to +-(size - 1). All exact in integers.
bool CubeNeighbourTexel(uint32_t face, int32_t i, int32_t j, int32_t size, uint32_t* out_face, int32_t* out_i,
                        int32_t* out_j) {
	bool out_x = i < 0 || i >= size;
	bool out_y = j < 0 || j >= size;
	if (out_x && out_y) return false;
	if (!out_x && !out_y) {
		*out_face = face, *out_i = i, *out_j = j;
		return true;
	}
	const CubeAxes& a = kCubeAxes[face];
	int32_t v[3];
	int32_t major_sign = (face & 1) ? -1 : 1;
	v[a.r_axis] = major_sign * size;
	v[a.s_axis] = int32_t(a.s_sign) * (2 * i + 1 - size);
	v[a.t_axis] = int32_t(a.t_sign) * (2 * j + 1 - size);
	uint8_t past = out_x ? a.s_axis : a.t_axis;
	v[past] = v[past] < 0 ? -size : size;
	v[a.r_axis] = major_sign * (size - 1);
	uint32_t f =
	    CubeFaceOf(float(std::abs(v[0])), float(std::abs(v[1])), float(std::abs(v[2])), v[0] < 0, v[1] < 0, v[2] < 0);
	const CubeAxes& b = kCubeAxes[f];
	*out_face = f;
	*out_i = (int32_t(b.s_sign) * v[b.s_axis] + size - 1) / 2;
	*out_j = (int32_t(b.t_sign) * v[b.t_axis] + size - 1) / 2;
	return true;
}

float ScaleFactorMax(const float dx[3], const float dy[3], const float base_extent[3]) {
	float x2 = 0.0f, y2 = 0.0f;
	for (int c = 0; c < 3; ++c) {
		float mx = dx[c] * base_extent[c], my = dy[c] * base_extent[c];
		x2 += mx * mx;
		y2 += my * my;
	}
	return std::sqrt(std::max(x2, y2));
}

void ScaleFactors(const float dx[3], const float dy[3], const float base_extent[3], float* rho_x, float* rho_y) {
	float x2 = 0.0f, y2 = 0.0f;
	for (int c = 0; c < 3; ++c) {
		float mx = dx[c] * base_extent[c], my = dy[c] * base_extent[c];
		x2 += mx * mx;
		y2 += my * my;
	}
	*rho_x = std::sqrt(x2);
	*rho_y = std::sqrt(y2);
}

AnisotropicLod Anisotropy(float rho_x, float rho_y, float max_anisotropy) {
	AnisotropicLod a;
	a.x_major = rho_x > rho_y;
	const float rho_max = a.x_major ? rho_x : rho_y, rho_min = a.x_major ? rho_y : rho_x;
	if (!(rho_max > 0.0f) || !std::isfinite(rho_max)) {
		// No footprint (or NaN / inf derivatives): one isotropic sample.
		a.samples = 1;
		a.lambda_base = std::log2(rho_max);
		return a;
	}
	const float max_eta = std::max(max_anisotropy, 1.0f);
	const float eta = rho_min > 0.0f ? std::min(rho_max / rho_min, max_eta) : max_eta;
	a.samples = uint32_t(std::ceil(eta));
	a.lambda_base = std::log2(rho_max / eta);
	return a;
}

float LodBiasAndClamp(float lambda_base, float bias, float lod_min, float lod_max) {
	float lambda = LodBias(lambda_base, bias);
	if (lambda > lod_max) lambda = lod_max;
	return lambda >= lod_min ? lambda : lod_min;  // NaN -> lod_min
}

LevelSelection SelectLevels(float lambda, uint32_t q, VkSamplerMipmapMode mode, float min_level) {
	float d = lambda > 0.0f ? std::min(lambda, float(q)) : 0.0f;  // NaN -> 0
	d = std::max(d, min_level);
	// mipmapPrecisionBits of fraction.
	constexpr float kScale = float(1u << kMipmapPrecisionBits);
	d = std::nearbyint(d * kScale) / kScale;
	if (mode == VK_SAMPLER_MIPMAP_MODE_NEAREST) {
		uint32_t level = uint32_t(std::ceil(d + 0.5f)) - 1;
		return {level, level, 0.0f};
	}
	uint32_t hi = uint32_t(d);
	return {hi, std::min(hi + 1, q), d - float(hi)};
}

uint32_t SelectArrayLayer(float a, uint32_t layer_count) {
	float r = std::nearbyint(a);  // ties to even in the default rounding mode
	if (!(r > 0.0f)) return 0;    // NaN -> 0
	return r >= float(layer_count - 1) ? layer_count - 1 : uint32_t(r);
}

LinearCoordinate LinearTexelCoordinate(float u) {
	constexpr double kScale = double(1u << kSubTexelPrecisionBits);
	double x = std::clamp(double(u) - 0.5, -double(1 << 30), double(1 << 30));
	if (x != x) x = 0.0;
	int64_t fixed = int64_t(std::floor(x * kScale + 0.5));
	return {int32_t(fixed >> kSubTexelPrecisionBits),
	        float(fixed & ((1 << kSubTexelPrecisionBits) - 1)) / float(kScale)};
}

void CatmullRomWeights(float a, float weights[4]) {
	const float a2 = a * a, a3 = a2 * a;
	weights[0] = 0.5f * (-a + 2.0f * a2 - a3);
	weights[1] = 0.5f * (2.0f - 5.0f * a2 + 3.0f * a3);
	weights[2] = 0.5f * (a + 4.0f * a2 - 3.0f * a3);
	weights[3] = 0.5f * (a3 - a2);
}

CubicCoordinate CubicTexelCoordinate(float u) {
	const LinearCoordinate lc = LinearTexelCoordinate(u);
	CubicCoordinate c{lc.i0 - 1, {}};
	CatmullRomWeights(lc.alpha, c.weights);
	return c;
}

int32_t NearestTexelCoordinate(float u) {
	float f = std::floor(u);
	if (!(f > -float(1 << 30))) return f != f ? 0 : -(1 << 30);
	return f < float(1 << 30) ? int32_t(f) : (1 << 30);
}

float DepthCompare(VkCompareOp op, float reference, float texel) {
	bool pass;
	switch (op) {
	case VK_COMPARE_OP_LESS: pass = reference < texel; break;
	case VK_COMPARE_OP_EQUAL: pass = reference == texel; break;
	case VK_COMPARE_OP_LESS_OR_EQUAL: pass = reference <= texel; break;
	case VK_COMPARE_OP_GREATER: pass = reference > texel; break;
	case VK_COMPARE_OP_NOT_EQUAL: pass = reference != texel; break;
	case VK_COMPARE_OP_GREATER_OR_EQUAL: pass = reference >= texel; break;
	case VK_COMPARE_OP_ALWAYS: pass = true; break;
	case VK_COMPARE_OP_NEVER:
	default: pass = false; break;
	}
	return pass ? 1.0f : 0.0f;
}

}  // namespace tessera::texture
