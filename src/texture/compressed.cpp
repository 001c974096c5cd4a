// The entry point of the block decoders: picks the decoder of a format and
// applies the sRGB transfer function (Data Format Specification 1.4
// §13.3) to the RGB of sRGB formats when asked to.
#include "texture/compressed.h"

#include "texture/decode_astc.h"
#include "texture/decode_bc.h"
#include "texture/decode_etc.h"
#include "texture/float_formats.h"

namespace tessera::texture {
namespace {

bool DecodeEncoded(VkFormat format, const uint8_t* block, TexelValue out[16]) {
	switch (format) {
	case VK_FORMAT_BC1_RGB_UNORM_BLOCK:
	case VK_FORMAT_BC1_RGB_SRGB_BLOCK: bc::DecodeBc1(block, false, out); return true;
	case VK_FORMAT_BC1_RGBA_UNORM_BLOCK:
	case VK_FORMAT_BC1_RGBA_SRGB_BLOCK: bc::DecodeBc1(block, true, out); return true;
	case VK_FORMAT_BC2_UNORM_BLOCK:
	case VK_FORMAT_BC2_SRGB_BLOCK: bc::DecodeBc2(block, out); return true;
	case VK_FORMAT_BC3_UNORM_BLOCK:
	case VK_FORMAT_BC3_SRGB_BLOCK: bc::DecodeBc3(block, out); return true;
	case VK_FORMAT_BC4_UNORM_BLOCK: bc::DecodeBc4(block, false, out); return true;
	case VK_FORMAT_BC4_SNORM_BLOCK: bc::DecodeBc4(block, true, out); return true;
	case VK_FORMAT_BC5_UNORM_BLOCK: bc::DecodeBc5(block, false, out); return true;
	case VK_FORMAT_BC5_SNORM_BLOCK: bc::DecodeBc5(block, true, out); return true;
	case VK_FORMAT_BC6H_UFLOAT_BLOCK: bc::DecodeBc6h(block, false, out); return true;
	case VK_FORMAT_BC6H_SFLOAT_BLOCK: bc::DecodeBc6h(block, true, out); return true;
	case VK_FORMAT_BC7_UNORM_BLOCK:
	case VK_FORMAT_BC7_SRGB_BLOCK: bc::DecodeBc7(block, out); return true;
	case VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK:
	case VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK: etc::DecodeEtc2Rgb(block, false, out); return true;
	case VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK:
	case VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK: etc::DecodeEtc2Rgb(block, true, out); return true;
	case VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK:
	case VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK: etc::DecodeEtc2Rgba(block, out); return true;
	case VK_FORMAT_EAC_R11_UNORM_BLOCK: etc::DecodeEacR11(block, false, out); return true;
	case VK_FORMAT_EAC_R11_SNORM_BLOCK: etc::DecodeEacR11(block, true, out); return true;
	case VK_FORMAT_EAC_R11G11_UNORM_BLOCK: etc::DecodeEacRg11(block, false, out); return true;
	case VK_FORMAT_EAC_R11G11_SNORM_BLOCK: etc::DecodeEacRg11(block, true, out); return true;
	default: return false;
	}
}

}  // namespace

bool IsSrgbBlockFormat(const FormatInfo& format) {
	switch (format.format) {
	case VK_FORMAT_BC1_RGB_SRGB_BLOCK:
	case VK_FORMAT_BC1_RGBA_SRGB_BLOCK:
	case VK_FORMAT_BC2_SRGB_BLOCK:
	case VK_FORMAT_BC3_SRGB_BLOCK:
	case VK_FORMAT_BC7_SRGB_BLOCK:
	case VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK:
	case VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK:
	case VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK: return true;
	default: return format.compression == Compression::ASTC_LDR && format.IsSrgb();
	}
}

bool CanDecodeBlock(const FormatInfo& format) {
	switch (format.compression) {
	case Compression::BC:
	case Compression::ETC2:
	case Compression::EAC: return format.TexelsPerBlock() == 16;
	case Compression::ASTC_LDR:
		return format.block_extent[2] == 1 && IsAstcFootprint(format.block_extent[0], format.block_extent[1]);
	default: return false;
	}
}

bool DecodeBlock(const FormatInfo& format, const uint8_t* block, TexelValue* out, SrgbDecode srgb) {
	if (!CanDecodeBlock(format)) return false;
	const uint32_t count = format.TexelsPerBlock();
	const bool is_srgb = IsSrgbBlockFormat(format);
	if (format.compression == Compression::ASTC_LDR) {
		// Illegal and reserved encodings decode to the error color, which is
		// the defined result, so DecodeAstcBlock's false is not a failure.
		float rgba[kAstcMaxBlockTexels * 4];
		DecodeAstcBlock(block, format.block_extent[0], format.block_extent[1], is_srgb, rgba);
		for (uint32_t i = 0; i < count; ++i)
			for (int c = 0; c < 4; ++c) out[i].f[c] = rgba[4 * i + c];
	} else if (!DecodeEncoded(format.format, block, out)) {
		return false;
	}
	if (srgb == SrgbDecode::Linearize && is_srgb)
		for (uint32_t i = 0; i < count; ++i)
			for (int c = 0; c < 3; ++c) out[i].f[c] = SrgbToLinear(out[i].f[c]);
	return true;
}

}  // namespace tessera::texture
