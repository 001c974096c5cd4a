#include "wsi/capture.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb/stb_image_write.h>

#include "runtime/log.h"
#include "texture/texel.h"
#include "vk/image.h"

namespace tessera::wsi {

namespace {
std::atomic<uint32_t> g_frame_number{0};
}

std::string FrameWriter::DirectoryFromEnvironment() {
	const char* dir = std::getenv("TESSERA_CAPTURE");
	return dir && *dir ? std::string(dir) : std::string();
}

uint32_t FrameWriter::NextFrameNumber() { return g_frame_number.fetch_add(1, std::memory_order_relaxed); }

uint32_t FrameWriter::PresentCount() { return g_frame_number.load(std::memory_order_relaxed); }

FrameWriter::~FrameWriter() {
	{
		std::lock_guard lock(mutex_);
		stopping_ = true;
	}
	changed_.notify_all();
	if (thread_.joinable()) thread_.join();
}

void FrameWriter::Write(uint32_t number, CapturedFrame&& frame) {
	char name[32];
	std::snprintf(name, sizeof name, "frame-%05u.png", number);
	Write(std::string(name), std::move(frame));
}

void FrameWriter::Write(std::string name, CapturedFrame&& frame) {
	std::unique_lock lock(mutex_);
	if (!thread_.joinable()) thread_ = std::thread([this] { ThreadMain(); });
	changed_.wait(lock, [&] { return queue_.size() < kMaxQueued; });
	queue_.emplace_back(std::move(name), std::move(frame));
	changed_.notify_all();
}

void FrameWriter::Flush() {
	std::unique_lock lock(mutex_);
	changed_.wait(lock, [&] { return queue_.empty() && !busy_; });
}

void FrameWriter::ThreadMain() {
	std::unique_lock lock(mutex_);
	for (;;) {
		changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
		if (queue_.empty()) return;  // stopping, everything written
		auto [name, frame] = std::move(queue_.front());
		queue_.pop_front();
		busy_ = true;
		changed_.notify_all();  // room in the queue
		lock.unlock();
		std::string path = directory_ + "/" + name;
		if (!stbi_write_png(path.c_str(), int(frame.width), int(frame.height), 4, frame.rgba.data(),
		                    int(frame.width * 4)))
			runtime::Log(runtime::LogLevel::Error, "TESSERA_CAPTURE: cannot write %s", path.c_str());
		lock.lock();
		busy_ = false;
		changed_.notify_all();
	}
}

namespace {

// Pass numbers are counted per process (several devices write into one
// directory) and start again at 0 after each present.
std::mutex g_pass_mutex;
uint32_t g_pass_frame = 0;
uint32_t g_next_pass = 0;
std::vector<VkFormat> g_skipped_formats;  // logged once each

uint8_t ToByte(float v) {
	if (!(v > 0.0f)) return 0;  // NaN too
	if (v >= 1.0f) return 255;
	return uint8_t(v * 255.0f + 0.5f);
}

// One texel to RGBA8 (the rules in capture.h).
void ConvertTexel(const texture::FormatInfo& format, const uint8_t* in, uint8_t out[4]) {
	texture::TexelValue v = texture::UnpackTexel(format, in);
	const char names[4] = {'R', 'G', 'B', 'A'};
	for (int c = 0; c < 4; ++c) {
		if (!format.Find(names[c])) {
			out[c] = c == 3 ? 255 : 0;
			continue;
		}
		switch (format.Numeric()) {
		case texture::NumericFormat::UINT: out[c] = uint8_t(std::min<uint32_t>(v.u[c], 255)); break;
		case texture::NumericFormat::SINT: out[c] = uint8_t(std::clamp<int32_t>(v.i[c], 0, 255)); break;
		default: out[c] = ToByte(v.f[c]); break;
		}
	}
}

// The view's base level and layer as RGBA8; false when its format cannot be
// read.
bool ConvertView(const vk::ImageView& view, CapturedFrame& frame) {
	const vk::Image& image = *view.GetImage();
	const texture::FormatInfo* info = texture::FindFormat(view.Format());
	if (!info || !image.Data() || info->IsCompressed() || info->IsMultiPlanar() || !texture::CanConvertTexels(*info))
		return false;
	// SRGB: unpacked as UNORM, so the stored (encoded) values come out.
	texture::FormatInfo format = *info;
	for (uint32_t c = 0; c < format.component_count; ++c)
		if (format.components[c].numeric == texture::NumericFormat::SRGB)
			format.components[c].numeric = texture::NumericFormat::UNORM;
	const uint32_t mip = view.Range().baseMipLevel;
	const texture::ImageLayout& layout = image.Layout();
	const texture::SubresourceLayout& level = layout.Level(0, mip);
	const bool is_3d = image.Type() == VK_IMAGE_TYPE_3D;
	const uint32_t layer = is_3d ? 0 : view.Range().baseArrayLayer;
	const uint32_t slice = is_3d ? view.Range().baseArrayLayer : 0;
	frame.width = level.extent.width;
	frame.height = level.extent.height;
	frame.rgba.resize(size_t(frame.width) * frame.height * 4);
	const bool rgba8 = format.format == VK_FORMAT_R8G8B8A8_UNORM || format.format == VK_FORMAT_R8G8B8A8_SRGB;
	const bool bgra8 = format.format == VK_FORMAT_B8G8R8A8_UNORM || format.format == VK_FORMAT_B8G8R8A8_SRGB;
	for (uint32_t y = 0; y < frame.height; ++y) {
		uint8_t* dst = frame.rgba.data() + size_t(y) * frame.width * 4;
		for (uint32_t x = 0; x < frame.width; ++x, dst += 4) {
			// Sample 0 of multisampled images.
			const uint8_t* src = image.Data() + layout.Offset(0, mip, layer, x, y, slice);
			if (rgba8) {
				std::memcpy(dst, src, 4);
			} else if (bgra8) {
				dst[0] = src[2];
				dst[1] = src[1];
				dst[2] = src[0];
				dst[3] = src[3];
			} else {
				ConvertTexel(format, src, dst);
			}
		}
	}
	return true;
}

}  // namespace

std::unique_ptr<PassCapture> PassCapture::FromEnvironment() {
	const char* passes = std::getenv("TESSERA_CAPTURE_RENDER_PASSES");
	if (!passes || std::strcmp(passes, "1") != 0) return nullptr;
	std::string dir = FrameWriter::DirectoryFromEnvironment();
	if (dir.empty()) {
		runtime::Log(runtime::LogLevel::Warn, "TESSERA_CAPTURE_RENDER_PASSES needs TESSERA_CAPTURE=<dir>");
		return nullptr;
	}
	return std::make_unique<PassCapture>(std::move(dir));
}

void PassCapture::EndOfPass(const vk::ImageView* const* views, uint32_t count) {
	uint32_t frame_number, pass;
	{
		std::lock_guard lock(g_pass_mutex);
		frame_number = FrameWriter::PresentCount();
		if (frame_number != g_pass_frame) {
			g_pass_frame = frame_number;
			g_next_pass = 0;
		}
		pass = g_next_pass++;
	}
	for (uint32_t a = 0; a < count; ++a) {
		const vk::ImageView* view = views[a];
		if (!view) continue;
		const texture::FormatInfo* info = texture::FindFormat(view->Format());
		if (info && info->IsDepthOrStencil()) continue;
		try {
			CapturedFrame frame;
			if (!ConvertView(*view, frame)) {
				std::lock_guard lock(g_pass_mutex);
				if (std::find(g_skipped_formats.begin(), g_skipped_formats.end(), view->Format()) ==
				    g_skipped_formats.end()) {
					g_skipped_formats.push_back(view->Format());
					runtime::Log(runtime::LogLevel::Warn,
					             "TESSERA_CAPTURE_RENDER_PASSES: attachments of format %s are not captured",
					             info ? info->name : "(unknown)");
				}
				continue;
			}
			char name[64];
			std::snprintf(name, sizeof name, "frame-%05u-pass-%03u-att-%u.png", frame_number, pass, a);
			writer_.Write(std::string(name), std::move(frame));
		} catch (const std::exception&) {
			runtime::Log(runtime::LogLevel::Error, "TESSERA_CAPTURE_RENDER_PASSES: out of memory, attachment dropped");
		}
	}
}

}  // namespace tessera::wsi
