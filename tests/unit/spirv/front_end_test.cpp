#include <spirv-tools/libspirv.hpp>

#include <bit>
#include <cmath>
#include <string>

#include "../shader/run_shader.h"
#include "spirv/compile.h"
#include "spirv/newer_extensions.h"

using namespace tessera;

TEST_CASE("specialization constants set values and the workgroup size", "[spirv]") {
	struct {
		uint32_t size;
		uint32_t scale;
		uint32_t negate;
		float bias;
	} data{32, 3, 1, 0.25f};
	spirv::SpecializationEntry entries[] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}, {3, 12, 4}};
	spirv::Specialization spec{entries, {reinterpret_cast<const uint8_t*>(&data), sizeof(data)}};
	shader::Program program = test::CompileShader("spec", spec);
	REQUIRE(program.workgroup_size[0] == 32);
	std::vector<float> out(1024, 7.0f);
	test::Bindings bindings;
	bindings.Bind(0, out);
	REQUIRE(test::Dispatch(program, bindings, 4) == shader::RunStatus::kSuccess);
	for (uint32_t i = 1; i < 128; ++i) REQUIRE(out[i] == -(static_cast<float>(i * 3) + 0.25f));
	REQUIRE(out[1023] == 32.0f);

	shader::Program defaults = test::CompileShader("spec");
	REQUIRE(defaults.workgroup_size[0] == 1);
	std::vector<float> out2(1024, 7.0f);
	bindings.Bind(0, out2);
	REQUIRE(test::Dispatch(defaults, bindings, 8) == shader::RunStatus::kSuccess);
	for (uint32_t i = 1; i < 8; ++i) REQUIRE(out2[i] == static_cast<float>(i * 2) + 0.5f);
}

TEST_CASE("GLSL.std.450 functions, matrices and local arrays match the host", "[spirv][glsl]") {
	shader::Program program = test::CompileShader("glsl450");
	const uint32_t n = 32;
	std::vector<float> in(n * 4);
	for (uint32_t i = 0; i < in.size(); ++i) in[i] = std::sin(static_cast<float>(i) * 1.7f) * 3.0f;
	std::vector<float> uniforms(20);
	for (uint32_t k = 0; k < 16; ++k) uniforms[k] = static_cast<float>(k) * 0.5f - 2.0f;  // column-major
	for (uint32_t k = 0; k < 4; ++k) uniforms[16 + k] = static_cast<float>(k) + 0.125f;
	std::vector<float> out(n * 24);
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, uniforms);
	bindings.Bind(2, out);
	REQUIRE(test::Dispatch(program, bindings, n / 16) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < n; ++i) {
		const float* x = &in[i * 4];
		const float* o = &out[i * 24];
		INFO("invocation " << i);
		auto near = [](float a, float b) { return std::fabs(a - b) <= 1e-5f * std::max(1.0f, std::fabs(b)); };
		CHECK(near(o[0], std::sqrt(std::fabs(x[0]))));
		CHECK(o[1] == std::floor(x[1]));
		CHECK(near(o[2], x[2] - std::floor(x[2])));
		CHECK(o[3] == std::fmin(std::fmax(x[3], -1.0f), 1.0f));
		CHECK(near(o[4], x[0] + (x[1] - x[0]) * 0.25f));
		CHECK(near(o[5], std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2])));
		CHECK(near(o[6], x[0] + 2 * x[1] + 3 * x[2] + 4 * x[3]));
		CHECK(near(o[7], x[1]));   // cross(x, (0,0,1)).x = x.y
		CHECK(near(o[8], -x[0]));  // .y = -x.x
		float nx = x[0] + 0.001f, ny = x[1] + 0.001f, nz = x[2] + 0.001f;
		CHECK(near(o[9], nz / std::sqrt(nx * nx + ny * ny + nz * nz)));
		CHECK(near(o[10], std::sin(x[0])));
		CHECK(near(o[11], std::exp2(x[1] * 0.1f)));
		CHECK(near(o[12], std::pow(std::fabs(x[2]) + 1.0f, 1.5f)));
		float t = std::fmin(std::fmax(x[3] / 4.0f, 0.0f), 1.0f);
		CHECK(near(o[13], t * t * (3 - 2 * t)));
		CHECK(o[14] == (x[0] < 1.0f ? 0.0f : 1.0f));
		for (uint32_t r = 0; r < 4; ++r) {
			float e = uniforms[16 + r];
			for (uint32_t c = 0; c < 4; ++c) e += uniforms[c * 4 + r] * x[c];
			CHECK(near(o[15 + r], e));
		}
		CHECK(o[19] == static_cast<float>((i % 8) * (i % 8)) + x[0]);
		CHECK(near(o[20], std::atan2(x[1], x[0])));
		CHECK(o[21] == std::fmax(x[0], x[2]));
		CHECK(std::bit_cast<uint32_t>(o[22]) == 0xff804000u);
		CHECK(near(o[23], 1.0f / std::sqrt(std::fabs(x[3]) + 1.0f)));
	}
}

TEST_CASE("an unsupported capability is rejected with its name", "[spirv]") {
	// saxpy with OpCapability SampledRect added after the header.
	std::vector<uint32_t> words = test::LoadSpirv("saxpy");
	words.insert(words.begin() + 5, {(2u << 16) | 17u, 37u});
	auto result = spirv::Compile(words, spirv::Stage::kCompute, "main");
	REQUIRE(!result);
	INFO(result.error().message);
	REQUIRE(result.error().message.find("capability SampledRect") != std::string::npos);
}

TEST_CASE("malformed SPIR-V is rejected with a message, never a crash", "[spirv]") {
	std::vector<uint32_t> words = test::LoadSpirv("saxpy");
	SECTION("empty") { REQUIRE(!spirv::Compile({}, spirv::Stage::kCompute, "main")); }
	SECTION("bad magic") {
		words[0] = 0x12345678;
		auto result = spirv::Compile(words, spirv::Stage::kCompute, "main");
		REQUIRE(!result);
		REQUIRE(!result.error().message.empty());
	}
	SECTION("truncated") {
		for (size_t size : {size_t{3}, size_t{5}, words.size() / 2, words.size() - 1}) {
			std::vector<uint32_t> cut(words.begin(), words.begin() + size);
			REQUIRE(!spirv::Compile(cut, spirv::Stage::kCompute, "main"));
			REQUIRE(!spirv::Validate(cut).empty());
		}
	}
	SECTION("garbage after the header") {
		for (size_t k = 5; k < words.size(); k += 3) words[k] = static_cast<uint32_t>(k * 2654435761u);
		REQUIRE(!spirv::Compile(words, spirv::Stage::kCompute, "main"));
	}
	SECTION("valid module, wrong entry point name") {
		auto result = spirv::Compile(words, spirv::Stage::kCompute, "missing");
		REQUIRE(!result);
		REQUIRE(result.error().message.find("missing") != std::string::npos);
	}
	SECTION("valid") { REQUIRE(spirv::Validate(words).empty()); }
}

TEST_CASE("matrices: layouts in memory and matrix arithmetic", "[spirv][matrix]") {
	shader::Program program = test::CompileShader("matrix");
	// std140: mat3 a at 0 (3 columns, stride 16), row-major mat3 b at 48 (3 rows, stride 16), vec3 v at 96.
	std::vector<float> params(28, 0.0f);
	float a[3][3], b[3][3], v[3] = {0.5f, -1.0f, 2.0f};  // [column][row]
	for (int c = 0; c < 3; ++c)
		for (int r = 0; r < 3; ++r) {
			a[c][r] = static_cast<float>(c * 3 + r + 1) * (r == c ? 2.0f : 0.5f);
			b[c][r] = static_cast<float>((c + 2 * r) % 5) - 1.5f;
			params[c * 4 + r] = a[c][r];
			params[12 + r * 4 + c] = b[c][r];
		}
	for (int r = 0; r < 3; ++r) params[24 + r] = v[r];
	std::vector<float> out(6 + 4 * 16 + 2, -1.0f);
	test::Bindings bindings;
	bindings.Bind(0, params);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	auto near = [](float x, float y) { return std::fabs(x - y) <= 1e-4f * std::max(1.0f, std::fabs(y)); };
	// stored: row-major mat2x3 (2 columns of 3): element (c, r) at r * 8 + c * 4 bytes (std430 stride 8).
	CHECK(out[0] == 1.0f);
	CHECK(out[1] == 4.0f);
	CHECK(out[2] == 2.0f);
	CHECK(out[3] == 5.0f);
	CHECK(out[4] == 3.0f);
	CHECK(out[5] == 6.0f);
	for (uint32_t i = 0; i < 4; ++i) {
		const float* o = &out[6 + i * 16];
		float s = static_cast<float>(i + 1);
		INFO("invocation " << i);
		for (int r = 0; r < 3; ++r) {
			float av = 0, va = 0;
			for (int c = 0; c < 3; ++c) av += a[c][r] * s * v[c], va += v[c] * b[r][c];
			CHECK(near(o[r], av));
			CHECK(near(o[3 + r], va));
		}
		auto ab = [&](int c, int r) {
			float sum = 0;
			for (int k = 0; k < 3; ++k) sum += a[k][r] * s * b[c][k];
			return sum;
		};
		CHECK(near(o[6], ab(0, 0)));
		CHECK(near(o[7], ab(1, 2)));
		CHECK(near(o[8], ab(2, 1)));
		CHECK(o[9] == b[1][0]);
		CHECK(o[10] == b[0][2]);
		CHECK(o[11] == v[1] * 3.0f);
		float det = a[0][0] * (a[1][1] * a[2][2] - a[2][1] * a[1][2]) -
		            a[1][0] * (a[0][1] * a[2][2] - a[2][1] * a[0][2]) +
		            a[2][0] * (a[0][1] * a[1][2] - a[1][1] * a[0][2]);
		CHECK(near(o[12], det * s * s * s));
		CHECK(near(o[13], (a[0][0] * a[1][1] - a[1][0] * a[0][1]) * s * s));
		CHECK(o[14] == b[1][2]);
		CHECK(o[15] == a[2][1]);
	}
}

TEST_CASE("descriptor arrays, structs, private globals, extended integer ops, return inside a loop", "[spirv][misc]") {
	shader::Program program = test::CompileShader("misc");
	REQUIRE(program.InvocationsPerWorkgroup() == 16);
	// std430 struct Item { uint key; vec2 pos; uint tags[3]; }: key 0, pos 8, tags 16..28, size 32.
	std::vector<uint32_t> items(16 * 8);
	for (uint32_t i = 0; i < 16; ++i) {
		items[i * 8 + 0] = i * 1000u + 7u;
		float y = static_cast<float>(i) * 0.25f;
		memcpy(&items[i * 8 + 3], &y, 4);
		items[i * 8 + 6] = i + 100u;
	}
	std::vector<uint32_t> out(16 * 8, 0xeeeeeeeeu), many0(1, 0), many1(1, 0), many2(1, 0);
	test::Bindings bindings;
	bindings.Bind(0, items);
	bindings.Bind(1, out);
	bindings.Bind(2, many0, 1, 0);
	bindings.Bind(2, many1, 1, 1);
	bindings.Bind(2, many2, 1, 2);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	REQUIRE(many0[0] == 1u);
	REQUIRE(many1[0] == 0u);
	REQUIRE(many2[0] == 10u);
	const uint32_t table[4] = {3, 1, 4, 1};
	for (uint32_t i = 0; i < 16; ++i) {
		const uint32_t* o = &out[i * 8];
		uint32_t key = i * 1000u + 7u;
		INFO("invocation " << i);
		CHECK(o[0] == key + i + 100u + 5u);
		CHECK(o[1] == items[i * 8 + 3]);
		CHECK(o[2] == key + 0xfffffff0u);
		CHECK(o[3] == (key + 0xfffffff0u < key ? 1u : 0u));
		uint64_t product = uint64_t{key} * 0x80000001u;
		CHECK(o[4] == (static_cast<uint32_t>(product >> 32) ^ static_cast<uint32_t>(product)));
		CHECK(o[5] == table[i % 4] + (i / 8) * 100u + (i % 8) * 10u);
		if (i < 10) {
			CHECK(o[6] == i * 7u);
			CHECK(o[7] == 0xeeeeeeeeu);
		} else {
			CHECK(o[6] == 0xeeeeeeeeu);
			CHECK(o[7] == 15u);
		}
	}
}

TEST_CASE("matrix inverse, 4x4 determinant, frexp, modf and packing", "[spirv][glsl]") {
	shader::Program program = test::CompileShader("glsl450_more");
	const float m[16] = {2, 0, 1, 0, 1, 3, 0, 0, 0, 1, 4, 1, 0, 0, 2, 5};  // column-major
	std::vector<float> in(20);
	std::copy(m, m + 16, in.begin());
	in[16] = 40.0f, in[17] = -2.75f, in[18] = 1.5f, in[19] = -0.25f;
	std::vector<float> out(16 + 12 + 14, -7.0f);
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	// inverse(m) * m == identity
	for (int c = 0; c < 4; ++c)
		for (int r = 0; r < 4; ++r) {
			float sum = 0;
			for (int k = 0; k < 4; ++k) sum += out[k * 4 + r] * m[c * 4 + k];
			CHECK(std::fabs(sum - (r == c ? 1.0f : 0.0f)) < 1e-5f);
		}
	// mat3 in std430: columns 16 bytes apart, at offset 64.
	for (int c = 0; c < 3; ++c)
		for (int r = 0; r < 3; ++r) {
			float sum = 0;
			for (int k = 0; k < 3; ++k) sum += out[16 + k * 4 + r] * m[c * 4 + k];
			CHECK(std::fabs(sum - (r == c ? 1.0f : 0.0f)) < 1e-5f);
		}
	const float* s = &out[28];  // det4 at offset 112
	// det by hand (cofactor expansion of the matrix above): 2*(3*(4*5-2*1)-1*(0)) ... computed on the host:
	double a[4][4];
	for (int c = 0; c < 4; ++c)
		for (int r = 0; r < 4; ++r) a[r][c] = m[c * 4 + r];
	double det = 0;
	for (int p = 0; p < 24; ++p) {  // Leibniz over all permutations
		int perm[4] = {0, 1, 2, 3}, idx = p;
		for (int k = 0; k < 4; ++k) {
			int j = k + idx % (4 - k);
			idx /= (4 - k);
			std::swap(perm[k], perm[j]);
		}
		int inversions = 0;
		for (int i = 0; i < 4; ++i)
			for (int j = i + 1; j < 4; ++j) inversions += perm[i] > perm[j];
		double term = inversions % 2 ? -1 : 1;
		for (int i = 0; i < 4; ++i) term *= a[i][perm[i]];
		det += term;
	}
	CHECK(std::fabs(s[0] - det) < 1e-4);
	CHECK(s[1] == 0.625f);  // 40 = 0.625 * 2^6
	int32_t exponent;
	memcpy(&exponent, &s[2], 4);
	CHECK(exponent == 6);
	CHECK(s[3] == -0.75f);
	CHECK(s[4] == -2.0f);
	uint32_t packed;
	memcpy(&packed, &s[5], 4);
	CHECK(packed == 0xb4003e00u);  // half(1.5) = 0x3e00, half(-0.25) = 0xb400
	CHECK(s[6] == 1.5f);
	CHECK(s[7] == -0.25f);
	CHECK(s[8] == 0.0f);
	CHECK(std::fabs(s[9] - 64.0f / 255.0f) < 1e-6f);
	CHECK(s[10] == 1.0f);
	CHECK(std::fabs(s[11] - 128.0f / 255.0f) < 1e-6f);
}

TEST_CASE("descriptor arrays indexed at run time pick each lane's buffer", "[spirv][descriptors]") {
	shader::Program program = test::CompileShader("descriptors");
	std::vector<uint32_t> bufs[3];
	for (uint32_t k = 0; k < 3; ++k) {
		bufs[k].resize(64 + 16 * k);
		for (uint32_t j = 0; j < bufs[k].size(); ++j) bufs[k][j] = k * 1000 + j;
	}
	std::vector<uint32_t> out(64, 0);
	test::Bindings bindings;
	for (uint32_t k = 0; k < 3; ++k) bindings.Bind(0, bufs[k], 0, k);
	bindings.Bind(1, out);
	bindings.Push(uint32_t{2});
	REQUIRE(test::Dispatch(program, bindings, 4) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < 64; ++i) {
		uint32_t group = i / 16;
		uint32_t length = group < 3 ? static_cast<uint32_t>(bufs[group].size()) : 0u;
		REQUIRE(out[i] == 2000 + i + 2 + length * 100000u);
	}
	for (uint32_t k = 0; k < 3; ++k) REQUIRE(bufs[k][1] == k * 1000 + 2);
}

TEST_CASE("FloatControls2's permissions are removed, leaving a module SPIRV-Tools knows", "[spirv]") {
	std::vector<uint32_t> words = test::LoadSpirv("float_controls2");
	const size_t before = words.size();
	REQUIRE(spirv::RemoveFloatControls2(words));
	// The capability (2 words), the extension (7), the execution mode (5)
	// and the decoration (4) are gone, the one arithmetic result (OpFAdd)
	// is NoContraction (3); the rest validates and compiles.
	CHECK(words.size() == before - 18 + 3);
	uint32_t no_contraction = 0, fadd = 0;
	for (size_t i = 5; i < words.size(); i += words[i] >> 16) {
		const uint32_t opcode = words[i] & 0xffff;
		if (opcode == 71 && words[i + 2] == 42) no_contraction = words[i + 1];   // OpDecorate NoContraction
		if (opcode == 129) fadd = words[i + 2];                                  // OpFAdd
		CHECK_FALSE((opcode == 17 && words[i + 1] == 6029));                     // OpCapability FloatControls2
		CHECK_FALSE(((opcode == 16 || opcode == 331) && words[i + 2] == 6028));  // FPFastMathDefault
		CHECK_FALSE((opcode == 71 && words[i + 2] == 40));                       // OpDecorate FPFastMathMode
	}
	CHECK(no_contraction != 0);
	CHECK(no_contraction == fadd);
	CHECK(spirv::Validate(words) == "");
	CHECK(spirv::Compile(words, spirv::Stage::kCompute, "main"));
	// A module without the capability is left as it is.
	const std::vector<uint32_t> stripped = words;
	CHECK_FALSE(spirv::RemoveFloatControls2(words));
	CHECK(words == stripped);
}

TEST_CASE("MaximallyReconvergesKHR is removed, leaving a module SPIRV-Tools knows", "[spirv]") {
	std::vector<uint32_t> words = test::LoadSpirv("maximal_reconvergence");
	const size_t before = words.size();
	REQUIRE(spirv::RemoveMaximalReconvergence(words));
	// The extension (9 words) and the execution mode (3) are gone.
	CHECK(words.size() == before - 12);
	CHECK(spirv::Validate(words) == "");
	CHECK(spirv::Compile(words, spirv::Stage::kCompute, "main"));
	const std::vector<uint32_t> stripped = words;
	CHECK_FALSE(spirv::RemoveMaximalReconvergence(words));
	CHECK(words == stripped);
}

TEST_CASE("quad votes become clustered reductions over quads and vote per quad", "[spirv][subgroup]") {
	std::vector<uint32_t> words = test::LoadSpirv("quad_control");
	REQUIRE(spirv::RewriteQuadControl(words));
	REQUIRE(spirv::Validate(words) == "");
	auto compiled = spirv::Compile(words, spirv::Stage::kCompute, "main");
	REQUIRE(compiled);
	// Quads of every kind: all nonzero, some, none.
	std::vector<uint32_t> data(32);
	for (uint32_t i = 0; i < 32; ++i) data[i] = (i / 4) % 3 == 0 ? 7 : (i / 4) % 3 == 1 ? (i % 2) : 0;
	std::vector<uint32_t> expected(32);
	for (uint32_t q = 0; q < 8; ++q) {
		bool all = true, any = false;
		for (uint32_t l = 0; l < 4; ++l) all &= data[4 * q + l] != 0, any |= data[4 * q + l] != 0;
		for (uint32_t l = 0; l < 4; ++l) expected[4 * q + l] = (all ? 1u : 0u) | (any ? 2u : 0u);
	}
	test::Bindings bindings;
	bindings.Bind(0, data);
	REQUIRE(test::Dispatch(compiled.value(), bindings, 1) == shader::RunStatus::kSuccess);
	CHECK(data == expected);
	CHECK_FALSE(spirv::RewriteQuadControl(words));  // nothing left to rewrite
}

TEST_CASE("replicated composites are spelled out constituent by constituent", "[spirv]") {
	std::vector<uint32_t> words = test::LoadSpirv("replicated_composites");
	REQUIRE(spirv::ExpandReplicatedComposites(words));
	REQUIRE(spirv::Validate(words) == "");
	auto compiled = spirv::Compile(words, spirv::Stage::kCompute, "main");
	REQUIRE(compiled);
	std::vector<uint32_t> data = {5};
	test::Bindings bindings;
	bindings.Bind(0, data);
	REQUIRE(test::Dispatch(compiled.value(), bindings, 1) == shader::RunStatus::kSuccess);
	CHECK(data[0] == 4 * 5 + (7 + 7) * 5);
	CHECK_FALSE(spirv::ExpandReplicatedComposites(words));
}

TEST_CASE("non-semantic instructions with forward references are removed", "[spirv]") {
	std::vector<uint32_t> words = test::LoadSpirv("relaxed_extended_instruction");
	REQUIRE(spirv::RemoveRelaxedExtendedInstructions(words));
	for (size_t i = 5; i < words.size(); i += words[i] >> 16) {
		const uint32_t opcode = words[i] & 0xffff;
		CHECK(opcode != 4433);  // OpExtInstWithForwardRefsKHR
		CHECK(opcode != 12);    // OpExtInst (all were non-semantic)
		CHECK(opcode != 11);    // OpExtInstImport
	}
	REQUIRE(spirv::Validate(words) == "");
	auto compiled = spirv::Compile(words, spirv::Stage::kCompute, "main");
	REQUIRE(compiled);
	std::vector<uint32_t> data = {21};
	test::Bindings bindings;
	bindings.Bind(0, data);
	REQUIRE(test::Dispatch(compiled.value(), bindings, 1) == shader::RunStatus::kSuccess);
	CHECK(data[0] == 42);
	CHECK_FALSE(spirv::RemoveRelaxedExtendedInstructions(words));
}

TEST_CASE("SPV_KHR_compute_shader_derivatives is renamed to the NV extension SPIRV-Tools knows",
          "[spirv][derivatives]") {
	std::vector<uint32_t> words = test::LoadSpirv("derivatives_quads");
	const size_t before = words.size();
	REQUIRE(spirv::RenameComputeShaderDerivatives(words));
	// "SPV_KHR_compute_shader_derivatives" takes 9 words, the NV name 9 as well.
	CHECK(words.size() == before);
	REQUIRE(spirv::Validate(words) == "");
	auto compiled = spirv::Compile(words, spirv::Stage::kCompute, "main");
	REQUIRE(compiled);
	CHECK(compiled->derivative_group == shader::DerivativeGroup::kQuads);
	// Two 4x4 workgroups: each invocation's fine x derivative of
	// v = x * x + 3y + 100 * group is that of its quad's row.
	std::vector<uint32_t> data(2 * 16 * 4, 0);
	test::Bindings bindings;
	bindings.Bind(0, data);
	REQUIRE(test::Dispatch(compiled.value(), bindings, 2) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < 32; ++i) {
		const uint32_t x = i % 4, y = i / 4 % 4;
		INFO("invocation " << i);
		CHECK(std::bit_cast<float>(data[4 * i]) == float(2 * (x & ~1u) + 1));
		CHECK(std::bit_cast<float>(data[4 * i + 1]) == 3.0f);
		CHECK(data[4 * i + 2] % 4 == (x & 1u) + 2 * (y & 1u));
	}
	const std::vector<uint32_t> renamed = words;
	CHECK_FALSE(spirv::RenameComputeShaderDerivatives(words));
	CHECK(words == renamed);
}

TEST_CASE("derivative groups without whole quads are rejected", "[spirv][derivatives]") {
	std::vector<uint32_t> words = test::LoadSpirv("derivatives_quads");
	spirv::RenameComputeShaderDerivatives(words);
	// OpExecutionMode %main LocalSize 4 4 1 becomes 4 3 1.
	bool found = false;
	for (size_t i = 5; i < words.size(); i += words[i] >> 16)
		if (words[i] == (6u << 16 | 16u) && words[i + 2] == 17u) words[i + 4] = 3, found = true;
	REQUIRE(found);
	auto result = spirv::Compile(words, spirv::Stage::kCompute, "main");
	REQUIRE_FALSE(result);
	INFO(result.error().message);
	CHECK(result.error().message.find("DerivativeGroupQuadsKHR") != std::string::npos);
}

TEST_CASE("a runtime array last in a uniform block validates with shaderUniformBufferUnsizedArray",
          "[spirv][uniform_unsized_array]") {
	std::vector<uint32_t> words = test::LoadSpirv("uniform_unsized_array");
	CHECK(spirv::Validate(words) != "");  // SPIRV-Tools' rule without the feature
	spirv::ValidationRules rules;
	rules.uniform_unsized_arrays = true;
	CHECK(spirv::Validate(words, rules) == "");
	auto compiled = spirv::Compile(words, spirv::Stage::kCompute, "main", {}, {false, rules});
	REQUIRE(compiled);
	// U: head, then 128 elements of the tail (std140: a vec4 each); the
	// array's length is the bound range's.
	constexpr uint32_t kLength = 128;
	std::vector<float> uniform(4 + 4 * kLength), out(4 * kLength, -1.0f);
	for (uint32_t k = 0; k < uniform.size(); ++k) uniform[k] = float(k % 37) - 5.0f;
	test::Bindings bindings;
	bindings.Bind(0, uniform);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(compiled.value(), bindings, kLength / 64) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < kLength; ++i)
		for (uint32_t c = 0; c < 4; ++c) {
			INFO("element " << i << ", component " << c);
			CHECK(out[4 * i + c] == uniform[4 + 4 * i + c] * uniform[c] + uniform[4 + 4 * 3 + c]);
		}
}

TEST_CASE("the validator's sized uniform arrays: the length constant's type found, moved or made",
          "[spirv][uniform_unsized_array]") {
	// %rt ends a Uniform Block; the unsigned 32-bit type comes after it
	// (moved before it), or there is none (made).
	const std::string head = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %u
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rt ArrayStride 16
OpMemberDecorate %U 0 Offset 0
OpDecorate %U Block
OpDecorate %u DescriptorSet 0
OpDecorate %u Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%rt = OpTypeRuntimeArray %v4
%U = OpTypeStruct %rt
%pU = OpTypePointer Uniform %U
%u = OpVariable %pU Uniform
)";
	const std::string tail = R"(
%c0 = OpConstant %index 0
%c2 = OpConstant %index 2
%pv4 = OpTypePointer Uniform %v4
%main = OpFunction %void None %fn
%l = OpLabel
%p = OpAccessChain %pv4 %u %c0 %c2
%x = OpLoad %v4 %p
OpReturn
OpFunctionEnd
)";
	spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
	for (const char* index : {"%index = OpTypeInt 32 0", "%index = OpTypeInt 32 1"}) {
		INFO(index);
		std::vector<uint32_t> words;
		REQUIRE(tools.Assemble(head + index + tail, &words));
		std::vector<uint32_t> sized;
		REQUIRE(spirv::WithSizedUniformArrays(words, &sized));
		CHECK(tools.Validate(sized));
		spirv::ValidationRules rules;
		rules.uniform_unsized_arrays = true;
		CHECK(spirv::Validate(words, rules) == "");
	}
	// Nothing to do in a module without one, nor for a Block that a storage
	// buffer uses too (its array must stay a runtime array there).
	std::vector<uint32_t> sized;
	CHECK_FALSE(spirv::WithSizedUniformArrays(test::LoadSpirv("derivatives_quads"), &sized));
	std::vector<uint32_t> shared;
	REQUIRE(tools.Assemble(head + "%index = OpTypeInt 32 0\n%pS = OpTypePointer StorageBuffer %U\n" + tail, &shared));
	CHECK_FALSE(spirv::WithSizedUniformArrays(shared, &sized));
}
