#include "wsi/capture.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb/stb_image_write.h>

#include "runtime/log.h"

namespace tessera::wsi {

namespace {
std::atomic<uint32_t> g_frame_number{0};
}

std::string FrameWriter::DirectoryFromEnvironment() {
	const char* dir = std::getenv("TESSERA_CAPTURE");
	return dir && *dir ? std::string(dir) : std::string();
}

uint32_t FrameWriter::NextFrameNumber() { return g_frame_number.fetch_add(1, std::memory_order_relaxed); }

FrameWriter::~FrameWriter() {
	{
		std::lock_guard lock(mutex_);
		stopping_ = true;
	}
	changed_.notify_all();
	if (thread_.joinable()) thread_.join();
}

void FrameWriter::Write(uint32_t number, CapturedFrame&& frame) {
	std::lock_guard lock(mutex_);
	if (!thread_.joinable()) thread_ = std::thread([this] { ThreadMain(); });
	queue_.emplace_back(number, std::move(frame));
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
		auto [number, frame] = std::move(queue_.front());
		queue_.pop_front();
		busy_ = true;
		lock.unlock();
		char name[32];
		std::snprintf(name, sizeof name, "/frame-%05u.png", number);
		std::string path = directory_ + name;
		if (!stbi_write_png(path.c_str(), int(frame.width), int(frame.height), 4, frame.rgba.data(),
		                    int(frame.width * 4)))
			runtime::Log(runtime::LogLevel::Error, "TESSERA_CAPTURE: cannot write %s", path.c_str());
		lock.lock();
		busy_ = false;
		changed_.notify_all();
	}
}

}  // namespace tessera::wsi
