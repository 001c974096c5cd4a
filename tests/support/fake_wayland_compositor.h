// A minimal Wayland compositor inside the test process (libwayland-server):
// wl_compositor (surfaces; regions accepted and ignored) and wl_shm, on its
// own thread, connected to one client through a socket pair. Every commit
// that attaches a wl_shm buffer is recorded with a copy of the buffer's
// pixels; the buffer is released at once and the commit's frame callbacks
// are answered at once (a compositor with an instant repaint). Lets tests
// check the bytes a driver sends, which a real compositor hides.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera::test {

struct WaylandCommit {
	uint32_t width = 0, height = 0, stride = 0;
	uint32_t format = 0;           // wl_shm_format: 0 ARGB8888, 1 XRGB8888
	std::vector<uint8_t> pixels;   // height rows of stride bytes
	bool damaged_whole = false;    // damage or damage_buffer covered the buffer
	uint32_t frame_callbacks = 0;  // wl_surface.frame requests in this commit
};

class FakeWaylandCompositor {
public:
	// nullptr when the server cannot be made.
	static std::unique_ptr<FakeWaylandCompositor> Create();
	~FakeWaylandCompositor();

	// The client's end of the connection (for wl_display_connect_to_fd),
	// once.
	int TakeClientFd();
	// The commits with buffers so far, waiting up to `timeout` for at least
	// `count` of them.
	std::vector<WaylandCommit> WaitForCommits(size_t count, std::chrono::milliseconds timeout);
	// Closes the client's connection, as a compositor that goes away.
	void DisconnectClient();

	struct State;  // the server side (libwayland-server types)

private:
	FakeWaylandCompositor() = default;
	std::unique_ptr<State> state_;
	std::thread thread_;
	int client_fd_ = -1;
};

}  // namespace tessera::test
