#include "wsi/wayland.h"

#include <dlfcn.h>
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client-core.h>
// For the opcodes and listener structs only: its inline request helpers
// refer to libwayland-client's symbols and are not called.
#include <wayland-client-protocol.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <vector>

#include "runtime/log.h"

namespace tessera::wsi {

namespace {

// libwayland-client, opened at run time. A program that made a Wayland
// surface has it loaded already, so dlopen finds that same copy (and so the
// same wl_display internals).
struct Wayland {
	bool ok = false;
	decltype(&wl_display_create_queue) display_create_queue;
	decltype(&wl_event_queue_destroy) event_queue_destroy;
	decltype(&wl_proxy_create_wrapper) proxy_create_wrapper;
	decltype(&wl_proxy_wrapper_destroy) proxy_wrapper_destroy;
	decltype(&wl_proxy_set_queue) proxy_set_queue;
	decltype(&wl_proxy_marshal_flags) proxy_marshal_flags;  // libwayland 1.20 and later
	decltype(&wl_proxy_add_listener) proxy_add_listener;
	decltype(&wl_proxy_destroy) proxy_destroy;
	decltype(&wl_proxy_get_version) proxy_get_version;
	decltype(&wl_display_prepare_read_queue) display_prepare_read_queue;
	decltype(&wl_display_read_events) display_read_events;
	decltype(&wl_display_cancel_read) display_cancel_read;
	decltype(&wl_display_dispatch_queue_pending) display_dispatch_queue_pending;
	decltype(&wl_display_flush) display_flush;
	decltype(&wl_display_get_fd) display_get_fd;
	decltype(&wl_display_get_error) display_get_error;
	const wl_interface* registry_interface;
	const wl_interface* callback_interface;
	const wl_interface* shm_interface;
	const wl_interface* shm_pool_interface;
	const wl_interface* buffer_interface;
};

template <typename T>
bool Load(void* library, const char* name, T* out) {
	*out = library ? reinterpret_cast<T>(dlsym(library, name)) : nullptr;
	return *out != nullptr;
}

const Wayland& GetWayland() {
	static const Wayland wayland = [] {
		Wayland w{};
		// The library stays loaded for the life of the process.
		void* lib = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL);
		w.ok = Load(lib, "wl_display_create_queue", &w.display_create_queue) &&
		       Load(lib, "wl_event_queue_destroy", &w.event_queue_destroy) &&
		       Load(lib, "wl_proxy_create_wrapper", &w.proxy_create_wrapper) &&
		       Load(lib, "wl_proxy_wrapper_destroy", &w.proxy_wrapper_destroy) &&
		       Load(lib, "wl_proxy_set_queue", &w.proxy_set_queue) &&
		       Load(lib, "wl_proxy_marshal_flags", &w.proxy_marshal_flags) &&
		       Load(lib, "wl_proxy_add_listener", &w.proxy_add_listener) &&
		       Load(lib, "wl_proxy_destroy", &w.proxy_destroy) &&
		       Load(lib, "wl_proxy_get_version", &w.proxy_get_version) &&
		       Load(lib, "wl_display_prepare_read_queue", &w.display_prepare_read_queue) &&
		       Load(lib, "wl_display_read_events", &w.display_read_events) &&
		       Load(lib, "wl_display_cancel_read", &w.display_cancel_read) &&
		       Load(lib, "wl_display_dispatch_queue_pending", &w.display_dispatch_queue_pending) &&
		       Load(lib, "wl_display_flush", &w.display_flush) && Load(lib, "wl_display_get_fd", &w.display_get_fd) &&
		       Load(lib, "wl_display_get_error", &w.display_get_error) &&
		       Load(lib, "wl_registry_interface", &w.registry_interface) &&
		       Load(lib, "wl_callback_interface", &w.callback_interface) &&
		       Load(lib, "wl_shm_interface", &w.shm_interface) &&
		       Load(lib, "wl_shm_pool_interface", &w.shm_pool_interface) &&
		       Load(lib, "wl_buffer_interface", &w.buffer_interface);
		if (!w.ok)
			runtime::Log(runtime::LogLevel::Error,
			             "wsi: cannot load libwayland-client.so.0 (1.20 or later): Wayland presentation is off");
		return w;
	}();
	return wayland;
}

using Clock = std::chrono::steady_clock;

// FIFO waits this long at most for the compositor's frame callback: a
// compositor may never send one for a hidden surface, and the queue thread
// must not stop for good.
constexpr auto kFrameWait = std::chrono::milliseconds(250);
// How long to wait for a wl_buffer.release when every buffer is busy, and
// for the compositor's answer when the presenter starts.
constexpr auto kReleaseWait = std::chrono::seconds(1);
constexpr auto kStartWait = std::chrono::seconds(10);
// Buffers in the ring: one shown, one committed, one being written (and a
// spare for a compositor slow to release).
constexpr size_t kMaxBuffers = 4;

class WaylandPresenter final : public WindowPresenter {
public:
	WaylandPresenter(wl_display* display, wl_proxy* surface, const VkSwapchainCreateInfoKHR& info)
	    : display_(display),
	      surface_(surface),
	      fifo_(info.presentMode == VK_PRESENT_MODE_FIFO_KHR || info.presentMode == VK_PRESENT_MODE_FIFO_RELAXED_KHR),
	      // wl_shm: ARGB8888 is pre-multiplied; XRGB8888's X byte is ignored.
	      format_(info.compositeAlpha == VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR ? WL_SHM_FORMAT_ARGB8888
	                                                                               : WL_SHM_FORMAT_XRGB8888) {}

	~WaylandPresenter() override {
		const Wayland& wl = GetWayland();
		if (frame_) wl.proxy_destroy(frame_);
		for (Buffer& b : buffers_) DestroyBuffer(b);
		if (shm_) wl.proxy_destroy(shm_);  // wl_shm version 1 has no destructor request
		if (registry_) wl.proxy_destroy(registry_);
		if (surface_wrapper_) wl.proxy_wrapper_destroy(surface_wrapper_);
		if (display_wrapper_) wl.proxy_wrapper_destroy(display_wrapper_);
		wl.display_flush(display_);
		if (queue_) wl.event_queue_destroy(queue_);
	}

	// On the application's thread (vkCreateSwapchainKHR): the private
	// queue, wrappers of the display and surface that send their new
	// objects to it, and wl_shm from the registry (one round trip).
	void Start() {
		const Wayland& wl = GetWayland();
		if (wl.display_get_error(display_)) return Fail("the display has failed");
		queue_ = wl.display_create_queue(display_);
		display_wrapper_ = static_cast<wl_proxy*>(wl.proxy_create_wrapper(display_));
		surface_wrapper_ = static_cast<wl_proxy*>(wl.proxy_create_wrapper(surface_));
		if (!queue_ || !display_wrapper_ || !surface_wrapper_) return Fail("out of memory");
		wl.proxy_set_queue(display_wrapper_, queue_);
		wl.proxy_set_queue(surface_wrapper_, queue_);
		registry_ = wl.proxy_marshal_flags(display_wrapper_, WL_DISPLAY_GET_REGISTRY, wl.registry_interface,
		                                   wl.proxy_get_version(display_wrapper_), 0, nullptr);
		if (!registry_) return Fail("out of memory");
		static const wl_registry_listener kRegistryListener = {&Global, &GlobalRemove};
		wl.proxy_add_listener(
		    registry_, reinterpret_cast<void (**)(void)>(const_cast<wl_registry_listener*>(&kRegistryListener)), this);
		// wl_display.sync: its done event comes after every global.
		wl_proxy* sync = wl.proxy_marshal_flags(display_wrapper_, WL_DISPLAY_SYNC, wl.callback_interface,
		                                        wl.proxy_get_version(display_wrapper_), 0, nullptr);
		if (!sync) return Fail("out of memory");
		bool synced = false;
		static const wl_callback_listener kSyncListener = {
		    [](void* data, wl_callback*, uint32_t) { *static_cast<bool*>(data) = true; }};
		wl.proxy_add_listener(
		    sync, reinterpret_cast<void (**)(void)>(const_cast<wl_callback_listener*>(&kSyncListener)), &synced);
		Pump([&] { return synced; }, Clock::now() + kStartWait);
		wl.proxy_destroy(sync);
		if (lost_) return;
		if (!synced) return Fail("the compositor did not answer");
		if (!shm_) return Fail("the compositor offers no wl_shm");
		// wl_surface.damage_buffer: version 4 and later.
		damage_buffer_ = wl.proxy_get_version(surface_) >= WL_SURFACE_DAMAGE_BUFFER_SINCE_VERSION;
	}

	bool Lost() const override { return lost_.load(std::memory_order_relaxed); }

	// On the queue thread.
	void Show(const uint8_t* pixels, uint32_t width, uint32_t height, uint64_t stride, bool bgra) override {
		if (Lost()) return;
		const Wayland& wl = GetWayland();
		// Events already here: releases, a frame callback.
		Pump([] { return false; }, Clock::now());
		// FIFO (Vulkan 1.3 §34.10: one image a vertical blanking period): the
		// compositor's frame callback for the previous commit says when.
		if (fifo_ && frame_) Pump([&] { return frame_ == nullptr; }, Clock::now() + kFrameWait);
		Buffer* buffer = FreeBuffer(width, height);
		if (!buffer) return;
		uint64_t row_bytes = uint64_t(width) * 4;
		bool opaque = format_ == WL_SHM_FORMAT_XRGB8888;
		for (uint32_t y = 0; y < height; ++y) {
			const uint8_t* src = pixels + y * stride;
			uint8_t* dst = buffer->memory + y * row_bytes;
			if (bgra) {
				std::memcpy(dst, src, row_bytes);
			} else {
				for (uint32_t x = 0; x < width; ++x) {
					dst[4 * x + 0] = src[4 * x + 2];
					dst[4 * x + 1] = src[4 * x + 1];
					dst[4 * x + 2] = src[4 * x + 0];
					dst[4 * x + 3] = src[4 * x + 3];
				}
			}
			// XRGB8888's X byte is ignored, but not every compositor (or
			// screenshot tool) ignores it: opaque images go out with 255.
			if (opaque)
				for (uint32_t x = 0; x < width; ++x) dst[4 * x + 3] = 255;
		}
		if (!logged_) {
			logged_ = true;
			TESSERA_LOG(Info, "wsi: presenting %ux%u to a Wayland surface through wl_shm (%s, %s)", width, height,
			            format_ == WL_SHM_FORMAT_ARGB8888 ? "ARGB8888" : "XRGB8888",
			            fifo_ ? "paced by frame callbacks" : "unpaced");
		}
		uint32_t version = wl.proxy_get_version(surface_wrapper_);
		wl.proxy_marshal_flags(surface_wrapper_, WL_SURFACE_ATTACH, nullptr, version, 0, buffer->buffer, 0, 0);
		if (damage_buffer_)
			wl.proxy_marshal_flags(surface_wrapper_, WL_SURFACE_DAMAGE_BUFFER, nullptr, version, 0, 0, 0,
			                       int32_t(width), int32_t(height));
		else
			wl.proxy_marshal_flags(surface_wrapper_, WL_SURFACE_DAMAGE, nullptr, version, 0, 0, 0, INT32_MAX,
			                       INT32_MAX);
		if (fifo_) {
			if (frame_) wl.proxy_destroy(frame_);  // a callback that did not come in time
			frame_ =
			    wl.proxy_marshal_flags(surface_wrapper_, WL_SURFACE_FRAME, wl.callback_interface, version, 0, nullptr);
			static const wl_callback_listener kFrameListener = {&FrameDone};
			if (frame_)
				wl.proxy_add_listener(
				    frame_, reinterpret_cast<void (**)(void)>(const_cast<wl_callback_listener*>(&kFrameListener)),
				    this);
		}
		wl.proxy_marshal_flags(surface_wrapper_, WL_SURFACE_COMMIT, nullptr, version, 0);
		buffer->busy = true;
		// EAGAIN (the socket is full) is sent by the next Pump.
		if (wl.display_flush(display_) < 0 && errno != EAGAIN) Fail("cannot send to the compositor");
	}

private:
	struct Buffer {
		wl_proxy* buffer = nullptr;
		uint8_t* memory = nullptr;
		size_t size = 0;
		uint32_t width = 0, height = 0;
		bool busy = false;  // attached, not yet released by the compositor
	};

	void Fail(const char* why) {
		if (!lost_.exchange(true)) runtime::Log(runtime::LogLevel::Error, "wsi: Wayland surface lost: %s", why);
	}

	// Dispatches the private queue's events until done() holds, the deadline
	// passes or the display fails. Safe beside the application's own
	// dispatching: the prepare/read protocol of wl_display_prepare_read_queue.
	template <typename Done>
	void Pump(Done done, Clock::time_point deadline) {
		const Wayland& wl = GetWayland();
		while (!lost_) {
			if (wl.display_prepare_read_queue(display_, queue_) != 0) {
				// Events already queued (read by another thread, maybe).
				if (wl.display_dispatch_queue_pending(display_, queue_) < 0)
					return Fail("protocol or connection error");
				continue;
			}
			if (done()) {
				wl.display_cancel_read(display_);
				return;
			}
			if (wl.display_flush(display_) < 0 && errno != EAGAIN) {
				wl.display_cancel_read(display_);
				return Fail("cannot send to the compositor");
			}
			auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
			pollfd fd{wl.display_get_fd(display_), POLLIN, 0};
			int ready = poll(&fd, 1, int(std::clamp<long long>(left, 0, INT_MAX)));
			if (ready <= 0) {
				wl.display_cancel_read(display_);
				if (ready < 0 && errno == EINTR) continue;
				if (Clock::now() >= deadline) return;
				continue;
			}
			if (wl.display_read_events(display_) < 0) return Fail("the connection closed");
			if (wl.display_dispatch_queue_pending(display_, queue_) < 0) return Fail("protocol or connection error");
		}
	}

	// A released buffer of the size, made when there are fewer than
	// kMaxBuffers, else waited for; nullptr (the frame is not shown) when
	// none comes in time.
	Buffer* FreeBuffer(uint32_t width, uint32_t height) {
		for (Buffer& b : buffers_)
			if (!b.busy && (b.width != width || b.height != height)) DestroyBuffer(b);
		std::erase_if(buffers_, [](const Buffer& b) { return b.buffer == nullptr; });
		for (Buffer& b : buffers_)
			if (!b.busy) return &b;
		if (buffers_.size() < kMaxBuffers) return NewBuffer(width, height);
		auto any_free = [&] {
			for (const Buffer& b : buffers_)
				if (!b.busy) return true;
			return false;
		};
		Pump(any_free, Clock::now() + kReleaseWait);
		for (Buffer& b : buffers_)
			if (!b.busy && b.width == width && b.height == height) return &b;
		if (!lost_) TESSERA_LOG(Warn, "wsi: the compositor keeps every Wayland buffer: frame dropped");
		return nullptr;
	}

	// A wl_buffer over its own memfd (the pool is destroyed at once: the
	// buffer keeps the memory mapped in the compositor).
	Buffer* NewBuffer(uint32_t width, uint32_t height) {
		const Wayland& wl = GetWayland();
		uint64_t size = uint64_t(width) * height * 4;
		if (size == 0 || size > uint64_t(INT32_MAX)) {
			if (!logged_) TESSERA_LOG(Warn, "wsi: a %ux%u image is too large for a wl_shm buffer", width, height);
			logged_ = true;
			return nullptr;
		}
		int fd = memfd_create("tessera-wayland", MFD_CLOEXEC);
		if (fd < 0) return nullptr;
		void* memory = MAP_FAILED;
		if (ftruncate(fd, off_t(size)) == 0) memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (memory == MAP_FAILED) {
			close(fd);
			return nullptr;
		}
		// The fd is duplicated when the request is marshaled.
		wl_proxy* pool = wl.proxy_marshal_flags(shm_, WL_SHM_CREATE_POOL, wl.shm_pool_interface,
		                                        wl.proxy_get_version(shm_), 0, nullptr, fd, int32_t(size));
		close(fd);
		wl_proxy* buffer = nullptr;
		if (pool) {
			buffer = wl.proxy_marshal_flags(pool, WL_SHM_POOL_CREATE_BUFFER, wl.buffer_interface,
			                                wl.proxy_get_version(pool), 0, nullptr, 0, int32_t(width), int32_t(height),
			                                int32_t(width * 4), uint32_t(format_));
			wl.proxy_marshal_flags(pool, WL_SHM_POOL_DESTROY, nullptr, wl.proxy_get_version(pool),
			                       WL_MARSHAL_FLAG_DESTROY);
		}
		if (!buffer) {
			munmap(memory, size);
			return nullptr;
		}
		try {
			buffers_.push_back({buffer, static_cast<uint8_t*>(memory), size, width, height, false});
		} catch (const std::bad_alloc&) {
			Buffer b{buffer, static_cast<uint8_t*>(memory), size, width, height, false};
			DestroyBuffer(b);
			return nullptr;
		}
		// The listener finds the buffer by its proxy: buffers_ may move.
		static const wl_buffer_listener kBufferListener = {&Release};
		wl.proxy_add_listener(
		    buffer, reinterpret_cast<void (**)(void)>(const_cast<wl_buffer_listener*>(&kBufferListener)), this);
		return &buffers_.back();
	}

	void DestroyBuffer(Buffer& b) {
		const Wayland& wl = GetWayland();
		// wl_buffer.destroy before its release is allowed: the memory is
		// not written again (it is unmapped).
		wl.proxy_marshal_flags(b.buffer, WL_BUFFER_DESTROY, nullptr, wl.proxy_get_version(b.buffer),
		                       WL_MARSHAL_FLAG_DESTROY);
		munmap(b.memory, b.size);
		b.buffer = nullptr;
	}

	static void Global(void* data, wl_registry*, uint32_t name, const char* interface, uint32_t) {
		auto* self = static_cast<WaylandPresenter*>(data);
		const Wayland& wl = GetWayland();
		if (self->shm_ || std::strcmp(interface, "wl_shm") != 0) return;
		// wl_registry.bind's new_id has no fixed interface: name, interface
		// name and version go with it.
		self->shm_ = wl.proxy_marshal_flags(self->registry_, WL_REGISTRY_BIND, wl.shm_interface, 1, 0, name,
		                                    wl.shm_interface->name, 1u, nullptr);
	}
	static void GlobalRemove(void*, wl_registry*, uint32_t) {}

	static void Release(void* data, wl_buffer* buffer) {
		auto* self = static_cast<WaylandPresenter*>(data);
		for (Buffer& b : self->buffers_)
			if (b.buffer == reinterpret_cast<wl_proxy*>(buffer)) b.busy = false;
	}

	static void FrameDone(void* data, wl_callback* callback, uint32_t) {
		auto* self = static_cast<WaylandPresenter*>(data);
		GetWayland().proxy_destroy(reinterpret_cast<wl_proxy*>(callback));
		if (self->frame_ == reinterpret_cast<wl_proxy*>(callback)) self->frame_ = nullptr;
	}

	wl_display* display_;
	wl_proxy* surface_;
	bool fifo_;
	wl_shm_format format_;
	wl_event_queue* queue_ = nullptr;
	wl_proxy* display_wrapper_ = nullptr;
	wl_proxy* surface_wrapper_ = nullptr;
	wl_proxy* registry_ = nullptr;
	wl_proxy* shm_ = nullptr;
	wl_proxy* frame_ = nullptr;  // FIFO: the last commit's wl_surface.frame callback, until done
	std::vector<Buffer> buffers_;
	bool damage_buffer_ = false;
	bool logged_ = false;
	std::atomic<bool> lost_{false};
};

}  // namespace

std::unique_ptr<WindowPresenter> CreateWaylandPresenter(const Surface& surface, const VkSwapchainCreateInfoKHR& info) {
	if (!GetWayland().ok) return nullptr;
	auto presenter = std::make_unique<WaylandPresenter>(static_cast<wl_display*>(surface.wayland.display),
	                                                    static_cast<wl_proxy*>(surface.wayland.surface), info);
	presenter->Start();
	return presenter;
}

}  // namespace tessera::wsi
