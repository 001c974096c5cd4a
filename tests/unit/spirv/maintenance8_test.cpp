// VK_KHR_maintenance8 in the SPIR-V front end: with the feature, the Offset
// image operand of OpImageSample* and OpImageFetch passes validation (the
// system's SPIRV-Tools refuses it outside gathers) and is translated as a
// per-lane offset; OpSRem and OpSMod follow SPIR-V for negative operands.
#include <cstdint>
#include <vector>

#include "../shader/run_shader.h"
#include "spirv/compile.h"

using namespace tessera;

TEST_CASE("the Offset image operand outside gathers needs maintenance8", "[spirv][validation][maintenance8]") {
	std::vector<uint32_t> words = test::LoadSpirv("sample_offsets");
	REQUIRE(words.size() > 5);
	CHECK(spirv::Validate(words).find("Offset can only be used with OpImage*Gather") != std::string::npos);
	spirv::ValidationRules rules;
	rules.sample_offsets = true;
	CHECK(spirv::Validate(words, rules).empty());
	spirv::CompileOptions options;
	options.rules = rules;
	auto result = spirv::Compile(words, spirv::Stage::kCompute, "main", {}, options);
	if (!result) FAIL(result.error().message);
	// Two of the four lookups carry an offset, as registers (not constants).
	uint32_t with_offset = 0;
	for (const shader::ImageOperation& op : result.value().image_ops) with_offset += op.has_offset;
	CHECK(with_offset == 2);
}

TEST_CASE("an Offset image operand that is not an integer is refused, not stripped",
          "[spirv][validation][maintenance8]") {
	std::vector<uint32_t> words = test::LoadSpirv("sample_offsets");
	// Point the fetch's Offset operand at the float constant 0.5 instead.
	uint32_t half = 0, fetches = 0;
	for (size_t i = 5; i < words.size(); i += words[i] >> 16) {
		const uint32_t opcode = words[i] & 0xffff, count = words[i] >> 16;
		if (opcode == 43 /* OpConstant */ && count == 4 && words[i + 3] == 0x3f000000u) half = words[i + 2];
		if (opcode == 95 /* OpImageFetch */ && count == 8 && words[i + 5] == (0x2u | 0x10u)) {
			words[i + 7] = half;
			++fetches;
		}
	}
	REQUIRE(half != 0);
	REQUIRE(fetches == 1);
	spirv::ValidationRules rules;
	rules.sample_offsets = true;
	CHECK(spirv::Validate(words, rules).find("not an integer scalar or vector") != std::string::npos);
}

TEST_CASE("OpSRem takes the dividend's sign and OpSMod the divisor's", "[spirv][maintenance8]") {
	auto result = spirv::Compile(test::LoadSpirv("srem_smod"), spirv::Stage::kCompute, "main");
	if (!result) FAIL(result.error().message);
	std::vector<int32_t> in = {7, 3, -7, 3, 7, -3, -7, -3, 6,         -3, -6, 3, 0, -5, INT32_MIN, 7,
	                           5, 7, -5, 7, 5, -7, -5, -7, INT32_MAX, -2, -1, 2, 1, -2, 13,        13};
	std::vector<int32_t> out(in.size(), 0x55);
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(result.value(), bindings, 1) == shader::RunStatus::kSuccess);
	for (size_t i = 0; i < in.size(); i += 2) {
		const int32_t a = in[i], b = in[i + 1];
		INFO(a << " and " << b);
		const int32_t rem = a % b;  // C++: truncating division, the dividend's sign
		const int32_t mod = (rem != 0 && ((rem < 0) != (b < 0))) ? rem + b : rem;
		CHECK(out[i] == rem);
		CHECK(out[i + 1] == mod);
	}
	// The cases by hand (SPIR-V 1.6 §3.52.13).
	CHECK(out[2] == -1);  // -7 SRem 3
	CHECK(out[3] == 2);   // -7 SMod 3
	CHECK(out[4] == 1);   // 7 SRem -3
	CHECK(out[5] == -2);  // 7 SMod -3
	CHECK(out[6] == -1);  // -7 SRem -3
	CHECK(out[7] == -1);  // -7 SMod -3
}
