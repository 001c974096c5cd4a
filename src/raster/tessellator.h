// The fixed-function tessellator (Vulkan "Tessellation"): subdivides one
// patch's domain (a triangle, a quad, or isolines) by its outer and inner
// tessellation levels into domain points and the triangles, lines or points
// that join them. Pure and deterministic: the draw (vk/tessellation_stage.cpp)
// runs the evaluation program once per domain point.
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::raster {

// maxTessellationGenerationLevel.
constexpr uint32_t kMaxTessellationLevel = 64;

enum class TessDomain : uint8_t { kTriangles, kQuads, kIsolines };
enum class TessSpacing : uint8_t { kEqual, kFractionalEven, kFractionalOdd };

struct TessellationState {
	TessDomain domain = TessDomain::kTriangles;
	TessSpacing spacing = TessSpacing::kEqual;
	bool ccw = true;          // VertexOrderCcw (else VertexOrderCw)
	bool point_mode = false;  // PointMode: each distinct domain point once
	bool lower_left = false;  // VkTessellationDomainOrigin LOWER_LEFT (else UPPER_LEFT)
};

struct Tessellation {
	// Domain points, TessCoord (u, v, w) each: w = 1 - u - v for
	// triangles, 0 for quads and isolines.
	std::vector<float> coords;
	// Primitives as indices into the points: 3 a triangle (with the
	// winding the state asks), 2 a line segment (isolines), or 1 a point
	// (point mode), in the order they are emitted.
	std::vector<uint32_t> indices;
};

// Tessellates one patch into out (cleared first). Returns false, leaving
// out empty, when the patch is discarded (a relevant outer level <= 0 or
// NaN).
bool Tessellate(const TessellationState& state, const float outer[4], const float inner[2], Tessellation& out);

}  // namespace tessera::raster
