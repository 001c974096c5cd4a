// Vertex and fragment stages: the interface words (built-ins, Location and
// Component), discard, demotion and helper lanes, quad derivatives and
// execution modes.
#include <bit>
#include <cmath>

#include "run_shader.h"

using namespace tessera;
using shader::InterfaceBuiltin;
using shader::InterfaceWord;

namespace {

shader::Program CompileStage(const std::string& file, shader::Stage stage) {
	auto result = spirv::Compile(test::LoadSpirv(file), stage, "main");
	if (!result) FAIL(file << ": " << result.error().message);
	return std::move(result.value());
}

const InterfaceWord* FindBuiltin(const std::vector<InterfaceWord>& words, InterfaceBuiltin builtin,
                                 uint32_t index = 0) {
	for (const InterfaceWord& w : words)
		if (w.builtin == builtin && w.index == index) return &w;
	return nullptr;
}

const InterfaceWord* FindLocation(const std::vector<InterfaceWord>& words, uint32_t location, uint32_t component) {
	for (const InterfaceWord& w : words)
		if (w.builtin == InterfaceBuiltin::kNone && w.location == location && w.component == component) return &w;
	return nullptr;
}

// One lane group of a stage: the test writes input words, runs, reads output words.
struct StageRun {
	const shader::Program& program;
	uint32_t lanes;
	shader::Interpreter interpreter;
	StageRun(const shader::Program& p, uint32_t n) : program(p), lanes(n) { interpreter.BeginStage(program, lanes); }

	uint32_t* Words(const InterfaceWord* w) {
		REQUIRE(w != nullptr);
		return interpreter.StageWord(w->word);
	}
	uint32_t* In(InterfaceBuiltin builtin, uint32_t index = 0) {
		return Words(FindBuiltin(program.inputs, builtin, index));
	}
	uint32_t* In(uint32_t location, uint32_t component) {
		return Words(FindLocation(program.inputs, location, component));
	}
	uint32_t* Out(InterfaceBuiltin builtin, uint32_t index = 0) {
		return Words(FindBuiltin(program.outputs, builtin, index));
	}
	uint32_t* Out(uint32_t location, uint32_t component) {
		return Words(FindLocation(program.outputs, location, component));
	}
	void SetDouble(uint32_t location, uint32_t component, uint32_t lane, double value) {
		auto bits = std::bit_cast<uint64_t>(value);
		In(location + component / 4, component % 4)[lane] = static_cast<uint32_t>(bits);
		In(location + (component + 1) / 4, (component + 1) % 4)[lane] = static_cast<uint32_t>(bits >> 32);
	}
	double OutDouble(uint32_t location, uint32_t component, uint32_t lane) {
		uint64_t lo = Out(location, component)[lane], hi = Out(location, component + 1)[lane];
		return std::bit_cast<double>(lo | hi << 32);
	}
	void Run(const test::Bindings& bindings = {}) {
		std::vector<shader::BufferView> views;
		for (const shader::BindingSlot& slot : program.bindings) {
			auto it = bindings.buffers.find({slot.set, slot.binding, slot.array_element});
			views.push_back(it != bindings.buffers.end() ? it->second : shader::BufferView{});
		}
		shader::Resources resources{views, nullptr, 0};
		REQUIRE(interpreter.RunStage(program, resources) == shader::RunStatus::kSuccess);
	}
};

float F(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t U(float value) { return std::bit_cast<uint32_t>(value); }

}  // namespace

TEST_CASE("vertex built-ins and Location/Component interface words", "[shader][stage]") {
	shader::Program program = CompileStage("stage_io.vert", shader::Stage::kVertex);
	REQUIRE(program.stage == shader::Stage::kVertex);
	const auto& in = program.inputs;
	// Locations: ivec2 b[2] at 1 and 2, mat3 at 3..5, Component 1 and 3 at 6,
	// dvec3 at 7 (four words) and 8 (two words).
	CHECK(FindLocation(in, 2, 1)->kind == shader::ScalarKind::kSint);
	CHECK(FindLocation(in, 2, 2) == nullptr);
	CHECK(FindLocation(in, 5, 2) != nullptr);
	CHECK(FindLocation(in, 5, 3) == nullptr);
	CHECK(FindLocation(in, 6, 0) == nullptr);
	CHECK(FindLocation(in, 6, 3) != nullptr);
	CHECK(FindLocation(in, 7, 3) != nullptr);
	CHECK(FindLocation(in, 8, 1) != nullptr);
	CHECK(FindLocation(in, 8, 2) == nullptr);
	CHECK(FindLocation(in, 9, 0)->kind == shader::ScalarKind::kUint);

	const uint32_t lanes = 8;
	StageRun run(program, lanes);
	for (uint32_t l = 0; l < lanes; ++l) {
		float lf = static_cast<float>(l);
		const float a[4] = {lf, lf + 0.5f, 2 * lf, 3.0f};
		for (uint32_t k = 0; k < 4; ++k) run.In(0, k)[l] = U(a[k]);
		run.In(1, 0)[l] = 10 + l, run.In(1, 1)[l] = 20 + l, run.In(2, 0)[l] = 30 + l, run.In(2, 1)[l] = 40 + l;
		for (uint32_t c = 0; c < 3; ++c)
			for (uint32_t r = 0; r < 3; ++r) run.In(3 + c, r)[l] = U(static_cast<float>(100 * c + 10 * r + l));
		run.In(6, 1)[l] = U(0.25f * lf), run.In(6, 2)[l] = U(0.5f), run.In(6, 3)[l] = U(7.0f + lf);
		run.SetDouble(7, 0, l, 1.5 * l);
		run.SetDouble(7, 2, l, 2.25);
		run.SetDouble(8, 0, l, -static_cast<double>(l));
		run.In(9, 0)[l] = 5 + l;
		run.In(InterfaceBuiltin::kVertexIndex)[l] = 100 + l;
		run.In(InterfaceBuiltin::kInstanceIndex)[l] = 3;
		run.In(InterfaceBuiltin::kBaseVertex)[l] = 100;
		run.In(InterfaceBuiltin::kBaseInstance)[l] = 2;
		run.In(InterfaceBuiltin::kDrawIndex)[l] = 1;
	}
	run.Run();

	const auto& out = program.outputs;
	CHECK(FindLocation(out, 1, 0)->kind == shader::ScalarKind::kSint);
	CHECK(FindLocation(out, 1, 0)->interpolation == shader::InterfaceInterpolation::kFlat);
	CHECK(FindLocation(out, 11, 0) != nullptr);  // never written, still an output
	CHECK(FindBuiltin(out, InterfaceBuiltin::kClipDistance, 1) != nullptr);
	CHECK(FindBuiltin(out, InterfaceBuiltin::kClipDistance, 2) == nullptr);
	for (uint32_t l = 0; l < lanes; ++l) {
		INFO("lane " << l);
		float lf = static_cast<float>(l);
		CHECK(F(run.Out(InterfaceBuiltin::kPosition, 0)[l]) == lf);
		CHECK(F(run.Out(InterfaceBuiltin::kPosition, 1)[l]) == lf + 0.5f);
		CHECK(F(run.Out(InterfaceBuiltin::kPosition, 2)[l]) == 100.0f + lf);
		CHECK(F(run.Out(InterfaceBuiltin::kPosition, 3)[l]) == 3.0f);
		CHECK(F(run.Out(InterfaceBuiltin::kPointSize)[l]) == 220.0f);
		CHECK(F(run.Out(InterfaceBuiltin::kClipDistance, 0)[l]) == 330.0f + 3 * lf);
		CHECK(F(run.Out(InterfaceBuiltin::kClipDistance, 1)[l]) == 200.0f + lf);
		CHECK(F(run.Out(InterfaceBuiltin::kCullDistance, 0)[l]) == -1.0f);
		CHECK(F(run.Out(0, 0)[l]) == 0.25f * lf);
		CHECK(F(run.Out(0, 1)[l]) == 0.5f);
		CHECK(run.Out(1, 0)[l] == 40 + l);
		CHECK(F(run.Out(2, 0)[l]) == 7.0f + lf);
		CHECK(F(run.Out(2, 1)[l]) == 5.0f + lf);
		CHECK(F(run.Out(2, 2)[l]) == 120.0f + lf);
		CHECK(F(run.Out(3, 2)[l]) == 4 * lf);
		CHECK(run.OutDouble(4, 0, l) == 4.5);
		CHECK(run.OutDouble(4, 2, l) == -2.0 * l);
		CHECK(F(run.Out(5, 0)[l]) == 10.0f + lf);
		CHECK(F(run.Out(5, 2)[l]) == 30.0f + lf);
		CHECK(F(run.Out(7, 0)[l]) == 1.5f * lf);
		CHECK(run.Out(8, 0)[l] == 100 + l);
		CHECK(run.Out(9, 0)[l] == 3);
		CHECK(run.Out(10, 0)[l] == 3 * (5 + l));
	}
}

TEST_CASE("the lead's triangle shaders have the expected interface", "[shader][stage]") {
	shader::Program vert = CompileStage("triangle.vert", shader::Stage::kVertex);
	for (uint32_t c = 0; c < 2; ++c) CHECK(FindLocation(vert.inputs, 0, c) != nullptr);
	for (uint32_t c = 0; c < 3; ++c) CHECK(FindLocation(vert.inputs, 1, c) != nullptr);
	for (uint32_t c = 0; c < 3; ++c) CHECK(FindLocation(vert.outputs, 0, c) != nullptr);
	for (uint32_t c = 0; c < 4; ++c) CHECK(FindBuiltin(vert.outputs, InterfaceBuiltin::kPosition, c) != nullptr);
	shader::Program frag = CompileStage("triangle.frag", shader::Stage::kFragment);
	CHECK(FindLocation(frag.inputs, 0, 2)->interpolation == shader::InterfaceInterpolation::kSmooth);
	for (uint32_t c = 0; c < 4; ++c) CHECK(FindLocation(frag.outputs, 0, c)->kind == shader::ScalarKind::kFloat);
	CHECK(frag.discard_word == shader::Program::kNoWord);
	CHECK(frag.origin_upper_left);
	CHECK(!frag.writes_depth);
	CHECK(!frag.uses_derivatives);

	auto wrong = spirv::Compile(test::LoadSpirv("triangle.vert"), shader::Stage::kFragment, "main");
	REQUIRE(!wrong);
	CHECK(wrong.error().message.find("no Fragment entry point") != std::string::npos);
}

TEST_CASE("fragment derivatives over 2x2 quads, fine and coarse", "[shader][stage]") {
	shader::Program program = CompileStage("derivatives.frag", shader::Stage::kFragment);
	CHECK(program.uses_derivatives);
	CHECK(!program.sample_shading);
	CHECK(FindLocation(program.inputs, 1, 0)->interpolation == shader::InterfaceInterpolation::kFlat);
	CHECK(FindLocation(program.inputs, 1, 0)->kind == shader::ScalarKind::kSint);
	CHECK(FindLocation(program.inputs, 2, 0)->interpolation == shader::InterfaceInterpolation::kNoPerspective);
	CHECK(FindLocation(program.inputs, 2, 0)->centroid);
	CHECK(FindLocation(program.outputs, 2, 1)->kind == shader::ScalarKind::kSint);

	const uint32_t lanes = 16;  // four quads in a row, at y = 4 and 5
	StageRun run(program, lanes);
	auto pixel = [](uint32_t lane, uint32_t& x, uint32_t& y) {
		x = lane / 4 * 2 + (lane & 1u);
		y = 4 + (lane >> 1 & 1u);
	};
	auto f = [](uint32_t x, uint32_t y) {
		float u = static_cast<float>(x) * 0.5f, v = static_cast<float>(y) * 0.25f;
		return u * u + 3.0f * v * u;
	};
	for (uint32_t l = 0; l < lanes; ++l) {
		uint32_t x, y;
		pixel(l, x, y);
		run.In(0, 0)[l] = U(static_cast<float>(x) * 0.5f);
		run.In(0, 1)[l] = U(static_cast<float>(y) * 0.25f);
		run.In(1, 0)[l] = 42 + l / 4;
		run.In(2, 0)[l] = U(3.0f * static_cast<float>(x));
		run.In(InterfaceBuiltin::kFragCoord, 0)[l] = U(static_cast<float>(x) + 0.5f);
		run.In(InterfaceBuiltin::kFragCoord, 1)[l] = U(static_cast<float>(y) + 0.5f);
		run.In(InterfaceBuiltin::kFrontFacing)[l] = (l / 4) % 2;
	}
	run.Run();
	auto near = [](float a, float b) { return std::fabs(a - b) <= 1e-4f * std::max(1.0f, std::fabs(b)); };
	for (uint32_t l = 0; l < lanes; ++l) {
		INFO("lane " << l);
		uint32_t x, y;
		pixel(l, x, y);
		uint32_t x0 = x & ~1u, y0 = y & ~1u;
		float fine_x = f(x0 + 1, y) - f(x0, y), fine_y = f(x, y0 + 1) - f(x, y0);
		float coarse_x = f(x0 + 1, y0) - f(x0, y0), coarse_y = f(x0, y0 + 1) - f(x0, y0);
		CHECK(near(F(run.Out(0, 0)[l]), fine_x));
		CHECK(near(F(run.Out(0, 1)[l]), fine_y));
		CHECK(near(F(run.Out(0, 2)[l]), coarse_x));
		CHECK(near(F(run.Out(0, 3)[l]), coarse_y));
		CHECK(near(F(run.Out(1, 0)[l]), std::fabs(fine_x) + std::fabs(fine_y)));
		CHECK(near(F(run.Out(1, 1)[l]), std::fabs(coarse_x) + std::fabs(coarse_y)));
		CHECK(F(run.Out(1, 2)[l]) == 1.0f);
		CHECK(F(run.Out(1, 3)[l]) == 1.0f);
		CHECK(run.Out(2, 0)[l] == 42 + l / 4);
		CHECK(run.Out(2, 1)[l] == (l / 4) % 2);
		CHECK(F(run.Out(3, 0)[l]) == 3.0f * static_cast<float>(x));
		CHECK(F(run.Out(3, 1)[l]) == 3.0f);
	}
}

TEST_CASE("discard ends the lane and sets its discard word", "[shader][stage]") {
	shader::Program program = CompileStage("discard.frag", shader::Stage::kFragment);
	REQUIRE(program.discard_word != shader::Program::kNoWord);
	const uint32_t lanes = 8;
	std::vector<uint32_t> buffer(1 + lanes, 0);
	test::Bindings bindings;
	bindings.Bind(0, buffer);
	StageRun run(program, lanes);
	for (uint32_t l = 0; l < lanes; ++l) {
		run.In(0, 0)[l] = U(l % 3 == 0 ? -1.0f : static_cast<float>(l));
		run.In(InterfaceBuiltin::kFragCoord, 0)[l] = U(static_cast<float>(l) + 0.5f);
	}
	run.In(InterfaceBuiltin::kHelperInvocation)[7] = 1;  // a helper lane: its writes are dropped
	run.Run(bindings);
	CHECK(buffer[0] == lanes - 1);  // the atomic before the discard, not in the helper lane
	for (uint32_t l = 0; l < lanes; ++l) {
		INFO("lane " << l);
		bool discarded = l % 3 == 0;
		CHECK(run.interpreter.StageWord(program.discard_word)[l] == (discarded ? 1u : 0u));
		CHECK(buffer[1 + l] == (discarded || l == 7 ? 0u : 7u));
		CHECK(F(run.Out(0, 0)[l]) == (discarded ? 0.0f : static_cast<float>(l)));
		CHECK(F(run.Out(0, 3)[l]) == (discarded ? 0.0f : 3.0f));
	}

	shader::Program terminate = CompileStage("terminate.frag", shader::Stage::kFragment);
	REQUIRE(terminate.discard_word != shader::Program::kNoWord);
	StageRun run2(terminate, 4);
	for (uint32_t l = 0; l < 4; ++l) run2.In(0, 0)[l] = U(l == 2 ? -5.0f : 2.0f);
	run2.Run();
	for (uint32_t l = 0; l < 4; ++l) {
		CHECK(run2.interpreter.StageWord(terminate.discard_word)[l] == (l == 2 ? 1u : 0u));
		if (l != 2) CHECK(F(run2.Out(0, 0)[l]) == 2.0f);
	}
}

TEST_CASE("demoted and helper lanes run on for derivatives but write no buffers", "[shader][stage]") {
	shader::Program program = CompileStage("demote.frag", shader::Stage::kFragment);
	REQUIRE(program.discard_word != shader::Program::kNoWord);
	const uint32_t lanes = 8;
	std::vector<uint32_t> buffer(1 + lanes, 0);
	test::Bindings bindings;
	bindings.Bind(0, buffer);
	StageRun run(program, lanes);
	auto value = [](uint32_t l) { return l == 1 || l == 6 ? -1.0f - static_cast<float>(l) : static_cast<float>(l); };
	for (uint32_t l = 0; l < lanes; ++l) {
		run.In(0, 0)[l] = U(value(l));
		run.In(InterfaceBuiltin::kFragCoord, 0)[l] = U(static_cast<float>(l) + 0.5f);
	}
	run.In(InterfaceBuiltin::kHelperInvocation)[7] = 1;
	run.Run(bindings);
	CHECK(buffer[0] == 5);  // 8 lanes, 2 demoted, 1 helper
	for (uint32_t l = 0; l < lanes; ++l) {
		INFO("lane " << l);
		bool demoted = l == 1 || l == 6, helper = demoted || l == 7;
		CHECK(buffer[1 + l] == (helper ? 0u : 1u));
		CHECK(run.interpreter.StageWord(program.discard_word)[l] == (demoted ? 1u : 0u));
		uint32_t row = l & ~1u;
		CHECK(F(run.Out(0, 0)[l]) == value(row + 1) - value(row));  // dFdx sees the demoted lanes
		CHECK(F(run.Out(0, 1)[l]) == (helper ? 1.0f : 0.0f));
		CHECK(F(run.Out(0, 2)[l]) == (helper ? 1.0f : 0.0f));
	}
}

TEST_CASE("fragment execution modes and depth, sample mask and sample built-ins", "[shader][stage]") {
	shader::Program depth = CompileStage("depth.frag", shader::Stage::kFragment);
	CHECK(depth.writes_depth);
	CHECK(depth.depth_replacing);
	CHECK(!depth.early_fragment_tests);
	CHECK(!depth.sample_shading);
	CHECK(FindBuiltin(depth.outputs, InterfaceBuiltin::kSampleMask, 0)->kind == shader::ScalarKind::kSint);
	StageRun run(depth, 4);
	for (uint32_t l = 0; l < 4; ++l) {
		run.In(InterfaceBuiltin::kFragCoord, 0)[l] = U(1.5f + static_cast<float>(l));
		run.In(InterfaceBuiltin::kFragCoord, 1)[l] = U(2.5f);
		run.In(InterfaceBuiltin::kFragCoord, 2)[l] = U(0.125f * static_cast<float>(l));
		run.In(InterfaceBuiltin::kSampleMaskIn, 0)[l] = l;
		run.In(InterfaceBuiltin::kPointCoord, 0)[l] = U(0.75f);
		run.In(InterfaceBuiltin::kPointCoord, 1)[l] = U(0.25f);
	}
	run.Run();
	for (uint32_t l = 0; l < 4; ++l) {
		CHECK(F(run.Out(InterfaceBuiltin::kFragDepth)[l]) == 0.125f * static_cast<float>(l) + 0.25f);
		CHECK(run.Out(InterfaceBuiltin::kSampleMask, 0)[l] == 5 + l);
		CHECK(F(run.Out(0, 0)[l]) == 1.5f + static_cast<float>(l));
		CHECK(F(run.Out(0, 3)[l]) == 0.25f);
	}

	shader::Program early = CompileStage("early.frag", shader::Stage::kFragment);
	CHECK(early.early_fragment_tests);
	CHECK(early.sample_shading);
	CHECK(!early.writes_depth);
	CHECK(FindLocation(early.inputs, 0, 0)->per_sample);
	StageRun run2(early, 4);
	for (uint32_t l = 0; l < 4; ++l) {
		run2.In(0, 0)[l] = U(9.0f);
		run2.In(InterfaceBuiltin::kSampleId)[l] = l;
		run2.In(InterfaceBuiltin::kSamplePosition, 0)[l] = U(0.375f);
		run2.In(InterfaceBuiltin::kSamplePosition, 1)[l] = U(0.125f);
	}
	run2.Run();
	for (uint32_t l = 0; l < 4; ++l) {
		CHECK(F(run2.Out(0, 0)[l]) == 9.0f);
		CHECK(F(run2.Out(0, 1)[l]) == static_cast<float>(l));
		CHECK(F(run2.Out(0, 2)[l]) == 0.375f);
		CHECK(F(run2.Out(0, 3)[l]) == 0.125f);
	}
}

TEST_CASE("interpolateAtOffset and AtSample follow the quad's gradient", "[shader][stage]") {
	// The input is linear in the pixel position: 0.5 (x - 0.5), 0.25 (y - 0.5)
	// at a point (x, y) of the pixel grid, as the rasterizer evaluates it at
	// the pixel center, or with sample shading at the invocation's sample
	// (here sample 2 of 4, at (0.125, 0.625)), where FragCoord is too. The
	// functions give the value at their point whichever it was loaded at.
	shader::Program program = CompileStage("interpolate.frag", shader::Stage::kFragment);
	CHECK(program.uses_derivatives);
	for (uint32_t samples : {1u, 4u}) {
		for (bool sample_shading : {false, true}) {
			if (sample_shading && samples == 1) continue;
			INFO(samples << " samples, sample shading " << sample_shading);
			const float sx = sample_shading ? 0.125f - 0.5f : 0.0f, sy = sample_shading ? 0.625f - 0.5f : 0.0f;
			StageRun run(program, 8);
			for (uint32_t l = 0; l < 8; ++l) {
				float x = static_cast<float>(l / 4 * 2 + (l & 1u)), y = static_cast<float>(l >> 1 & 1u);
				run.In(0, 0)[l] = U((x + sx) * 0.5f);
				run.In(0, 1)[l] = U((y + sy) * 0.25f);
				run.In(InterfaceBuiltin::kFragCoord, 0)[l] = U(x + 0.5f + sx);
				run.In(InterfaceBuiltin::kFragCoord, 1)[l] = U(y + 0.5f + sy);
				run.In(InterfaceBuiltin::kSampleCount)[l] = samples;
			}
			run.Run();
			for (uint32_t l = 0; l < 8; ++l) {
				float x = static_cast<float>(l / 4 * 2 + (l & 1u)), y = static_cast<float>(l >> 1 & 1u);
				CHECK(F(run.Out(0, 0)[l]) == x * 0.5f + 0.125f);
				CHECK(F(run.Out(0, 1)[l]) == y * 0.25f - 0.03125f);
				CHECK(F(run.Out(0, 2)[l]) == (x + sx) * 0.5f);  // interpolateAtCentroid: as loaded
				CHECK(F(run.Out(0, 3)[l]) == (y + sy) * 0.25f);
				// Sample 1 of the standard 4-sample pattern is at (0.875, 0.375).
				CHECK(F(run.Out(1, 0)[l]) == x * 0.5f + (samples == 4 ? 0.1875f : 0.0f));
				CHECK(F(run.Out(1, 1)[l]) == y * 0.25f - (samples == 4 ? 0.03125f : 0.0f));
			}
		}
	}
}

TEST_CASE("interpolateAtOffset of an element picked per lane follows that element's gradient", "[shader][stage]") {
	// Element e of the input array is (e + 1) x + 10 e + y / 2 at pixel
	// (x, y); lane l picks element x % 4, so the lanes of a quad pick
	// different ones. Each result must be its element's value moved by the
	// offset (0.5, -0.25) along that element's own gradient.
	shader::Program program = CompileStage("interpolate_indexed.frag", shader::Stage::kFragment);
	StageRun run(program, 16);
	auto position = [](uint32_t l) { return std::pair<float, float>{float(l / 4 * 2 + (l & 1u)), float(l >> 1 & 1u)}; };
	for (uint32_t l = 0; l < 16; ++l) {
		auto [x, y] = position(l);
		for (uint32_t e = 0; e < 4; ++e) run.In(e, 0)[l] = U(float(e + 1) * x + 10.0f * float(e) + 0.5f * y);
		run.In(InterfaceBuiltin::kFragCoord, 0)[l] = U(x + 0.5f);
		run.In(InterfaceBuiltin::kFragCoord, 1)[l] = U(y + 0.5f);
	}
	run.Run();
	for (uint32_t l = 0; l < 16; ++l) {
		auto [x, y] = position(l);
		const uint32_t e = uint32_t(x) % 4;
		INFO("lane " << l << ", element " << e);
		CHECK(F(run.Out(0, 1)[l]) == float(e));
		const float at = float(e + 1) * x + 10.0f * float(e) + 0.5f * y;
		CHECK(F(run.Out(0, 0)[l]) == at + 0.5f * float(e + 1) - 0.125f);
	}
}

TEST_CASE("a geometry module compiles as the geometry stage, and only as that stage", "[shader][stage]") {
	auto geometry = spirv::Compile(test::LoadSpirv("geometry"), shader::Stage::kGeometry, "main");
	REQUIRE(geometry);
	const shader::GeometryInfo& g = geometry->geometry;
	CHECK(g.input_vertices == 1);
	CHECK(g.invocations == 1);
	CHECK(g.max_vertices == 1);
	CHECK(g.output == shader::GeometryOutput::kPoints);
	// A record per vertex and a spare, each the outputs, the strip flag and
	// the stream.
	CHECK(g.record_words == geometry->outputs.size() + 2);
	CHECK(uint64_t{g.emit_word} + uint64_t{g.max_vertices + 1} * g.record_words <= geometry->private_words);
	// Every input but PrimitiveId and InvocationId names its vertex: here
	// gl_in[0] of one input point.
	for (const shader::InterfaceWord& w : geometry->inputs) CHECK(w.vertex == 0);
	for (shader::Stage stage : {shader::Stage::kVertex, shader::Stage::kFragment}) {
		auto result = spirv::Compile(test::LoadSpirv("geometry"), stage, "main");
		REQUIRE(!result);
		INFO(result.error().message);
		CHECK(result.error().message.find("entry point named 'main'") != std::string::npos);
	}
}

TEST_CASE("a vertex stage binds buffers and push constants as compute does", "[shader][stage]") {
	shader::Program program = CompileStage("transform.vert", shader::Stage::kVertex);
	// Odd lane counts, one subgroup and several, the largest group.
	for (uint32_t lanes : {1u, 7u, 64u, 1000u, 1024u}) {
		INFO(lanes << " lanes");
		std::vector<float> camera(16, 0.0f);
		for (uint32_t k = 0; k < 4; ++k) camera[k * 4 + k] = static_cast<float>(k + 1);  // diag(1, 2, 3, 4)
		std::vector<uint32_t> seen(lanes, 0);
		test::Bindings bindings;
		bindings.Bind(0, camera);
		bindings.Bind(1, seen);
		struct {
			float offset[4];
			uint32_t steps;
		} push = {{1.0f, 2.0f, 3.0f, 0.0f}, 2};
		bindings.Push(push);
		StageRun run(program, lanes);
		for (uint32_t l = 0; l < lanes; ++l) {
			for (uint32_t k = 0; k < 4; ++k) run.In(0, k)[l] = U(static_cast<float>(l + k));
			run.In(InterfaceBuiltin::kVertexIndex)[l] = l;
		}
		std::vector<shader::BufferView> views;
		for (const shader::BindingSlot& slot : program.bindings)
			views.push_back(bindings.buffers.at({slot.set, slot.binding, slot.array_element}));
		shader::Resources resources{views, bindings.push_constants.data(),
		                            static_cast<uint32_t>(bindings.push_constants.size())};
		REQUIRE(run.interpreter.RunStage(program, resources) == shader::RunStatus::kSuccess);
		for (uint32_t l = 0; l < lanes; ++l) {
			INFO("lane " << l);
			for (uint32_t k = 0; k < 4; ++k) {
				float p = static_cast<float>(l + k) + push.offset[k] + (k == 3 ? static_cast<float>(2 + l % 3) : 0.0f);
				CHECK(F(run.Out(InterfaceBuiltin::kPosition, k)[l]) == p * static_cast<float>(k + 1));
			}
			CHECK(seen[l] == l % shader::kSubgroupSize + 1000u);
			CHECK(run.Out(0, 0)[l] == l % shader::kSubgroupSize);
		}
	}
}

TEST_CASE("an endless loop in a stage ends with device lost", "[shader][stage]") {
	shader::Program program = CompileStage("transform.vert", shader::Stage::kVertex);
	std::vector<float> camera(16, 1.0f);
	std::vector<uint32_t> seen(4, 0);
	struct {
		float offset[4];
		uint32_t steps;
	} push = {{}, 0xffffffffu};
	std::vector<shader::BufferView> views;
	for (const shader::BindingSlot& slot : program.bindings)
		views.push_back(slot.binding == 0 ? shader::BufferView{camera.data(), 64}
		                                  : shader::BufferView{seen.data(), 16});
	shader::Resources resources{views, &push, sizeof(push)};
	shader::Interpreter interpreter;
	interpreter.BeginStage(program, 4);
	for (uint32_t l = 0; l < 4; ++l)
		interpreter.StageWord(FindBuiltin(program.inputs, InterfaceBuiltin::kVertexIndex)->word)[l] =
		    3 * l;  // 2^32 - 1 trips
	shader::RunOptions options;
	options.max_block_steps = 10000;
	CHECK(interpreter.RunStage(program, resources, options) == shader::RunStatus::kDeviceLost);
}

TEST_CASE("dual-source blending outputs carry their Index", "[shader][stage]") {
	shader::Program program = CompileStage("dual_source.frag", shader::Stage::kFragment);
	StageRun run(program, 4);
	run.Run();
	uint32_t found = 0;
	for (const InterfaceWord& w : program.outputs) {
		if (w.builtin != InterfaceBuiltin::kNone || w.component != 1) continue;
		CHECK(w.location == 0);
		CHECK(F(run.interpreter.StageWord(w.word)[3]) == (w.index == 1 ? 5.0f : 2.0f));
		found |= 1u << w.index;
	}
	CHECK(found == 3);
}

TEST_CASE("derivatives in quad-uniform branches and partial quads", "[shader][stage]") {
	shader::Program program = CompileStage("quad_branch.frag", shader::Stage::kFragment);
	for (uint32_t lanes : {64u, 10u, 0u}) {
		INFO(lanes << " lanes");
		StageRun run(program, lanes);
		auto v = [](uint32_t l) { return static_cast<float>(l * l % 7) + 0.5f * static_cast<float>(l); };
		for (uint32_t l = 0; l < lanes; ++l) {
			run.In(0, 0)[l] = U(v(l));
			run.In(1, 0)[l] = (l / 4) % 3 != 1;  // every third quad skips the branch
		}
		run.Run();
		for (uint32_t l = 0; l < lanes; ++l) {
			INFO("lane " << l);
			uint32_t q = l & ~3u, row = l & ~1u;
			auto w = [&](uint32_t lane) {
				lane = std::min(lane, lanes - 1);  // the partial quad borrows a neighbour
				return v(lane) * v(lane);
			};
			if ((l / 4) % 3 == 1) {
				CHECK(F(run.Out(0, 0)[l]) == -1.0f);
				continue;
			}
			float dx = row + 1 < lanes ? w(row + 1) - w(row) : 0.0f;
			float dy = q + 2 < lanes ? w(q + 2) - w(q) : 0.0f;
			CHECK(F(run.Out(0, 0)[l]) == dx);
			CHECK(F(run.Out(0, 1)[l]) == dy);
		}
	}
}

TEST_CASE("every vertex and fragment corpus shader has a consistent interface", "[shader][stage]") {
	const std::pair<const char*, shader::Stage> shaders[] = {
	    {"triangle.vert", shader::Stage::kVertex},      {"stage_io.vert", shader::Stage::kVertex},
	    {"transform.vert", shader::Stage::kVertex},     {"triangle.frag", shader::Stage::kFragment},
	    {"derivatives.frag", shader::Stage::kFragment}, {"discard.frag", shader::Stage::kFragment},
	    {"terminate.frag", shader::Stage::kFragment},   {"demote.frag", shader::Stage::kFragment},
	    {"depth.frag", shader::Stage::kFragment},       {"early.frag", shader::Stage::kFragment},
	    {"interpolate.frag", shader::Stage::kFragment}, {"quad_branch.frag", shader::Stage::kFragment},
	    {"dual_source.frag", shader::Stage::kFragment}};
	for (const auto& [name, stage] : shaders) {
		INFO(name);
		shader::Program program = CompileStage(name, stage);
		CHECK(program.stage == stage);
		std::vector<uint8_t> used(program.private_words, 0);
		for (const auto* list : {&program.inputs, &program.outputs})
			for (const InterfaceWord& w : *list) {
				REQUIRE(w.word < program.private_words);
				CHECK(used[w.word]++ == 0);  // one word, one meaning
				if (w.builtin == InterfaceBuiltin::kNone) CHECK(w.component < 4);
			}
		if (program.discard_word != shader::Program::kNoWord) CHECK(used[program.discard_word] == 0);
		// Every fragment program has a helper word; vertex programs none.
		CHECK((FindBuiltin(program.inputs, InterfaceBuiltin::kHelperInvocation) != nullptr) ==
		      (stage == shader::Stage::kFragment));
		for (const shader::Inst& inst : program.insts) REQUIRE(inst.dst < program.register_count);
	}
}

TEST_CASE("an Output variable's initializer is its value until written", "[shader][stage]") {
	shader::Program program = CompileStage("output_initializer", shader::Stage::kVertex);
	StageRun run(program, 3);
	run.Run();
	for (uint32_t l = 0; l < 3; ++l) CHECK(F(run.Out(0, 0)[l]) == 2.5f);
}

TEST_CASE("gl_HelperInvocation reads the caller's helper word", "[shader][stage]") {
	shader::Program program = CompileStage("helper.frag", shader::Stage::kFragment);
	CHECK(program.discard_word == shader::Program::kNoWord);
	std::vector<uint32_t> count(1, 0);
	test::Bindings bindings;
	bindings.Bind(0, count);
	StageRun run(program, 8);
	for (uint32_t l = 0; l < 8; ++l) run.In(InterfaceBuiltin::kHelperInvocation)[l] = l % 4 == 3;
	run.Run(bindings);
	CHECK(count[0] == 6);
	for (uint32_t l = 0; l < 8; ++l) CHECK(F(run.Out(0, 0)[l]) == (l % 4 == 3 ? 1.0f : 0.0f));
}

TEST_CASE("discard in a function called from a loop", "[shader][stage]") {
	shader::Program program = CompileStage("discard_loop.frag", shader::Stage::kFragment);
	REQUIRE(program.discard_word != shader::Program::kNoWord);
	StageRun run(program, 4);
	for (uint32_t l = 0; l < 4; ++l) run.In(0, 0)[l] = U(static_cast<float>(l) + 0.5f);  // lanes 0..2 discard
	run.Run();
	for (uint32_t l = 0; l < 4; ++l) {
		CHECK(run.interpreter.StageWord(program.discard_word)[l] == (l < 3 ? 1u : 0u));
		if (l == 3) CHECK(F(run.Out(0, 0)[l]) == 14.0f);
	}
}

TEST_CASE("SampleId or SamplePosition in the interface makes the stage run per sample, read or not",
          "[shader][stage]") {
	// Vulkan 1.3 "Sample Shading": the interface including such an input is
	// enough; the optimizer drops the unread variable, the flag stays.
	CHECK(CompileStage("sample_id_static_use.frag", shader::Stage::kFragment).sample_shading);
	CHECK(CompileStage("sample_position_static_use.frag", shader::Stage::kFragment).sample_shading);
	CHECK(!CompileStage("constant_color.frag", shader::Stage::kFragment).sample_shading);
}

TEST_CASE("a Volatile HelperInvocation read after demotion sees the demotion", "[shader][stage]") {
	// SPIR-V 1.6 HelperInvocation: Volatile, each load reads the current
	// value; two loads of it are not one value.
	shader::Program program = CompileStage("helper_volatile.frag", shader::Stage::kFragment);
	const uint32_t lanes = 8;
	StageRun run(program, lanes);
	for (uint32_t l = 0; l < lanes; ++l) run.In(0, 0)[l] = U(l % 3 == 1 ? -1.0f : 1.0f);
	run.In(InterfaceBuiltin::kHelperInvocation)[5] = 1;
	run.Run();
	for (uint32_t l = 0; l < lanes; ++l) {
		INFO("lane " << l);
		const bool helper = l == 5, demoted = l % 3 == 1;
		CHECK(F(run.Out(0, 0)[l]) == (helper ? 1.0f : 0.0f));
		CHECK(F(run.Out(0, 1)[l]) == (helper || demoted ? 1.0f : 0.0f));
	}
}

TEST_CASE("a discarding function called in a continue construct ends the lane there", "[shader][stage]") {
	// SPIR-V 1.6 OpKill/OpTerminateInvocation: the invocation ends; nothing
	// after the call runs, the loop included.
	shader::Program program = CompileStage("discard_continue.frag", shader::Stage::kFragment);
	REQUIRE(program.discard_word != shader::Program::kNoWord);
	const float v[4] = {0.5f, 2.5f, 3.5f, 10.0f};  // lanes 0 and 1 discard at i = 1 and i = 3
	std::vector<uint32_t> steps(4, 0);
	test::Bindings bindings;
	bindings.Bind(0, steps);
	StageRun run(program, 4);
	for (uint32_t l = 0; l < 4; ++l) {
		run.In(0, 0)[l] = U(v[l]);
		run.In(InterfaceBuiltin::kFragCoord, 0)[l] = U(static_cast<float>(l) + 0.5f);
	}
	run.Run(bindings);
	const uint32_t expected_steps[4] = {1, 3, 4, 4};
	for (uint32_t l = 0; l < 4; ++l) {
		INFO("lane " << l);
		CHECK(steps[l] == expected_steps[l]);
		CHECK(run.interpreter.StageWord(program.discard_word)[l] == (l < 2 ? 1u : 0u));
		if (l >= 2) CHECK(F(run.Out(0, 0)[l]) == 4.0f);
	}
}

TEST_CASE("endless loops left only by a discard end the discarding lanes", "[shader][stage]") {
	shader::Program program = CompileStage("discard_forever.frag", shader::Stage::kFragment);
	StageRun run(program, 4);
	for (uint32_t l = 0; l < 4; ++l) run.In(0, 0)[l] = U(l % 2 ? 1.0f : -1.0f);
	run.Run();
	for (uint32_t l = 0; l < 4; ++l) {
		INFO("lane " << l);
		CHECK(run.interpreter.StageWord(program.discard_word)[l] == l % 2);
		if (l % 2 == 0) CHECK(F(run.Out(0, 0)[l]) == 1.0f);
	}
}

TEST_CASE("a merge block that no branch reaches after a discarding call never runs", "[shader][stage]") {
	shader::Program program = CompileStage("discard_both_branches.frag", shader::Stage::kFragment);
	StageRun run(program, 4);
	for (uint32_t l = 0; l < 4; ++l) run.In(0, 0)[l] = U(l % 2 ? 2.0f : -1.0f);  // odd lanes enter the loop
	run.Run();
	for (uint32_t l = 0; l < 4; ++l) {
		INFO("lane " << l);
		CHECK(run.interpreter.StageWord(program.discard_word)[l] == l % 2);
		if (l % 2 == 0) CHECK(F(run.Out(0, 0)[l]) == 1.0f);
	}
}
