#include "texture/storage.h"

#include "texture/texel.h"

namespace tessera::texture {

uint8_t* StorageTexel(const SampledImage& image, const int32_t* coord, int32_t sample) {
	const PreparedLevel& level = image.levels[0];
	const uint32_t dims = image.dimensions;
	for (uint32_t d = 0; d < dims; ++d)
		if (coord[d] < 0 || coord[d] >= level.extent[d]) return nullptr;
	int64_t layer = 0;
	if (image.arrayed || image.cube) {
		layer = coord[dims];
		const int64_t layers = image.cube ? int64_t{image.layer_count} * 6 : image.layer_count;
		if (layer < 0 || layer >= layers) return nullptr;
	}
	if (sample < 0 || uint32_t(sample) >= image.samples) return nullptr;
	uint64_t offset = uint64_t(layer) * level.array_pitch + (dims == 3 ? uint64_t(coord[2]) * level.depth_pitch : 0);
	if (level.tile_shift)  // single-sampled, 2D (storage images are never tiled; stay exact anyway)
		offset += TexelOffset(level, uint32_t(coord[0]), dims >= 2 ? uint32_t(coord[1]) : 0);
	else
		offset += (dims >= 2 ? uint64_t(coord[1]) * level.row_pitch : 0) +
		          (uint64_t(coord[0]) * image.samples + uint64_t(sample)) * level.element_size;
	return const_cast<uint8_t*>(level.base) + offset;
}

void StoreGeneric(const SampledImage& image, const StoreLanes& lanes) {
	for (uint32_t j = 0; j < lanes.count; ++j) {
		int32_t coord[4];
		for (int d = 0; d < 4; ++d) coord[d] = lanes.coord[d] ? lanes.coord[d][j] : 0;
		uint8_t* texel = StorageTexel(image, coord, lanes.sample ? lanes.sample[j] : 0);
		if (!texel) continue;
		TexelValue v;
		for (int c = 0; c < 4; ++c) v.u[c] = lanes.texel[c] ? lanes.texel[c][j] : 0;
		PackTexel(*image.format, v, texel);
	}
}

// PackTexel's conversions that StoreFast does with the same results: UNORM
// of 2 to 16 bits and SNORM of 3 to 16 bits (in double, round to nearest
// even: the one product that is a tie, 0.5 * (2^b - 1) (or (2^(b-1) - 1)),
// has an odd integer part at these widths, so it rounds away from zero as
// FloatToUnorm and FloatToSnorm round it), UINT and SINT up to 32 bits,
// 32-bit floats (their bits) and 16-bit ones (FloatToHalf's round to
// nearest even, NaN made quiet with its payload's high bits: F16C's
// conversion). Each component within one 32-bit word of the texel.
StorePlan PlanStore(const FormatInfo& format) {
	StorePlan plan;
	const uint32_t size = format.block_size;
	if (format.IsCompressed() || format.IsMultiPlanar() || format.IsDepthOrStencil() ||
	    format.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32 || format.TexelsPerBlock() != 1 ||
	    format.component_count == 0 || format.component_count > 4 ||
	    (size != 1 && size != 2 && size != 4 && size != 8 && size != 16))
		return plan;
	for (uint32_t c = 0; c < format.component_count; ++c) {
		const FormatComponent& comp = format.components[c];
		const int slot = comp.name == 'R' ? 0 : comp.name == 'G' ? 1 : comp.name == 'B' ? 2 : comp.name == 'A' ? 3 : -1;
		const uint32_t bits = comp.bits, offset = comp.offset;
		if (slot < 0 || bits == 0 || bits > 32 || offset / 32 != (offset + bits - 1) / 32 || offset + bits > 8 * size)
			return plan;
		bool exact = false;
		switch (comp.numeric) {
		case NumericFormat::UNORM: exact = bits >= 2 && bits <= 16; break;
		case NumericFormat::SNORM: exact = bits >= 3 && bits <= 16; break;
		case NumericFormat::UINT:
		case NumericFormat::SINT: exact = true; break;
		case NumericFormat::SFLOAT: exact = bits == 32 || bits == 16; break;
		default: break;
		}
		if (!exact) return plan;
		plan.components[plan.count++] = {uint8_t(slot), uint8_t(offset / 32), uint8_t(offset % 32), uint8_t(bits),
		                                 comp.numeric};
	}
	plan.size = size;
	plan.ok = true;
	return plan;
}

void Store(const SampledImage& image, const StoreLanes& lanes) {
	const StorePlan plan = PlanStore(*image.format);
	if (plan.ok && StoreFast(image, plan, lanes)) return;
	StoreGeneric(image, lanes);
}

}  // namespace tessera::texture
