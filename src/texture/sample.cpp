#include "texture/sample.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "texture/resolve.h"
#include "texture/sample_fast.h"
#include "texture/sampling_math.h"

namespace tessera::texture {

namespace {

TexelValue ReadColor(const SampledImage& image, const uint8_t* texel) { return UnpackTexel(*image.format, texel); }

// 8-bit UNORM, SNORM and sRGB components through 256-entry tables.
TexelValue ReadBytes(const SampledImage& image, const uint8_t* texel) {
	TexelValue v = image.defaults;
	for (uint32_t c = 0; c < image.component_count; ++c)
		v.f[image.component_slot[c]] = image.component_table[c][texel[image.component_offset[c]]];
	return v;
}

// 32-bit SFLOAT, UINT and SINT components are their own bits.
TexelValue ReadWords(const SampledImage& image, const uint8_t* texel) {
	TexelValue v = image.defaults;
	for (uint32_t c = 0; c < image.component_count; ++c)
		std::memcpy(&v.u[image.component_slot[c]], texel + image.component_offset[c], 4);
	return v;
}

// 16-bit SFLOAT components (RGBA16F environment maps and render targets),
// each HalfToFloat's value as UnpackTexel gives it (HalfToFloatFast: lookups
// run on the queue and pool threads, whose MXCSR keeps subnormals).
TexelValue ReadHalves(const SampledImage& image, const uint8_t* texel) {
	TexelValue v = image.defaults;
	for (uint32_t c = 0; c < image.component_count; ++c) {
		uint16_t half;
		std::memcpy(&half, texel + image.component_offset[c], 2);
		v.f[image.component_slot[c]] = HalfToFloatFast(half);
	}
	return v;
}

// Decode tables made by UnpackTexel itself, so the values are the same.
using ByteTable = std::array<float, 256>;
ByteTable MakeByteTable(VkFormat format) {
	ByteTable table;
	for (uint32_t b = 0; b < 256; ++b) {
		const uint8_t byte = uint8_t(b);
		table[b] = UnpackTexel(*FindFormat(format), &byte).f[0];
	}
	return table;
}
const float* ByteTableFor(NumericFormat numeric, int slot) {
	static const ByteTable unorm = MakeByteTable(VK_FORMAT_R8_UNORM);
	static const ByteTable snorm = MakeByteTable(VK_FORMAT_R8_SNORM);
	static const ByteTable srgb = MakeByteTable(VK_FORMAT_R8_SRGB);
	switch (numeric) {
	case NumericFormat::UNORM: return unorm.data();
	case NumericFormat::SNORM: return snorm.data();
	case NumericFormat::SRGB: return slot == 3 ? unorm.data() : srgb.data();  // sRGB alpha is UNORM
	default: return nullptr;
	}
}

int ComponentSlot(char name) {
	switch (name) {
	case 'R': return 0;
	case 'G': return 1;
	case 'B': return 2;
	case 'A': return 3;
	default: return -1;
	}
}

// Picks ReadBytes, ReadWords or ReadHalves when every component of the
// format fits one.
void ChooseColorReader(const FormatInfo& format, SampledImage* out) {
	out->read = ReadColor;
	if (format.Has64BitComponents() || format.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32 ||
	    format.component_count == 0 || format.component_count > 4)
		return;
	bool bytes = true, words = true, halves = true;
	for (uint32_t c = 0; c < format.component_count; ++c) {
		const FormatComponent& comp = format.components[c];
		const int slot = ComponentSlot(comp.name);
		if (slot < 0 || comp.offset % 8 != 0) return;
		bytes &= comp.bits == 8 && ByteTableFor(comp.numeric, slot) != nullptr;
		words &= comp.bits == 32 && (comp.numeric == NumericFormat::SFLOAT || comp.numeric == NumericFormat::UINT ||
		                             comp.numeric == NumericFormat::SINT);
		halves &= comp.bits == 16 && comp.numeric == NumericFormat::SFLOAT;
		out->component_offset[c] = uint8_t(comp.offset / 8);
		out->component_slot[c] = uint8_t(slot);
		out->component_table[c] = bytes ? ByteTableFor(comp.numeric, slot) : nullptr;
	}
	if (!bytes && !words && !halves) return;
	out->component_count = format.component_count;
	out->defaults = TexelValue{};
	if (out->integer)
		out->defaults.u[3] = 1;
	else
		out->defaults.f[3] = 1.0f;
	out->read = bytes ? ReadBytes : words ? ReadWords : ReadHalves;
}

// §16 "Component Substitution": depth reads as (D, 0, 0, 1), stencil as
// (S, 0, 0, 1).
TexelValue ReadDepth(const SampledImage& image, const uint8_t* texel) {
	TexelValue v{};
	v.f[0] = UnpackDepth(image.format->format, texel);
	v.f[3] = 1.0f;
	return v;
}
TexelValue ReadStencil(const SampledImage&, const uint8_t* texel) {
	TexelValue v{};
	v.u[0] = *texel;
	v.u[3] = 1;
	return v;
}

// §16 "Border Replacement": B from the table, written into the components
// the format has; the others keep their substitution (0, 0, 0, 1). The view's
// swizzle applies afterwards, as to any texel. A custom border color
// (VK_EXT_custom_border_color) is B = U exactly as given, with or without
// VkSamplerCustomBorderColorCreateInfoEXT::format (the spec allows rounding
// to the format, it does not require it); a stencil aspect takes S = B_r, the
// replacement the spec recommends.
TexelValue BorderTexel(const SamplerState& sampler, const FormatInfo& format, VkImageAspectFlagBits aspect,
                       bool integer) {
	float b[4] = {0.0f, 0.0f, 0.0f, 0.0f};
	switch (sampler.border_color) {
	case VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK:
	case VK_BORDER_COLOR_INT_OPAQUE_BLACK: b[3] = 1.0f; break;
	case VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE:
	case VK_BORDER_COLOR_INT_OPAQUE_WHITE: b[0] = b[1] = b[2] = b[3] = 1.0f; break;
	default: break;
	}
	const bool custom_float = sampler.border_color == VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
	const bool custom_int = sampler.border_color == VK_BORDER_COLOR_INT_CUSTOM_EXT;
	bool present[4] = {false, false, false, false};
	if (aspect != VK_IMAGE_ASPECT_DEPTH_BIT && aspect != VK_IMAGE_ASPECT_STENCIL_BIT) {  // color, or a plane
		const char kNames[4] = {'R', 'G', 'B', 'A'};
		for (int c = 0; c < 4; ++c) present[c] = format.Find(kNames[c]) != nullptr;
	} else {
		present[0] = true;  // D = B_r, S = B_r
	}
	TexelValue v{};
	for (int c = 0; c < 4; ++c) {
		if (present[c] && (custom_float || custom_int)) {
			// A float border on an integer view (or the reverse) is invalid
			// use (§16 "Instruction/Format/Sampler/Image View Validation");
			// the bits are passed through.
			v.u[c] = sampler.custom_border.uint32[c];
			continue;
		}
		float value = present[c] ? b[c] : (c == 3 ? 1.0f : 0.0f);
		if (integer)
			v.u[c] = uint32_t(value);
		else
			v.f[c] = value;
	}
	return v;
}

TexelValue Swizzle(const SampledImage& image, const TexelValue& v) {
	if (image.identity_swizzle) return v;
	TexelValue out;
	for (int c = 0; c < 4; ++c) {
		uint8_t s = image.swizzle[c];
		out.u[c] = s < 4 ? v.u[s] : s == 5 ? image.one.u[c] : 0u;
	}
	return out;
}

const uint8_t* TexelAddress(const SampledImage& image, const PreparedLevel& level, uint32_t layer, int32_t i, int32_t j,
                            int32_t k, uint32_t sample = 0) {
	if (level.tile_shift)
		return level.base + layer * level.array_pitch + uint64_t(k) * level.depth_pitch + TexelOffset(level, i, j);
	return level.base + layer * level.array_pitch + uint64_t(k) * level.depth_pitch + uint64_t(j) * level.row_pitch +
	       (uint64_t(i) * image.samples + sample) * level.element_size;
}

// The per-lane coordinates after the cube map and layer steps.
struct LaneCoordinates {
	float stu[3];       // normalized (or, unnormalized, texel) coordinates
	uint32_t layer;     // array layer relative to the view (for cubes: 6 * cube)
	uint32_t face;      // cube face, 0 otherwise
	float lambda;       // lambda after bias and clamp
	float lambda_bias;  // lambda' (before the clamp), for QueryLod
	// Anisotropic filtering: N samples spread along this derivative (in
	// coordinate units: the major axis's d/dx or d/dy), 1 when isotropic.
	uint32_t aniso_samples = 1;
	float aniso_axis[3];
};

float LaneValue(const float* array, uint32_t lane, float fallback = 0.0f) { return array ? array[lane] : fallback; }

LaneCoordinates ResolveLane(const SampledImage& image, const SampleLanes& lanes, uint32_t lane, bool need_lod) {
	LaneCoordinates c{};
	const uint32_t dims = image.dimensions;
	float dx[3] = {0.0f, 0.0f, 0.0f}, dy[3] = {0.0f, 0.0f, 0.0f};
	const bool grad = !lanes.lod && lanes.ddx[0];
	if (image.cube) {
		CubeFaceCoordinates f = SelectCubeFace(LaneValue(lanes.coord[0], lane), LaneValue(lanes.coord[1], lane),
		                                       LaneValue(lanes.coord[2], lane));
		c.face = f.face;
		c.stu[0] = CubeFaceCoordinate(f.sc, f.rc);
		c.stu[1] = CubeFaceCoordinate(f.tc, f.rc);
		if (need_lod && grad) {
			const float gx[3] = {LaneValue(lanes.ddx[0], lane), LaneValue(lanes.ddx[1], lane),
			                     LaneValue(lanes.ddx[2], lane)};
			const float gy[3] = {LaneValue(lanes.ddy[0], lane), LaneValue(lanes.ddy[1], lane),
			                     LaneValue(lanes.ddy[2], lane)};
			CubeFaceDerivatives(f, gx, &dx[0], &dx[1]);
			CubeFaceDerivatives(f, gy, &dy[0], &dy[1]);
		}
		if (image.arrayed) c.layer = 6 * SelectArrayLayer(LaneValue(lanes.coord[3], lane), image.layer_count);
	} else {
		for (uint32_t d = 0; d < dims; ++d) {
			c.stu[d] = LaneValue(lanes.coord[d], lane);
			if (need_lod && grad) dx[d] = LaneValue(lanes.ddx[d], lane), dy[d] = LaneValue(lanes.ddy[d], lane);
		}
		if (image.arrayed) c.layer = SelectArrayLayer(LaneValue(lanes.coord[dims], lane), image.layer_count);
	}
	if (!need_lod) return c;
	const SamplerState& s = image.sampler;
	float lambda_base;
	if (s.unnormalized_coordinates) {
		lambda_base = 0.0f;  // §13: unnormalized samplers read the base level (min/max lod are 0)
	} else if (lanes.lod) {
		lambda_base = lanes.lod[lane];
	} else if (image.anisotropic) {
		// §16 "Texel Anisotropic Filtering": N isotropic samples along the
		// major axis of the footprint, at the LOD of its minor extent.
		const PreparedLevel& base = image.levels[0];
		const float extent[3] = {float(base.extent[0]), float(base.extent[1]), float(base.extent[2])};
		float rho_x, rho_y;
		ScaleFactors(dx, dy, extent, &rho_x, &rho_y);
		const AnisotropicLod a = Anisotropy(rho_x, rho_y, s.max_anisotropy);
		lambda_base = a.lambda_base;
		c.aniso_samples = a.samples;
		for (int d = 0; d < 3; ++d) c.aniso_axis[d] = a.x_major ? dx[d] : dy[d];
	} else {
		const PreparedLevel& base = image.levels[0];
		const float extent[3] = {float(base.extent[0]), float(base.extent[1]), float(base.extent[2])};
		lambda_base = std::log2(ScaleFactorMax(dx, dy, extent));  // rho = 0 -> -inf
	}
	float bias = s.mip_lod_bias + LaneValue(lanes.bias, lane);
	float lod_min = std::max(s.min_lod, LaneValue(lanes.min_lod, lane, s.min_lod));
	c.lambda_bias = LodBias(lambda_base, bias);
	c.lambda = LodBiasAndClamp(lambda_base, bias, lod_min, s.max_lod);
	return c;
}

struct TexelSite {
	uint32_t layer;
	int32_t i, j, k;
	bool border;
};

// One wrapped texel site of a level. Cube views keep (i, j) on the face
// here; seams are resolved by the caller.
TexelSite WrapSite(const SampledImage& image, const PreparedLevel& level, uint32_t layer, int32_t i, int32_t j,
                   int32_t k) {
	TexelSite t{layer, WrapTexelCoordinate(i, level.extent[0], image.address[0]), 0, 0, false};
	t.border = t.i < 0 || t.i >= level.extent[0];
	if (image.dimensions >= 2) {
		t.j = WrapTexelCoordinate(j, level.extent[1], image.address[1]);
		t.border |= t.j < 0 || t.j >= level.extent[1];
	}
	if (image.dimensions == 3) {
		t.k = WrapTexelCoordinate(k, level.extent[2], image.address[2]);
		t.border |= t.k < 0 || t.k >= level.extent[2];
	}
	return t;
}

// Reads one texel and, for Dref lookups, replaces D with the comparison.
TexelValue ReadSite(const SampledImage& image, const PreparedLevel& level, const TexelSite& t, const float* dref) {
	TexelValue v = t.border ? image.border : image.read(image, TexelAddress(image, level, t.layer, t.i, t.j, t.k));
	if (dref) v.f[0] = DepthCompare(image.sampler.compare_op, *dref, v.f[0]);
	return v;
}

// The 2 x 2 texels of a LINEAR footprint on a cube face, in the order
// i0j0, i1j0, i0j1, i1j1, read across seams (§16 "Cube Map Edge Handling").
// A corner texel is the average of the three others.
void ReadCubeQuad(const SampledImage& image, const PreparedLevel& level, uint32_t layer, uint32_t face, int32_t i0,
                  int32_t j0, const float* dref, TexelValue out[4]) {
	const int32_t size = level.extent[0];
	int corner = -1;
	for (int n = 0; n < 4; ++n) {
		uint32_t f;
		int32_t i, j;
		if (!CubeNeighbourTexel(face, i0 + (n & 1), j0 + (n >> 1), size, &f, &i, &j)) {
			corner = n;
			continue;
		}
		out[n] = ReadSite(image, level, {layer + f, i, j, 0, false}, dref);
	}
	if (corner >= 0 && image.integer) {
		// Any method that keeps three equal texels' value will do; integers
		// take the neighbour across the face edge in x.
		out[corner] = out[corner ^ 1];
	} else if (corner >= 0) {
		TexelValue& c = out[corner];
		for (int comp = 0; comp < 4; ++comp) {
			float sum = 0.0f;
			for (int n = 0; n < 4; ++n)
				if (n != corner) sum += out[n].f[comp];
			c.f[comp] = sum / 3.0f;
		}
	}
}

// §16 "Texel Filtering", "Texel Mipmap Filtering" and "Texel Anisotropic
// Filtering" with VK_SAMPLER_REDUCTION_MODE_MIN / MAX: the component-wise
// minimum or maximum of the values with non-zero weights. into holds the
// values reduced so far (any = false: none yet).
void ReduceMinMax(VkSamplerReductionMode mode, const TexelValue& v, float weight, TexelValue& into, bool& any) {
	if (weight == 0.0f) return;
	if (!any) {
		into = v;
		any = true;
		return;
	}
	for (int comp = 0; comp < 4; ++comp)
		into.f[comp] = mode == VK_SAMPLER_REDUCTION_MODE_MIN ? std::min(into.f[comp], v.f[comp])
		                                                     : std::max(into.f[comp], v.f[comp]);
}

bool IsMinMax(const SampledImage& image) {
	return image.sampler.reduction_mode == VK_SAMPLER_REDUCTION_MODE_MIN ||
	       image.sampler.reduction_mode == VK_SAMPLER_REDUCTION_MODE_MAX;
}

// VK_EXT_filter_cubic within one level: the 4, 16 or 64 texels around u
// (1D, 2D, 3D), wrapped and bordered as LINEAR's two per axis, weighted by
// the product of their axes' Catmull-Rom weights, or reduced by the
// sampler's min/max over the texels of non-zero weight ("Texel Cubic
// Filtering").
TexelValue FilterCubic(const SampledImage& image, const PreparedLevel& level, uint32_t layer, const float u[3],
                       const int32_t off[3], const float* dref) {
	const uint32_t dims = image.dimensions;
	CubicCoordinate cc[3] = {{0, {1, 0, 0, 0}}, {0, {1, 0, 0, 0}}, {0, {1, 0, 0, 0}}};
	for (uint32_t d = 0; d < dims; ++d) {
		cc[d] = CubicTexelCoordinate(u[d]);
		cc[d].i0 += off[d];
	}
	const int nj = dims >= 2 ? 4 : 1, nk = dims == 3 ? 4 : 1;
	const bool minmax = IsMinMax(image);
	bool any = false;
	TexelValue out{};
	for (int dk = 0; dk < nk; ++dk)
		for (int dj = 0; dj < nj; ++dj)
			for (int di = 0; di < 4; ++di) {
				const float w = cc[0].weights[di] * cc[1].weights[dj] * cc[2].weights[dk];
				const TexelSite site = WrapSite(image, level, layer, cc[0].i0 + di, cc[1].i0 + dj, cc[2].i0 + dk);
				const TexelValue v = ReadSite(image, level, site, dref);
				if (minmax)
					ReduceMinMax(image.sampler.reduction_mode, v, w, out, any);
				else
					for (int comp = 0; comp < 4; ++comp) out.f[comp] += w * v.f[comp];
			}
	return out;
}

// §16 "Texel Filtering" within one level: NEAREST or LINEAR (weighted
// average with subTexelPrecisionBits weights, or the sampler's min/max
// reduction), or CUBIC (FilterCubic; on cube views, which do not offer it,
// LINEAR).
TexelValue FilterLevel(const SampledImage& image, uint32_t level_index, const LaneCoordinates& c, const int32_t off[3],
                       VkFilter filter, const float* dref) {
	const PreparedLevel& level = image.levels[level_index];
	const uint32_t dims = image.dimensions;
	const bool unnormalized = image.sampler.unnormalized_coordinates;
	float u[3];
	for (uint32_t d = 0; d < dims; ++d) u[d] = unnormalized ? c.stu[d] : c.stu[d] * float(level.extent[d]);
	const uint32_t layer = c.layer + c.face;
	if (filter == VK_FILTER_NEAREST || image.integer) {
		int32_t ijk[3] = {0, 0, 0};
		for (uint32_t d = 0; d < dims; ++d) ijk[d] = NearestTexelCoordinate(u[d]) + off[d];
		return ReadSite(image, level, WrapSite(image, level, layer, ijk[0], ijk[1], ijk[2]), dref);
	}
	if (filter == VK_FILTER_CUBIC_EXT && !image.cube) return FilterCubic(image, level, layer, u, off, dref);
	LinearCoordinate lc[3] = {{0, 0.0f}, {0, 0.0f}, {0, 0.0f}};
	for (uint32_t d = 0; d < dims; ++d) {
		lc[d] = LinearTexelCoordinate(u[d]);
		lc[d].i0 += off[d];
	}
	if (image.seamless_cube) {
		TexelValue t[4];
		ReadCubeQuad(image, level, c.layer, c.face, lc[0].i0, lc[1].i0, dref, t);
		const float a = lc[0].alpha, b = lc[1].alpha;
		const float w[4] = {(1 - a) * (1 - b), a * (1 - b), (1 - a) * b, a * b};
		TexelValue out{};
		if (IsMinMax(image)) {
			bool any = false;
			for (int n = 0; n < 4; ++n) ReduceMinMax(image.sampler.reduction_mode, t[n], w[n], out, any);
			return out;
		}
		for (int comp = 0; comp < 4; ++comp)
			out.f[comp] = w[0] * t[0].f[comp] + w[1] * t[1].f[comp] + w[2] * t[2].f[comp] + w[3] * t[3].f[comp];
		return out;
	}
	const int nj = dims >= 2 ? 2 : 1, nk = dims == 3 ? 2 : 1;
	const bool minmax = IsMinMax(image);
	bool any = false;
	TexelValue out{};
	for (int dk = 0; dk < nk; ++dk) {
		const float wk = dims == 3 ? (dk ? lc[2].alpha : 1 - lc[2].alpha) : 1.0f;
		for (int dj = 0; dj < nj; ++dj) {
			const float wj = dims >= 2 ? (dj ? lc[1].alpha : 1 - lc[1].alpha) : 1.0f;
			for (int di = 0; di < 2; ++di) {
				const float w = (di ? lc[0].alpha : 1 - lc[0].alpha) * wj * wk;
				TexelSite site = WrapSite(image, level, layer, lc[0].i0 + di, lc[1].i0 + dj, lc[2].i0 + dk);
				TexelValue v = ReadSite(image, level, site, dref);
				if (minmax)
					ReduceMinMax(image.sampler.reduction_mode, v, w, out, any);
				else
					for (int comp = 0; comp < 4; ++comp) out.f[comp] += w * v.f[comp];
			}
		}
	}
	return out;
}

// One isotropic lookup: the level(s) chosen, each filtered, then blended
// (§16 "Texel Mipmap Filtering": (1 - delta) tau_hi + delta tau_lo).
TexelValue FilterMipmapped(const SampledImage& image, const LevelSelection& levels, const LaneCoordinates& c,
                           const int32_t off[3], VkFilter filter, const float* dref) {
	TexelValue v = FilterLevel(image, levels.hi, c, off, filter, dref);
	if (levels.delta > 0.0f && levels.lo != levels.hi) {
		TexelValue lo = FilterLevel(image, levels.lo, c, off, filter, dref);
		if (IsMinMax(image)) {  // delta < 1: both weights are non-zero
			bool any = true;
			ReduceMinMax(image.sampler.reduction_mode, lo, levels.delta, v, any);
			return v;
		}
		for (int comp = 0; comp < 4; ++comp) v.f[comp] = (1.0f - levels.delta) * v.f[comp] + levels.delta * lo.f[comp];
	}
	return v;
}

}  // namespace

// robustImageAccess2: out-of-bounds loads are zero, with (0, 0, 1) for the
// missing G, B, A.
TexelValue OutOfBoundsTexel(const FormatInfo& format, VkImageAspectFlagBits aspect, bool integer) {
	TexelValue v{};
	bool has_alpha =
	    aspect != VK_IMAGE_ASPECT_DEPTH_BIT && aspect != VK_IMAGE_ASPECT_STENCIL_BIT && format.Find('A') != nullptr;
	if (!has_alpha) {
		if (integer)
			v.u[3] = 1;
		else
			v.f[3] = 1.0f;
	}
	return v;
}

bool PrepareImage(const ImageViewState& view, SampledImage* out) {
	*out = SampledImage{};
	if (!view.layout || !view.memory) return false;
	out->residency = view.residency;
	const FormatInfo* view_format = FindFormat(view.format);
	if (!view_format || view_format->IsCompressed() || view_format->IsMultiPlanar()) return false;
	const ImageLayout& layout = *view.layout;
	const uint32_t plane = layout.PlaneOf(view.aspect);
	if (view.level_count == 0 || view.base_level + view.level_count > layout.Description().mip_levels ||
	    view.level_count > ImageLayout::kMaxLevels)
		return false;
	const bool volume = layout.Description().type == VK_IMAGE_TYPE_3D;
	// 2D views of 3D images (VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT) read slices as layers.
	const bool slices_as_layers = volume && view.view_type != VK_IMAGE_VIEW_TYPE_3D;
	const uint32_t image_layers = slices_as_layers ? layout.Level(plane, view.base_level).extent.depth
	                              : volume         ? 1
	                                               : layout.Description().array_layers;
	if (view.layer_count == 0 || view.base_layer + view.layer_count > image_layers) return false;
	const FormatInfo* plane_format = FindFormat(layout.Level(plane, view.base_level).format);
	if (!plane_format) return false;
	if (view.aspect == VK_IMAGE_ASPECT_DEPTH_BIT) {
		out->read = ReadDepth;
		out->format = plane_format;
		out->depth = true;
	} else if (view.aspect == VK_IMAGE_ASPECT_STENCIL_BIT) {
		out->read = ReadStencil;
		out->format = plane_format;
		out->integer = true;
	} else {
		if (!CanConvertTexels(*view_format)) return false;
		out->format = view_format;
		out->integer = view_format->IsInteger();
		ChooseColorReader(*view_format, out);
	}
	switch (view.view_type) {
	case VK_IMAGE_VIEW_TYPE_1D_ARRAY: out->arrayed = true; [[fallthrough]];
	case VK_IMAGE_VIEW_TYPE_1D: out->dimensions = 1; break;
	case VK_IMAGE_VIEW_TYPE_3D: out->dimensions = 3; break;
	case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY: out->arrayed = true; [[fallthrough]];
	case VK_IMAGE_VIEW_TYPE_CUBE: out->cube = true; [[fallthrough]];
	default: out->dimensions = 2; break;
	}
	if (view.view_type == VK_IMAGE_VIEW_TYPE_2D_ARRAY) out->arrayed = true;
	out->layer_count = out->cube ? std::max(view.layer_count / 6, 1u) : std::max(view.layer_count, 1u);
	out->samples = layout.Description().samples;
	out->level_count = view.level_count;
	if (view.min_lod > float(view.base_level)) {
		out->min_level = std::min(view.min_lod - float(view.base_level), float(view.level_count - 1));
		out->min_level_integer = uint32_t(out->min_level);
	}
	for (uint32_t l = 0; l < view.level_count; ++l) {
		const SubresourceLayout& s = layout.Level(plane, view.base_level + l);
		PreparedLevel& p = out->levels[l];
		const uint64_t layer_pitch = slices_as_layers ? s.depth_pitch : s.array_pitch;
		p.base = view.memory + s.offset + uint64_t(view.base_layer) * layer_pitch;
		// An uncompressed view of a compressed image (BLOCK_TEXEL_VIEW_COMPATIBLE):
		// each texel of the view is a block of the image, so the view's extent
		// is the image's in blocks, rounded up (VkImageViewCreateInfo).
		const uint32_t bw = plane_format->IsCompressed() ? s.block_extent.width : 1;
		const uint32_t bh = plane_format->IsCompressed() ? s.block_extent.height : 1;
		p.extent[0] = int32_t((s.extent.width + bw - 1) / bw);
		p.extent[1] = out->dimensions >= 2 ? int32_t((s.extent.height + bh - 1) / bh) : 1;
		p.extent[2] = out->dimensions == 3 ? int32_t(s.extent.depth) : 1;
		if (out->dimensions == 3 && view.slice_count) {  // a sliced view (of one level)
			if (uint64_t(view.slice_offset) + view.slice_count > s.extent.depth) return false;
			p.base += uint64_t(view.slice_offset) * s.depth_pitch;
			p.extent[2] = int32_t(view.slice_count);
		}
		p.row_pitch = s.row_pitch;
		p.depth_pitch = s.depth_pitch;
		p.array_pitch = layer_pitch;
		p.element_size = s.element_size;
		p.tile_shift = s.tile_shift;  // the same tiles as ImageLayout::Offset (TiledOffset)
	}
	const VkComponentSwizzle sw[4] = {view.components.r, view.components.g, view.components.b, view.components.a};
	for (int c = 0; c < 4; ++c) {
		switch (sw[c]) {
		case VK_COMPONENT_SWIZZLE_ZERO: out->swizzle[c] = 4; break;
		case VK_COMPONENT_SWIZZLE_ONE: out->swizzle[c] = 5; break;
		case VK_COMPONENT_SWIZZLE_R: out->swizzle[c] = 0; break;
		case VK_COMPONENT_SWIZZLE_G: out->swizzle[c] = 1; break;
		case VK_COMPONENT_SWIZZLE_B: out->swizzle[c] = 2; break;
		case VK_COMPONENT_SWIZZLE_A: out->swizzle[c] = 3; break;
		default: out->swizzle[c] = uint8_t(c); break;  // IDENTITY
		}
		out->identity_swizzle &= out->swizzle[c] == c;
		if (out->integer)
			out->one.u[c] = 1;
		else
			out->one.f[c] = 1.0f;
	}
	const FormatInfo* source = view.source_format ? FindFormat(view.source_format) : nullptr;
	out->out_of_bounds = Swizzle(*out, OutOfBoundsTexel(source ? *source : *out->format, view.aspect, out->integer));
	return true;
}

bool PrepareTexelBuffer(const uint8_t* texels, uint32_t count, const FormatInfo& format, SampledImage* out) {
	*out = SampledImage{};
	if (!texels || count == 0 || count > uint32_t(INT32_MAX) || format.IsCompressed() || format.IsMultiPlanar() ||
	    format.IsDepthOrStencil() || !CanConvertTexels(format))
		return false;
	out->format = &format;
	out->integer = format.IsInteger();
	ChooseColorReader(format, out);
	out->dimensions = 1;
	PreparedLevel& level = out->levels[0];
	level.base = texels;
	level.extent[0] = int32_t(count);
	level.row_pitch = level.depth_pitch = level.array_pitch = uint64_t(count) * format.block_size;
	level.element_size = format.block_size;
	for (int c = 0; c < 4; ++c) {
		if (out->integer)
			out->one.u[c] = 1;
		else
			out->one.f[c] = 1.0f;
	}
	out->out_of_bounds = OutOfBoundsTexel(format, VK_IMAGE_ASPECT_COLOR_BIT, out->integer);
	return true;
}

bool PrepareSampledImage(const SamplerState& sampler, const ImageViewState& view, SampledImage* out) {
	if (!PrepareImage(view, out)) return false;
	out->sampler = sampler;
	const VkSamplerAddressMode modes[3] = {sampler.address_u, sampler.address_v, sampler.address_w};
	// §16 "Wrapping Operation": cubes ignore the address modes; NEAREST
	// clamps to the edge, LINEAR reads across the seams. A non-seamless cube
	// (VK_EXT_non_seamless_cube_map) wraps within each face like a 2D image.
	const bool seamless = out->cube && !sampler.non_seamless_cube;
	for (int d = 0; d < 3; ++d) out->address[d] = seamless ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE : modes[d];
	out->seamless_cube = seamless && !out->integer;
	// Vulkan "Depth Compare Operation": the depth aspect of a depth view,
	// and the red component of the color formats that advertise depth
	// comparison (ComparesAsDepth), as D_tex.
	out->compare =
	    sampler.compare_enable && (view.aspect == VK_IMAGE_ASPECT_DEPTH_BIT ||
	                               (view.aspect == VK_IMAGE_ASPECT_COLOR_BIT && out->format->ComparesAsDepth()));
	const NumericFormat numeric = out->format->Numeric();
	out->clamp_reference = out->compare && numeric == NumericFormat::UNORM;
	if (out->integer) {
		// Integer formats are never filtered (no SAMPLED_IMAGE_FILTER_LINEAR).
		out->sampler.mag_filter = out->sampler.min_filter = VK_FILTER_NEAREST;
		out->sampler.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
	}
	// Anisotropic filtering (samplerAnisotropy) on filtered, normalized,
	// non-cube lookups; cube maps filter isotropically (their footprint
	// would have to cross face edges: the scheme is the implementation's,
	// §16 "Texel Anisotropic Filtering").
	out->anisotropic = sampler.anisotropy_enable && sampler.max_anisotropy > 1.0f && !out->integer && !out->cube &&
	                   !sampler.unnormalized_coordinates;
	// A min/max reduction over a single texel is that texel: lookups that
	// never read more than one (NEAREST filters and mipmaps, no anisotropy,
	// or integer formats, which are not filtered) average, and may take the
	// fast path.
	const bool single_texel =
	    out->sampler.mag_filter == VK_FILTER_NEAREST && out->sampler.min_filter == VK_FILTER_NEAREST &&
	    (out->sampler.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST || out->level_count == 1) && !out->anisotropic;
	if (single_texel) out->sampler.reduction_mode = VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE;
	const FormatInfo* source = view.source_format ? FindFormat(view.source_format) : nullptr;
	out->border = BorderTexel(sampler, source ? *source : *out->format, view.aspect, out->integer);
	return true;
}

void QuadDerivatives(const float* v, uint32_t count, float* dx, float* dy) {
	for (uint32_t base = 0; base + 4 <= count; base += 4) {
		const float* q = v + base;
		dx[base] = dx[base + 1] = q[1] - q[0];
		dx[base + 2] = dx[base + 3] = q[3] - q[2];
		dy[base] = dy[base + 2] = q[2] - q[0];
		dy[base + 1] = dy[base + 3] = q[3] - q[1];
	}
}

namespace {

// The lanes with their quad derivatives written out (SampleLanes::
// quad_derivatives) for the paths that read ddx and ddy: the coordinates
// but the array layer (cubes: x, y and z).
struct ExplicitDerivatives {
	SampleLanes lanes;

	ExplicitDerivatives(const SampledImage& image, const SampleLanes& given) : lanes(given) {
		if (!given.quad_derivatives) return;
		thread_local std::vector<float> storage;
		const uint32_t n = given.count, dims = image.cube ? 3 : image.dimensions;
		storage.resize(size_t(6) * n);
		for (uint32_t c = 0; c < 3; ++c) {
			float* dx = storage.data() + size_t(c) * n;
			float* dy = storage.data() + size_t(3 + c) * n;
			if (c < dims && given.coord[c]) {
				QuadDerivatives(given.coord[c], n, dx, dy);
			} else {
				std::fill_n(dx, n, 0.0f);
				std::fill_n(dy, n, 0.0f);
			}
			lanes.ddx[c] = dx, lanes.ddy[c] = dy;
		}
		lanes.quad_derivatives = false;
	}
};

}  // namespace

// Hot path: runs once per lane of every sampling instruction.
void Sample(const SampledImage& image, const SampleLanes& lanes, TexelValue* out) {
	// The common cases (sample_fast.h lists them). It averages: min/max
	// reductions take the generic path, which needs the derivative arrays.
	const bool average = image.sampler.reduction_mode == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE;
	if (average && SampleFast(image, lanes, out)) return;
	SampleGeneric(image, ExplicitDerivatives(image, lanes).lanes, out);
}

void Sample(const SampledImage& image, const SampleLanes& lanes, float* const components[4]) {
	const bool average = image.sampler.reduction_mode == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE;
	if (average && SampleFast(image, lanes, components)) return;
	thread_local std::vector<TexelValue> texels;
	texels.resize(lanes.count);
	SampleGeneric(image, ExplicitDerivatives(image, lanes).lanes, texels.data());
	for (uint32_t j = 0; j < lanes.count; ++j)
		for (int c = 0; c < 4; ++c) std::memcpy(&components[c][j], &texels[j].u[c], 4);
}

void SampleGeneric(const SampledImage& image, const SampleLanes& lanes, TexelValue* out) {
	const SamplerState& s = image.sampler;
	const bool compare = image.compare && lanes.dref;
	const int32_t zero[3] = {0, 0, 0};
	for (uint32_t lane = 0; lane < lanes.count; ++lane) {
		LaneCoordinates c = ResolveLane(image, lanes, lane, true);
		float reference = 0.0f;
		if (compare) {
			reference = lanes.dref[lane];
			if (image.clamp_reference) reference = std::clamp(reference, 0.0f, 1.0f);
		}
		const float* dref = compare ? &reference : nullptr;
		int32_t off[3] = {zero[0], zero[1], zero[2]};
		for (int d = 0; d < 3; ++d)
			if (lanes.offset[d]) off[d] = lanes.offset[d][lane];
		// §16 "Texel Filtering": magnified when lambda <= 0.
		const VkFilter filter = c.lambda <= 0.0f ? s.mag_filter : s.min_filter;
		const LevelSelection levels = SelectLevels(c.lambda, image.level_count - 1, s.mipmap_mode, image.min_level);
		TexelValue v;
		if (c.aniso_samples <= 1) {
			v = FilterMipmapped(image, levels, c, off, filter, dref);
		} else {
			// §16 "Texel Anisotropic Filtering": the mean of N isotropic
			// lookups at (x - 1/2 + i / (N + 1)) along the major axis.
			// With a min/max reduction: the minimum or maximum of them.
			const uint32_t n = c.aniso_samples;
			const bool minmax = IsMinMax(image);
			bool any = false;
			v = TexelValue{};
			LaneCoordinates at = c;
			for (uint32_t i = 1; i <= n; ++i) {
				const float t = float(i) / float(n + 1) - 0.5f;
				for (uint32_t d = 0; d < image.dimensions; ++d) at.stu[d] = c.stu[d] + t * c.aniso_axis[d];
				const TexelValue one = FilterMipmapped(image, levels, at, off, filter, dref);
				if (minmax)
					ReduceMinMax(s.reduction_mode, one, 1.0f, v, any);
				else
					for (int comp = 0; comp < 4; ++comp) v.f[comp] += one.f[comp];
			}
			const float scale = minmax ? 1.0f : 1.0f / float(n);
			for (int comp = 0; comp < 4; ++comp) v.f[comp] *= scale;
		}
		out[lane] = Swizzle(image, v);
	}
}

void Gather(const SampledImage& image, const SampleLanes& lanes, uint32_t component, const int32_t (*const_offsets)[2],
            TexelValue* out) {
	// VK_EXT_image_view_min_lod: a gather reads the base level, which a
	// minLod above it puts out of reach: zero (robustImageAccess2's value).
	if (image.min_level_integer > 0) {
		std::fill(out, out + lanes.count, TexelValue{});
		return;
	}
	const bool compare = image.compare && lanes.dref;
	const PreparedLevel& level = image.levels[0];
	const uint8_t source = image.swizzle[component & 3];
	// Texel order of the result: i0j1, i1j1, i1j0, i0j0 (as (di, dj)).
	const int32_t kOrder[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
	for (uint32_t lane = 0; lane < lanes.count; ++lane) {
		LaneCoordinates c = ResolveLane(image, lanes, lane, false);
		float reference = 0.0f;
		if (compare) {
			reference = lanes.dref[lane];
			if (image.clamp_reference) reference = std::clamp(reference, 0.0f, 1.0f);
		}
		const float* dref = compare ? &reference : nullptr;
		int32_t ij0[2];
		for (int d = 0; d < 2; ++d) {
			float u = c.stu[d] * float(level.extent[d]);
			ij0[d] = LinearTexelCoordinate(u).i0 + (lanes.offset[d] ? lanes.offset[d][lane] : 0);
		}
		TexelValue texels[4];
		// A gather reads across cube seams like LINEAR (integer formats too),
		// unless the sampler is non-seamless.
		if (image.cube && !image.sampler.non_seamless_cube) {
			TexelValue quad[4];  // i0j0, i1j0, i0j1, i1j1
			ReadCubeQuad(image, level, c.layer, c.face, ij0[0], ij0[1], dref, quad);
			for (int n = 0; n < 4; ++n) texels[n] = quad[kOrder[n][0] + 2 * kOrder[n][1]];
		} else {
			for (int n = 0; n < 4; ++n) {
				int32_t di = const_offsets ? const_offsets[n][0] : kOrder[n][0];
				int32_t dj = const_offsets ? const_offsets[n][1] : kOrder[n][1];
				TexelSite site = WrapSite(image, level, c.layer + c.face, ij0[0] + di, ij0[1] + dj, 0);
				texels[n] = ReadSite(image, level, site, dref);
			}
		}
		TexelValue result;
		for (int n = 0; n < 4; ++n) result.u[n] = source < 4 ? texels[n].u[source] : source == 5 ? image.one.u[n] : 0u;
		out[lane] = result;
	}
}

namespace {
FetchReader ReaderOf(const SampledImage& image) {
	return image.read == ReadBytes    ? FetchReader::kBytes
	       : image.read == ReadWords  ? FetchReader::kWords
	       : image.read == ReadHalves ? FetchReader::kHalves
	                                  : FetchReader::kOther;
}
}  // namespace

void Fetch(const SampledImage& image, const FetchLanes& lanes, TexelValue* out) {
	if (!FetchFast(image, ReaderOf(image), lanes, out, nullptr)) FetchGeneric(image, lanes, out);
}

void Fetch(const SampledImage& image, const FetchLanes& lanes, uint32_t* const components[4]) {
	if (FetchFast(image, ReaderOf(image), lanes, nullptr, components)) return;
	// The generic path, 64 lanes at a time through a buffer on the stack.
	constexpr uint32_t kChunk = 64;
	TexelValue texels[kChunk];
	for (uint32_t first = 0; first < lanes.count; first += kChunk) {
		FetchLanes chunk = lanes;
		chunk.count = std::min(kChunk, lanes.count - first);
		auto at = [first](const int32_t* p) { return p ? p + first : p; };
		for (int c = 0; c < 4; ++c) chunk.coord[c] = at(lanes.coord[c]);
		for (int c = 0; c < 3; ++c) chunk.offset[c] = at(lanes.offset[c]);
		chunk.lod = at(lanes.lod);
		chunk.sample = at(lanes.sample);
		FetchGeneric(image, chunk, texels);
		for (uint32_t lane = 0; lane < chunk.count; ++lane)
			for (int c = 0; c < 4; ++c) components[c][first + lane] = texels[lane].u[c];
	}
}

void FetchGeneric(const SampledImage& image, const FetchLanes& lanes, TexelValue* out) {
	const uint32_t dims = image.dimensions;
	const uint32_t layers = image.cube ? image.layer_count * 6 : image.layer_count;
	const bool layered = image.arrayed || image.cube;
	for (uint32_t lane = 0; lane < lanes.count; ++lane) {
		uint32_t lod = lanes.lod ? uint32_t(lanes.lod[lane]) : 0;
		uint32_t sample = lanes.sample ? uint32_t(lanes.sample[lane]) : 0;
		uint32_t layer = layered && lanes.coord[dims] ? uint32_t(lanes.coord[dims][lane]) : 0;
		// (VK_EXT_image_view_min_lod: levels below the view's minLod are outside.)
		bool inside =
		    lod < image.level_count && lod >= image.min_level_integer && sample < image.samples && layer < layers;
		int32_t ijk[3] = {0, 0, 0};
		const PreparedLevel& level = image.levels[inside ? lod : 0];
		for (uint32_t d = 0; d < dims; ++d) {
			int64_t c =
			    int64_t(lanes.coord[d] ? lanes.coord[d][lane] : 0) + (lanes.offset[d] ? lanes.offset[d][lane] : 0);
			inside &= c >= 0 && c < level.extent[d];
			ijk[d] = inside ? int32_t(c) : 0;
		}
		out[lane] =
		    inside
		        ? Swizzle(image, image.read(image, TexelAddress(image, level, layer, ijk[0], ijk[1], ijk[2], sample)))
		        : image.out_of_bounds;
	}
}

void QueryLod(const SampledImage& image, const SampleLanes& lanes, float (*out)[2]) {
	const SamplerState& s = image.sampler;
	for (uint32_t lane = 0; lane < lanes.count; ++lane) {
		LaneCoordinates c = ResolveLane(image, lanes, lane, true);
		float d = std::max(std::clamp(c.lambda, 0.0f, float(image.level_count - 1)), image.min_level);
		if (s.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST)
			d = float(SelectLevels(c.lambda, image.level_count - 1, s.mipmap_mode, image.min_level).hi);
		out[lane][0] = d;
		out[lane][1] = c.lambda_bias;
	}
}

uint32_t QuerySize(const SampledImage& image, uint32_t lod, uint32_t out[4]) {
	const PreparedLevel& level = image.levels[std::min(lod, image.level_count - 1)];
	uint32_t n = 0;
	for (uint32_t d = 0; d < image.dimensions; ++d) out[n++] = uint32_t(level.extent[d]);
	if (image.arrayed) out[n++] = image.layer_count;
	return n;
}

}  // namespace tessera::texture
