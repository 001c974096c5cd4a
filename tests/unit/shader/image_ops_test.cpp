// Image instructions in the interpreter, on hand-built programs: what SPIR-V
// compute shaders cannot express through Vulkan (implicit LOD needs
// derivative groups there) or what is cheaper to check here.
#include <catch2/catch.hpp>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

#include "shader/image_ops.h"
#include "shader/interpreter.h"
#include "texture/sample.h"

using namespace tessera;
using shader::Op;

namespace {

// A 16x16 RGBA32F image with 5 levels; every texel of level l reads
// (l, l, l, 1).
struct LevelImage {
	texture::ImageLayout layout;
	std::vector<uint8_t> memory;
	shader::ImageBinding binding;

	LevelImage() {
		REQUIRE(layout.Init({VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TYPE_2D, {16, 16, 1}, 5, 1, 1}));
		memory.assign(layout.TotalSize(), 0);
		for (uint32_t l = 0; l < 5; ++l)
			for (uint32_t y = 0; y < texture::MipExtent(16, l); ++y)
				for (uint32_t x = 0; x < texture::MipExtent(16, l); ++x) {
					float v[4] = {float(l), float(l), float(l), 1.0f};
					std::memcpy(memory.data() + layout.Offset(0, l, 0, x, y, 0), v, 16);
				}
		texture::ImageViewState view;
		view.layout = &layout;
		view.memory = memory.data();
		view.format = VK_FORMAT_R32G32B32A32_SFLOAT;
		view.level_count = 5;
		texture::SamplerState sampler;
		sampler.max_lod = 16.0f;
		sampler.address_u = sampler.address_v = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
		binding.has_view = binding.has_sampler = true;
		binding.view = view;
		binding.sampler = sampler;
		binding.prepared_ok = texture::PrepareSampledImage(sampler, view, &binding.prepared);
		REQUIRE(binding.prepared_ok);
	}
};

// One block: u = index^2 / 256, v = 0.5; sample (op) with the image slots
// given; store the 4 result components at index * 16 of binding 0.
shader::Program SampleProgram(const shader::ImageOperation& op, uint32_t image_slots, bool index_by_lane) {
	shader::Program p;
	p.workgroup_size[0] = 64;
	uint32_t next = 1;
	auto reg = [&] { return next++; };
	auto constant = [&](uint32_t bits) {
		uint32_t r = reg();
		p.constants.push_back({r, bits});
		return r;
	};
	p.constants.push_back({0, 0});
	uint32_t index = reg();
	p.builtins.push_back({index, shader::Builtin::kLocalInvocationIndex, 0});
	auto emit = [&](Op o, uint32_t a, uint32_t b = 0, uint32_t imm = 0) {
		uint32_t dst = reg();
		p.insts.push_back({o, 0, dst, a, b, 0, 0, imm});
		return dst;
	};
	uint32_t f = emit(Op::kUnsignedToFloat, index);
	uint32_t u = emit(Op::kFMul, emit(Op::kFMul, f, f), constant(std::bit_cast<uint32_t>(1.0f / 256.0f)));
	uint32_t v = constant(std::bit_cast<uint32_t>(0.5f));
	p.insts.push_back({Op::kImageArg, 0, 0, u, 0, 0, 0, shader::kArgCoord});
	p.insts.push_back({Op::kImageArg, 0, 0, v, 0, 0, 0, shader::kArgCoord + 1});
	if (index_by_lane) {
		uint32_t element = emit(Op::kAnd, index, constant(3));
		p.insts.push_back({Op::kImageArg, 0, 0, element, 0, 0, 0, shader::kArgImageIndex});
	}
	shader::ImageOperation image_op = op;
	image_op.image = 0;
	image_op.image_count = image_slots;
	p.image_ops.push_back(image_op);
	for (uint32_t k = 0; k < image_slots; ++k)
		p.image_bindings.push_back({0, 1, k, shader::ImageDescriptorKind::kCombinedImageSampler});
	uint32_t results[4];
	results[0] = emit(Op::kImage, 0, 0, 0);
	for (uint32_t c = 1; c < 4; ++c) results[c] = emit(Op::kImageResult, 0, 0, c);
	uint32_t address = emit(Op::kShiftLeft, index, constant(4));
	p.regions.push_back({shader::RegionKind::kStorageBuffer, 0});
	p.bindings.push_back({0, 0, 0, true});
	for (uint32_t c = 0; c < 4; ++c) p.insts.push_back({Op::kStore, 0, 0, address, results[c], 0, 0, c * 4});
	p.blocks.push_back({0, uint32_t(p.insts.size())});
	p.register_count = next;
	return p;
}

}  // namespace

TEST_CASE("implicit LOD: derivatives over aligned 2x2 lane quads (lane 4q + 2dy + dx)", "[shader][image]") {
	LevelImage image;
	shader::ImageOperation op;
	op.kind = shader::ImageOpKind::kSample;
	op.implicit_lod = true;
	shader::Program program = SampleProgram(op, 1, false);
	std::vector<float> out(64 * 4, -1.0f);
	shader::BufferView buffer{out.data(), out.size() * 4};
	shader::Resources resources;
	resources.buffers = {&buffer, 1};
	resources.images = {&image.binding, 1};
	shader::Interpreter interpreter;
	REQUIRE(interpreter.RunWorkgroup(program, resources, {}) == shader::RunStatus::kSuccess);

	// The same lookups with the quad differences given as gradients.
	std::vector<float> u(64), v(64, 0.5f), dudx(64), dudy(64), zero(64, 0.0f);
	for (uint32_t i = 0; i < 64; ++i) u[i] = float(i) * float(i) / 256.0f;
	for (uint32_t i = 0; i < 64; ++i) {
		uint32_t base = i & ~3u, x = i & 1u, y = (i >> 1) & 1u;
		dudx[i] = u[base + 2 * y + 1] - u[base + 2 * y];
		dudy[i] = u[base + 2 + x] - u[base + x];
	}
	texture::SampleLanes lanes;
	lanes.count = 64;
	lanes.coord[0] = u.data(), lanes.coord[1] = v.data();
	lanes.ddx[0] = dudx.data(), lanes.ddx[1] = zero.data();
	lanes.ddy[0] = dudy.data(), lanes.ddy[1] = zero.data();
	std::vector<texture::TexelValue> expected(64);
	texture::Sample(image.binding.prepared, lanes, expected.data());
	for (uint32_t i = 0; i < 64; ++i) {
		INFO("lane " << i);
		for (uint32_t c = 0; c < 4; ++c) REQUIRE(out[i * 4 + c] == expected[i].f[c]);
	}
	// Quad q: rho = 16 * (16q + 4) / 256 = q + 1/4, so NEAREST mip picks
	// level 0 for q = 0, 1; 1 for q = 2; 2 for q = 3; 4 from q = 12 on.
	CHECK(out[0 * 16] == 0.0f);
	CHECK(out[1 * 16] == 0.0f);
	CHECK(out[2 * 16] == 1.0f);
	CHECK(out[3 * 16] == 2.0f);
	CHECK(out[15 * 16] == 4.0f);
}

TEST_CASE("OpImageQueryLod: the quad's LOD, as texture::QueryLod computes it", "[shader][image]") {
	LevelImage image;
	image.binding.sampler.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
	REQUIRE(texture::PrepareSampledImage(image.binding.sampler, image.binding.view, &image.binding.prepared));
	shader::ImageOperation op;
	op.kind = shader::ImageOpKind::kQueryLod;
	op.implicit_lod = true;
	shader::Program program = SampleProgram(op, 1, false);
	std::vector<float> out(64 * 4, -1.0f);
	shader::BufferView buffer{out.data(), out.size() * 4};
	shader::Resources resources;
	resources.buffers = {&buffer, 1};
	resources.images = {&image.binding, 1};
	shader::Interpreter interpreter;
	REQUIRE(interpreter.RunWorkgroup(program, resources, {}) == shader::RunStatus::kSuccess);
	std::vector<float> u(64), v(64, 0.5f), dudx(64), dudy(64), zero(64, 0.0f);
	for (uint32_t i = 0; i < 64; ++i) u[i] = float(i) * float(i) / 256.0f;
	for (uint32_t i = 0; i < 64; ++i) {
		uint32_t base = i & ~3u, x = i & 1u, y = (i >> 1) & 1u;
		dudx[i] = u[base + 2 * y + 1] - u[base + 2 * y];
		dudy[i] = u[base + 2 + x] - u[base + x];
	}
	texture::SampleLanes lanes;
	lanes.count = 64;
	lanes.coord[0] = u.data(), lanes.coord[1] = v.data();
	lanes.ddx[0] = dudx.data(), lanes.ddx[1] = zero.data();
	lanes.ddy[0] = dudy.data(), lanes.ddy[1] = zero.data();
	std::vector<float> expected(2 * 64);
	texture::QueryLod(image.binding.prepared, lanes, reinterpret_cast<float(*)[2]>(expected.data()));
	for (uint32_t i = 0; i < 64; ++i) {
		INFO("lane " << i);
		REQUIRE(out[i * 4 + 0] == expected[2 * i]);
		REQUIRE(out[i * 4 + 1] == expected[2 * i + 1]);
	}
	// Quad 2: rho = 2.25, lambda = log2(2.25).
	CHECK(out[8 * 4 + 1] == Approx(std::log2(2.25f)));
}

TEST_CASE("per-lane descriptor indices: each lane reads its element, past the array reads zero", "[shader][image]") {
	LevelImage image;
	shader::ImageOperation op;
	op.kind = shader::ImageOpKind::kSample;
	op.has_lod = false;  // no LOD operand: derivatives zero, level 0
	shader::Program program = SampleProgram(op, 3, true);
	// Elements 0 and 2 bound, 1 empty (a null descriptor); index 3 is past the array.
	shader::ImageBinding bindings[3] = {image.binding, {}, image.binding};
	std::vector<float> out(64 * 4, -1.0f);
	shader::BufferView buffer{out.data(), out.size() * 4};
	shader::Resources resources;
	resources.buffers = {&buffer, 1};
	resources.images = {bindings, 3};
	shader::Interpreter interpreter;
	REQUIRE(interpreter.RunWorkgroup(program, resources, {}) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < 64; ++i) {
		INFO("lane " << i);
		bool bound = (i & 3u) == 0 || (i & 3u) == 2;
		CHECK(out[i * 4 + 0] == 0.0f);  // level 0 everywhere
		CHECK(out[i * 4 + 3] == (bound ? 1.0f : 0.0f));
	}
}

// Hidden (run with "[.bench]"): lanes per second through kImage, one thread.
TEST_CASE("image sampling throughput", "[.bench]") {
	for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR}) {
		LevelImage image;
		image.binding.sampler.mag_filter = image.binding.sampler.min_filter = filter;
		REQUIRE(texture::PrepareSampledImage(image.binding.sampler, image.binding.view, &image.binding.prepared));
		shader::ImageOperation op;
		op.kind = shader::ImageOpKind::kSample;
		shader::Program program = SampleProgram(op, 1, false);
		program.workgroup_size[0] = 256;
		std::vector<float> out(256 * 4);
		shader::BufferView buffer{out.data(), out.size() * 4};
		shader::Resources resources;
		resources.buffers = {&buffer, 1};
		resources.images = {&image.binding, 1};
		shader::Interpreter interpreter;
		const uint32_t groups = 4096;
		auto start = std::chrono::steady_clock::now();
		shader::WorkgroupPosition position;
		position.count[0] = groups;
		REQUIRE(interpreter.RunWorkgroups(program, resources, position, groups) == shader::RunStatus::kSuccess);
		double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
		WARN((filter == VK_FILTER_LINEAR ? "LINEAR" : "NEAREST")
		     << " 2D RGBA32F lookups: " << groups * 256.0 / seconds / 1e6 << " M lanes/s");
	}
}
