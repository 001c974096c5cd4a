// Per-sample operations after rasterization: stencil test, depth test,
// blending, logic op, write mask and format pack, on plain attachment
// memory. CompileFragmentOps looks at the state and the attachment formats
// once and picks specialized functions; nothing here re-decides pipeline
// state per pixel.
#pragma once

#include <cstdint>

#include "raster/state.h"
#include "texture/format.h"
#include "texture/texel.h"

namespace tessera::raster {

// A quad's coverage: bit (lane * samples + sample), lane = dy * 2 + dx.
// Depth values follow the same index.
using DepthTestFn = uint32_t (*)(const DepthTarget& target, uint32_t samples, int32_t x, int32_t y, const float* depth,
                                 uint32_t coverage);
// The depth test of `quads` whole single-sample quads side by side, quad k
// at (x + 2k, y), its four lanes' depths at depth[4k..4k+3] as a
// DepthTestFn takes them. pass[k]: the lanes of quad k that passed. The
// same tests and writes as a DepthTestFn on each quad, in one pass over
// each of the two rows.
using DepthRunFn = void (*)(const DepthTarget& target, int32_t x, int32_t y, uint32_t quads, const float* depth,
                            uint32_t* pass);

struct ColorOps;
// Writes the covered samples of quads [quad_begin, quad_end) of a batch to
// one attachment. No two of those quads may cover the same pixel (blending
// reads the destination of all of them first), unless ColorOps::in_order.
using ColorWriteFn = void (*)(const ColorOps& ops, const ColorTarget& target, uint32_t samples,
                              const FragmentBatch& batch, uint32_t attachment, const uint32_t* quad_coverage,
                              uint32_t quad_begin, uint32_t quad_end);

struct ColorOps {
	ColorWriteFn write = nullptr;  // nullptr: nothing written (no attachment or empty write mask)
	const texture::FormatInfo* format = nullptr;
	BlendAttachmentState blend;
	bool clamp_unorm = false;  // §29.13.1: fixed-point attachments clamp source, factors to [0,1]
	// Signed normalized: source and constants clamped to [-1,1] (§29.13.1;
	// the factors are left as computed, as the CTS's reference does).
	bool clamp_snorm = false;
	bool logic_op = false;  // only integer and normalized formats (§29.14)
	VkLogicOp logic = VK_LOGIC_OP_COPY;
	bool dual_source = false;  // reads FragmentBatch color[1] as the second source
	bool integer = false;      // UINT/SINT: the batch's floats hold 32-bit integer bits
	// UINT/SINT: the range of R, G, B and A, to which a value is saturated
	// before it is stored (components of 32 bits and absent ones: the
	// whole 32-bit range).
	int64_t integer_min[4] = {}, integer_max[4] = {};
	float constants[4];
	uint32_t element_size = 0;
	uint8_t write_bytes[16];  // bit mask over the packed texel of the components written
	bool full_write = true;   // write_bytes covers the whole texel
	// write only stores, quad after quad: quads that cover the same pixel
	// may go in one call, the later one's value staying.
	bool in_order = false;
};

struct FragmentOps {
	uint32_t samples = 1;
	DepthStencilState state;
	DepthTestFn depth_test = nullptr;     // nullptr: depth test off or no depth attachment
	DepthRunFn depth_test_run = nullptr;  // depth_test for runs of whole single-sample quads
	bool stencil = false;                 // stencil test on and a stencil attachment
	bool depth_bounds = false;            // depth bounds test on and a depth attachment
	float depth_min = 0, depth_max = 1;   // depth clamp range
	bool depth_clamp = false;
	uint32_t color_count = 0;
	ColorOps color[kMaxColorAttachments];
};

// formats: the attachments of fb (base pointers are not read).
FragmentOps CompileFragmentOps(const DrawState& state, const Framebuffer& fb);

// Depth bounds, stencil and depth tests (Vulkan 1.3 "Depth Bounds
// Test", §29.7 - §29.8) on one
// quad's covered samples, with stencil ops and depth writes; returns the
// samples that pass. stencil_refs: the quad's four lanes' stencil
// references from the shader (VK_EXT_shader_stencil_export), for the test
// and VK_STENCIL_OP_REPLACE; null: the state's.
uint32_t DepthStencilTests(const FragmentOps& ops, const Framebuffer& fb, int32_t x, int32_t y, const float* depth,
                           uint32_t coverage, bool front_facing, const uint32_t* stencil_refs = nullptr);

// Blending (§29.13) as plain functions over structure-of-arrays lanes, for
// tests and for the color stage: dst is updated in place.
void BlendLanes(const BlendAttachmentState& blend, const float constants[4], const float* const src[4],
                const float* const src1[4], float* const dst[4], uint32_t count);

// Linear to 8-bit sRGB as the SRGB color paths store it (the same byte as
// texture::PackTexel, found without pow).
uint8_t EncodeSrgb8(float linear);

// Vulkan 1.3 "Multisample Coverage": our alpha-to-coverage mask for
// one fragment, implementation-dependent by the spec. The first
// round(alpha * samples) samples (halves up, clamped; NaN: none), so the
// mask grows with alpha, is all ones at 1 and empty at 0, with no dither.
uint32_t AlphaToCoverageMask(float alpha, uint32_t samples);

// texture/texel.h's, which the blends and the blits share.
using texture::RoundUnorm8;

// Logic op (§29.14) on raw bits.
uint32_t ApplyLogicOp(VkLogicOp op, uint32_t s, uint32_t d);

}  // namespace tessera::raster
