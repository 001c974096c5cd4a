// Frame capture for headless runs.
//
// TESSERA_CAPTURE=<dir>: every presented image is written as
// <dir>/frame-<n>.png (n counts presents in this process from 0, five
// digits). The queue thread converts the image to RGBA8 (a cheap copy); a
// writer thread encodes and writes the PNG, so presentation does not wait
// for zlib.
//
// With TESSERA_CAPTURE_RENDER_PASSES=1 as well (read at device creation),
// each color attachment is also written at the end of every render pass
// instance (vkCmdEndRenderPass / vkCmdEndRendering; not when a dynamic
// rendering instance suspends) as
// <dir>/frame-<f>-pass-<p>-att-<a>.png: f is the number of presents so far
// (0 for programs that never present), p counts the render pass instances
// executed since that present (three digits), a is the attachment's index
// (pAttachments of a VkRenderPass, pColorAttachments of vkCmdBeginRendering).
// See PassCapture for the conversion.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tessera::vk {
class ImageView;
}

namespace tessera::wsi {

struct CapturedFrame {
	uint32_t width = 0;
	uint32_t height = 0;
	std::vector<uint8_t> rgba;  // width * height * 4 bytes, rows top to bottom
};

class FrameWriter {
public:
	// The directory named by TESSERA_CAPTURE, or empty when capture is off.
	static std::string DirectoryFromEnvironment();
	// The next frame number of this process (counts one present; every
	// present shown counts, whether its swapchain captures or not).
	static uint32_t NextFrameNumber();
	// The number of presents so far in this process.
	static uint32_t PresentCount();

	explicit FrameWriter(std::string directory) : directory_(std::move(directory)) {}
	// Writes what is queued, then stops the writer thread.
	~FrameWriter();

	// Queues a frame for writing as frame-<number>.png. May throw
	// std::bad_alloc / std::system_error.
	void Write(uint32_t number, CapturedFrame&& frame);
	// Queues a frame for writing as <directory>/<name>. Waits while many
	// frames are queued, so a fast producer does not grow memory without
	// bound.
	void Write(std::string name, CapturedFrame&& frame);
	// Blocks until every queued frame is on disk.
	void Flush();

private:
	static constexpr size_t kMaxQueued = 16;
	void ThreadMain();

	std::string directory_;
	std::mutex mutex_;
	std::condition_variable changed_;
	std::deque<std::pair<std::string, CapturedFrame>> queue_;
	bool busy_ = false;
	bool stopping_ = false;
	std::thread thread_;
};

// Render pass capture (TESSERA_CAPTURE_RENDER_PASSES=1 with
// TESSERA_CAPTURE=<dir>). Runs on the queue thread, after the render pass
// instance's resolves; only reads the attachments.
//
// Conversion to 8-bit RGBA, per texel of the view's base mip level and base
// layer (the whole level, not only the render area), through the view's
// format with texture::UnpackTexel:
// - UNORM: the value times 255, rounded; SRGB: the stored (encoded) bytes,
//   not decoded to linear;
// - SNORM, SCALED and float formats: clamped to [0, 1], times 255, rounded;
// - UINT and SINT: clamped to [0, 255];
// - components the format lacks: 0, alpha 255.
// Formats UnpackTexel cannot read (compressed, multi-planar, 64-bit) and
// depth/stencil attachments are skipped (a log line names them, once each).
// Multisampled attachments: sample 0 of each pixel. With dynamic rendering
// a color attachment that resolves (resolveMode not NONE) is written as its
// resolve image instead; with a VkRenderPass, resolve attachments are
// attachments of their own and are written under their own index.
class PassCapture {
public:
	// Null unless both variables are set.
	static std::unique_ptr<PassCapture> FromEnvironment();
	explicit PassCapture(std::string directory) : writer_(std::move(directory)) {}

	// The end of a render pass instance with these attachments (null
	// entries and non-color formats are skipped; index = position).
	void EndOfPass(const vk::ImageView* const* views, uint32_t count);

private:
	FrameWriter writer_;
};

}  // namespace tessera::wsi
