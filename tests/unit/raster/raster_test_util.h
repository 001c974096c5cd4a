// Small framebuffers and shaders for the raster unit tests.
#pragma once

#include <cstring>
#include <vector>

#include "raster/rasterizer.h"
#include "texture/format.h"
#include "texture/texel.h"

namespace tessera::raster::test {

// Color from the first four varyings (missing ones read 0, alpha 1).
inline void VaryingColorShader(const void*, FragmentBatch& b) {
	for (uint32_t i = 0; i < 4 * b.quad_count; ++i) {
		b.color[0][0][i] = b.varyings[0][i];
		b.color[0][1][i] = b.varyings[1][i];
		b.color[0][2][i] = b.varyings[2][i];
		b.color[0][3][i] = b.varyings[3][i];
	}
}

// A constant color (user points at 4 floats) in every attachment.
inline void ConstantColorShader(const void* user, FragmentBatch& b) {
	const float* c = static_cast<const float*>(user);
	for (uint32_t a = 0; a < kMaxColorAttachments; ++a)
		for (uint32_t k = 0; k < 4; ++k)
			for (uint32_t i = 0; i < 4 * b.quad_count; ++i) b.color[a][k][i] = c[k];
}

struct Target {
	uint32_t width, height, samples;
	VkFormat format;
	uint32_t texel_size;
	std::vector<uint8_t> color, depth, stencil;
	VkFormat depth_format = VK_FORMAT_UNDEFINED;

	Target(uint32_t w, uint32_t h, VkFormat f = VK_FORMAT_R32_SFLOAT, uint32_t s = 1)
	    : width(w), height(h), samples(s), format(f) {
		texel_size = texture::FindFormat(f)->block_size;
		color.assign(size_t(w) * h * s * texel_size, 0);
	}
	void AddDepth(VkFormat f, float clear) {
		depth_format = f;
		uint32_t size = f == VK_FORMAT_D16_UNORM ? 2 : 4;
		depth.resize(size_t(width) * height * samples * size);
		for (size_t i = 0; i < depth.size() / size; ++i) texture::PackDepth(f, clear, depth.data() + i * size);
	}
	void AddStencil(uint8_t clear) { stencil.assign(size_t(width) * height * samples, clear); }
	Framebuffer Get() {
		Framebuffer fb;
		fb.width = width;
		fb.height = height;
		fb.samples = samples;
		fb.color_count = 1;
		fb.color[0] = ColorTarget{color.data(), uint64_t(width) * samples * texel_size, format};
		if (!depth.empty())
			fb.depth = DepthTarget{
			    depth.data(), uint64_t(width) * samples * (depth_format == VK_FORMAT_D16_UNORM ? 2 : 4), depth_format};
		if (!stencil.empty()) fb.stencil = StencilTarget{stencil.data(), uint64_t(width) * samples};
		return fb;
	}
	// Component c of sample s of pixel (x, y), through UnpackTexel.
	float At(uint32_t x, uint32_t y, uint32_t c = 0, uint32_t s = 0) const {
		const uint8_t* p = color.data() + ((size_t(y) * width + x) * samples + s) * texel_size;
		return texture::UnpackTexel(*texture::FindFormat(format), p).f[c];
	}
	float DepthAt(uint32_t x, uint32_t y, uint32_t s = 0) const {
		uint32_t size = depth_format == VK_FORMAT_D16_UNORM ? 2 : 4;
		return texture::UnpackDepth(depth_format, depth.data() + ((size_t(y) * width + x) * samples + s) * size);
	}
	uint8_t StencilAt(uint32_t x, uint32_t y, uint32_t s = 0) const {
		return stencil[(size_t(y) * width + x) * samples + s];
	}
};

// Default state: viewport and scissor cover the target, no culling.
inline DrawState MakeState(const Target& t) {
	DrawState s;
	s.raster.viewport = Viewport{0, 0, float(t.width), float(t.height), 0, 1};
	s.raster.scissor = Rect{0, 0, t.width, t.height};
	return s;
}

// Varying colors (VaryingColorShader, 4 varyings), depth tested
// LESS_OR_EQUAL with writes, color blended src_color * src +
// (1 - src_alpha) * dst: overlapping draws show their order.
inline DrawState BlendedDepthState(const Target& t, VkBlendFactor src_color) {
	DrawState s = MakeState(t);
	s.shader.run = VaryingColorShader;
	s.raster.varying_count = 4;
	s.depth_stencil.depth_test = true;
	s.depth_stencil.depth_write = true;
	s.depth_stencil.depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;
	s.blend.attachment_count = 1;
	BlendAttachmentState& b = s.blend.attachments[0];
	b.blend_enable = true;
	b.src_color = src_color;
	b.dst_color = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
	return s;
}

// Counting: every covered sample adds 1 to an R32_SFLOAT attachment.
inline DrawState CountingState(const Target& t) {
	static const float kOne[4] = {1, 1, 1, 1};
	DrawState s = MakeState(t);
	s.shader.run = ConstantColorShader;
	s.shader.user = kOne;
	s.blend.attachment_count = 1;
	BlendAttachmentState& b = s.blend.attachments[0];
	b.blend_enable = true;
	b.src_color = b.dst_color = b.src_alpha = b.dst_alpha = VK_BLEND_FACTOR_ONE;
	return s;
}

// Vertices given in framebuffer pixels (for a viewport covering the target)
// with depth z_d and clip w; varyings appended as given.
struct Mesh {
	std::vector<float> positions, varyings;
	uint32_t varying_count = 0;
	void Add(const Target& t, double px, double py, float z = 0.5f, float w = 1.0f,
	         std::initializer_list<float> v = {}) {
		double xd = px / (t.width * 0.5) - 1.0, yd = py / (t.height * 0.5) - 1.0;
		positions.insert(positions.end(), {float(xd * w), float(yd * w), z * w, w});
		varyings.insert(varyings.end(), v.begin(), v.end());
	}
	VertexInput Input() const {
		VertexInput in;
		in.positions = positions.data();
		in.varyings = varyings.empty() ? nullptr : varyings.data();
		in.vertex_count = uint32_t(positions.size() / 4);
		return in;
	}
};

inline void Draw(const DrawState& state, Target& t, const VertexInput& input, runtime::ThreadPool* pool = nullptr) {
	Framebuffer fb = t.Get();
	CompiledDraw d = CompileDraw(state, fb);
	Renderer r(pool);
	r.Draw(d, fb, input);
}

}  // namespace tessera::raster::test
