// Render pass capture (TESSERA_CAPTURE=<dir> with
// TESSERA_CAPTURE_RENDER_PASSES=1, read at device creation): each color
// attachment is written as frame-<f>-pass-<p>-att-<a>.png at the end of each
// render pass instance. Tessera only (lavapipe has no capture); the
// validation layer checks the programs.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "draw_scene_helpers.h"
#include "wsi_support.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

constexpr uint32_t kWidth = 61, kHeight = 43;  // odd sizes: rows are not a power of two

Scene CaptureScene(VkFormat format, bool dynamic_rendering, VkSampleCountFlagBits samples) {
	std::vector<Vertex> v;
	Triangle(v, -0.8f, -0.7f, 0.7f, -0.5f, -0.1f, 0.8f, 0.5f, 1.0f, 0.2f, 0.1f, 0.6f);
	Scene s = ColorScene(v);
	s.width = kWidth;
	s.height = kHeight;
	s.color_format = format;
	s.dynamic_rendering = dynamic_rendering;
	s.samples = samples;
	return s;
}

// The environment variables for the scope of a test (they are read when the
// device is created).
struct EnvScope {
	EnvScope(const std::filesystem::path& dir, bool passes) {
		setenv("TESSERA_CAPTURE", dir.c_str(), 1);
		if (passes) setenv("TESSERA_CAPTURE_RENDER_PASSES", "1", 1);
	}
	~EnvScope() {
		unsetenv("TESSERA_CAPTURE");
		unsetenv("TESSERA_CAPTURE_RENDER_PASSES");
	}
};

struct PassFile {
	unsigned frame, pass, attachment;
};

// frame-<f>-pass-<p>-att-<a>.png files of a folder, by name.
std::map<std::string, PassFile> PassFiles(const std::filesystem::path& dir) {
	std::map<std::string, PassFile> files;
	for (const auto& entry : std::filesystem::directory_iterator(dir)) {
		PassFile f{};
		std::string name = entry.path().filename().string();
		char end = 0;
		REQUIRE(std::sscanf(name.c_str(), "frame-%5u-pass-%3u-att-%u.pn%c", &f.frame, &f.pass, &f.attachment, &end) ==
		        4);
		files[name] = f;
	}
	return files;
}

std::string PassName(unsigned frame, unsigned pass, unsigned attachment) {
	char name[64];
	std::snprintf(name, sizeof name, "frame-%05u-pass-%03u-att-%u.png", frame, pass, attachment);
	return name;
}

std::vector<uint8_t> ReadCapture(const std::filesystem::path& path) {
	INFO(path);
	uint32_t width = 0, height = 0;
	std::vector<uint8_t> pixels = ReadPng(path, &width, &height);
	CHECK(width == kWidth);
	CHECK(height == kHeight);
	return pixels;
}

}  // namespace

TEST_CASE("capture: color attachments at the end of each render pass as PNGs", "[capture]") {
	std::filesystem::path dir = FreshCaptureDirectory("render-passes");
	SceneFeatures features;
	std::unique_ptr<Context> ctx;
	{
		EnvScope env(dir, true);
		ctx = Context::Create(Driver::Tessera, features.Options());
	}
	REQUIRE(ctx);
	// Pass 0: a render pass object, RGBA8 UNORM: the bytes as rendered.
	SceneResult rgba = RenderScene(*ctx, CaptureScene(VK_FORMAT_R8G8B8A8_UNORM, false, VK_SAMPLE_COUNT_1_BIT));
	// Pass 1: dynamic rendering, BGRA8 sRGB: swizzled, still sRGB-encoded.
	SceneResult bgra = RenderScene(*ctx, CaptureScene(VK_FORMAT_B8G8R8A8_SRGB, true, VK_SAMPLE_COUNT_1_BIT));
	// Pass 2: RGBA16 UNORM, converted to 8 bits.
	SceneResult wide = RenderScene(*ctx, CaptureScene(VK_FORMAT_R16G16B16A16_UNORM, false, VK_SAMPLE_COUNT_1_BIT));
	// Pass 3: dynamic rendering, 4 samples resolved: the resolve image.
	SceneResult msaa_dynamic = RenderScene(*ctx, CaptureScene(VK_FORMAT_R8G8B8A8_UNORM, true, VK_SAMPLE_COUNT_4_BIT));
	// Pass 4: a render pass object, 4 samples: attachment 0 multisampled
	// (captured as sample 0), attachment 1 its resolve.
	SceneResult msaa_pass = RenderScene(*ctx, CaptureScene(VK_FORMAT_R8G8B8A8_UNORM, false, VK_SAMPLE_COUNT_4_BIT));
	CHECK(ctx->validation_errors() == 0);
	ctx.reset();  // destroying the device writes what is queued

	std::map<std::string, PassFile> files = PassFiles(dir);
	REQUIRE(files.size() == 6);
	// No presents in this program: one frame number for all (0 in a process
	// of its own; other tests of this process may have presented), and the
	// pass counter counts from 0.
	const unsigned frame = files.begin()->second.frame;
	for (const auto& [name, f] : files) CHECK(f.frame == frame);
	for (const std::string& name : {PassName(frame, 0, 0), PassName(frame, 1, 0), PassName(frame, 2, 0),
	                                PassName(frame, 3, 0), PassName(frame, 4, 0), PassName(frame, 4, 1)})
		CHECK(files.count(name) == 1);

	CHECK(ReadCapture(dir / PassName(frame, 0, 0)) == rgba.colors[0]);

	std::vector<uint8_t> expected = bgra.colors[0];
	for (size_t i = 0; i < expected.size(); i += 4) std::swap(expected[i], expected[i + 2]);
	CHECK(ReadCapture(dir / PassName(frame, 1, 0)) == expected);

	// 16 -> 8 bits: v / 65535 * 255 rounded to nearest; the driver's float
	// arithmetic may round an exact half the other way: 1 code.
	std::vector<uint8_t> wide_capture = ReadCapture(dir / PassName(frame, 2, 0));
	REQUIRE(wide_capture.size() * 2 == wide.colors[0].size());
	int worst = 0;
	for (size_t i = 0; i < wide_capture.size(); ++i) {
		uint16_t v = uint16_t(wide.colors[0][2 * i] | wide.colors[0][2 * i + 1] << 8);
		int want = int(double(v) * 255.0 / 65535.0 + 0.5);
		worst = std::max(worst, std::abs(want - int(wide_capture[i])));
	}
	CHECK(worst <= 1);

	CHECK(ReadCapture(dir / PassName(frame, 3, 0)) == msaa_dynamic.colors[0]);
	CHECK(ReadCapture(dir / PassName(frame, 4, 1)) == msaa_pass.colors[0]);
	// Sample 0 of the multisampled attachment: where all samples agree (away
	// from the triangle's edges) it equals the resolve, so most pixels do.
	std::vector<uint8_t> sample0 = ReadCapture(dir / PassName(frame, 4, 0));
	REQUIRE(sample0.size() == msaa_pass.colors[0].size());
	size_t same = 0;
	for (size_t i = 0; i < sample0.size(); i += 4)
		same += std::equal(&sample0[i], &sample0[i] + 4, &msaa_pass.colors[0][i]);
	CHECK(same > sample0.size() / 4 * 9 / 10);
}

TEST_CASE("capture: render passes are not captured without the second setting, results unchanged", "[capture]") {
	std::filesystem::path on = FreshCaptureDirectory("render-passes-on");
	std::filesystem::path off = FreshCaptureDirectory("render-passes-off");
	SceneFeatures features;
	const Scene scene = CaptureScene(VK_FORMAT_R8G8B8A8_UNORM, true, VK_SAMPLE_COUNT_1_BIT);
	SceneResult with, without;
	{
		std::unique_ptr<Context> ctx;
		{
			EnvScope env(on, true);
			ctx = Context::Create(Driver::Tessera, features.Options());
		}
		REQUIRE(ctx);
		with = RenderScene(*ctx, scene);
		CHECK(ctx->validation_errors() == 0);
	}
	{
		std::unique_ptr<Context> ctx;
		{
			EnvScope env(off, false);
			ctx = Context::Create(Driver::Tessera, features.Options());
		}
		REQUIRE(ctx);
		without = RenderScene(*ctx, scene);
		CHECK(ctx->validation_errors() == 0);
	}
	CHECK(PassFiles(on).size() == 1);
	CHECK(PassFiles(off).empty());
	// Capture only reads the attachments.
	CHECK(with.colors[0] == without.colors[0]);
}
