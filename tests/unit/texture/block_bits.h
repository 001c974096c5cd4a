// Test helpers that build compressed blocks bit by bit, the way the Data
// Format Specification's layout tables describe them.
#pragma once

#include <array>
#include <cstdint>

#include "texture/compressed.h"
#include "texture/format.h"

namespace tessera::test {

// Appends fields to a little-endian bit string (S3TC, RGTC, BPTC), lowest
// bit first.
class BitWriter {
public:
	BitWriter& Put(uint32_t value, int bits) {
		for (int i = 0; i < bits; ++i, ++position_)
			if (value >> i & 1) bytes_[position_ >> 3] |= uint8_t(1 << (position_ & 7));
		return *this;
	}
	int position() const { return position_; }
	const uint8_t* data() const { return bytes_.data(); }
	const std::array<uint8_t, 16>& bytes() const { return bytes_; }

private:
	std::array<uint8_t, 16> bytes_{};
	int position_ = 0;
};

// A big-endian 64-bit ETC2/EAC word built by bit ranges hi..lo.
struct EtcWord {
	uint64_t value = 0;
	EtcWord& Set(int hi, int lo, uint64_t field) {
		const uint64_t mask = ((uint64_t(1) << (hi - lo + 1)) - 1) << lo;
		value = (value & ~mask) | (field << lo & mask);
		return *this;
	}
	void Store(uint8_t* bytes) const {
		for (int i = 0; i < 8; ++i) bytes[i] = uint8_t(value >> (56 - 8 * i));
	}
};

struct DecodedBlock {
	texture::TexelValue texel[16];
	// Texel (x, y) of the 4x4 block.
	const float* at(int x, int y) const { return texel[4 * y + x].f; }
};

inline DecodedBlock Decode(VkFormat format, const uint8_t* block,
                           texture::SrgbDecode srgb = texture::SrgbDecode::Keep) {
	DecodedBlock out{};
	const texture::FormatInfo* info = texture::FindFormat(format);
	if (!info || !texture::DecodeBlock(*info, block, out.texel, srgb))
		for (auto& t : out.texel) t.f[0] = t.f[1] = t.f[2] = t.f[3] = -1234.0f;  // fails every check
	return out;
}

}  // namespace tessera::test
