// Fixed-function throughput of src/raster on its own (no Vulkan objects
// yet, so no lavapipe column): triangles/s for many small depth-tested
// triangles, and fill rate for full-screen overdraw, at 1920x1080 on one
// thread and on every usable CPU; and src/texture's multisample resolve on
// one thread, for content the driver-level resolve benchmark (a cleared
// image, transfer_bench.cpp) does not have.
//
//   build/bench/tessera_raster_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "raster/rasterizer.h"
#include "runtime/thread_pool.h"
#include "texture/format.h"
#include "texture/resolve.h"

using namespace tessera;
using namespace tessera::raster;

namespace {

constexpr uint32_t kWidth = 1920, kHeight = 1080;

// Color from the first four varyings: what the simplest real shader does.
void VaryingColor(const void*, FragmentBatch& b) {
	for (uint32_t c = 0; c < 4; ++c)
		for (uint32_t i = 0; i < 4 * b.quad_count; ++i) b.color[0][c][i] = b.varyings[c][i];
}

struct Scene {
	std::vector<uint8_t> color, depth;
	std::vector<float> positions, varyings;
	Framebuffer fb;
	Scene() : color(size_t(kWidth) * kHeight * 4), depth(size_t(kWidth) * kHeight * 4) {
		fb.width = kWidth;
		fb.height = kHeight;
		fb.color_count = 1;
		fb.color[0] = ColorTarget{color.data(), kWidth * 4, VK_FORMAT_R8G8B8A8_UNORM};
		fb.depth = DepthTarget{depth.data(), kWidth * 4, VK_FORMAT_D32_SFLOAT};
	}
	void ClearDepth() {
		float one = 1.0f;
		for (size_t i = 0; i < depth.size(); i += 4) std::memcpy(&depth[i], &one, 4);
	}
	void AddPixel(float x, float y, float z, std::mt19937& rng) {
		std::uniform_real_distribution<float> unit(0, 1);
		positions.insert(positions.end(), {x / (kWidth * 0.5f) - 1, y / (kHeight * 0.5f) - 1, z, 1});
		varyings.insert(varyings.end(), {unit(rng), unit(rng), unit(rng), 0.5f});
	}
	VertexInput Input() const {
		return VertexInput{positions.data(), varyings.data(), nullptr, nullptr, uint32_t(positions.size() / 4)};
	}
};

DrawState BaseState() {
	DrawState s;
	s.raster.viewport = Viewport{0, 0, float(kWidth), float(kHeight), 0, 1};
	s.raster.scissor = Rect{0, 0, kWidth, kHeight};
	s.raster.varying_count = 4;
	s.shader.run = VaryingColor;
	return s;
}

std::unique_ptr<runtime::ThreadPool> MakePool(int64_t threads) {
	if (threads <= 1) return nullptr;
	return std::make_unique<runtime::ThreadPool>(unsigned(threads));
}

// Arg: thread count (0: every usable CPU).
int64_t Threads(const benchmark::State& state) {
	return state.range(0) ? state.range(0) : int64_t(runtime::UsableCpuCount());
}

// 200k triangles of about 8 pixels each (legs of 4 px), random places and
// depths, LESS test with depth writes.
void BM_SmallTriangles(benchmark::State& state) {
	Scene scene;
	std::mt19937 rng(1);
	std::uniform_real_distribution<float> x(0, kWidth - 4), y(0, kHeight - 4), z(0, 1);
	const uint32_t count = 200000;
	for (uint32_t i = 0; i < count; ++i) {
		float px = x(rng), py = y(rng), pz = z(rng);
		scene.AddPixel(px, py, pz, rng);
		scene.AddPixel(px + 4, py, pz, rng);
		scene.AddPixel(px, py + 4, pz, rng);
	}
	DrawState s = BaseState();
	s.depth_stencil.depth_test = s.depth_stencil.depth_write = true;
	s.depth_stencil.depth_compare = VK_COMPARE_OP_LESS;
	CompiledDraw draw = CompileDraw(s, scene.fb);
	auto pool = MakePool(Threads(state));
	Renderer renderer(pool.get());
	VertexInput input = scene.Input();
	for (auto _ : state) {
		state.PauseTiming();
		scene.ClearDepth();
		state.ResumeTiming();
		renderer.Draw(draw, scene.fb, input);
	}
	state.counters["threads"] = double(Threads(state));
	state.counters["Mtri/s"] =
	    benchmark::Counter(double(count) * state.iterations() / 1e6, benchmark::Counter::kIsRate);
}

// A mesh of 4x4-pixel cells, two triangles each (259200 triangles of 8
// pixels), in row order as a real mesh would come: the same work as
// BM_SmallTriangles with the memory locality of a coherent scene.
void BM_SmallTriangleMesh(benchmark::State& state) {
	Scene scene;
	std::mt19937 rng(4);
	std::uniform_real_distribution<float> z(0, 1);
	uint32_t count = 0;
	for (uint32_t y = 0; y < kHeight; y += 4) {
		for (uint32_t x = 0; x < kWidth; x += 4, count += 2) {
			float fx = float(x), fy = float(y), pz = z(rng);
			scene.AddPixel(fx, fy, pz, rng), scene.AddPixel(fx + 4, fy, pz, rng), scene.AddPixel(fx, fy + 4, pz, rng);
			scene.AddPixel(fx + 4, fy, pz, rng), scene.AddPixel(fx + 4, fy + 4, pz, rng),
			    scene.AddPixel(fx, fy + 4, pz, rng);
		}
	}
	DrawState s = BaseState();
	s.depth_stencil.depth_test = s.depth_stencil.depth_write = true;
	s.depth_stencil.depth_compare = VK_COMPARE_OP_LESS;
	CompiledDraw draw = CompileDraw(s, scene.fb);
	auto pool = MakePool(Threads(state));
	Renderer renderer(pool.get());
	VertexInput input = scene.Input();
	for (auto _ : state) {
		state.PauseTiming();
		scene.ClearDepth();
		state.ResumeTiming();
		renderer.Draw(draw, scene.fb, input);
	}
	state.counters["threads"] = double(Threads(state));
	state.counters["Mtri/s"] =
	    benchmark::Counter(double(count) * state.iterations() / 1e6, benchmark::Counter::kIsRate);
}

// 8 full-screen layers (two triangles each): fill rate with the depth test
// off, with blending off (arg 1 = 0) or source-alpha blending (1).
void BM_FillRate(benchmark::State& state) {
	Scene scene;
	std::mt19937 rng(2);
	const uint32_t layers = 8;
	for (uint32_t i = 0; i < layers; ++i) {
		float z = 0.5f;
		scene.AddPixel(0, 0, z, rng), scene.AddPixel(kWidth, 0, z, rng), scene.AddPixel(0, kHeight, z, rng);
		scene.AddPixel(kWidth, 0, z, rng), scene.AddPixel(kWidth, kHeight, z, rng), scene.AddPixel(0, kHeight, z, rng);
	}
	DrawState s = BaseState();
	if (state.range(1)) {
		s.blend.attachment_count = 1;
		BlendAttachmentState& b = s.blend.attachments[0];
		b.blend_enable = true;
		b.src_color = VK_BLEND_FACTOR_SRC_ALPHA;
		b.dst_color = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
	}
	CompiledDraw draw = CompileDraw(s, scene.fb);
	auto pool = MakePool(Threads(state));
	Renderer renderer(pool.get());
	VertexInput input = scene.Input();
	for (auto _ : state) renderer.Draw(draw, scene.fb, input);
	state.counters["threads"] = double(Threads(state));
	state.counters["Mpixel/s"] =
	    benchmark::Counter(double(kWidth) * kHeight * layers * state.iterations() / 1e6, benchmark::Counter::kIsRate);
}

// 200k random 1-pixel-wide lines of 12 pixels (arg 1 = 0) or 200k points
// of size 3 (arg 1 = 1), depth LESS with writes: each is two setup
// triangles (the rectangle or square).
void BM_LinesPoints(benchmark::State& state) {
	Scene scene;
	std::mt19937 rng(5);
	std::uniform_real_distribution<float> x(0, kWidth - 12), y(0, kHeight - 12), z(0, 1), angle(0, 6.2831853f);
	const uint32_t count = 200000;
	const bool points = state.range(1);
	std::vector<float> sizes(points ? count : 0, 3.0f);
	for (uint32_t i = 0; i < count; ++i) {
		float px = x(rng), py = y(rng), pz = z(rng), a = angle(rng);
		scene.AddPixel(px + 6, py + 6, pz, rng);
		if (!points) scene.AddPixel(px + 6 + 12 * std::cos(a) * 0.5f, py + 6 + 12 * std::sin(a) * 0.5f, pz, rng);
	}
	DrawState s = BaseState();
	s.depth_stencil.depth_test = s.depth_stencil.depth_write = true;
	s.depth_stencil.depth_compare = VK_COMPARE_OP_LESS;
	CompiledDraw draw = CompileDraw(s, scene.fb);
	auto pool = MakePool(Threads(state));
	Renderer renderer(pool.get());
	VertexInput input = scene.Input();
	input.topology = points ? Topology::PointList : Topology::LineList;
	input.point_sizes = points ? sizes.data() : nullptr;
	for (auto _ : state) {
		state.PauseTiming();
		scene.ClearDepth();
		state.ResumeTiming();
		renderer.Draw(draw, scene.fb, input);
	}
	state.counters["threads"] = double(Threads(state));
	state.counters["Mprim/s"] =
	    benchmark::Counter(double(count) * state.iterations() / 1e6, benchmark::Counter::kIsRate);
}

// texture::ResolveSamples of a 1920x1080 4-sample BGRA8 sRGB image on one
// thread. Arg 0: every texel's four samples are one word (a flat-shaded or
// cleared area: most of an antialiased frame); arg 1: every texel's samples
// differ (random words: the worst case, edges everywhere).
void BM_ResolveSrgb(benchmark::State& state) {
	const texture::FormatInfo& format = *texture::FindFormat(VK_FORMAT_B8G8R8A8_SRGB);
	std::vector<uint8_t> samples(size_t(kWidth) * kHeight * 16), resolved(size_t(kWidth) * kHeight * 4);
	std::mt19937 rng(1);
	for (size_t i = 0; i < samples.size(); i += 4) {
		const uint32_t word = state.range(0) ? uint32_t(rng()) : 0xff80c040u;
		std::memcpy(&samples[i], &word, 4);
	}
	texture::ResolveRect rect;
	rect.src = samples.data();
	rect.src_row_pitch = uint64_t(kWidth) * 16;
	rect.dst = resolved.data();
	rect.dst_row_pitch = uint64_t(kWidth) * 4;
	rect.width = kWidth;
	rect.height = kHeight;
	rect.samples = 4;
	rect.element_size = 4;
	for (auto _ : state) {
		texture::ResolveSamples(format, rect);
		benchmark::DoNotOptimize(resolved.data());
	}
	state.counters["Mpix/s"] =
	    benchmark::Counter(double(kWidth) * kHeight * state.iterations() / 1e6, benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_ResolveSrgb)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SmallTriangles)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SmallTriangleMesh)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LinesPoints)
    ->Args({1, 0})
    ->Args({0, 0})
    ->Args({1, 1})
    ->Args({0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_FillRate)
    ->Args({1, 0})
    ->Args({0, 0})
    ->Args({1, 1})
    ->Args({0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
