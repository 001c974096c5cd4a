// Descriptor indexing in the front end: what it accepts and what it still
// refuses, with a message that names the capability.
#include "../shader/run_shader.h"
#include "shader/program_serialize.h"
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

// (Input attachment arrays, the last descriptor-indexing capability
// refused, are accepted now: tests/e2e/input_attachment_array_test.cpp.)
TEST_CASE("a capability Tessera lacks is refused by name", "[spirv]") {
	auto result = spirv::Compile(test::LoadSpirv("unsupported_capability"), spirv::Stage::kCompute, "main");
	REQUIRE(!result);
	INFO(result.error().message);
	CHECK(result.error().message.find("unsupported SPIR-V capability") != std::string::npos);
	CHECK(result.error().message.find("RayQueryKHR") != std::string::npos);
}

TEST_CASE("a runtime-sized descriptor array is one slot until linked with the layout's count",
          "[spirv][descriptor_indexing]") {
	auto result = spirv::Compile(test::LoadSpirv("runtime_arrays"), spirv::Stage::kCompute, "main");
	INFO((result ? std::string() : result.error().message));
	REQUIRE(result);
	shader::Program program = std::move(result.value());
	// Before linking: one slot per array, operations and regions counting
	// kRuntimeDescriptorArray.
	size_t runtime_images = 0, runtime_buffers = 0;
	for (const shader::ImageBindingSlot& slot : program.image_bindings)
		runtime_images += slot.array_element == shader::kRuntimeDescriptorArray;
	for (const shader::BindingSlot& slot : program.bindings)
		runtime_buffers += slot.array_element == shader::kRuntimeDescriptorArray;
	CHECK(runtime_images == 2);   // texels[], textures[]
	CHECK(runtime_buffers == 1);  // ssbos[] indexed at run time (ssbos[0] is a slot of its own)
	// The program survives the cache's format check unlinked.
	shader::Program copy;
	REQUIRE(shader::DeserializeProgram(shader::SerializeProgram(program), copy));

	// Linked: binding 1 holds 3 buffers, 2 holds 4 texel buffers, 3 holds 7 images.
	spirv::LinkRuntimeDescriptorArrays(program, [](uint32_t set, uint32_t binding) -> uint32_t {
		return set != 0 ? 0 : binding == 1 ? 3 : binding == 2 ? 4 : binding == 3 ? 7 : 1;
	});
	for (const shader::ImageBindingSlot& slot : program.image_bindings)
		CHECK(slot.array_element != shader::kRuntimeDescriptorArray);
	for (const shader::BindingSlot& slot : program.bindings)
		CHECK(slot.array_element != shader::kRuntimeDescriptorArray);
	CHECK(program.image_bindings.size() == 4 + 7);
	for (const shader::ImageOperation& op : program.image_ops) {
		REQUIRE(op.image + op.image_count <= program.image_bindings.size());
		const shader::ImageBindingSlot& first = program.image_bindings[op.image];
		CHECK(op.image_count == (first.binding == 2 ? 4u : 7u));
		// Runtime-sized arrays go last, the largest at the end.
		CHECK(op.image == (first.binding == 2 ? 0u : 4u));
		CHECK(first.array_element == 0);
		for (uint32_t e = 0; e < op.image_count; ++e) {
			CHECK(program.image_bindings[op.image + e].binding == first.binding);
			CHECK(program.image_bindings[op.image + e].array_element == e);
		}
	}
	bool linked_region = false;
	for (const shader::Region& region : program.regions) {
		if (region.kind != shader::RegionKind::kStorageBuffer || region.descriptor_count == 1) continue;
		CHECK(region.descriptor_count == 3);
		REQUIRE(region.binding + 3 <= program.bindings.size());
		CHECK(program.bindings[region.binding].binding == 1);
		linked_region = true;
	}
	CHECK(linked_region);
	REQUIRE(shader::DeserializeProgram(shader::SerializeProgram(program), copy));
}
