// The texture sampler alone, one thread, no driver: what one lane of a
// fragment shader's lookup costs in texture::Sample (the fast path where
// it takes the view, else the generic one). The scenes of texture_bench
// spend most of their time here; this isolates it from rasterization and
// the shader so that a change to the sampler can be measured in
// nanoseconds a lane rather than through a noisy frame time.
//
// Each iteration samples one 16x16 block of pixels as a fragment batch
// does (256 lanes, 2x2 quads in lane order, implicit LOD from the quads)
// at the texture coordinates a full-screen 1920x1080 quad with the
// texture repeated 4 times gives (about 2 texels a pixel: lambda ~1.1,
// trilinear between levels 1 and 2); the block moves along a run of 64
// blocks from one iteration to the next.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "texture/format.h"
#include "texture/image_layout.h"
#include "texture/sample.h"
#include "texture/texel.h"

namespace {

using namespace tessera::texture;

constexpr uint32_t kBlock = 16;  // pixels a side: 256 lanes
constexpr uint32_t kLanes = kBlock * kBlock;

struct Image {
	ImageLayout layout;
	std::vector<uint8_t> memory;

	Image(VkFormat format, uint32_t size, uint32_t levels) {
		if (!layout.Init({format, VK_IMAGE_TYPE_2D, {size, size, 1}, levels, 1, 1})) std::abort();
		memory.resize(layout.TotalSize());
		std::mt19937 rng(7);
		const FormatInfo& info = *FindFormat(format);
		std::uniform_real_distribution<float> value(0.0f, 1.0f);
		for (uint32_t level = 0; level < levels; ++level) {
			const uint32_t n = std::max(size >> level, 1u);
			for (uint32_t y = 0; y < n; ++y)
				for (uint32_t x = 0; x < n; ++x) {
					TexelValue v{};
					for (float& c : v.f) c = value(rng);
					PackTexel(info, v, memory.data() + layout.Offset(0, level, 0, x, y, 0));
				}
		}
	}
	ImageViewState View(VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT) const {
		ImageViewState v;
		v.layout = &layout;
		v.memory = memory.data();
		v.format = layout.Description().format;
		v.aspect = aspect;
		v.view_type = VK_IMAGE_VIEW_TYPE_2D;
		v.level_count = layout.Description().mip_levels;
		v.layer_count = 1;
		return v;
	}
};

// The lanes of block (bx, by): pixel centres in quad order, scaled to the
// texture's 4x repeat over 1920x1080.
void BlockCoordinates(uint32_t bx, uint32_t by, float* s, float* t) {
	for (uint32_t q = 0; q < kLanes / 4; ++q) {
		const uint32_t qx = q % (kBlock / 2), qy = q / (kBlock / 2);
		for (uint32_t l = 0; l < 4; ++l) {
			const float x = float(bx * kBlock + 2 * qx + (l & 1)) + 0.5f;
			const float y = float(by * kBlock + 2 * qy + (l >> 1)) + 0.5f;
			s[4 * q + l] = 4.0f * x / 1920.0f;
			t[4 * q + l] = 4.0f * y / 1080.0f;
		}
	}
}

// state.range(0): the format (0 RGBA8, 1 RGBA16F, 2 D32 with a LESS
// comparison); range(1): the filter (0 NEAREST, 1 LINEAR, with the mipmap
// mode alike).
void BM_SampleBlock(benchmark::State& state) {
	const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT};
	const bool depth = state.range(0) == 2;
	const Image image(formats[state.range(0)], 1024, 11);
	SamplerState sampler;
	sampler.mag_filter = sampler.min_filter = state.range(1) ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
	sampler.mipmap_mode = state.range(1) ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
	sampler.address_u = sampler.address_v = sampler.address_w = VK_SAMPLER_ADDRESS_MODE_REPEAT;
	sampler.max_lod = 1000.0f;
	if (depth) {
		sampler.compare_enable = true;
		sampler.compare_op = VK_COMPARE_OP_LESS;
	}
	SampledImage sampled;
	if (!PrepareSampledImage(sampler, image.View(depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT),
	                         &sampled)) {
		state.SkipWithError("PrepareSampledImage failed");
		return;
	}
	// The coordinates of a run of blocks across the screen, made before the
	// loop (a fragment batch's come from the rasterizer).
	constexpr uint32_t kBlocks = 64;
	std::vector<float> s(kLanes * kBlocks), t(kLanes * kBlocks), dref(kLanes, 0.5f), out[4];
	for (uint32_t b = 0; b < kBlocks; ++b) BlockCoordinates(b, 30 + b / 8, &s[b * kLanes], &t[b * kLanes]);
	for (auto& c : out) c.resize(kLanes);
	float* components[4] = {out[0].data(), out[1].data(), out[2].data(), out[3].data()};
	SampleLanes lanes;
	lanes.count = kLanes;
	lanes.coord[0] = s.data();
	lanes.coord[1] = t.data();
	lanes.quad_derivatives = true;
	if (depth) lanes.dref = dref.data();
	uint32_t block = 0;
	for (auto _ : state) {
		lanes.coord[0] = &s[block * kLanes];
		lanes.coord[1] = &t[block * kLanes];
		block = (block + 1) % kBlocks;
		Sample(sampled, lanes, components);
		benchmark::DoNotOptimize(out[0].data());
		benchmark::ClobberMemory();
	}
	state.SetItemsProcessed(int64_t(state.iterations()) * kLanes);
}
BENCHMARK(BM_SampleBlock)->ArgNames({"format", "linear"})->Args({0, 1})->Args({0, 0})->Args({1, 1})->Args({2, 1});

}  // namespace

BENCHMARK_MAIN();
