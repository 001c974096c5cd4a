// The ASTC decoder against Arm's reference codec, astcenc (Debian package
// astcenc): images it encodes at every 2D footprint, and random 16-byte
// blocks (mostly illegal encodings), decoded by both. Skips (with a warning)
// when the astcenc tool is not installed.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "skip.h"
#include "texture/decode_astc.h"
#include "texture/float_formats.h"

using namespace tessera::texture;
namespace fs = std::filesystem;

namespace {

constexpr uint32_t kFootprints[][2] = {{4, 4}, {5, 4},  {5, 5},  {6, 5},  {6, 6},   {8, 5},   {8, 6},
                                       {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12}};

bool HaveAstcenc() { return std::system("command -v astcenc > /dev/null 2>&1") == 0; }

std::vector<uint8_t> ReadFile(const fs::path& path) {
	std::ifstream in(path, std::ios::binary);
	return {std::istreambuf_iterator<char>(in), {}};
}

void WriteFile(const fs::path& path, const std::vector<uint8_t>& bytes) {
	std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

struct Image {
	uint32_t width = 0, height = 0;
	std::vector<uint8_t> rgba;  // top row first
};

// Uncompressed 32-bit Targa, top-left origin.
void WriteTga(const fs::path& path, const Image& image) {
	std::vector<uint8_t> bytes(18, 0);
	bytes[2] = 2;  // uncompressed true-color
	bytes[12] = static_cast<uint8_t>(image.width), bytes[13] = static_cast<uint8_t>(image.width >> 8);
	bytes[14] = static_cast<uint8_t>(image.height), bytes[15] = static_cast<uint8_t>(image.height >> 8);
	bytes[16] = 32;
	bytes[17] = 0x28;  // 8 alpha bits, top-left origin
	for (size_t i = 0; i < image.rgba.size(); i += 4) {
		const uint8_t* p = &image.rgba[i];
		bytes.insert(bytes.end(), {p[2], p[1], p[0], p[3]});  // BGRA
	}
	WriteFile(path, bytes);
}

// A test picture: gradients, a hard edge, noise, and varying alpha, so that
// the encoder picks many block modes, partitionings and endpoint modes.
Image MakeTestImage(uint32_t width, uint32_t height) {
	Image image{width, height, std::vector<uint8_t>(size_t{width} * height * 4)};
	std::mt19937 rng(7);
	for (uint32_t y = 0; y < height; ++y) {
		for (uint32_t x = 0; x < width; ++x) {
			uint8_t* p = &image.rgba[(size_t{y} * width + x) * 4];
			uint32_t noise = rng() & 0x3F;
			bool edge = (x * 3 + y * 5) % 23 < 11;
			p[0] = static_cast<uint8_t>(x * 255 / (width - 1));
			p[1] = static_cast<uint8_t>(edge ? y * 255 / (height - 1) : 255 - noise);
			p[2] = static_cast<uint8_t>(((x ^ y) & 8) ? 200 + noise / 2 : noise);
			p[3] = static_cast<uint8_t>(y < height / 3 ? 255 : (x * 7 + y * 3 + noise) & 0xFF);
		}
	}
	return image;
}

struct AstcFile {
	uint32_t block_width, block_height, width, height;
	std::vector<uint8_t> blocks;
};

// The .astc container: magic 0x5CA1AB13, block dimensions (3 bytes), image
// dimensions (3 x 24 bits), then the blocks in raster order.
bool ParseAstcFile(const std::vector<uint8_t>& bytes, AstcFile* out) {
	if (bytes.size() < 16 || bytes[0] != 0x13 || bytes[1] != 0xAB || bytes[2] != 0xA1 || bytes[3] != 0x5C) return false;
	auto u24 = [&](size_t at) { return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16); };
	*out = {bytes[4], bytes[5], static_cast<uint32_t>(u24(7)), static_cast<uint32_t>(u24(10)),
	        std::vector<uint8_t>(bytes.begin() + 16, bytes.end())};
	return true;
}

std::vector<uint8_t> AstcFileBytes(const AstcFile& file) {
	std::vector<uint8_t> bytes = {
	    0x13, 0xAB, 0xA1, 0x5C, static_cast<uint8_t>(file.block_width), static_cast<uint8_t>(file.block_height), 1};
	for (uint32_t v : {file.width, file.height, 1u})
		bytes.insert(bytes.end(),
		             {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v >> 16)});
	bytes.insert(bytes.end(), file.blocks.begin(), file.blocks.end());
	return bytes;
}

// An uncompressed KTX 1 file as astcenc writes it: RGBA, 8-bit
// (GL_UNSIGNED_BYTE) or FP16 (GL_HALF_FLOAT) channels, bytes as stored.
bool ParseKtxRgba(const std::vector<uint8_t>& bytes, uint32_t gl_type_wanted, uint32_t bytes_per_channel, Image* out) {
	if (bytes.size() < 68) return false;
	auto u32 = [&](size_t at) {
		return uint32_t{bytes[at]} | uint32_t{bytes[at + 1]} << 8 | uint32_t{bytes[at + 2]} << 16 |
		       uint32_t{bytes[at + 3]} << 24;
	};
	const uint32_t gl_type = u32(16), gl_format = u32(24), width = u32(36), height = u32(40), kv_bytes = u32(60);
	if (gl_type != gl_type_wanted || gl_format != 0x1908 /* GL_RGBA */) return false;
	size_t data = 64 + kv_bytes + 4;
	size_t size = size_t{width} * height * 4 * bytes_per_channel;
	if (bytes.size() < data + size) return false;
	*out = {width, height, std::vector<uint8_t>(bytes.begin() + data, bytes.begin() + data + size)};
	return true;
}
bool ParseKtxRgba8(const std::vector<uint8_t>& bytes, Image* out) { return ParseKtxRgba(bytes, 0x1401, 1, out); }

// Decodes a whole .astc image with DecodeAstcBlockUnorm16, then converts as
// astcenc 4.2 writes 8-bit files: the decode_float16 value times 255,
// rounded (astcenc 4.2 predates decode_unorm8 for 8-bit output). error_mask
// marks the texels that got the error color.
Image DecodeWithTessera(const AstcFile& file, bool srgb, std::vector<bool>* error_mask) {
	Image image{file.width, file.height, std::vector<uint8_t>(size_t{file.width} * file.height * 4)};
	error_mask->assign(size_t{file.width} * file.height, false);
	uint32_t blocks_x = (file.width + file.block_width - 1) / file.block_width;
	uint32_t blocks_y = (file.height + file.block_height - 1) / file.block_height;
	astc::Unorm16Texel texels[kAstcMaxBlockTexels];
	for (uint32_t by = 0; by < blocks_y; ++by) {
		for (uint32_t bx = 0; bx < blocks_x; ++bx) {
			astc::DecodeBlockToUnorm16(&file.blocks[(size_t{by} * blocks_x + bx) * 16], file.block_width,
			                           file.block_height, srgb, texels);
			for (uint32_t t = 0; t < file.block_height; ++t) {
				for (uint32_t s = 0; s < file.block_width; ++s) {
					uint32_t x = bx * file.block_width + s, y = by * file.block_height + t;
					if (x >= file.width || y >= file.height) continue;
					const astc::Unorm16Texel& texel = texels[t * file.block_width + s];
					(*error_mask)[size_t{y} * file.width + x] = texel.error;
					for (uint32_t ch = 0; ch < 4; ++ch) {
						uint16_t c = texel.c[ch];
						image.rgba[(size_t{y} * file.width + x) * 4 + ch] =
						    srgb ? static_cast<uint8_t>(c >> 8)
						         : static_cast<uint8_t>(std::lround(astc::Unorm16ToFloat16Value(c) * 255.0f));
					}
				}
			}
		}
	}
	return image;
}

// Counts texels that differ; reports the first. Texels we decode to the error
// color must be astcenc's error color too, which astcenc 4.2 writes to 8-bit
// files as (254, 0, 254, 254) in linear LDR and (255, 0, 255, 255) in sRGB;
// the Data Format Specification's magenta is (1.0, 0.0, 1.0, 1.0), so ours
// is 255s.
size_t CountMismatches(const Image& ours, const std::vector<bool>& error_mask, const Image& reference,
                       size_t* error_texels, std::string* first) {
	size_t mismatches = 0;
	auto texel = [](const Image& image, size_t i) {
		const uint8_t* p = &image.rgba[i * 4];
		return std::to_string(p[0]) + "," + std::to_string(p[1]) + "," + std::to_string(p[2]) + "," +
		       std::to_string(p[3]);
	};
	*error_texels = 0;
	for (size_t i = 0; i < error_mask.size(); ++i) {
		bool same;
		if (error_mask[i]) {
			++*error_texels;
			const uint8_t* r = &reference.rgba[i * 4];
			same = (r[0] == 254 || r[0] == 255) && r[1] == 0 && r[2] == r[0] && r[3] == r[0];
		} else {
			same = std::equal(&ours.rgba[i * 4], &ours.rgba[i * 4 + 4], &reference.rgba[i * 4]);
		}
		if (same) continue;
		if (mismatches++ == 0)
			*first = "texel " + std::to_string(i % ours.width) + "," + std::to_string(i / ours.width) + ": ours " +
			         texel(ours, i) + (error_mask[i] ? " (error)" : "") + ", astcenc " + texel(reference, i);
	}
	return mismatches;
}

struct TempDir {
	fs::path path = fs::temp_directory_path() / ("tessera_astc_" + std::to_string(::getpid()));
	TempDir() { fs::create_directories(path); }
	~TempDir() { fs::remove_all(path); }
};

// One case per footprint and profile; astcenc runs for all of them at once
// (its start-up, not the work, is what takes time).
struct Case {
	uint32_t width, height;
	bool srgb;
	std::string Name() const {
		return std::to_string(width) + "x" + std::to_string(height) + (srgb ? "_srgb" : "_linear");
	}
};

// Every footprint in linear LDR; sRGB differs only in the endpoint
// expansion, so three footprints cover it.
std::vector<Case> AllCases() {
	std::vector<Case> cases;
	for (const auto& f : kFootprints) cases.push_back({f[0], f[1], false});
	for (const auto& f : {kFootprints[0], kFootprints[5], kFootprints[13]}) cases.push_back({f[0], f[1], true});
	return cases;
}

// Runs the commands concurrently; the callers check the files they write.
void RunAll(const std::vector<std::string>& commands) {
	std::string script;
	for (const std::string& command : commands) script += command + " -j 1 > /dev/null 2>&1 &\n";
	script += "wait\n";
	std::system(script.c_str());
}

void CompareWithAstcenc(const AstcFile& file, const fs::path& ktx, bool srgb, bool expect_errors) {
	Image reference;
	REQUIRE(ParseKtxRgba8(ReadFile(ktx), &reference));
	REQUIRE(reference.width == file.width);
	REQUIRE(reference.height == file.height);
	std::string first;
	std::vector<bool> error_mask;
	size_t error_texels;
	Image ours = DecodeWithTessera(file, srgb, &error_mask);
	size_t mismatches = CountMismatches(ours, error_mask, reference, &error_texels, &first);
	INFO(first);
	CHECK(mismatches == 0);
	if (expect_errors) {
		// Both kinds occur, so the comparison covers legal and illegal blocks.
		CHECK(error_texels > 0);
		CHECK(error_texels < error_mask.size());
	} else {
		CHECK(error_texels == 0);  // astcenc encodes only legal blocks
	}
}

// decode_float16 bit for bit: astcenc's HDR-profile decode (-dh) of legal
// LDR blocks, which the HDR profile must decode as the LDR profile does
// ("HDR Profile Support"), written as FP16.
void CompareFloat16WithAstcenc(const AstcFile& file, const fs::path& ktx) {
	Image reference;
	REQUIRE(ParseKtxRgba(ReadFile(ktx), 0x140B /* GL_HALF_FLOAT */, 2, &reference));
	REQUIRE(reference.width == file.width);
	uint32_t blocks_x = (file.width + file.block_width - 1) / file.block_width;
	uint32_t blocks_y = (file.height + file.block_height - 1) / file.block_height;
	float texels[kAstcMaxBlockTexels * 4];
	size_t mismatches = 0;
	std::string first;
	for (uint32_t by = 0; by < blocks_y; ++by) {
		for (uint32_t bx = 0; bx < blocks_x; ++bx) {
			DecodeAstcBlock(&file.blocks[(size_t{by} * blocks_x + bx) * 16], file.block_width, file.block_height, false,
			                texels);
			for (uint32_t t = 0; t < file.block_height; ++t) {
				for (uint32_t s = 0; s < file.block_width; ++s) {
					uint32_t x = bx * file.block_width + s, y = by * file.block_height + t;
					if (x >= file.width || y >= file.height) continue;
					for (uint32_t ch = 0; ch < 4; ++ch) {
						const uint8_t* r = &reference.rgba[((size_t{y} * file.width + x) * 4 + ch) * 2];
						uint16_t theirs = static_cast<uint16_t>(r[0] | r[1] << 8);
						uint16_t ours = FloatToHalf(texels[(t * file.block_width + s) * 4 + ch]);
						if (ours != theirs && mismatches++ == 0)
							first = "texel " + std::to_string(x) + "," + std::to_string(y) + " channel " +
							        std::to_string(ch) + ": ours " + std::to_string(ours) + ", astcenc " +
							        std::to_string(theirs);
					}
				}
			}
		}
	}
	INFO(first);
	CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("ASTC decode matches astcenc's -dl/-ds decode of encoded images, every footprint", "[texture][astc]") {
	if (!HaveAstcenc()) {
		tessera::test::NoteSkipped("astcenc not installed (Debian package astcenc): comparison with it not run");
		return;
	}
	TempDir dir;
	const Image source = MakeTestImage(37, 29);
	WriteTga(dir.path / "in.tga", source);
	std::vector<std::string> encode, decode;
	for (const Case& c : AllCases()) {
		std::string base = (dir.path / c.Name()).string();
		encode.push_back(std::string("astcenc ") + (c.srgb ? "-cs " : "-cl ") + (dir.path / "in.tga").string() + " " +
		                 base + ".astc " + std::to_string(c.width) + "x" + std::to_string(c.height) + " -fast");
		decode.push_back(std::string("astcenc ") + (c.srgb ? "-ds " : "-dl ") + base + ".astc " + base + ".ktx");
		if (!c.srgb) decode.push_back("astcenc -dh " + base + ".astc " + base + "_f16.ktx");
	}
	RunAll(encode);
	RunAll(decode);
	for (const Case& c : AllCases()) {
		INFO(c.Name());
		AstcFile file;
		REQUIRE(ParseAstcFile(ReadFile(dir.path / (c.Name() + ".astc")), &file));
		REQUIRE(file.width == source.width);
		CompareWithAstcenc(file, dir.path / (c.Name() + ".ktx"), c.srgb, false);
		if (!c.srgb) CompareFloat16WithAstcenc(file, dir.path / (c.Name() + "_f16.ktx"));
	}
}

TEST_CASE("ASTC decode matches astcenc on random blocks, legal and illegal", "[texture][astc]") {
	if (!HaveAstcenc()) {
		tessera::test::NoteSkipped("astcenc not installed (Debian package astcenc): comparison with it not run");
		return;
	}
	TempDir dir;
	std::mt19937 rng(1234);
	std::vector<AstcFile> files;
	std::vector<std::string> decode;
	for (const Case& c : AllCases()) {
		AstcFile file{c.width, c.height, c.width * 16, c.height * 16, std::vector<uint8_t>(16 * 16 * 16)};
		for (uint8_t& byte : file.blocks) byte = static_cast<uint8_t>(rng());
		std::string base = (dir.path / c.Name()).string();
		WriteFile(base + ".astc", AstcFileBytes(file));
		decode.push_back(std::string("astcenc ") + (c.srgb ? "-ds " : "-dl ") + base + ".astc " + base + ".ktx");
		files.push_back(std::move(file));
	}
	RunAll(decode);
	for (size_t i = 0; i < files.size(); ++i) {
		const Case c = AllCases()[i];
		INFO(c.Name());
		CompareWithAstcenc(files[i], dir.path / (c.Name() + ".ktx"), c.srgb, true);
	}
}
