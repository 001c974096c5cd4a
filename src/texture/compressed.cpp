// The entry point of the block decoders: picks the decoder of a format and
// applies the sRGB transfer function (Data Format Specification 1.4
// §13.3) to the RGB of sRGB formats when asked to.
#include "texture/compressed.h"

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
		default: return false;
	}
}

bool CanDecodeBlock(const FormatInfo& format) {
	const Compression c = format.compression;
	return (c == Compression::BC || c == Compression::ETC2 || c == Compression::EAC) && format.TexelsPerBlock() == 16;
}

bool DecodeBlock(const FormatInfo& format, const uint8_t* block, TexelValue* out, SrgbDecode srgb) {
	if (!CanDecodeBlock(format)) return false;
	TexelValue texels[kMaxDecodedTexels];
	if (!DecodeEncoded(format.format, block, texels)) return false;
	if (srgb == SrgbDecode::Linearize && IsSrgbBlockFormat(format))
		for (TexelValue& t : texels)
			for (int c = 0; c < 3; ++c) t.f[c] = SrgbToLinear(t.f[c]);
	for (uint32_t i = 0; i < 16; ++i) out[i] = texels[i];
	return true;
}

}  // namespace tessera::texture
