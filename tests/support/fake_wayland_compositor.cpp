#include "fake_wayland_compositor.h"

#include <sys/socket.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace tessera::test {

struct FakeWaylandCompositor::State {
	wl_display* display = nullptr;
	wl_client* client = nullptr;  // null once destroyed (by us, or when it hangs up)
	wl_listener client_destroyed{};
	std::atomic<bool> stop{false};
	std::atomic<bool> disconnect{false};
	std::mutex mutex;
	std::condition_variable changed;
	std::vector<WaylandCommit> commits;  // guarded by mutex
};

namespace {

using State = FakeWaylandCompositor::State;

struct Surface {
	State* state;
	wl_resource* pending_buffer = nullptr;
	int64_t damage_right = 0, damage_bottom = 0;  // of damage from the origin
	std::vector<wl_resource*> frames;             // callbacks of the next commit
};

void DestroyResource(wl_client*, wl_resource* resource) { wl_resource_destroy(resource); }

void Attach(wl_client*, wl_resource* resource, wl_resource* buffer, int32_t, int32_t) {
	static_cast<Surface*>(wl_resource_get_user_data(resource))->pending_buffer = buffer;
}

void Damage(wl_client*, wl_resource* resource, int32_t x, int32_t y, int32_t w, int32_t h) {
	auto* surface = static_cast<Surface*>(wl_resource_get_user_data(resource));
	// Compared with the buffer's size at commit (surface and buffer
	// coordinates agree: scale 1, no transform).
	if (x <= 0 && y <= 0) {
		surface->damage_right = std::max(surface->damage_right, int64_t(x) + w);
		surface->damage_bottom = std::max(surface->damage_bottom, int64_t(y) + h);
	}
}

void Frame(wl_client* client, wl_resource* resource, uint32_t id) {
	auto* surface = static_cast<Surface*>(wl_resource_get_user_data(resource));
	wl_resource* callback = wl_resource_create(client, &wl_callback_interface, 1, id);
	if (!callback) return wl_client_post_no_memory(client);
	wl_resource_set_implementation(callback, nullptr, nullptr, nullptr);
	surface->frames.push_back(callback);
}

void SetRegion(wl_client*, wl_resource*, wl_resource*) {}

void Commit(wl_client*, wl_resource* resource) {
	auto* surface = static_cast<Surface*>(wl_resource_get_user_data(resource));
	WaylandCommit commit;
	commit.frame_callbacks = uint32_t(surface->frames.size());
	if (wl_shm_buffer* shm = surface->pending_buffer ? wl_shm_buffer_get(surface->pending_buffer) : nullptr) {
		commit.width = uint32_t(wl_shm_buffer_get_width(shm));
		commit.height = uint32_t(wl_shm_buffer_get_height(shm));
		commit.stride = uint32_t(wl_shm_buffer_get_stride(shm));
		commit.format = wl_shm_buffer_get_format(shm);
		commit.damaged_whole = surface->damage_right >= commit.width && surface->damage_bottom >= commit.height;
		wl_shm_buffer_begin_access(shm);
		const auto* data = static_cast<const uint8_t*>(wl_shm_buffer_get_data(shm));
		commit.pixels.assign(data, data + size_t(commit.stride) * commit.height);
		wl_shm_buffer_end_access(shm);
		// Copied: the client may have the buffer back at once.
		wl_buffer_send_release(surface->pending_buffer);
		{
			std::lock_guard lock(surface->state->mutex);
			surface->state->commits.push_back(std::move(commit));
		}
		surface->state->changed.notify_all();
	}
	surface->pending_buffer = nullptr;
	surface->damage_right = surface->damage_bottom = 0;
	for (wl_resource* callback : surface->frames) {
		wl_callback_send_done(callback, 0);
		wl_resource_destroy(callback);
	}
	surface->frames.clear();
}

void SetInt(wl_client*, wl_resource*, int32_t) {}
void Offset(wl_client*, wl_resource*, int32_t, int32_t) {}

const struct wl_surface_interface kSurfaceImpl = {
    DestroyResource, Attach, Damage, Frame, SetRegion, SetRegion, Commit, SetInt, SetInt, Damage, Offset,
};

void RegionRect(wl_client*, wl_resource*, int32_t, int32_t, int32_t, int32_t) {}
const struct wl_region_interface kRegionImpl = {DestroyResource, RegionRect, RegionRect};

void CreateSurface(wl_client* client, wl_resource* resource, uint32_t id) {
	auto* state = static_cast<State*>(wl_resource_get_user_data(resource));
	wl_resource* surface = wl_resource_create(client, &wl_surface_interface, wl_resource_get_version(resource), id);
	if (!surface) return wl_client_post_no_memory(client);
	wl_resource_set_implementation(surface, &kSurfaceImpl, new Surface{state},
	                               [](wl_resource* r) { delete static_cast<Surface*>(wl_resource_get_user_data(r)); });
}

void CreateRegion(wl_client* client, wl_resource*, uint32_t id) {
	wl_resource* region = wl_resource_create(client, &wl_region_interface, 1, id);
	if (!region) return wl_client_post_no_memory(client);
	wl_resource_set_implementation(region, &kRegionImpl, nullptr, nullptr);
}

const struct wl_compositor_interface kCompositorImpl = {CreateSurface, CreateRegion};

void BindCompositor(wl_client* client, void* data, uint32_t version, uint32_t id) {
	wl_resource* resource = wl_resource_create(client, &wl_compositor_interface, int(version), id);
	if (!resource) return wl_client_post_no_memory(client);
	wl_resource_set_implementation(resource, &kCompositorImpl, data, nullptr);
}

}  // namespace

std::unique_ptr<FakeWaylandCompositor> FakeWaylandCompositor::Create() {
	std::unique_ptr<FakeWaylandCompositor> self(new FakeWaylandCompositor);
	self->state_ = std::make_unique<State>();
	State* state = self->state_.get();
	state->display = wl_display_create();
	if (!state->display) return nullptr;
	// wl_surface version 4: damage_buffer.
	if (wl_display_init_shm(state->display) != 0 ||
	    !wl_global_create(state->display, &wl_compositor_interface, 4, state, BindCompositor))
		return nullptr;
	int fds[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return nullptr;
	state->client = wl_client_create(state->display, fds[0]);
	if (!state->client) {
		close(fds[0]);
		close(fds[1]);
		return nullptr;
	}
	self->client_fd_ = fds[1];
	state->client_destroyed.notify = [](wl_listener* listener, void*) {
		State* state = wl_container_of(listener, state, client_destroyed);
		state->client = nullptr;
	};
	wl_client_add_destroy_listener(state->client, &state->client_destroyed);
	self->thread_ = std::thread([state] {
		wl_event_loop* loop = wl_display_get_event_loop(state->display);
		while (!state->stop) {
			if (state->disconnect.exchange(false) && state->client) wl_client_destroy(state->client);
			wl_event_loop_dispatch(loop, 5);
			wl_display_flush_clients(state->display);
		}
	});
	return self;
}

FakeWaylandCompositor::~FakeWaylandCompositor() {
	if (thread_.joinable()) {
		state_->stop = true;
		thread_.join();
	}
	if (state_ && state_->client) wl_client_destroy(state_->client);
	if (state_ && state_->display) wl_display_destroy(state_->display);
	if (client_fd_ >= 0) close(client_fd_);
}

int FakeWaylandCompositor::TakeClientFd() {
	int fd = client_fd_;
	client_fd_ = -1;
	return fd;
}

std::vector<WaylandCommit> FakeWaylandCompositor::WaitForCommits(size_t count, std::chrono::milliseconds timeout) {
	std::unique_lock lock(state_->mutex);
	state_->changed.wait_for(lock, timeout, [&] { return state_->commits.size() >= count; });
	return state_->commits;
}

void FakeWaylandCompositor::DisconnectClient() { state_->disconnect = true; }

}  // namespace tessera::test
