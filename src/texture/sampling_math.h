// The per-coordinate steps of Vulkan 1.3 §16 "Image Operations", one
// function a step, so each rule can be tested on its own. sample.h chains
// them for batches of lanes.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cmath>
#include <cstdint>

#include "texture/sampler_state.h"

namespace tessera::texture {

// §16 "Wrapping Operation" on one integer texel coordinate. Returns a
// coordinate in [0, size) or, for clamp to border only, -1 or size (a border
// texel).
int32_t WrapTexelCoordinate(int32_t i, int32_t size, VkSamplerAddressMode mode);

// §16 "Cube Map Face and Coordinate Selection" and "Cube Map Derivative
// Selection" as data: for each face, the axis and sign giving s_c, t_c, and
// the axis of r_c with the sign of its derivative (that of |r_c|).
struct CubeAxes {
	uint8_t s_axis, t_axis, r_axis;
	float s_sign, t_sign, r_sign;
};
constexpr CubeAxes kCubeAxes[6] = {
    {2, 1, 0, -1.0f, -1.0f, 1.0f},   // +X: s = -z, t = -y
    {2, 1, 0, 1.0f, -1.0f, -1.0f},   // -X: s = +z, t = -y
    {0, 2, 1, 1.0f, 1.0f, 1.0f},     // +Y: s = +x, t = +z
    {0, 2, 1, 1.0f, -1.0f, -1.0f},   // -Y: s = +x, t = -z
    {0, 1, 2, 1.0f, -1.0f, 1.0f},    // +Z: s = +x, t = -y
    {0, 1, 2, -1.0f, -1.0f, -1.0f},  // -Z: s = -x, t = -y
};

// §16 "Cube Map Face Selection": the face (layer number 0..5), the face's
// coordinates (s_c, t_c) and |r_c|. Ties: r_z wins over r_y and r_x, r_y over
// r_x (the rule the spec recommends).
struct CubeFaceCoordinates {
	uint32_t face;
	float sc, tc, rc;  // rc = |r_c|
};
CubeFaceCoordinates SelectCubeFace(float x, float y, float z);
// §16 "Cube Map Coordinate Transformation": s_face = sc / (2|rc|) + 1/2.
inline float CubeFaceCoordinate(float c, float rc_abs) { return 0.5f * c / rc_abs + 0.5f; }

// §16 "Cube Map Derivative Selection" and §16 "Cube Map Derivative
// Transformation": derivatives of (s_face, t_face) from those of the
// direction (d = d/dx or d/dy of (r_x, r_y, r_z)).
void CubeFaceDerivatives(const CubeFaceCoordinates& c, const float d[3], float* ds_face, float* dt_face);

// §16 "Cube Map Edge Handling": the texel (i, j) of a face of size x size
// texels that lies beyond the face in exactly one of x or y, read from the
// neighbouring face. Returns false when it lies beyond both (a corner).
bool CubeNeighbourTexel(uint32_t face, int32_t i, int32_t j, int32_t size, uint32_t* out_face, int32_t* out_i,
                        int32_t* out_j);

// §16 "Scale Factor Operation": rho_x, rho_y are the lengths of the
// derivative vectors scaled by the base level's extent (within the bounds
// the spec allows: max(m) <= f <= sqrt(2) * sum(m)); rho_max is returned.
// Derivatives of unused dimensions are 0.
float ScaleFactorMax(const float dx[3], const float dy[3], const float base_extent[3]);
// rho_x and rho_y alone (the lengths ScaleFactorMax takes the larger of).
void ScaleFactors(const float dx[3], const float dy[3], const float base_extent[3], float* rho_x, float* rho_y);

// Vulkan 1.3 §16 "Scale Factor Operation, LOD Operation and Image Level(s)
// Selection" with anisotropyEnable: eta = min(rho_max / rho_min, maxAniso),
// N = ceil(eta) isotropic samples along the major axis, and
// lambda_base = log2(rho_max / eta). rho_min = 0 gives eta = maxAniso; no
// footprint at all (rho_max = 0) gives N = 1 and lambda_base = -inf.
struct AnisotropicLod {
	uint32_t samples;   // N
	float lambda_base;  // log2(rho_max / eta)
	bool x_major;       // rho_x > rho_y: the samples spread along d/dx, else along d/dy
};
AnisotropicLod Anisotropy(float rho_x, float rho_y, float max_anisotropy);

// §16 "LOD Operation": lambda' = lambda_base + clamp(bias, +-maxSamplerLodBias),
// then clamped to [lod_min, lod_max] (NaN -> lod_min).
float LodBiasAndClamp(float lambda_base, float bias, float lod_min, float lod_max);
// The biased lambda' alone (OpImageQueryLod returns it).
inline float LodBias(float lambda_base, float bias) {
	return lambda_base + std::fmin(std::fmax(bias, -kMaxSamplerLodBias), kMaxSamplerLodBias);
}

// §16 "Image Level(s) Selection", relative to the view's base level.
// d' = max(clamp(lambda, 0, q), min_level) (min_level: the view's minLod,
// VK_EXT_image_view_min_lod, relative to its base; at most q) quantized to
// mipmapPrecisionBits; NEAREST picks
// ceil(d' + 0.5) - 1 (the preferred rounding: .5 goes down); LINEAR picks
// d_hi = floor(d'), d_lo = min(d_hi + 1, q) and delta = d' - d_hi.
struct LevelSelection {
	uint32_t hi;  // the level read by NEAREST, the first level of LINEAR
	uint32_t lo;
	float delta;  // weight of lo (0 for NEAREST)
};
LevelSelection SelectLevels(float lambda, uint32_t q, VkSamplerMipmapMode mode, float min_level = 0.0f);

// §16 "(u,v,w,a) to (i,j,k,l,n) Transformation": layer: clamp(RNE(a), 0, layer_count - 1), ties to even.
uint32_t SelectArrayLayer(float a, uint32_t layer_count);

// §16 "(u,v,w,a) to (i,j,k,l,n) Transformation": LINEAR texel coordinates: i0 = floor(u - 1/2) and alpha = frac(u -
// 1/2) with subTexelPrecisionBits of fraction kept. u - 1/2 is rounded to the nearest 1/256 first, so i0 and alpha
// always agree.
struct LinearCoordinate {
	int32_t i0;
	float alpha;  // a multiple of 1/256 in [0, 1)
};
LinearCoordinate LinearTexelCoordinate(float u);
// NEAREST: i = floor(u), saturated to a range that later wrapping handles.
int32_t NearestTexelCoordinate(float u);

// VK_EXT_filter_cubic ("Texel Cubic Filtering"): the four texels
// i0 = floor(u - 3/2) .. i0 + 3 and their Catmull-Rom weights from
// alpha = frac(u - 1/2) (kept to subTexelPrecisionBits, as LINEAR's):
// 1/2 [1 a a^2 a^3] [[0 2 0 0] [-1 0 1 0] [2 -5 4 -1] [-1 3 -3 1]].
struct CubicCoordinate {
	int32_t i0;
	float weights[4];
};
CubicCoordinate CubicTexelCoordinate(float u);
// The four Catmull-Rom weights of a fraction alpha in [0, 1) (lookups and
// blits alike).
void CatmullRomWeights(float alpha, float weights[4]);

// §16 "Depth Compare Operation": 1.0 when (reference op texel) holds.
float DepthCompare(VkCompareOp op, float reference, float texel);

}  // namespace tessera::texture
