// shader::Program serialization: every corpus program survives the round trip
// exactly and still runs the same; truncated, bit-flipped and re-signed
// corrupted bytes are rejected, and what is accepted stays inside its arrays.
#include <algorithm>
#include <filesystem>
#include <optional>

#include "run_shader.h"
#include "runtime/sha256.h"
#include "shader/program_serialize.h"

using namespace tessera;

namespace {

// The corpus shader compiled for whichever stage its name says.
std::optional<shader::Program> CompileCorpus(const std::filesystem::path& path) {
	std::string name = path.filename().string();
	shader::Stage stage = shader::Stage::kCompute;
	if (name.find(".vert.") != std::string::npos) stage = shader::Stage::kVertex;
	if (name.find(".frag.") != std::string::npos) stage = shader::Stage::kFragment;
	auto words = test::LoadSpirv(path.stem().string());
	auto compiled = spirv::Compile(words, stage, "main");
	if (!compiled) return std::nullopt;  // the corpus also holds shaders Tessera must reject
	return std::move(compiled.value());
}

// The digest covers the rest: re-sign after corrupting the body so the
// structural checks, not the digest, have to catch it.
void Resign(std::vector<uint8_t>& bytes) {
	Sha256Digest digest = Sha256Of({bytes.data(), bytes.size() - 32});
	std::copy(digest.begin(), digest.end(), bytes.end() - 32);
}

struct SaxpyRun {
	std::vector<float> x = std::vector<float>(256), y = std::vector<float>(256);
	SaxpyRun() {
		for (uint32_t i = 0; i < 256; ++i) x[i] = float(i) * 0.25f, y[i] = 1.0f - float(i);
	}
	// As the driver runs programs: device addresses checked against live
	// memory (none here), so a region turned physical reaches nothing.
	shader::RunStatus Run(const shader::Program& program, uint64_t max_steps) {
		struct {
			float a;
			uint32_t n;
		} push{1.5f, 200};
		std::vector<shader::BufferView> views;
		for (const shader::BindingSlot& slot : program.bindings) {
			std::vector<float>* bound =
			    slot.set == 0 && slot.array_element == 0 && slot.binding < 2 ? (slot.binding == 0 ? &x : &y) : nullptr;
			views.push_back(bound ? shader::BufferView{bound->data(), bound->size() * 4} : shader::BufferView{});
		}
		shader::Resources resources{views, &push, sizeof push};
		resources.check_device_addresses = true;
		shader::RunOptions options;
		options.max_block_steps = max_steps;
		shader::WorkgroupPosition position;
		position.count[0] = 4;
		shader::Interpreter interpreter;
		return interpreter.RunWorkgroups(program, resources, position, 4, options);
	}
};

}  // namespace

TEST_CASE("every corpus program round-trips through serialization exactly", "[shader][serialize]") {
	int programs = 0;
	for (const auto& entry : std::filesystem::directory_iterator(TESSERA_SHADER_DIR)) {
		if (entry.path().extension() != ".spv") continue;
		std::optional<shader::Program> program = CompileCorpus(entry.path());
		if (!program) continue;
		CAPTURE(entry.path().filename().string());
		++programs;
		CHECK(shader::CheckProgram(*program) == "");
		std::vector<uint8_t> bytes = shader::SerializeProgram(*program);
		shader::Program read;
		REQUIRE(shader::DeserializeProgram(bytes, read));
		// Same bytes again (every field, the serializer's tripwires keep the
		// field list complete) and the same listing.
		CHECK(shader::SerializeProgram(read) == bytes);
		CHECK(read.Dump() == program->Dump());
		CHECK(read.stage == program->stage);
		CHECK(read.register_count == program->register_count);
	}
	CHECK(programs >= 50);
}

TEST_CASE("a deserialized program computes what the original does", "[shader][serialize]") {
	shader::Program original = test::CompileShader("saxpy");
	shader::Program read;
	REQUIRE(shader::DeserializeProgram(shader::SerializeProgram(original), read));
	SaxpyRun a, b;
	REQUIRE(a.Run(original, uint64_t{1} << 20) == shader::RunStatus::kSuccess);
	REQUIRE(b.Run(read, uint64_t{1} << 20) == shader::RunStatus::kSuccess);
	CHECK(a.y == b.y);
	CHECK(a.y[10] == 1.5f * 2.5f + (1.0f - 10.0f));
}

TEST_CASE("truncated, extended and bit-flipped program bytes are rejected", "[shader][serialize]") {
	const std::vector<uint8_t> bytes = shader::SerializeProgram(test::CompileShader("saxpy"));
	shader::Program read;
	REQUIRE(shader::DeserializeProgram(bytes, read));
	for (size_t size = 0; size < bytes.size(); ++size) {
		CAPTURE(size);
		REQUIRE_FALSE(shader::DeserializeProgram({bytes.data(), size}, read));
	}
	std::vector<uint8_t> longer = bytes;
	longer.push_back(0);
	CHECK_FALSE(shader::DeserializeProgram(longer, read));
	for (size_t bit = 0; bit < bytes.size() * 8; ++bit) {
		std::vector<uint8_t> flipped = bytes;
		flipped[bit / 8] ^= uint8_t(1u << bit % 8);
		CAPTURE(bit);
		REQUIRE_FALSE(shader::DeserializeProgram(flipped, read));
	}
}

TEST_CASE("corrupted program bytes with a valid digest never reach outside the program", "[shader][serialize]") {
	// Each byte of the body replaced by a few values that break sizes,
	// indices and enums; what still reads back must pass CheckProgram and run
	// without touching memory outside its arrays (the ASan build checks that).
	const std::vector<uint8_t> bytes = shader::SerializeProgram(test::CompileShader("saxpy"));
	int rejected = 0, accepted = 0;
	for (size_t at = 8; at + 32 < bytes.size(); ++at)
		for (uint8_t value : {uint8_t(0x00), uint8_t(0x01), uint8_t(0x7f), uint8_t(0xff)}) {
			if (bytes[at] == value) continue;
			std::vector<uint8_t> corrupted = bytes;
			corrupted[at] = value;
			Resign(corrupted);
			CAPTURE(at, int(value));
			shader::Program read;
			if (!shader::DeserializeProgram(corrupted, read)) {
				++rejected;
				continue;
			}
			++accepted;
			REQUIRE(shader::CheckProgram(read).empty());
			SaxpyRun run;
			run.Run(read, 1000);  // success, or a bounded hang
		}
	CHECK(rejected > 0);
	CHECK(accepted > 0);  // some fields (constants, offsets) are free to change
	// A different version never reads back.
	std::vector<uint8_t> other = bytes;
	other[4] ^= 1;
	Resign(other);
	shader::Program read;
	CHECK_FALSE(shader::DeserializeProgram(other, read));
}
