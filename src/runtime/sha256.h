// SHA-256 (FIPS 180-4), for content keys that must not collide by accident:
// pipeline cache keys and the checksums of the values stored under them.
// Not for secrets (no constant-time guarantees are needed or made).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace tessera {

using Sha256Digest = std::array<uint8_t, 32>;

class Sha256 {
public:
	Sha256();
	void Update(std::span<const uint8_t> bytes);
	void Update(const void* data, size_t size) { Update({static_cast<const uint8_t*>(data), size}); }
	// Little-endian, so that keys do not depend on the host's byte order.
	void UpdateU32(uint32_t value);
	Sha256Digest Finish();

private:
	void Compress(const uint8_t* blocks, size_t count);

	uint32_t state_[8];
	uint8_t buffer_[64];
	size_t buffered_ = 0;
	uint64_t length_ = 0;  // bytes
};

// The compression function on `count` 64-byte blocks, two ways: portable
// C++, and the x86 SHA extensions (SHA-NI, with SSE4.1) where the CPU has
// them, which Sha256 then uses. Exposed so the tests can compare them.
namespace sha256 {
void CompressPortable(uint32_t state[8], const uint8_t* blocks, size_t count);
bool HasShaExtensions();
void CompressShaExtensions(uint32_t state[8], const uint8_t* blocks, size_t count);  // HasShaExtensions() only
}  // namespace sha256

inline Sha256Digest Sha256Of(std::span<const uint8_t> bytes) {
	Sha256 hash;
	hash.Update(bytes);
	return hash.Finish();
}

}  // namespace tessera
