// A draw's scratch memory (shaded vertices, bins) grows with the largest
// draw; the queue thread hands it back once it has no more work, so an
// application that drew one big mesh does not keep it pinned.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "render_scene.h"
#include "skip.h"

using namespace tessera::test;

namespace {

// Resident set size of this process in bytes (/proc/self/status VmRSS).
uint64_t ResidentBytes() {
	std::ifstream status("/proc/self/status");
	std::string key;
	while (status >> key) {
		if (key == "VmRSS:") {
			uint64_t kib = 0;
			status >> kib;
			return kib * 1024;
		}
		status.ignore(1 << 16, '\n');
	}
	return 0;
}

}  // namespace

TEST_CASE("the draw scratch memory is released when the queue goes idle", "[draw][memory]") {
#if defined(__SANITIZE_ADDRESS__)
	// ASan keeps freed memory in quarantine: the resident size cannot show
	// the release.
	NoteSkipped("resident-size check not meaningful under AddressSanitizer");
	return;
#endif
	ContextOptions options;
	options.validation = false;  // the layer's own memory would blur the figure
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	Scene s;
	s.width = s.height = 16;
	s.vertex_shader = "offscreen.vert.spv";
	s.fragment_shader = "constant_color.frag.spv";
	// 12M vertices: 192 MB of clip-space positions alone.
	constexpr uint32_t kVertices = 12u << 20;
	s.draws = {DrawCall{kVertices}};
	const uint64_t before = ResidentBytes();
	RenderScene(*ctx, s);
	// The release follows the submission's completion on the queue thread,
	// once it has been idle for half a second.
	uint64_t after = ResidentBytes();
	for (int i = 0; i < 100 && after > before + (96u << 20); ++i) {
		std::this_thread::sleep_for(std::chrono::milliseconds(50));
		after = ResidentBytes();
	}
	INFO("resident before " << (before >> 20) << " MiB, after " << (after >> 20) << " MiB");
	CHECK(after < before + (96u << 20));  // the 64 MiB the queue keeps, and slack
}

TEST_CASE("a draw larger than the vertex-memory budget is skipped with a message", "[draw][memory]") {
	// vertexCount may be any 32-bit value: 2^32 - 1 vertices need 64 GiB of
	// positions alone. A draw whose vertex results exceed the budget (a
	// quarter of the machine's memory; TESSERA_DRAW_MEMORY_MB here, so that
	// the test is the same on every machine) is reported through
	// VK_EXT_debug_utils and skipped, and the work after it still runs.
	setenv("TESSERA_DRAW_MEMORY_MB", "64", 1);  // read when the device is created
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	Scene s;
	s.width = s.height = 16;
	s.vertex_shader = "offscreen.vert.spv";
	s.fragment_shader = "constant_color.frag.spv";
	s.draws = {DrawCall{16u << 20}, DrawCall{0xffffffffu}};  // 320 MiB and 80 GiB of vertex results
	SceneResult result = RenderScene(*ctx, s);
	REQUIRE(ctx->validation_errors() == 2);
	for (const std::string& message : ctx->validation_messages())
		CHECK(message.find("draw skipped") != std::string::npos);
	CHECK(result.colors[0].size() == 16u * 16u * 4u);  // the read-back after the draws ran
	unsetenv("TESSERA_DRAW_MEMORY_MB");
}
