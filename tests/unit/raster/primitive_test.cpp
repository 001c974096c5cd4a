// Primitive processing: near/far and user clipping, depth clamp, viewport
// transform, face determination and culling, provoking vertex, and the
// interpolation of varyings and depth.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "raster_test_util.h"

using namespace tessera::raster;
using namespace tessera::raster::test;

namespace {

struct ClipVertex {
	double x, y, z, w, u;
};

struct Expected {
	double depth, u;
};

// Reference: the point of the clip-space triangle that projects to the
// pixel center (barycentrics b solve sum b_i (x_i - x_d w_i) = 0, the same
// for y, sum b_i = 1), if it lies inside the triangle and the view volume.
std::optional<Expected> Reference(const ClipVertex v[3], double xd, double yd, bool depth_clamp = false) {
	double m[3][4];
	for (int i = 0; i < 3; ++i) {
		m[0][i] = v[i].x - xd * v[i].w;
		m[1][i] = v[i].y - yd * v[i].w;
		m[2][i] = 1;
	}
	m[0][3] = m[1][3] = 0, m[2][3] = 1;
	for (int c = 0; c < 3; ++c) {  // Gauss-Jordan with partial pivoting
		int p = c;
		for (int r = c + 1; r < 3; ++r)
			if (std::abs(m[r][c]) > std::abs(m[p][c])) p = r;
		for (int k = 0; k < 4; ++k) std::swap(m[c][k], m[p][k]);
		for (int r = 0; r < 3; ++r) {
			if (r == c) continue;
			double f = m[r][c] / m[c][c];
			for (int k = 0; k < 4; ++k) m[r][k] -= f * m[c][k];
		}
	}
	double b[3] = {m[0][3] / m[0][0], m[1][3] / m[1][1], m[2][3] / m[2][2]};
	double z = 0, w = 0, u = 0;
	for (int i = 0; i < 3; ++i) {
		if (b[i] < 0) return std::nullopt;
		z += b[i] * v[i].z, w += b[i] * v[i].w, u += b[i] * v[i].u;
	}
	if (w <= 0 || (!depth_clamp && (z < 0 || z > w))) return std::nullopt;  // §27.2: clamp, no z clipping
	return Expected{z / w, u};
}

void UShader(const void*, FragmentBatch& b) {
	for (uint32_t i = 0; i < 4 * b.quad_count; ++i) {
		b.color[0][0][i] = b.varyings[0][i];
		b.color[0][1][i] = b.frag_coord[2][i];
		b.color[0][2][i] = b.front_facing[i] ? 1.0f : 0.5f;
		b.color[0][3][i] = 1;
	}
}

// Renders one clip-space triangle with varying u into RGBA32F (u, z_f, facing, 1).
Target RenderClip(const ClipVertex v[3], DrawState* override_state = nullptr) {
	Target t(64, 64, VK_FORMAT_R32G32B32A32_SFLOAT);
	DrawState state = override_state ? *override_state : MakeState(t);
	state.shader.run = UShader;
	state.raster.varying_count = 1;
	std::vector<float> pos, var;
	for (int i = 0; i < 3; ++i) {
		pos.insert(pos.end(), {float(v[i].x), float(v[i].y), float(v[i].z), float(v[i].w)});
		var.push_back(float(v[i].u));
	}
	VertexInput in;
	in.positions = pos.data();
	in.varyings = var.data();
	in.vertex_count = 3;
	Draw(state, t, in);
	return t;
}

// Compares every pixel against the reference; pixels whose reference
// point is within `margin` of an edge or the near/far plane are skipped.
void CheckAgainstReference(const ClipVertex v[3], const Target& t, uint32_t* covered, bool depth_clamp = false) {
	*covered = 0;
	for (uint32_t py = 0; py < t.height; ++py) {
		for (uint32_t px = 0; px < t.width; ++px) {
			double xd = (px + 0.5) / 32.0 - 1, yd = (py + 0.5) / 32.0 - 1;
			auto e = Reference(v, xd, yd, depth_clamp);
			// Stay clear of boundaries where rounding decides.
			bool near_boundary = false;
			for (double dx : {-0.6, 0.6})
				for (double dy : {-0.6, 0.6})
					near_boundary |= Reference(v, xd + dx / 32, yd + dy / 32, depth_clamp).has_value() != e.has_value();
			if (near_boundary) continue;
			INFO("pixel " << px << "," << py);
			if (!e) {
				CHECK(t.At(px, py, 3) == 0.0f);
				continue;
			}
			++*covered;
			REQUIRE(t.At(px, py, 3) == 1.0f);
			CHECK(t.At(px, py, 0) == Approx(e->u).margin(2e-4));
			// Clipped vertices snap to 1/256 pixel; with depth slopes near 0.03 a
			// pixel that moves the plane by up to 1e-4.
			CHECK(t.At(px, py, 1) == Approx(e->depth).margin(1e-4));
		}
	}
}

}  // namespace

TEST_CASE("raster: perspective-correct varyings and depth of an unclipped triangle", "[raster]") {
	ClipVertex v[3] = {{-0.5, -0.5, 0.2, 1, 0}, {1.5, -0.5, 0.5, 2, 1}, {-2.0, 2.5, 2.0, 4, 0.25}};
	Target t = RenderClip(v);
	uint32_t covered;
	CheckAgainstReference(v, t, &covered);
	CHECK(covered > 300);
}

TEST_CASE("raster: triangles crossing the near plane are clipped", "[raster]") {
	// One vertex in front of the near plane (z_c < 0), then one behind the
	// eye (w_c < 0): the visible part keeps the unclipped interpolation.
	ClipVertex a[3] = {{-0.5, -0.5, 0.5, 1, 0}, {1.5, -0.5, -1, 2, 1}, {-0.5, 1.5, 1.5, 2, 0.5}};
	ClipVertex b[3] = {{-0.5, -0.5, 0.5, 1, 0}, {0.8, -0.6, 0.4, 1, 1}, {0.2, 1.0, -1.5, -1, 3}};
	for (auto* v : {a, b}) {
		Target t = RenderClip(v);
		uint32_t covered;
		CheckAgainstReference(v, t, &covered);
		CHECK(covered > 100);
	}
}

TEST_CASE("raster: triangles beyond the far plane are clipped unless depth clamp is on", "[raster]") {
	Target ref(64, 64);
	ClipVertex v[3] = {{-1, -1, 1.5, 1, 0}, {3, -1, 1.5, 1, 0}, {-1, 3, 1.5, 1, 0}};
	Target clipped = RenderClip(v);
	CHECK(clipped.At(10, 10, 3) == 0.0f);
	DrawState state = MakeState(ref);
	state.raster.depth_clamp = true;
	state.raster.depth_clip = false;  // as the pipeline sets it without VK_EXT_depth_clip_enable
	state.raster.viewport.max_depth = 0.75f;
	Target clamped = RenderClip(v, &state);
	CHECK(clamped.At(10, 10, 3) == 1.0f);
	// FragCoord.z is not clamped; the depth tested and written is (§28.9).
	Target d(64, 64, VK_FORMAT_R32G32B32A32_SFLOAT);
	d.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
	state.depth_stencil.depth_test = state.depth_stencil.depth_write = true;
	state.depth_stencil.depth_compare = VK_COMPARE_OP_ALWAYS;
	state.shader.run = UShader;
	state.raster.varying_count = 1;
	std::vector<float> pos = {-1, -1, 1.5, 1, 3, -1, 1.5, 1, -1, 3, 1.5, 1}, var = {0, 0, 0};
	VertexInput in{pos.data(), var.data(), nullptr, nullptr, 3};
	Draw(state, d, in);
	CHECK(d.DepthAt(10, 10) == 0.75f);
}

TEST_CASE("raster: user clip distances clip triangles", "[raster]") {
	Target t(64, 64);
	DrawState state = CountingState(t);
	state.raster.clip_distance_count = 2;
	Mesh m;
	m.Add(t, -20, -20), m.Add(t, 150, -20), m.Add(t, -20, 150);
	m.Add(t, 150, -20), m.Add(t, 150, 150), m.Add(t, -20, 150);
	// d0 = x_d + 0.25 keeps x_f > 24; d1 = 0.5 - y_d keeps y_f < 48.
	std::vector<float> distances;
	for (size_t i = 0; i < m.positions.size(); i += 4)
		distances.insert(distances.end(), {m.positions[i] + 0.25f, 0.5f - m.positions[i + 1]});
	VertexInput in = m.Input();
	in.clip_distances = distances.data();
	Draw(state, t, in);
	for (uint32_t y = 0; y < 64; ++y)
		for (uint32_t x = 0; x < 64; ++x) {
			float expected = (x >= 24 && y < 48) ? 1.0f : 0.0f;
			if (t.At(x, y) != expected) FAIL("pixel " << x << "," << y << " = " << t.At(x, y));
		}
}

TEST_CASE("raster: face determination and culling follow the area sign in framebuffer coordinates", "[raster]") {
	// (10,10) -> (50,10) -> (10,50) turns clockwise on screen (y down): its
	// area a = -1/2 sum(x_i y_i+1 - x_i+1 y_i) is negative (Vulkan 1.3 §28.7.1).
	struct Case {
		VkFrontFace front;
		VkCullModeFlags cull;
		bool drawn;
		float facing;  // 1 front, 0.5 back
	};
	for (Case c : {Case{VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_CULL_MODE_BACK_BIT, false, 0},
	               Case{VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_CULL_MODE_FRONT_BIT, true, 0.5f},
	               Case{VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_CULL_MODE_NONE, true, 0.5f},
	               Case{VK_FRONT_FACE_CLOCKWISE, VK_CULL_MODE_BACK_BIT, true, 1.0f},
	               Case{VK_FRONT_FACE_CLOCKWISE, VK_CULL_MODE_FRONT_BIT, false, 0},
	               Case{VK_FRONT_FACE_CLOCKWISE, VK_CULL_MODE_FRONT_AND_BACK, false, 0}}) {
		Target t(64, 64, VK_FORMAT_R32G32B32A32_SFLOAT);
		DrawState state = MakeState(t);
		state.raster.front_face = c.front;
		state.raster.cull_mode = c.cull;
		state.shader.run = UShader;
		state.raster.varying_count = 1;
		Mesh m;
		m.Add(t, 10, 10, 0.5f, 1, {0}), m.Add(t, 50, 10, 0.5f, 1, {0}), m.Add(t, 10, 50, 0.5f, 1, {0});
		Draw(state, t, m.Input());
		INFO("front " << c.front << " cull " << c.cull);
		CHECK((t.At(20, 20, 3) == 1.0f) == c.drawn);
		if (c.drawn) CHECK(t.At(20, 20, 2) == c.facing);
	}
	// A negative viewport height flips y and with it the winding.
	Target t(64, 64, VK_FORMAT_R32G32B32A32_SFLOAT);
	DrawState state = MakeState(t);
	state.raster.viewport = Viewport{0, 64, 64, -64, 0, 1};
	state.raster.cull_mode = VK_CULL_MODE_BACK_BIT;
	state.shader.run = UShader;
	state.raster.varying_count = 1;
	Mesh m;
	m.Add(t, 10, 10, 0.5f, 1, {0}), m.Add(t, 50, 10, 0.5f, 1, {0}), m.Add(t, 10, 50, 0.5f, 1, {0});
	Draw(state, t, m.Input());
	CHECK(t.At(20, 64 - 21, 3) == 1.0f);  // mirrored, and now front-facing
	CHECK(t.At(20, 20, 3) == 0.0f);
}

TEST_CASE("raster: viewport offset and scale", "[raster]") {
	Target t(64, 64);
	DrawState state = CountingState(t);
	state.raster.viewport = Viewport{16, 8, 32, 16, 0, 1};
	std::vector<float> pos = {-1, -1, 0.5f, 1, 1, -1, 0.5f, 1, -1, 1, 0.5f, 1,
	                          1,  -1, 0.5f, 1, 1, 1,  0.5f, 1, -1, 1, 0.5f, 1};
	VertexInput in{pos.data(), nullptr, nullptr, nullptr, 6};
	Draw(state, t, in);
	for (uint32_t y = 0; y < 64; ++y)
		for (uint32_t x = 0; x < 64; ++x) {
			float expected = (x >= 16 && x < 48 && y >= 8 && y < 24) ? 1.0f : 0.0f;
			if (t.At(x, y) != expected) FAIL("pixel " << x << "," << y);
		}
}

TEST_CASE("raster: flat varyings come from the provoking vertex, noperspective ignores w", "[raster]") {
	for (bool last : {false, true}) {
		Target t(32, 32, VK_FORMAT_R32G32B32A32_SFLOAT);
		DrawState state = MakeState(t);
		state.shader.run = VaryingColorShader;
		state.raster.varying_count = 4;
		state.raster.provoking_vertex_last = last;
		state.raster.interpolation[0] = Interpolation::Flat;
		state.raster.interpolation[1] = Interpolation::NoPerspective;
		state.raster.interpolation[2] = Interpolation::Smooth;
		Mesh m;
		// w differs per vertex; the noperspective varying equals x_f / 32.
		m.Add(t, 0, 0, 0.5f, 1, {1, 0, 0, 1}), m.Add(t, 64, 0, 0.5f, 4, {2, 2, 2, 1}),
		    m.Add(t, 0, 64, 0.5f, 2, {3, 0, 0, 1});
		Draw(state, t, m.Input());
		CHECK(t.At(5, 5, 0) == (last ? 3.0f : 1.0f));
		CHECK(t.At(5, 5, 1) == Approx(5.5 / 32).margin(1e-5));
		CHECK(t.At(20, 3, 1) == Approx(20.5 / 32).margin(1e-5));
		// Smooth: (l1 * 2 / 4) / (l0 / 1 + l1 / 4 + l2 / 2) with screen barycentrics l.
		double l1 = 20.5 / 64, l2 = 3.5 / 64, l0 = 1 - l1 - l2;
		CHECK(t.At(20, 3, 2) == Approx((l1 * 2 / 4) / (l0 + l1 / 4 + l2 / 2)).margin(1e-5));
	}
}

TEST_CASE("raster: indexed triangles", "[raster]") {
	Target t(32, 32);
	Mesh m;
	m.Add(t, 0, 0), m.Add(t, 32, 0), m.Add(t, 0, 32), m.Add(t, 32, 32);
	uint32_t indices[6] = {0, 1, 2, 1, 3, 2};
	VertexInput in = m.Input();
	in.indices = indices;
	in.vertex_count = 6;
	Draw(CountingState(t), t, in);
	for (uint32_t y = 0; y < 32; ++y)
		for (uint32_t x = 0; x < 32; ++x)
			if (t.At(x, y) != 1.0f) FAIL("pixel " << x << "," << y);
}

TEST_CASE("raster: depth bias adds constant and slope terms", "[raster]") {
	auto stored = [](VkFormat format, float constant, float slope, float clamp, bool ramp) {
		Target t(32, 32);
		t.AddDepth(format, 1.0f);
		DrawState state = CountingState(t);
		state.depth_stencil.depth_test = state.depth_stencil.depth_write = true;
		state.depth_stencil.depth_compare = VK_COMPARE_OP_ALWAYS;
		state.raster.depth_bias_enable = true;
		state.raster.depth_bias_constant = constant;
		state.raster.depth_bias_slope = slope;
		state.raster.depth_bias_clamp = clamp;
		Mesh m;
		// z_f = 0.25 flat, or 0.25 + x_f / 128 (slope 1/128 a pixel).
		float z1 = ramp ? 0.25f + 64.0f / 128 : 0.25f;
		m.Add(t, 0, 0, 0.25f), m.Add(t, 64, 0, z1), m.Add(t, 0, 64, 0.25f);
		Draw(state, t, m.Input());
		return double(t.DepthAt(4, 4));
	};
	const double base = stored(VK_FORMAT_D16_UNORM, 0, 0, 0, false);
	// r = 2^-16 on D16: a constant factor of 8 moves the depth by 8 steps.
	CHECK(stored(VK_FORMAT_D16_UNORM, 8, 0, 0, false) - base == Approx(8.0 / 65535).margin(1.5 / 65535));
	// D32: r = 2^(e - 23) with 0.25 = 0.5 * 2^-1 -> e = -2, r = 2^-25.
	const double base32 = stored(VK_FORMAT_D32_SFLOAT, 0, 0, 0, false);
	CHECK(stored(VK_FORMAT_D32_SFLOAT, 64, 0, 0, false) - base32 == Approx(64 * std::ldexp(1.0, -25)).margin(1e-9));
	// Slope: m = 1/128 a pixel, factor 2 -> 1/64; a clamp of 0.01 caps it.
	const double ramp = stored(VK_FORMAT_D32_SFLOAT, 0, 0, 0, true);
	CHECK(stored(VK_FORMAT_D32_SFLOAT, 0, 2, 0, true) - ramp == Approx(1.0 / 64).margin(1e-6));
	CHECK(stored(VK_FORMAT_D32_SFLOAT, 0, 2, 0.01f, true) - ramp == Approx(0.01).margin(1e-6));
}

TEST_CASE("raster: strips and fans assemble with alternating winding and the provoking vertex", "[raster]") {
	// Strip 0..5: triangles (0,1,2) (1,3,2) (2,3,4) (3,5,4) in first-vertex
	// mode; (0,1,2) (2,1,3) (2,3,4) (4,3,5) in last-vertex mode (§21.1).
	VertexInput strip;
	strip.vertex_count = 6;
	strip.topology = Topology::TriangleStrip;
	std::vector<uint32_t> out;
	AssembleTriangles(strip, false, out);
	CHECK(out == std::vector<uint32_t>{0, 1, 2, 1, 3, 2, 2, 3, 4, 3, 5, 4});
	out.clear();
	AssembleTriangles(strip, true, out);
	CHECK(out == std::vector<uint32_t>{0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5});
	// Fan with a restart: indices 7 8 9 10 R 20 21 22.
	const uint32_t indices[8] = {7, 8, 9, 10, 0xffffffff, 20, 21, 22};
	VertexInput fan;
	fan.indices = indices;
	fan.vertex_count = 8;
	fan.topology = Topology::TriangleFan;
	fan.primitive_restart = true;
	out.clear();
	AssembleTriangles(fan, false, out);
	CHECK(out == std::vector<uint32_t>{8, 9, 7, 9, 10, 7, 21, 22, 20});
	out.clear();
	AssembleTriangles(fan, true, out);
	CHECK(out == std::vector<uint32_t>{7, 8, 9, 7, 9, 10, 20, 21, 22});
}

TEST_CASE("raster: a strip covers like the same triangles as a list", "[raster]") {
	// A zig-zag strip of 10 vertices across the target, starting
	// counter-clockwise: with back faces culled every pixel between the rows
	// is hit exactly once for a counter-clockwise front face and never for a
	// clockwise one, so the strip's winding alternation is undone.
	for (VkFrontFace front : {VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_FRONT_FACE_CLOCKWISE}) {
		Target t(64, 32);
		DrawState state = CountingState(t);
		state.raster.cull_mode = VK_CULL_MODE_BACK_BIT;
		state.raster.front_face = front;
		Mesh m;
		for (int i = 0; i < 10; ++i) m.Add(t, -8 + i * 10.3, (i & 1) ? 40.0 : -8.0);
		VertexInput in = m.Input();
		in.topology = Topology::TriangleStrip;
		Draw(state, t, in);
		uint32_t covered = 0, over = 0;
		for (uint32_t y = 0; y < 32; ++y)
			for (uint32_t x = 0; x < 64; ++x) covered += t.At(x, y) == 1.0f, over += t.At(x, y) > 1.0f;
		CHECK(over == 0);
		if (front == VK_FRONT_FACE_COUNTER_CLOCKWISE)
			CHECK(covered == 64 * 32);
		else
			CHECK(covered == 0);
	}
}

TEST_CASE("raster: with depth clamp, triangles reaching behind the eye clip at w = 0 only", "[raster]") {
	// No near/far clipping (§27.2): the part with w > 0 is drawn, whatever
	// its z, with the unclipped interpolation; FragCoord.z is not clamped.
	ClipVertex v[3] = {{-0.5, -0.5, -0.5, 1, 0}, {0.8, -0.6, 2.0, 1, 1}, {0.2, 1.0, -1.5, -1, 3}};
	Target ref(64, 64);
	DrawState state = MakeState(ref);
	state.raster.depth_clamp = true;
	state.raster.depth_clip = false;  // as the pipeline sets it without VK_EXT_depth_clip_enable
	Target t = RenderClip(v, &state);
	uint32_t covered;
	CheckAgainstReference(v, t, &covered, true);
	CHECK(covered > 300);
}

TEST_CASE("raster: an indexed mesh whose vertices are prepared once draws the bytes of the same triangles unindexed",
          "[raster]") {
	// Renderer::Bin prepares the screen position and outcode of each vertex
	// of an indexed mesh that names its vertices several times (a grid's
	// six) instead of once for each triangle (ProcessPreparedTriangle).
	// The same triangles drawn as a list without indices are set up one by
	// one: the bytes must match. The grid reaches past the near plane, past
	// the guard band and off the target (triangles to clip take the other
	// path), has vertices with a clip distance below 0 and a non-finite one,
	// and is drawn in passes whose vertices start past 0 (the prepared
	// range's offset) as well as whole.
	Target ref(160, 120, VK_FORMAT_R8G8B8A8_UNORM);
	std::mt19937 rng(11);
	std::uniform_real_distribution<float> jitter(-0.4f, 0.4f), unit(0, 1);
	constexpr uint32_t kSide = 48;  // 47 x 47 cells, 4,418 triangles
	Mesh grid;
	std::vector<float> clip;
	for (uint32_t r = 0; r < kSide; ++r)
		for (uint32_t c = 0; c < kSide; ++c) {
			const float z = r == 5 && c > 20 ? -0.2f : 0.1f + 0.8f * unit(rng);
			const double px = c * 3.6 - 8 + jitter(rng), py = r * 2.8 - 6 + jitter(rng);
			grid.Add(ref, r == 40 && c == 3 ? 1e7 : px, py, z, 0.5f + unit(rng), {unit(rng), unit(rng), unit(rng), 1});
			clip.push_back(r == 30 && c < 10 ? -1.0f : 1.0f);
		}
	grid.positions[4 * (12 * kSide + 12)] = std::numeric_limits<float>::infinity();
	std::vector<uint32_t> indices;
	for (uint32_t r = 0; r + 1 < kSide; ++r)
		for (uint32_t c = 0; c + 1 < kSide; ++c) {
			const uint32_t a = r * kSide + c, b = a + kSide;
			indices.insert(indices.end(), {a, a + 1, b, a + 1, b + 1, b});
		}
	Mesh list;
	std::vector<float> list_clip;
	for (uint32_t i : indices) {
		list.positions.insert(list.positions.end(), &grid.positions[4 * i], &grid.positions[4 * i + 4]);
		list.varyings.insert(list.varyings.end(), &grid.varyings[4 * i], &grid.varyings[4 * i + 4]);
		list_clip.push_back(clip[i]);
	}
	for (const bool clipped : {false, true}) {
		auto render = [&](bool indexed, uint32_t pass) {
			Target t(160, 120, VK_FORMAT_R8G8B8A8_UNORM);
			t.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
			DrawState s = MakeState(t);
			s.shader.run = VaryingColorShader;
			s.raster.varying_count = 4;
			s.depth_stencil.depth_test = true;
			s.depth_stencil.depth_write = true;
			s.depth_stencil.depth_compare = VK_COMPARE_OP_LESS;
			if (clipped) s.raster.clip_distance_count = 1;
			VertexInput in = indexed ? grid.Input() : list.Input();
			if (indexed) {
				in.indices = indices.data();
				in.vertex_count = uint32_t(indices.size());
			}
			if (clipped) in.clip_distances = indexed ? clip.data() : list_clip.data();
			const Framebuffer fb = t.Get();
			Renderer r(nullptr);
			r.set_pass_primitives(pass);
			r.Draw(CompileDraw(s, fb), fb, in);
			return std::make_pair(t.color, t.depth);
		};
		INFO("clip distance " << clipped);
		const auto expected = render(false, Renderer::kMaxPassPrimitives);
		size_t written = 0;
		for (uint8_t v : expected.first) written += v != 0;
		CHECK(written > expected.first.size() / 2);
		CHECK(render(true, Renderer::kMaxPassPrimitives) == expected);
		CHECK(render(true, 2200) == expected);  // two passes, the second from vertex ~1,100
	}
}
