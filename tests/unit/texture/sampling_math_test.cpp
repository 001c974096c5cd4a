// The single steps of Vulkan 1.3 §16 "Image Operations", against values
// worked out by hand from the spec's equations.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <tuple>

#include "texture/sampling_math.h"

using namespace tessera::texture;

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();

// Wraps i = -6..9 on a size of 4.
std::vector<int32_t> WrapRow(VkSamplerAddressMode mode) {
	std::vector<int32_t> row;
	for (int32_t i = -6; i <= 9; ++i) row.push_back(WrapTexelCoordinate(i, 4, mode));
	return row;
}

}  // namespace

TEST_CASE("wrapping follows the spec's table at and beyond both edges", "[texture][sampling]") {
	// i:                                        -6 -5 -4 -3 -2 -1  0  1  2  3  4  5  6  7  8  9
	CHECK(WrapRow(VK_SAMPLER_ADDRESS_MODE_REPEAT) ==
	      std::vector<int32_t>{2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1});
	CHECK(WrapRow(VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT) ==
	      std::vector<int32_t>{2, 3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0, 1});
	CHECK(WrapRow(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE) ==
	      std::vector<int32_t>{0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3});
	CHECK(WrapRow(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER) ==
	      std::vector<int32_t>{-1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 4, 4, 4, 4, 4, 4});
	// mirror(n) = -(1 + n) below zero, then clamp to the edge: one reflection only.
	CHECK(WrapRow(VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE) ==
	      std::vector<int32_t>{3, 3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3});
	// A size of 1 always reads texel 0 (or the border).
	CHECK(WrapTexelCoordinate(-7, 1, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT) == 0);
	CHECK(WrapTexelCoordinate(5, 1, VK_SAMPLER_ADDRESS_MODE_REPEAT) == 0);
}

TEST_CASE("cube face selection: the major axis, z before y before x on ties", "[texture][sampling][cube]") {
	struct Case {
		float x, y, z;
		uint32_t face;
		float sc, tc, rc;
	};
	const Case cases[] = {
	    // §16 "Cube Map Face and Coordinate Selection" table.
	    {1.0f, 0.5f, 0.25f, 0, -0.25f, -0.5f, 1.0f},   // +X: sc = -rz, tc = -ry
	    {-1.0f, 0.5f, 0.25f, 1, 0.25f, -0.5f, 1.0f},   // -X: sc = +rz, tc = -ry
	    {0.5f, 2.0f, 0.25f, 2, 0.5f, 0.25f, 2.0f},     // +Y: sc = +rx, tc = +rz
	    {0.5f, -2.0f, 0.25f, 3, 0.5f, -0.25f, 2.0f},   // -Y: sc = +rx, tc = -rz
	    {0.5f, 0.25f, 4.0f, 4, 0.5f, -0.25f, 4.0f},    // +Z: sc = +rx, tc = -ry
	    {0.5f, 0.25f, -4.0f, 5, -0.5f, -0.25f, 4.0f},  // -Z: sc = -rx, tc = -ry
	    {1.0f, 1.0f, 1.0f, 4, 1.0f, -1.0f, 1.0f},      // tie of all three: z
	    {-1.0f, -1.0f, -1.0f, 5, 1.0f, 1.0f, 1.0f},    // tie of all three: z
	    {1.0f, 1.0f, 0.0f, 2, 1.0f, 0.0f, 1.0f},       // x/y tie: y
	    {1.0f, -1.0f, 0.5f, 3, 1.0f, -0.5f, 1.0f},     // x/y tie: y
	    {-1.0f, 0.0f, 1.0f, 4, -1.0f, -0.0f, 1.0f},    // x/z tie: z
	    {0.0f, 1.0f, -1.0f, 5, -0.0f, -1.0f, 1.0f},    // y/z tie: z
	};
	for (const Case& c : cases) {
		INFO("direction " << c.x << ", " << c.y << ", " << c.z);
		CubeFaceCoordinates f = SelectCubeFace(c.x, c.y, c.z);
		CHECK(f.face == c.face);
		CHECK(f.sc == c.sc);
		CHECK(f.tc == c.tc);
		CHECK(f.rc == c.rc);
	}
	// §16 "Cube Map Coordinate Transformation": s_face = sc / (2 |rc|) + 1/2.
	CubeFaceCoordinates f = SelectCubeFace(1.0f, 0.5f, 0.25f);
	CHECK(CubeFaceCoordinate(f.sc, f.rc) == 0.375f);
	CHECK(CubeFaceCoordinate(f.tc, f.rc) == 0.25f);
}

TEST_CASE("cube edge texels come from the neighbouring face", "[texture][sampling][cube]") {
	uint32_t face;
	int32_t i, j;
	// +X's right edge (s = 1, toward -z) continues on -Z's left edge, same row.
	REQUIRE(CubeNeighbourTexel(0, 2, 0, 2, &face, &i, &j));
	CHECK(std::tie(face, i, j) == std::tuple(5u, 0, 0));
	// +X's left edge (toward +z) continues on +Z's right edge.
	REQUIRE(CubeNeighbourTexel(0, -1, 1, 2, &face, &i, &j));
	CHECK(std::tie(face, i, j) == std::tuple(4u, 1, 1));
	// +X's top edge (toward +y): on +Y, column N-1 (x = +1), row N-1-i.
	REQUIRE(CubeNeighbourTexel(0, 0, -1, 4, &face, &i, &j));
	CHECK(std::tie(face, i, j) == std::tuple(2u, 3, 3));
	REQUIRE(CubeNeighbourTexel(0, 3, -1, 4, &face, &i, &j));
	CHECK(std::tie(face, i, j) == std::tuple(2u, 3, 0));
	// +X's bottom edge (toward -y), s near 1 (z = -1): -Y's last column and row.
	REQUIRE(CubeNeighbourTexel(0, 1, 2, 2, &face, &i, &j));
	CHECK(std::tie(face, i, j) == std::tuple(3u, 1, 1));
	// +Z's top edge (toward +y) lands on +Y's bottom row (z = +1 -> t = 1).
	REQUIRE(CubeNeighbourTexel(4, 1, -1, 4, &face, &i, &j));
	CHECK(std::tie(face, i, j) == std::tuple(2u, 1, 3));
	// Inside the face: unchanged. Beyond both edges: a corner, no neighbour.
	REQUIRE(CubeNeighbourTexel(3, 1, 0, 2, &face, &i, &j));
	CHECK(std::tie(face, i, j) == std::tuple(3u, 1, 0));
	CHECK_FALSE(CubeNeighbourTexel(0, 2, 2, 2, &face, &i, &j));
	CHECK_FALSE(CubeNeighbourTexel(1, -1, -1, 2, &face, &i, &j));

	// Every texel just beyond an edge maps to a distinct edge texel of a face
	// that is neither its own nor the opposite one, and stepping back out of
	// that texel across the same edge returns to the edge texel it neighbours.
	const int32_t n = 4;
	std::set<std::tuple<uint32_t, int32_t, int32_t>> seen;
	for (uint32_t f = 0; f < 6; ++f) {
		for (int32_t e = 0; e < n; ++e) {
			const int32_t outside[4][2] = {{-1, e}, {n, e}, {e, -1}, {e, n}};
			const int32_t inside[4][2] = {{0, e}, {n - 1, e}, {e, 0}, {e, n - 1}};
			for (int k = 0; k < 4; ++k) {
				INFO("face " << f << " texel " << outside[k][0] << ", " << outside[k][1]);
				REQUIRE(CubeNeighbourTexel(f, outside[k][0], outside[k][1], n, &face, &i, &j));
				CHECK(face != f);
				CHECK(face != (f ^ 1));
				CHECK((i == 0 || i == n - 1 || j == 0 || j == n - 1));
				seen.insert({face, i, j});
				// One step further out of the neighbour, away from its edge.
				int32_t bi = i == 0 ? -1 : i == n - 1 ? n : i;
				int32_t bj = bi == i ? (j == 0 ? -1 : n) : j;
				uint32_t back_face;
				int32_t back_i, back_j;
				if (bi != i && (j == 0 || j == n - 1)) continue;  // neighbour on a corner: edge is ambiguous
				REQUIRE(CubeNeighbourTexel(face, bi, bj, n, &back_face, &back_i, &back_j));
				CHECK(std::tie(back_face, back_i, back_j) == std::tie(f, inside[k][0], inside[k][1]));
			}
		}
	}
	// Corner texels of a face neighbour two faces; the others one.
	CHECK(seen.size() == 6u * (4u * n - 4u));
}

TEST_CASE("cube derivatives follow the derivative selection table", "[texture][sampling][cube]") {
	// On +Z at the face centre, d(s_face) = drx / (2|rz|), d(t_face) = -dry / (2|rz|).
	CubeFaceCoordinates f = SelectCubeFace(0.0f, 0.0f, 2.0f);
	const float d[3] = {0.5f, 0.25f, 1.0f};
	float ds, dt;
	CubeFaceDerivatives(f, d, &ds, &dt);
	CHECK(ds == 0.125f);
	CHECK(dt == -0.0625f);
	// Off centre the r_c derivative enters: +X at (1, 0, -0.5): sc = 0.5,
	// ds_face/dx = (|rc| dsc - sc drc) / (2 rc^2) with dsc = -drz, drc = +drx.
	f = SelectCubeFace(1.0f, 0.0f, -0.5f);
	const float e[3] = {0.5f, 0.0f, -0.5f};
	CubeFaceDerivatives(f, e, &ds, &dt);
	CHECK(ds == Approx((1.0f * 0.5f - 0.5f * 0.5f) / 2.0f));
	CHECK(dt == 0.0f);
}

TEST_CASE("LOD: rho from the derivatives scaled by the base level, bias and clamps", "[texture][sampling][lod]") {
	const float extent[3] = {32.0f, 32.0f, 1.0f};
	const float dx[3] = {0.125f, 0.0f, 0.0f}, dy[3] = {0.0f, 0.0625f, 0.0f};
	// rho_x = 4, rho_y = 2: lambda = log2(max) = 2.
	CHECK(std::log2(ScaleFactorMax(dx, dy, extent)) == 2.0f);
	// A diagonal derivative is a length: sqrt(1 + 1) texels -> lambda 0.5.
	const float diag[3] = {1.0f / 32.0f, 1.0f / 32.0f, 0.0f}, zero[3] = {0.0f, 0.0f, 0.0f};
	CHECK(std::log2(ScaleFactorMax(diag, zero, extent)) == Approx(0.5f));
	// Non-square base level: w and h scale their own derivatives.
	const float wide[3] = {64.0f, 16.0f, 1.0f};
	const float gx[3] = {0.0625f, 0.0f, 0.0f}, gy[3] = {0.0f, 0.25f, 0.0f};
	CHECK(ScaleFactorMax(gx, gy, wide) == 4.0f);
	// Zero derivatives: rho = 0, lambda_base = -inf, clamped to lod_min.
	CHECK(LodBiasAndClamp(std::log2(ScaleFactorMax(zero, zero, extent)), 0.0f, 0.5f, 4.0f) == 0.5f);

	CHECK(LodBiasAndClamp(1.0f, 0.5f, 0.0f, 10.0f) == 1.5f);
	CHECK(LodBiasAndClamp(1.0f, 100.0f, 0.0f, 100.0f) == 16.0f);  // bias clamped to maxSamplerLodBias = 15
	CHECK(LodBiasAndClamp(1.0f, -100.0f, -100.0f, 100.0f) == -14.0f);
	CHECK(LodBiasAndClamp(5.0f, 0.0f, 0.0f, 2.5f) == 2.5f);
	CHECK(LodBiasAndClamp(-1.0f, 0.0f, 0.25f, 2.5f) == 0.25f);
	CHECK(LodBiasAndClamp(kNaN, 0.0f, 0.25f, 2.5f) == 0.25f);
}

TEST_CASE("level selection: NEAREST rounds .5 down, LINEAR blends with an 8-bit fraction", "[texture][sampling][lod]") {
	auto nearest = [](float lambda, uint32_t q) { return SelectLevels(lambda, q, VK_SAMPLER_MIPMAP_MODE_NEAREST); };
	auto linear = [](float lambda, uint32_t q) { return SelectLevels(lambda, q, VK_SAMPLER_MIPMAP_MODE_LINEAR); };
	// nearest(d') = ceil(d' + 0.5) - 1.
	CHECK(nearest(0.5f, 4).hi == 0);
	CHECK(nearest(0.51f, 4).hi == 1);
	CHECK(nearest(1.5f, 4).hi == 1);
	CHECK(nearest(1.6f, 4).hi == 2);
	CHECK(nearest(-3.0f, 4).hi == 0);
	CHECK(nearest(10.0f, 3).hi == 3);
	CHECK(nearest(kNaN, 3).hi == 0);
	// d_hi = floor(d'), d_lo = min(d_hi + 1, q), delta = d' - d_hi.
	LevelSelection l = linear(1.25f, 4);
	CHECK(std::tie(l.hi, l.lo, l.delta) == std::tuple(1u, 2u, 0.25f));
	l = linear(2.9f, 2);
	CHECK(std::tie(l.hi, l.lo, l.delta) == std::tuple(2u, 2u, 0.0f));
	l = linear(-1.0f, 2);
	CHECK(std::tie(l.hi, l.lo, l.delta) == std::tuple(0u, 1u, 0.0f));
	// mipmapPrecisionBits = 8: delta is a multiple of 1/256 (1.3 -> 333/256).
	l = linear(1.3f, 4);
	CHECK(l.hi == 1);
	CHECK(l.delta == 77.0f / 256.0f);
}

TEST_CASE("level selection: a view's minLod raises d' (VK_EXT_image_view_min_lod)", "[texture][sampling][lod]") {
	// d' = max(clamp(lambda, 0, q), minLod - baseMipLevel).
	auto linear = [](float lambda, float min_level) {
		return SelectLevels(lambda, 4, VK_SAMPLER_MIPMAP_MODE_LINEAR, min_level);
	};
	LevelSelection l = linear(-2.0f, 1.5f);
	CHECK(std::tie(l.hi, l.lo, l.delta) == std::tuple(1u, 2u, 0.5f));
	l = linear(0.75f, 1.5f);
	CHECK(std::tie(l.hi, l.lo, l.delta) == std::tuple(1u, 2u, 0.5f));
	l = linear(2.25f, 1.5f);  // above minLod: unchanged
	CHECK(std::tie(l.hi, l.lo, l.delta) == std::tuple(2u, 3u, 0.25f));
	l = linear(kNaN, 3.0f);
	CHECK(std::tie(l.hi, l.lo, l.delta) == std::tuple(3u, 4u, 0.0f));
	// NEAREST rounds the raised d': 1.5 goes down, 1.625 up.
	CHECK(SelectLevels(0.0f, 4, VK_SAMPLER_MIPMAP_MODE_NEAREST, 1.5f).hi == 1);
	CHECK(SelectLevels(0.0f, 4, VK_SAMPLER_MIPMAP_MODE_NEAREST, 1.625f).hi == 2);
}

TEST_CASE("array layer: clamp(RNE(a), 0, count - 1), ties to even", "[texture][sampling]") {
	CHECK(SelectArrayLayer(1.5f, 8) == 2);
	CHECK(SelectArrayLayer(2.5f, 8) == 2);
	CHECK(SelectArrayLayer(0.5f, 8) == 0);
	CHECK(SelectArrayLayer(3.4999f, 8) == 3);
	CHECK(SelectArrayLayer(3.5001f, 8) == 4);
	CHECK(SelectArrayLayer(-0.7f, 8) == 0);
	CHECK(SelectArrayLayer(-5.0f, 8) == 0);
	CHECK(SelectArrayLayer(7.9f, 4) == 3);
	CHECK(SelectArrayLayer(1e30f, 4) == 3);
	CHECK(SelectArrayLayer(kNaN, 4) == 0);
}

TEST_CASE("LINEAR texel coordinates keep 8 fraction bits", "[texture][sampling]") {
	auto check = [](float u, int32_t i0, float alpha) {
		INFO("u = " << u);
		LinearCoordinate c = LinearTexelCoordinate(u);
		CHECK(c.i0 == i0);
		CHECK(c.alpha == alpha);
	};
	check(1.5f, 1, 0.0f);               // on a texel centre: one texel
	check(1.0f, 0, 0.5f);               // between centres
	check(1.2f, 0, 179.0f / 256.0f);    // 0.7 * 256 = 179.2 -> 179
	check(0.3f, -1, 205.0f / 256.0f);   // -0.2 * 256 = -51.2 -> -51 = -256 + 205
	check(1.497f, 0, 255.0f / 256.0f);  // 0.997 * 256 = 255.2 -> 255
	check(1.499f, 1, 0.0f);             // 0.999 * 256 = 255.7 -> 256: the next texel, weight 0
	check(-0.5f, -1, 0.0f);
	check(kNaN, 0, 0.0f);
	CHECK(LinearTexelCoordinate(1e20f).i0 == (1 << 30));  // saturated, no overflow

	CHECK(NearestTexelCoordinate(2.999f) == 2);
	CHECK(NearestTexelCoordinate(-0.001f) == -1);
	CHECK(NearestTexelCoordinate(kNaN) == 0);
	CHECK(NearestTexelCoordinate(-1e20f) == -(1 << 30));
}

TEST_CASE("depth compare: reference op texel for each VkCompareOp", "[texture][sampling][compare]") {
	struct Case {
		VkCompareOp op;
		float below, equal, above;  // results for texel < ref, texel == ref, texel > ref
	};
	const Case cases[] = {
	    {VK_COMPARE_OP_NEVER, 0, 0, 0},
	    {VK_COMPARE_OP_LESS, 0, 0, 1},
	    {VK_COMPARE_OP_EQUAL, 0, 1, 0},
	    {VK_COMPARE_OP_LESS_OR_EQUAL, 0, 1, 1},
	    {VK_COMPARE_OP_GREATER, 1, 0, 0},
	    {VK_COMPARE_OP_NOT_EQUAL, 1, 0, 1},
	    {VK_COMPARE_OP_GREATER_OR_EQUAL, 1, 1, 0},
	    {VK_COMPARE_OP_ALWAYS, 1, 1, 1},
	};
	for (const Case& c : cases) {
		INFO("op " << c.op);
		CHECK(DepthCompare(c.op, 0.5f, 0.25f) == c.below);
		CHECK(DepthCompare(c.op, 0.5f, 0.5f) == c.equal);
		CHECK(DepthCompare(c.op, 0.5f, 0.75f) == c.above);
	}
}
