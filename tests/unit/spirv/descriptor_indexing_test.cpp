// Descriptor indexing in the front end: what it accepts and what it still
// refuses, with a message that names the capability.
#include "../shader/run_shader.h"
#include "spirv/compile.h"

using namespace tessera;

TEST_CASE("descriptor arrays indexed with nonuniformEXT compile to one slot per element",
          "[spirv][descriptor_indexing]") {
	auto images = spirv::Compile(test::LoadSpirv("nonuniform_images"), spirv::Stage::kCompute, "main");
	INFO((images ? std::string() : images.error().message));
	REQUIRE(images);
	CHECK(images.value().image_bindings.size() == 4 + 4 + 2 + 2 + 2 + 2);
	auto buffers = spirv::Compile(test::LoadSpirv("nonuniform_buffers"), spirv::Stage::kCompute, "main");
	INFO((buffers ? std::string() : buffers.error().message));
	REQUIRE(buffers);
	CHECK(buffers.value().bindings.size() == 1 + 3 + 3);
}

TEST_CASE("a descriptor-indexing capability Tessera lacks is refused by name", "[spirv][descriptor_indexing]") {
	auto result = spirv::Compile(test::LoadSpirv("input_attachment_nonuniform"), spirv::Stage::kCompute, "main");
	REQUIRE(!result);
	INFO(result.error().message);
	CHECK(result.error().message.find("unsupported SPIR-V capability") != std::string::npos);
	CHECK(result.error().message.find("InputAttachmentArrayNonUniformIndexing") != std::string::npos);
}
