// SHA-256 against the FIPS 180-4 / NIST CAVP example digests, including the
// padding cases at the 55/56/64-byte boundaries and input split across calls.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "runtime/sha256.h"
#include "skip.h"

namespace {

std::string Hex(const tessera::Sha256Digest& digest) {
	std::string out;
	char hex[3];
	for (uint8_t b : digest) {
		std::snprintf(hex, sizeof hex, "%02x", b);
		out += hex;
	}
	return out;
}

std::string HashOf(const std::string& text) {
	return Hex(tessera::Sha256Of({reinterpret_cast<const uint8_t*>(text.data()), text.size()}));
}

}  // namespace

TEST_CASE("SHA-256 gives the FIPS 180-4 example digests", "[sha256]") {
	CHECK(HashOf("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	CHECK(HashOf("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	// 56 bytes: the length no longer fits in the first block.
	CHECK(HashOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
	      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	CHECK(HashOf(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("SHA-256 of input split across updates equals the whole", "[sha256]") {
	std::string text;
	for (int i = 0; i < 200; ++i) text += char('a' + i % 26);
	for (size_t split : {0, 1, 55, 56, 63, 64, 65, 128, 200}) {
		CAPTURE(split);
		tessera::Sha256 hash;
		hash.Update(text.data(), split);
		hash.Update(text.data() + split, text.size() - split);
		CHECK(Hex(hash.Finish()) == HashOf(text));
	}
	tessera::Sha256 words;
	words.UpdateU32(0x64636261);  // "abcd" little-endian
	CHECK(Hex(words.Finish()) == HashOf("abcd"));
}

TEST_CASE("SHA-256's compression with the x86 SHA extensions equals the portable one", "[sha256]") {
	if (!tessera::sha256::HasShaExtensions()) {
		tessera::test::NoteSkipped("this CPU has no SHA extensions: nothing to compare");
		return;
	}
	uint32_t seed = 1;
	auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
	std::vector<uint8_t> blocks(64 * 9);
	for (int round = 0; round < 200; ++round) {
		for (uint8_t& b : blocks) b = uint8_t(next() >> 24);
		uint32_t portable[8], extensions[8];
		for (int i = 0; i < 8; ++i) portable[i] = extensions[i] = next();
		const size_t count = 1 + round % 9;
		tessera::sha256::CompressPortable(portable, blocks.data(), count);
		tessera::sha256::CompressShaExtensions(extensions, blocks.data(), count);
		for (int i = 0; i < 8; ++i) REQUIRE(portable[i] == extensions[i]);
	}
}
