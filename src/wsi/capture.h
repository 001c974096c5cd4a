// Frame capture for headless runs: with TESSERA_CAPTURE=<dir>, every
// presented image is written as <dir>/frame-<n>.png (n counts presents in
// this process from 0, five digits). The queue thread converts the image to
// RGBA8 (a cheap copy); a writer thread encodes and writes the PNG, so
// presentation does not wait for zlib.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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
	// The next frame number of this process.
	static uint32_t NextFrameNumber();

	explicit FrameWriter(std::string directory) : directory_(std::move(directory)) {}
	// Writes what is queued, then stops the writer thread.
	~FrameWriter();

	// Queues a frame for writing as frame-<number>.png. May throw
	// std::bad_alloc / std::system_error.
	void Write(uint32_t number, CapturedFrame&& frame);
	// Blocks until every queued frame is on disk.
	void Flush();

private:
	void ThreadMain();

	std::string directory_;
	std::mutex mutex_;
	std::condition_variable changed_;
	std::deque<std::pair<uint32_t, CapturedFrame>> queue_;
	bool busy_ = false;
	bool stopping_ = false;
	std::thread thread_;
};

}  // namespace tessera::wsi
