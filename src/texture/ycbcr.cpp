#include "texture/ycbcr.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "texture/format.h"

namespace tessera::texture {

bool CanConvertYcbcr(VkFormat format) {
	switch (format) {
	case VK_FORMAT_G8_B8R8_2PLANE_420_UNORM:
	case VK_FORMAT_G8_B8R8_2PLANE_422_UNORM:
	case VK_FORMAT_G8_B8R8_2PLANE_444_UNORM:
	case VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM:
	case VK_FORMAT_G8_B8_R8_3PLANE_422_UNORM:
	case VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM:
	case VK_FORMAT_G8B8G8R8_422_UNORM:
	case VK_FORMAT_B8G8R8G8_422_UNORM:
	case VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16:
	case VK_FORMAT_G16_B16R16_2PLANE_420_UNORM:
	// VK_EXT_ycbcr_2plane_444_formats (its ycbcr2plane444Formats feature
	// names these four).
	case VK_FORMAT_G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16:
	case VK_FORMAT_G12X4_B12X4R12X4_2PLANE_444_UNORM_3PACK16:
	case VK_FORMAT_G16_B16R16_2PLANE_444_UNORM: return true;
	default: return false;
	}
}

void ConvertYcbcrTexel(const YcbcrConversion& conversion, uint32_t bits, const float in[4], float out[4]) {
	// §16 "Sampler Y′CbCr Range Expansion": not applied for RGB_IDENTITY.
	if (conversion.model == VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY) {
		std::copy_n(in, 4, out);
		return;
	}
	const float max = float((1u << bits) - 1);
	float cr = in[0], y = in[1], cb = in[2];
	if (conversion.range == VK_SAMPLER_YCBCR_RANGE_ITU_FULL) {
		// Y' unchanged; Cb and Cr centered on 2^(n-1) / (2^n - 1).
		const float center = float(1u << (bits - 1)) / max;
		cb -= center;
		cr -= center;
	} else {
		// ITU narrow: Y' in [16, 235] and Cb, Cr in [16, 240], scaled by 2^(n-8).
		const float scale = float(1u << (bits - 8));
		y = (y * max - 16.0f * scale) / (219.0f * scale);
		cb = (cb * max - 128.0f * scale) / (224.0f * scale);
		cr = (cr * max - 128.0f * scale) / (224.0f * scale);
	}
	// §16 "Sampler Y′CbCr Model Conversion" (Khronos Data Format
	// Specification, "Y′CbCr color model"): from Kr and Kb of each standard.
	float kr = 0, kb = 0;
	switch (conversion.model) {
	case VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709: kr = 0.2126f, kb = 0.0722f; break;
	case VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601: kr = 0.299f, kb = 0.114f; break;
	case VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_2020: kr = 0.2627f, kb = 0.0593f; break;
	default:  // YCBCR_IDENTITY: range expansion only
		out[0] = cr, out[1] = y, out[2] = cb, out[3] = in[3];
		return;
	}
	const float kg = 1.0f - kr - kb;
	out[0] = y + 2.0f * (1.0f - kr) * cr;
	out[1] = y - (2.0f * kb * (1.0f - kb) / kg) * cb - (2.0f * kr * (1.0f - kr) / kg) * cr;
	out[2] = y + 2.0f * (1.0f - kb) * cb;
	out[3] = in[3];
}

namespace {

// One of the format's G (Y'), B (Cb) and R (Cr) components: where it lives
// and at which resolution.
struct Channel {
	uint32_t plane = 0;
	uint32_t bits = 8;
	uint32_t offset[2] = {};  // bit offsets in the element; two Gs in the single-plane 422 formats
	uint32_t div_x = 1, div_y = 1;
};

struct Source {
	const ImageViewState* view;
	const ImageLayout* layout;
	bool packed_422;     // G8B8G8R8_422 / B8G8R8G8_422: two texels a block
	Channel channel[3];  // G, B, R
};

bool Describe(const ImageViewState& view, Source* s) {
	const FormatInfo* info = FindFormat(view.format);
	if (!info || !CanConvertYcbcr(view.format)) return false;
	s->view = &view;
	s->layout = view.layout;
	s->packed_422 = info->plane_count == 0;
	static constexpr char kNames[3] = {'G', 'B', 'R'};
	for (uint32_t c = 0; c < 3; ++c) {
		Channel& ch = s->channel[c];
		uint32_t found = 0;
		for (uint32_t k = 0; k < info->component_count; ++k) {
			const FormatComponent& fc = info->components[k];
			if (fc.name != kNames[c] || found == 2) continue;
			ch.plane = fc.plane;
			ch.bits = fc.bits;
			ch.offset[found++] = fc.offset;
		}
		if (!found) return false;
		if (s->packed_422) {
			if (c != 0) ch.div_x = info->block_extent[0];
		} else {
			const FormatPlane& plane = info->planes[ch.plane];
			ch.div_x = plane.width_divisor;
			ch.div_y = plane.height_divisor;
		}
	}
	return true;
}

// One channel (G, B or R) of one level and layer, resolved for reading.
struct ChannelReader {
	const uint8_t* base = nullptr;  // element (0, 0)
	uint64_t row_pitch = 0;
	uint32_t element_size = 1;
	int64_t width = 1, height = 1;  // in samples of this channel
	uint32_t offset[2] = {};
	uint64_t mask = 0xff;
	float scale = 1.0f / 255.0f;  // 1 / (2^bits - 1)
	bool paired = false;          // single-plane 422 luma: two samples an element

	// The normalized sample (x, y), clamped to the channel (CLAMP_TO_EDGE:
	// §13 requires it of samplers with a Y'CbCr conversion).
	float At(int64_t x, int64_t y) const {
		x = std::clamp<int64_t>(x, 0, width - 1);
		y = std::clamp<int64_t>(y, 0, height - 1);
		uint32_t instance = 0;
		if (paired) instance = uint32_t(x & 1), x >>= 1;
		const uint8_t* p = base + uint64_t(y) * row_pitch + uint64_t(x) * element_size;
		uint64_t word;
		switch (element_size) {
		case 1: word = *p; break;
		case 2: {
			uint16_t w;
			std::memcpy(&w, p, 2);
			word = w;
			break;
		}
		case 4: {
			uint32_t w;
			std::memcpy(&w, p, 4);
			word = w;
			break;
		}
		default: word = 0, std::memcpy(&word, p, std::min<uint32_t>(element_size, 8)); break;
		}
		return float((word >> offset[instance]) & mask) * scale;
	}
};

ChannelReader Resolve(const Source& s, uint32_t c, uint32_t level, uint32_t layer) {
	const Channel& ch = s.channel[c];
	const SubresourceLayout& l = s.layout->Level(ch.plane, level);
	ChannelReader r;
	r.base = s.view->memory + s.layout->Offset(ch.plane, level, layer, 0, 0, 0);
	r.row_pitch = l.row_pitch;
	r.element_size = l.element_size;
	r.width = std::max<int64_t>(l.extent.width, 1);
	r.height = std::max<int64_t>(l.extent.height, 1);
	if (s.packed_422) {
		if (c == 0)
			r.paired = true;
		else
			r.width = (r.width + ch.div_x - 1) / ch.div_x;  // chroma: one sample a block
	}
	r.offset[0] = ch.offset[0];
	r.offset[1] = ch.offset[1];
	r.mask = (uint64_t(1) << ch.bits) - 1;
	r.scale = 1.0f / float(r.mask);
	return r;
}

// §16 "Chroma Reconstruction", explicit: the chroma samples (at most two)
// and weights that make the value at luma coordinate i along one axis.
struct Taps {
	int64_t index[2];
	float weight[2];
	uint32_t count;
};

Taps ReconstructionTaps(int64_t i, uint32_t divisor, VkChromaLocation location, VkFilter filter) {
	if (divisor == 1) return {{i, 0}, {1.0f, 0.0f}, 1};
	const int64_t half = i >> 1;
	if (filter == VK_FILTER_NEAREST) return {{half, 0}, {1.0f, 0.0f}, 1};
	if (location == VK_CHROMA_LOCATION_COSITED_EVEN) {
		// Chroma sample k sits on luma 2k.
		if ((i & 1) == 0) return {{half, 0}, {1.0f, 0.0f}, 1};
		return {{half, half + 1}, {0.5f, 0.5f}, 2};
	}
	// MIDPOINT: chroma sample k sits at luma 2k + 0.5.
	if ((i & 1) == 0) return {{half - 1, half}, {0.25f, 0.75f}, 2};
	return {{half, half + 1}, {0.75f, 0.25f}, 2};
}

float Reconstruct(const ChannelReader& r, const Taps& tx, const Taps& ty) {
	float sum = 0.0f;
	for (uint32_t b = 0; b < ty.count; ++b)
		for (uint32_t a = 0; a < tx.count; ++a) sum += tx.weight[a] * ty.weight[b] * r.At(tx.index[a], ty.index[b]);
	return sum;
}

// §13.1: the conversion's components swizzle the format's (R = Cr, G = Y',
// B = Cb, A = 1) before range expansion.
float Swizzle(VkComponentSwizzle swizzle, uint32_t identity, const float in[4]) {
	switch (swizzle) {
	case VK_COMPONENT_SWIZZLE_ZERO: return 0.0f;
	case VK_COMPONENT_SWIZZLE_ONE: return 1.0f;
	case VK_COMPONENT_SWIZZLE_R: return in[0];
	case VK_COMPONENT_SWIZZLE_G: return in[1];
	case VK_COMPONENT_SWIZZLE_B: return in[2];
	case VK_COMPONENT_SWIZZLE_A: return in[3];
	default: return in[identity];
	}
}

// Swizzle, range expansion and model conversion of (Cr, Y', Cb, 1) are one
// affine map: out = m * (Cr, Y', Cb) + b, found by evaluating them on the
// basis vectors once per decode.
struct Affine {
	float m[4][3];
	float b[4];
};

Affine ComposeConversion(const YcbcrConversion& conversion, uint32_t bits) {
	const VkComponentSwizzle swizzle[4] = {conversion.components.r, conversion.components.g, conversion.components.b,
	                                       conversion.components.a};
	auto apply = [&](const float in[4], float out[4]) {
		float swizzled[4];
		for (uint32_t c = 0; c < 4; ++c) swizzled[c] = Swizzle(swizzle[c], c, in);
		ConvertYcbcrTexel(conversion, bits, swizzled, out);
	};
	Affine a;
	const float origin[4] = {0.0f, 0.0f, 0.0f, 1.0f};
	apply(origin, a.b);
	for (uint32_t j = 0; j < 3; ++j) {
		float in[4] = {0.0f, 0.0f, 0.0f, 1.0f}, out[4];
		in[j] = 1.0f;
		apply(in, out);
		for (uint32_t k = 0; k < 4; ++k) a.m[k][j] = out[k] - a.b[k];
	}
	return a;
}

}  // namespace

bool DecodeYcbcrView(const ImageViewState& view, const YcbcrConversion& conversion, DecodedView* out) {
	Source s;
	if (!view.layout || !view.memory || !Describe(view, &s)) return false;
	const ImageDescription& d = view.layout->Description();
	if (d.type != VK_IMAGE_TYPE_2D || view.level_count == 0 || view.base_level + view.level_count > d.mip_levels ||
	    view.layer_count == 0 || view.base_layer + view.layer_count > d.array_layers)
		return false;

	ImageDescription decoded;
	decoded.format = VK_FORMAT_R32G32B32A32_SFLOAT;
	decoded.type = VK_IMAGE_TYPE_2D;
	decoded.extent = view.layout->Level(0, view.base_level).extent;
	decoded.extent.depth = 1;
	decoded.mip_levels = view.level_count;
	decoded.array_layers = view.layer_count;
	if (!out->layout.Init(decoded)) return false;
	out->memory.resize(out->layout.TotalSize());

	const Affine affine = ComposeConversion(conversion, s.channel[0].bits);
	std::vector<Taps> cb_x, cr_x;
	for (uint32_t l = 0; l < view.level_count; ++l) {
		const uint32_t level = view.base_level + l;
		const SubresourceLayout& target = out->layout.Level(0, l);
		const uint32_t width = target.extent.width, height = target.extent.height;
		cb_x.resize(width);
		cr_x.resize(width);
		for (uint32_t x = 0; x < width; ++x) {
			cb_x[x] = ReconstructionTaps(x, s.channel[1].div_x, conversion.x_chroma_offset, conversion.chroma_filter);
			cr_x[x] = ReconstructionTaps(x, s.channel[2].div_x, conversion.x_chroma_offset, conversion.chroma_filter);
		}
		for (uint32_t layer = 0; layer < view.layer_count; ++layer) {
			const ChannelReader luma = Resolve(s, 0, level, view.base_layer + layer);
			const ChannelReader cb = Resolve(s, 1, level, view.base_layer + layer);
			const ChannelReader cr = Resolve(s, 2, level, view.base_layer + layer);
			for (uint32_t y = 0; y < height; ++y) {
				const Taps cb_y =
				    ReconstructionTaps(y, s.channel[1].div_y, conversion.y_chroma_offset, conversion.chroma_filter);
				const Taps cr_y =
				    ReconstructionTaps(y, s.channel[2].div_y, conversion.y_chroma_offset, conversion.chroma_filter);
				float* row = reinterpret_cast<float*>(out->memory.data() + out->layout.Offset(0, l, layer, 0, y, 0));
				for (uint32_t x = 0; x < width; ++x) {
					const float in[3] = {Reconstruct(cr, cr_x[x], cr_y), luma.At(x, y), Reconstruct(cb, cb_x[x], cb_y)};
					float* texel = row + 4 * x;
					for (uint32_t k = 0; k < 4; ++k)
						texel[k] =
						    affine.m[k][0] * in[0] + affine.m[k][1] * in[1] + affine.m[k][2] * in[2] + affine.b[k];
				}
			}
		}
	}
	out->view = view;
	out->view.layout = &out->layout;
	out->view.memory = out->memory.data();
	out->view.format = VK_FORMAT_R32G32B32A32_SFLOAT;
	out->view.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
	out->view.base_level = 0;
	out->view.base_layer = 0;
	// Vulkan 1.3 VUID-VkImageViewCreateInfo-pNext-01970: a view with a
	// conversion has the identity swizzle; the conversion's was applied above.
	out->view.components = {};
	return true;
}

}  // namespace tessera::texture
