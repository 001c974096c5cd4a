#include "wsi/window.h"

#include <dlfcn.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "runtime/log.h"
#include "wsi/wayland.h"

namespace tessera::wsi {

namespace {

// libxcb, opened at run time: the driver loads on machines without X
// libraries, and only a program that made an X surface (and so has libxcb
// loaded already) reaches these.
struct Xcb {
	bool ok = false;
	decltype(&xcb_get_geometry) get_geometry;
	decltype(&xcb_get_geometry_reply) get_geometry_reply;
	decltype(&xcb_generate_id) generate_id;
	decltype(&xcb_create_gc) create_gc;
	decltype(&xcb_free_gc) free_gc;
	decltype(&xcb_put_image) put_image;
	decltype(&xcb_get_input_focus) get_input_focus;
	decltype(&xcb_get_input_focus_reply) get_input_focus_reply;
	decltype(&xcb_get_maximum_request_length) get_maximum_request_length;
	decltype(&xcb_flush) flush;
	decltype(&xcb_request_check) request_check;
	// libxcb-shm (MIT-SHM), optional.
	bool shm = false;
	decltype(&xcb_shm_query_version) shm_query_version;
	decltype(&xcb_shm_query_version_reply) shm_query_version_reply;
	decltype(&xcb_shm_attach_checked) shm_attach_checked;
	decltype(&xcb_shm_detach) shm_detach;
	decltype(&xcb_shm_put_image) shm_put_image;
	xcb_connection_t* (*get_xcb_connection)(void* display) = nullptr;  // libX11-xcb's XGetXCBConnection
};

template <typename F>
bool Load(void* library, const char* name, F* f) {
	*f = library ? reinterpret_cast<F>(dlsym(library, name)) : nullptr;
	return *f != nullptr;
}

const Xcb& GetXcb() {
	static const Xcb xcb = [] {
		Xcb x{};
		// The libraries stay loaded for the life of the process.
		void* lib = dlopen("libxcb.so.1", RTLD_NOW | RTLD_LOCAL);
		x.ok = Load(lib, "xcb_get_geometry", &x.get_geometry) &&
		       Load(lib, "xcb_get_geometry_reply", &x.get_geometry_reply) &&
		       Load(lib, "xcb_generate_id", &x.generate_id) && Load(lib, "xcb_create_gc", &x.create_gc) &&
		       Load(lib, "xcb_free_gc", &x.free_gc) && Load(lib, "xcb_put_image", &x.put_image) &&
		       Load(lib, "xcb_get_input_focus", &x.get_input_focus) &&
		       Load(lib, "xcb_get_input_focus_reply", &x.get_input_focus_reply) &&
		       Load(lib, "xcb_get_maximum_request_length", &x.get_maximum_request_length) &&
		       Load(lib, "xcb_flush", &x.flush) && Load(lib, "xcb_request_check", &x.request_check);
		void* shm = dlopen("libxcb-shm.so.0", RTLD_NOW | RTLD_LOCAL);
		x.shm = Load(shm, "xcb_shm_query_version", &x.shm_query_version) &&
		        Load(shm, "xcb_shm_query_version_reply", &x.shm_query_version_reply) &&
		        Load(shm, "xcb_shm_attach_checked", &x.shm_attach_checked) &&
		        Load(shm, "xcb_shm_detach", &x.shm_detach) && Load(shm, "xcb_shm_put_image", &x.shm_put_image);
		const char* use_shm = std::getenv("TESSERA_X11_SHM");
		if (use_shm && std::strcmp(use_shm, "0") == 0) x.shm = false;
		void* x11_xcb = dlopen("libX11-xcb.so.1", RTLD_NOW | RTLD_LOCAL);
		if (!Load(x11_xcb, "XGetXCBConnection", &x.get_xcb_connection))
			runtime::Log(runtime::LogLevel::Warn, "wsi: cannot load libX11-xcb.so.1: Xlib surfaces are not shown");
		if (!x.ok) runtime::Log(runtime::LogLevel::Error, "wsi: cannot load libxcb.so.1: X11 presentation is off");
		return x;
	}();
	return xcb;
}

// The xcb connection and window of an X surface (nullptr for others).
xcb_connection_t* Connection(const Surface& surface, xcb_window_t* window) {
	VkIcdWsiPlatform platform = surface.Platform();
	if (platform != VK_ICD_WSI_PLATFORM_XCB && platform != VK_ICD_WSI_PLATFORM_XLIB) return nullptr;
	const Xcb& xcb = GetXcb();
	if (!xcb.ok) return nullptr;
	switch (platform) {
	case VK_ICD_WSI_PLATFORM_XCB:
		*window = surface.xcb.window;
		return static_cast<xcb_connection_t*>(surface.xcb.connection);
	case VK_ICD_WSI_PLATFORM_XLIB:
		if (!xcb.get_xcb_connection) return nullptr;
		*window = xcb_window_t(surface.xlib.window);
		return xcb.get_xcb_connection(surface.xlib.display);
	default: return nullptr;
	}
}

bool Geometry(xcb_connection_t* connection, xcb_window_t window, VkExtent2D* extent, uint8_t* depth) {
	const Xcb& xcb = GetXcb();
	xcb_get_geometry_reply_t* reply = xcb.get_geometry_reply(connection, xcb.get_geometry(connection, window), nullptr);
	if (!reply) return false;
	*extent = {reply->width, reply->height};
	if (depth) *depth = reply->depth;
	std::free(reply);
	return true;
}

// Copies images into the window: through a shared-memory segment
// (MIT-SHM's ShmPutImage) when the server offers it and can attach our
// segment (a local server), otherwise with core-protocol PutImage requests
// through the socket. Either way ZPixmap, 32 bits a pixel: B, G, R, X bytes
// on a little-endian server.
class XcbPresenter final : public WindowPresenter {
public:
	XcbPresenter(xcb_connection_t* connection, xcb_window_t window, uint8_t depth)
	    : connection_(connection), window_(window), depth_(depth) {
		const Xcb& xcb = GetXcb();
		gc_ = xcb.generate_id(connection_);
		xcb.create_gc(connection_, gc_, window_, 0, nullptr);
		// In 4-byte units; with BIG-REQUESTS far above the 256 KiB default.
		max_request_bytes_ = uint64_t(xcb.get_maximum_request_length(connection_)) * 4;
	}
	~XcbPresenter() override {
		const Xcb& xcb = GetXcb();
		xcb.free_gc(connection_, gc_);
		if (shm_) {
			xcb.shm_detach(connection_, segment_);
			Sync();
			shmdt(shm_);
		}
		xcb.flush(connection_);
	}

	void Show(const uint8_t* pixels, uint32_t width, uint32_t height, uint64_t stride, bool bgra) override {
		uint64_t row_bytes = uint64_t(width) * 4;
		if (!shm_ && !shm_failed_) {
			shm_failed_ = !AttachShm(row_bytes * height);
			TESSERA_LOG(Info, "wsi: presenting %ux%u to X window 0x%x with %s", width, height, window_,
			            shm_failed_ ? "PutImage" : "MIT-SHM");
		}
		if (shm_ && row_bytes * height <= shm_size_) {
			CopyRows(pixels, stride, width, 0, height, bgra, shm_);
			GetXcb().shm_put_image(connection_, window_, gc_, uint16_t(width), uint16_t(height), 0, 0, uint16_t(width),
			                       uint16_t(height), 0, 0, depth_, XCB_IMAGE_FORMAT_Z_PIXMAP, 0, segment_, 0);
			// The server has read the segment before it is written again.
			Sync();
			return;
		}
		// PutImage's header is 24 bytes; the rest of a request is pixels.
		uint64_t rows_per_request = (max_request_bytes_ - 64) / row_bytes;
		if (rows_per_request == 0) return;  // a row longer than a request: not shown
		try {
			buffer_.resize(row_bytes * std::min<uint64_t>(rows_per_request, height));
		} catch (const std::bad_alloc&) {
			return;
		}
		for (uint32_t y0 = 0; y0 < height; y0 += uint32_t(rows_per_request)) {
			uint32_t rows = uint32_t(std::min<uint64_t>(rows_per_request, height - y0));
			CopyRows(pixels, stride, width, y0, rows, bgra, buffer_.data());
			GetXcb().put_image(connection_, XCB_IMAGE_FORMAT_Z_PIXMAP, window_, gc_, uint16_t(width), uint16_t(rows), 0,
			                   int16_t(y0), 0, depth_, uint32_t(rows * row_bytes), buffer_.data());
		}
		// A round trip: the server has taken the frame before the image is
		// free again (and a slow server throttles the application).
		Sync();
	}

private:
	void Sync() {
		const Xcb& xcb = GetXcb();
		free(xcb.get_input_focus_reply(connection_, xcb.get_input_focus(connection_), nullptr));
	}

	// Rows [y0, y0 + rows) as tightly packed BGRX.
	static void CopyRows(const uint8_t* pixels, uint64_t stride, uint32_t width, uint32_t y0, uint32_t rows, bool bgra,
	                     uint8_t* out) {
		uint64_t row_bytes = uint64_t(width) * 4;
		for (uint32_t r = 0; r < rows; ++r) {
			const uint8_t* src = pixels + (y0 + r) * stride;
			uint8_t* dst = out + r * row_bytes;
			if (bgra) {
				std::memcpy(dst, src, row_bytes);
				continue;
			}
			for (uint32_t x = 0; x < width; ++x, src += 4, dst += 4) {
				dst[0] = src[2];
				dst[1] = src[1];
				dst[2] = src[0];
				dst[3] = src[3];
			}
		}
	}

	// A System V segment the server attaches (read-only); false when the
	// server has no MIT-SHM or cannot reach our memory (a remote display).
	bool AttachShm(uint64_t size) {
		const Xcb& xcb = GetXcb();
		if (!xcb.shm || size == 0) return false;
		xcb_shm_query_version_reply_t* version =
		    xcb.shm_query_version_reply(connection_, xcb.shm_query_version(connection_), nullptr);
		if (!version) return false;
		free(version);
		int id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
		if (id < 0) return false;
		void* memory = shmat(id, nullptr, 0);
		if (memory == reinterpret_cast<void*>(-1)) {
			shmctl(id, IPC_RMID, nullptr);
			return false;
		}
		segment_ = xcb.generate_id(connection_);
		xcb_generic_error_t* error =
		    xcb.request_check(connection_, xcb.shm_attach_checked(connection_, segment_, id, 1));
		// Removed now: the segment lives until both sides detach.
		shmctl(id, IPC_RMID, nullptr);
		if (error) {
			free(error);
			shmdt(memory);
			return false;
		}
		shm_ = static_cast<uint8_t*>(memory);
		shm_size_ = size;
		return true;
	}

	xcb_connection_t* connection_;
	xcb_window_t window_;
	uint8_t depth_;
	xcb_gcontext_t gc_;
	uint64_t max_request_bytes_;
	std::vector<uint8_t> buffer_;
	uint8_t* shm_ = nullptr;
	uint64_t shm_size_ = 0;
	xcb_shm_seg_t segment_ = 0;
	bool shm_failed_ = false;
};

}  // namespace

std::unique_ptr<WindowPresenter> WindowPresenter::Create(const Surface& surface, const VkSwapchainCreateInfoKHR& info) {
	if (surface.Platform() == VK_ICD_WSI_PLATFORM_WAYLAND) return CreateWaylandPresenter(surface, info);
	xcb_window_t window;
	xcb_connection_t* connection = Connection(surface, &window);
	if (!connection) return nullptr;
	VkExtent2D extent;
	uint8_t depth = 24;
	if (!Geometry(connection, window, &extent, &depth)) return nullptr;
	return std::make_unique<XcbPresenter>(connection, window, depth);
}

bool WindowExtent(const Surface& surface, VkExtent2D* extent) {
	xcb_window_t window;
	xcb_connection_t* connection = Connection(surface, &window);
	return connection && Geometry(connection, window, extent, nullptr);
}

}  // namespace tessera::wsi
