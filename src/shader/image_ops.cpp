// Image instructions in the interpreter: kImageArg / kImage / kImageResult
// (see ir.h). The lookups themselves are texture/sample.h; this file gathers
// each lane's operands, finds its descriptor (descriptor arrays may be
// indexed per lane), and runs the lanes that share a descriptor as one batch.
#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <vector>

#include "shader/alu.h"
#include "shader/image_ops.h"
#include "shader/interpreter.h"
#include "shader/memory_ops.h"
#include "texture/sample_fast.h"
#include "texture/storage.h"
#include "texture/texel.h"

namespace tessera::shader {

using texture::SampledImage;
using texture::TexelValue;

// The lanes of one batch with their operands packed: slot k of batch lane j
// at [k * n + j], as float (f) and as integer (i) views of the same bits.
struct ImageBatch {
	uint32_t n = 0;
	std::vector<uint32_t> lanes;
	// Each operand slot's n words: the interpreter's own arrays when the
	// batch is lanes 0..n-1 in order, else gathered into `words`.
	const uint32_t* slots[kImageArgCount] = {};
	uint32_t slots_set = 0;  // bit k: slots[k] is not null
	std::vector<uint32_t> words;
	std::vector<float> lod;         // QueryLod results, 2 a lane
	bool quad_derivatives = false;  // ImplicitLod sampling left to texture::Sample (SampleLanes)
	const float* F(uint32_t slot) const { return reinterpret_cast<const float*>(slots[slot]); }
	const int32_t* I(uint32_t slot) const { return reinterpret_cast<const int32_t*>(slots[slot]); }
};

// Scratch memory of image instructions, kept by the interpreter between
// calls so that a run allocates once.
struct ImageScratch {
	std::vector<uint32_t> derivatives, pending, rest;
	std::vector<TexelValue> out;  // a batch's results, one texel a lane
	ImageBatch batch;
	SampledImage combined;  // a separate image and sampler prepared together
};

namespace {

// Operations that write all four result words of every lane.
bool IsLookup(ImageOpKind kind) {
	return kind == ImageOpKind::kSample || kind == ImageOpKind::kGather || kind == ImageOpKind::kFetch ||
	       kind == ImageOpKind::kRead;
}

// The residency check of sparse lookups (ImageOpKind::kResidency): the
// image's reader, wrapped, notes any texel read outside the resident pages.
// Set around one lane's lookup on this thread.
struct ResidencyCheck {
	TexelValue (*read)(const SampledImage& image, const uint8_t* texel) = nullptr;
	const texture::Residency* residency = nullptr;
	bool resident = true;
};
thread_local ResidencyCheck t_residency;

TexelValue ReadChecked(const SampledImage& image, const uint8_t* texel) {
	if (!t_residency.residency->Resident(texel)) t_residency.resident = false;
	return t_residency.read(image, texel);
}

// Runs one batch of lanes that share a descriptor. out: 4 result words a
// lane, zeroed by the caller except for lookups (IsLookup), which write
// them all; or, for sampling and fetches, components: component c of lane
// j at components[c][j].
void RunBatch(const ImageOperation& op, const ImageBinding* binding, const SampledImage* image, ImageBatch& b,
              TexelValue* out, uint32_t* const* components) {
	const uint32_t n = b.n;
	// Texel buffers (Dim Buffer): one coordinate, no levels.
	if (binding && binding->texel_format) {
		const texture::FormatInfo& format = *binding->texel_format;
		const uint32_t size = format.block_size;
		const int32_t* x = b.I(kArgCoord);
		auto texel = [&](uint32_t j) -> uint8_t* {
			return (x[j] >= 0 && uint32_t(x[j]) < binding->texel_count) ? binding->texels + uint64_t(x[j]) * size
			                                                            : nullptr;
		};
		switch (op.kind) {
		case ImageOpKind::kRead:
		case ImageOpKind::kFetch:
			if (image) {  // (PrepareTexelBuffer: the same values, a vector at a time)
				texture::FetchLanes fetch;
				fetch.count = n;
				fetch.coord[0] = x;
				if (components)
					texture::Fetch(*image, fetch, components);
				else
					texture::Fetch(*image, fetch, out);
				return;
			}
			for (uint32_t j = 0; j < n; ++j) {
				const uint8_t* t = texel(j);
				out[j] = t ? texture::UnpackTexel(format, t)
				           : texture::OutOfBoundsTexel(format, VK_IMAGE_ASPECT_COLOR_BIT, format.IsInteger());
			}
			return;
		case ImageOpKind::kWrite:
			if (image) {
				texture::StoreLanes store;
				store.count = n;
				store.coord[0] = x;
				for (uint32_t c = 0; c < 4; ++c) store.texel[c] = b.slots[kArgTexel + c];
				texture::Store(*image, store);
				return;
			}
			for (uint32_t j = 0; j < n; ++j)
				if (uint8_t* t = texel(j)) {
					TexelValue v;
					for (int c = 0; c < 4; ++c) v.i[c] = b.I(kArgTexel + c)[j];
					texture::PackTexel(format, v, t);
				}
			return;
		case ImageOpKind::kAtomic:
			for (uint32_t j = 0; j < n; ++j) {
				uint8_t* t = size == 4 ? texel(j) : nullptr;
				uint32_t old = 0;
				if (t && reinterpret_cast<uintptr_t>(t) % 4 == 0)
					old = AtomicApply(op.atomic, reinterpret_cast<uint32_t*>(t), uint32_t(b.I(kArgValue)[j]),
					                  uint32_t(b.I(kArgComparator)[j]));
				out[j].u[0] = old;
			}
			return;
		case ImageOpKind::kQuerySize:
			for (uint32_t j = 0; j < n; ++j) out[j].u[0] = binding->texel_count;
			return;
		default: std::fill_n(out, n, TexelValue{}); return;  // no such lookup on texel buffers
		}
	}
	if (!image) {
		// No descriptor (null, or an index past the array): reads give zero,
		// writes are dropped (and have no `out`).
		if (out) std::fill_n(out, n, TexelValue{});
		return;
	}
	texture::SampleLanes sample;
	sample.count = n;
	for (uint32_t c = 0; c < 4; ++c) sample.coord[c] = b.F(kArgCoord + c);
	if (op.has_lod) sample.lod = b.F(kArgLod);
	if (op.has_bias) sample.bias = b.F(kArgLod);
	if (op.has_min_lod) sample.min_lod = b.F(kArgMinLod);
	if (op.has_dref) sample.dref = b.F(kArgDref);
	if (b.quad_derivatives)
		sample.quad_derivatives = true;
	else if (op.has_grad || op.implicit_lod)
		for (uint32_t c = 0; c < 3; ++c) sample.ddx[c] = b.F(kArgDdx + c), sample.ddy[c] = b.F(kArgDdy + c);
	if (op.has_offset)
		for (uint32_t c = 0; c < 3; ++c) sample.offset[c] = b.I(kArgOffset + c);

	if (op.kind == ImageOpKind::kResidency) {
		// Vulkan "Sparse Residency" (OpImageSparse*): whether every texel the
		// lookup reads is resident. Each lane's lookup runs again alone on
		// the generic path, whose every texel read goes through image.read.
		// Texel buffers and images that are not partially resident are
		// resident everywhere; texels outside the image are not read.
		if (!image->residency) return;  // (out is zeroed: code 0)
		SampledImage checked = *image;
		checked.read = ReadChecked;
		t_residency = {image->read, image->residency, true};
		for (uint32_t j = 0; j < n; ++j) {
			t_residency.resident = true;
			TexelValue texel;
			if (op.lookup == ImageOpKind::kSample || op.lookup == ImageOpKind::kGather) {
				texture::SampleLanes one;
				one.count = 1;
				auto at = [j](const auto* p) { return p ? p + j : p; };
				for (uint32_t c = 0; c < 4; ++c) one.coord[c] = at(sample.coord[c]);
				one.lod = at(sample.lod), one.bias = at(sample.bias), one.min_lod = at(sample.min_lod);
				one.dref = at(sample.dref);
				for (uint32_t c = 0; c < 3; ++c)
					one.ddx[c] = at(sample.ddx[c]), one.ddy[c] = at(sample.ddy[c]),
					one.offset[c] = at(sample.offset[c]);
				if (op.lookup == ImageOpKind::kSample)
					texture::SampleGeneric(checked, one, &texel);
				else
					texture::Gather(checked, one, op.component, op.has_const_offsets ? op.const_offsets : nullptr,
					                &texel);
			} else {
				texture::FetchLanes one;
				one.count = 1;
				for (uint32_t c = 0; c < 4; ++c) one.coord[c] = b.I(kArgCoord + c) + j;
				if (op.has_lod) one.lod = b.I(kArgLod) + j;
				if (op.has_sample) one.sample = b.I(kArgSample) + j;
				if (op.has_offset)
					for (uint32_t c = 0; c < 3; ++c) one.offset[c] = b.I(kArgOffset + c) + j;
				texture::Fetch(checked, one, &texel);
			}
			out[j].u[0] = t_residency.resident ? 0 : 1;
		}
		return;
	}
	switch (op.kind) {
	case ImageOpKind::kSample:
		if (components) {
			float* const floats[4] = {reinterpret_cast<float*>(components[0]), reinterpret_cast<float*>(components[1]),
			                          reinterpret_cast<float*>(components[2]), reinterpret_cast<float*>(components[3])};
			texture::Sample(*image, sample, floats);
		} else
			texture::Sample(*image, sample, out);
		return;
	case ImageOpKind::kGather:
		texture::Gather(*image, sample, op.component, op.has_const_offsets ? op.const_offsets : nullptr, out);
		return;
	case ImageOpKind::kQueryLod: {
		std::vector<float>& lod = b.lod;
		lod.resize(2 * size_t(n));
		texture::QueryLod(*image, sample, reinterpret_cast<float(*)[2]>(lod.data()));
		for (uint32_t j = 0; j < n; ++j) out[j].f[0] = lod[2 * j], out[j].f[1] = lod[2 * j + 1];
		return;
	}
	case ImageOpKind::kRead:
	case ImageOpKind::kFetch: {
		texture::FetchLanes fetch;
		fetch.count = n;
		for (uint32_t c = 0; c < 4; ++c) fetch.coord[c] = b.I(kArgCoord + c);
		if (op.has_lod) fetch.lod = b.I(kArgLod);
		if (op.has_sample) fetch.sample = b.I(kArgSample);
		if (op.has_offset)
			for (uint32_t c = 0; c < 3; ++c) fetch.offset[c] = b.I(kArgOffset + c);
		if (components)
			texture::Fetch(*image, fetch, components);
		else
			texture::Fetch(*image, fetch, out);
		return;
	}
	case ImageOpKind::kWrite:
		// Storage images have color formats that texels convert to (no
		// STORAGE_IMAGE feature elsewhere); anything else drops the write.
		if (image->format->IsDepthOrStencil() || !texture::CanConvertTexels(*image->format)) return;
		{
			texture::StoreLanes store;
			store.count = n;
			for (uint32_t c = 0; c < 4; ++c) store.coord[c] = b.I(kArgCoord + c);
			if (op.has_sample) store.sample = b.I(kArgSample);
			for (uint32_t c = 0; c < 4; ++c) store.texel[c] = b.slots[kArgTexel + c];
			texture::Store(*image, store);
		}
		return;
	case ImageOpKind::kAtomic:
		for (uint32_t j = 0; j < n; ++j) {
			int32_t c[4] = {b.I(kArgCoord)[j], b.I(kArgCoord + 1)[j], b.I(kArgCoord + 2)[j], b.I(kArgCoord + 3)[j]};
			uint8_t* t = image->format->block_size == 4
			                 ? texture::StorageTexel(*image, c, op.has_sample ? b.I(kArgSample)[j] : 0)
			                 : nullptr;
			uint32_t old = 0;
			if (t && reinterpret_cast<uintptr_t>(t) % 4 == 0)
				old = AtomicApply(op.atomic, reinterpret_cast<uint32_t*>(t), uint32_t(b.I(kArgValue)[j]),
				                  uint32_t(b.I(kArgComparator)[j]));
			out[j].u[0] = old;
		}
		return;
	case ImageOpKind::kQuerySize:
		if (!op.has_lod) {  // (OpImageQuerySize: one answer for every lane)
			TexelValue size{};
			texture::QuerySize(*image, 0, size.u);
			std::fill_n(out, n, size);
			return;
		}
		for (uint32_t j = 0; j < n; ++j) {
			uint32_t size[4] = {};
			texture::QuerySize(*image, uint32_t(b.I(kArgLod)[j]), size);
			std::memcpy(out[j].u, size, 16);
		}
		return;
	case ImageOpKind::kQueryLevels:
		for (uint32_t j = 0; j < n; ++j) out[j].u[0] = texture::QueryLevels(*image);
		return;
	case ImageOpKind::kQuerySamples:
		for (uint32_t j = 0; j < n; ++j) out[j].u[0] = texture::QuerySamples(*image);
		return;
	case ImageOpKind::kResidency: return;  // (answered above)
	}
}

// Four lanes' 4 result words (src: lane after lane) into four slots.
inline void Transpose4x4(const uint32_t* src, uint32_t* r0, uint32_t* r1, uint32_t* r2, uint32_t* r3) {
	typedef uint32_t U4 __attribute__((vector_size(16)));  // GCC/Clang vectors: SSE2 or NEON
	U4 v[4];
	std::memcpy(v, src, sizeof v);
	const U4 t0 = __builtin_shufflevector(v[0], v[1], 0, 4, 1, 5), t1 = __builtin_shufflevector(v[0], v[1], 2, 6, 3, 7);
	const U4 t2 = __builtin_shufflevector(v[2], v[3], 0, 4, 1, 5), t3 = __builtin_shufflevector(v[2], v[3], 2, 6, 3, 7);
	const U4 c0 = __builtin_shufflevector(t0, t2, 0, 1, 4, 5), c1 = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
	const U4 c2 = __builtin_shufflevector(t1, t3, 0, 1, 4, 5), c3 = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
	std::memcpy(r0, &c0, 16);
	std::memcpy(r1, &c1, 16);
	std::memcpy(r2, &c2, 16);
	std::memcpy(r3, &c3, 16);
}

// The operand slots an operation reads (bit k: slot k), so that batches
// pack only those.
uint32_t UsedSlots(const ImageOperation& op) {
	auto range = [](uint32_t first, uint32_t count) { return ((1u << count) - 1) << first; };
	uint32_t used = range(kArgCoord, 4);
	if (op.has_dref) used |= range(kArgDref, 1);
	if (op.has_lod || op.has_bias) used |= range(kArgLod, 1);
	if (op.has_min_lod) used |= range(kArgMinLod, 1);
	if (op.has_grad || op.implicit_lod) used |= range(kArgDdx, 6);
	if (op.has_offset) used |= range(kArgOffset, 3);
	if (op.has_sample) used |= range(kArgSample, 1);
	if (op.kind == ImageOpKind::kWrite) used |= range(kArgTexel, 4);
	if (op.kind == ImageOpKind::kAtomic) used |= range(kArgValue, 2);
	return used;
}

}  // namespace

void Interpreter::ExecuteImage(const Program& program, const Inst& inst, const Resources& resources, uint32_t lanes,
                               bool full) {
	if (inst.op == Op::kImageArg) {
		// Read in place by the operation, which follows the operand
		// instructions with nothing between that writes registers.
		image_arg_[inst.imm] = Reg(inst.a);
		image_arg_set_ |= 1u << inst.imm;
		return;
	}
	if (inst.op == Op::kImageResult) {
		if (image_in_place_ >> inst.imm & 1u) return;  // the operation wrote it in its register
		const uint32_t* src = image_results_.data() + size_t(inst.imm) * lanes;
		uint32_t* dst = Reg(inst.dst);
		if (full)
			std::memcpy(dst, src, size_t(lanes) * 4);
		else
			BlendLanes(dst, src, active_.data(), lanes);
		return;
	}
	if (image_args_.size() < size_t(kImageArgCount) * lanes) image_args_.resize(size_t(kImageArgCount) * lanes);
	if (image_results_.size() < 4 * size_t(lanes)) image_results_.resize(4 * size_t(lanes));

	const ImageOperation& op = program.image_ops[inst.imm];
	// The operand registers: those the kImageArg instructions just gave
	// (bits of `given`), image_args_'s zeros for the other slots. (Read
	// through the bits: a sampling instruction names a few of the 25 slots,
	// and a fragment batch runs every lookup of a shader through here.)
	const uint32_t given = image_arg_set_;
	image_arg_set_ = 0;
	const uint32_t* const zeros = image_args_.data();
	auto arg = [&, given, zeros](uint32_t slot) -> const uint32_t* {
		return given >> slot & 1u ? image_arg_[slot] : zeros + size_t(slot) * lanes;
	};

	// Where the result components go: with all lanes active, straight into
	// the registers of this instruction and of the kImageResult
	// instructions right after it (nothing runs between). A component whose
	// register is also an operand's (the operand's last use) goes through
	// image_results_ as before: the sampler reads operands while it writes
	// results, and its order of the two is not part of its contract.
	uint32_t* results[4] = {image_results_.data(), image_results_.data() + lanes, image_results_.data() + 2 * lanes,
	                        image_results_.data() + 3 * lanes};
	image_in_place_ = 0;
	if (full) {
		uint32_t* in_place[4] = {Reg(inst.dst), nullptr, nullptr, nullptr};
		const Inst* const insts_end = program.insts.data() + program.insts.size();
		for (const Inst* next = &inst + 1; next != insts_end && next->op == Op::kImageResult; ++next)
			in_place[next->imm] = Reg(next->dst);
		for (uint32_t c = 0; c < 4; ++c) {
			if (!in_place[c]) continue;
			bool operand = false;  // (only given slots are registers)
			for (uint32_t m = given; m && !operand; m &= m - 1)
				operand = image_arg_[std::countr_zero(m)] == in_place[c];
			if (operand) continue;
			results[c] = in_place[c];
			image_in_place_ |= 1u << c;
		}
	}

	// The result components anything reads: the first (this instruction's
	// register) and those of the kImageResult instructions right after it.
	uint32_t read_components = 1;
	for (const Inst *next = &inst + 1, *end = program.insts.data() + program.insts.size();
	     next != end && next->op == Op::kImageResult; ++next)
		read_components |= 1u << next->imm;

	// ImplicitLod / QueryLod: derivatives from the aligned 2x2 lane quads
	// (lane 4q + 2dy + dx is pixel (dx, dy) of quad q; Vulkan 1.3 §16.6.1
	// "Derivative Operations", fine derivatives). Missing lanes of a partial
	// quad give a zero difference. A sampling batch of whole quads in lane
	// order leaves them to texture::Sample (SampleLanes::quad_derivatives),
	// which takes them in registers; other batches read these arrays, made
	// on first need.
	if (!image_scratch_) image_scratch_ = std::make_shared<ImageScratch>();
	ImageScratch& scratch = *image_scratch_;
	std::vector<uint32_t>& derivatives = scratch.derivatives;
	bool derivatives_made = false;
	auto make_derivatives = [&] {
		if (derivatives_made) return;
		derivatives_made = true;
		derivatives.resize(6 * size_t(lanes));
		for (uint32_t c = 0; c < 3; ++c) {
			const uint32_t* coord = arg(kArgCoord + c);
			uint32_t* dx = derivatives.data() + size_t(c) * lanes;
			uint32_t* dy = derivatives.data() + size_t(3 + c) * lanes;
			// Whole quads: texture::QuadDerivatives' differences.
			const uint32_t whole = lanes & ~3u;
			texture::QuadDerivatives(reinterpret_cast<const float*>(coord), whole, reinterpret_cast<float*>(dx),
			                         reinterpret_cast<float*>(dy));
			for (uint32_t i = whole; i < lanes; ++i) {
				uint32_t base = i & ~3u, x = i & 1u, y = (i >> 1) & 1u;
				uint32_t row = base + 2 * y, col = base + x;
				float ddx =
				    row + 1 < lanes ? std::bit_cast<float>(coord[row + 1]) - std::bit_cast<float>(coord[row]) : 0.0f;
				float ddy = base + 2 + x < lanes
				                ? std::bit_cast<float>(coord[base + 2 + x]) - std::bit_cast<float>(coord[col])
				                : 0.0f;
				dx[i] = std::bit_cast<uint32_t>(ddx);
				dy[i] = std::bit_cast<uint32_t>(ddy);
			}
		}
	};

	const uint32_t* image_index = op.image_count > 1 ? arg(kArgImageIndex) : nullptr;
	const uint32_t* sampler_index =
	    op.sampler != ImageOperation::kNone && op.sampler_count > 1 ? arg(kArgSamplerIndex) : nullptr;
	// Batches of lanes that share (image element, sampler element). All
	// lanes of one descriptor are one batch, lanes 0..n-1 in order, and
	// need no list (`whole`: the loop below runs once).
	const bool whole = full && lanes != 0 && !image_index && !sampler_index;
	std::vector<uint32_t>& pending = scratch.pending;
	pending.clear();  // (`whole`: no list; the one round below takes every lane)
	if (full && !whole) {
		pending.resize(lanes);
		std::iota(pending.begin(), pending.end(), 0u);
	} else if (!full) {
		pending.resize(lanes);
		uint32_t pending_count = 0;
		for (uint32_t i = 0; i < lanes; ++i) {
			pending[pending_count] = i;
			pending_count += active_[i] ? 1 : 0;
		}
		pending.resize(pending_count);
	}
	auto key_of = [&](uint32_t lane) {
		uint64_t image_element = image_index ? image_index[lane] : 0;
		uint64_t sampler_element = sampler_index ? sampler_index[lane] : 0;
		return image_element << 32 | sampler_element;
	};
	std::vector<uint32_t>& rest = scratch.rest;
	ImageBatch& batch = scratch.batch;
	const uint32_t used = UsedSlots(op);
	std::vector<TexelValue>& out = scratch.out;
	SampledImage& combined = scratch.combined;
	for (bool more = whole || !pending.empty(); more; more = !pending.empty()) {
		const uint64_t key = whole ? 0 : key_of(pending[0]);
		batch.lanes.clear();
		rest.clear();
		if (!whole && !image_index && !sampler_index)
			batch.lanes.swap(pending);  // one descriptor: every active lane in one batch
		else if (!whole)
			for (uint32_t lane : pending) (key_of(lane) == key ? batch.lanes : rest).push_back(lane);
		pending.swap(rest);

		const uint32_t n = batch.n = whole ? lanes : static_cast<uint32_t>(batch.lanes.size());
		// Lanes 0..n-1 in order (a full group): slots are read in place.
		const bool identity = whole || (n == lanes && (n == 0 || batch.lanes[n - 1] == n - 1));
		batch.quad_derivatives = identity && op.implicit_lod && op.kind == ImageOpKind::kSample && n % 4 == 0;
		const bool explicit_derivatives = op.has_grad || (op.implicit_lod && !batch.quad_derivatives);
		if (op.implicit_lod && !batch.quad_derivatives) make_derivatives();
		if (!identity) batch.words.resize(size_t(kImageArgCount) * n);
		// (Only the slots the last batch set are cleared: a batch of a few
		// lanes should not pay for all 25.)
		for (uint32_t m = batch.slots_set; m; m &= m - 1) batch.slots[std::countr_zero(m)] = nullptr;
		constexpr uint32_t kDerivativeSlots = ((1u << 6) - 1) << kArgDdx;
		batch.slots_set = explicit_derivatives ? used : used & ~kDerivativeSlots;
		for (uint32_t m = batch.slots_set; m; m &= m - 1) {
			const uint32_t slot = uint32_t(std::countr_zero(m));
			const bool derivative = slot >= kArgDdx && slot < kArgDdx + 6;
			const uint32_t* src =
			    op.implicit_lod && derivative ? derivatives.data() + size_t(slot - kArgDdx) * lanes : arg(slot);
			if (identity) {
				batch.slots[slot] = src;
				continue;
			}
			uint32_t* words = batch.words.data() + size_t(slot) * n;
			for (uint32_t j = 0; j < n; ++j) words[j] = src[batch.lanes[j]];
			batch.slots[slot] = words;
		}

		// The descriptors: an element past the array is no descriptor.
		const uint32_t image_element = static_cast<uint32_t>(key >> 32);
		const uint32_t sampler_element = static_cast<uint32_t>(key);
		// Slots resolve on first use (Resources::image_resolver): only the
		// elements this batch reads.
		auto slot = [&](uint64_t k) -> const ImageBinding* {
			if (k >= resources.images.size()) return nullptr;
			return resources.image_resolver ? &resources.image_resolver->Resolve(size_t(k)) : &resources.images[k];
		};
		const ImageBinding* binding =
		    image_element < op.image_count ? slot(uint64_t{op.image} + image_element) : nullptr;
		const SampledImage* image = binding && binding->prepared_ok ? &binding->prepared : nullptr;
		if (binding && op.sampler != ImageOperation::kNone) {
			const ImageBinding* sampler =
			    sampler_element < op.sampler_count ? slot(uint64_t{op.sampler} + sampler_element) : nullptr;
			image = nullptr;
			if (sampler && sampler->has_sampler && binding->has_view &&
			    texture::PrepareSampledImage(sampler->sampler, binding->view, &combined))
				image = &combined;
		}

		// 4 words a lane -> 4 result slots: written there by the sampler for
		// a batch of all lanes, else moved (one pass, the compiler's shuffles).
		uint32_t *r0 = results[0], *r1 = results[1], *r2 = results[2], *r3 = results[3];
		const bool to_components =
		    op.kind == ImageOpKind::kSample || op.kind == ImageOpKind::kFetch || op.kind == ImageOpKind::kRead;
		// OpImageQuerySize (no Lod) of an image: one answer, written straight
		// into the result components.
		if (identity && op.kind == ImageOpKind::kQuerySize && !op.has_lod && image && !binding->texel_format) {
			uint32_t size[4] = {};
			texture::QuerySize(*image, 0, size);
			for (uint32_t m = read_components; m; m &= m - 1) {
				const uint32_t c = uint32_t(std::countr_zero(m));
				std::fill_n(results[c], n, size[c]);
			}
			continue;
		}
		// (A texel buffer bound where the shader samples, which valid use
		// never does, reads zero through `out`.)
		if (identity && to_components && image && !(binding->texel_format && op.kind == ImageOpKind::kSample)) {
			uint32_t* const components[4] = {r0, r1, r2, r3};
			RunBatch(op, binding, image, batch, nullptr, components);
			continue;
		}
		if (op.kind == ImageOpKind::kWrite) {  // (no result: its register is dead)
			RunBatch(op, binding, image, batch, nullptr, nullptr);
			continue;
		}
		if (IsLookup(op.kind))
			out.resize(n);
		else
			out.assign(n, TexelValue{});
		RunBatch(op, binding, image, batch, out.data(), nullptr);
		const uint32_t* o = out.data()->u;
		if (identity) {
			uint32_t j = 0;
			for (; j + 4 <= n; j += 4) Transpose4x4(o + 4 * j, r0 + j, r1 + j, r2 + j, r3 + j);
			for (; j < n; ++j) r0[j] = o[4 * j], r1[j] = o[4 * j + 1], r2[j] = o[4 * j + 2], r3[j] = o[4 * j + 3];
		} else {
			for (uint32_t j = 0; j < n; ++j) {
				const uint32_t lane = batch.lanes[j];
				r0[lane] = o[4 * j], r1[lane] = o[4 * j + 1], r2[lane] = o[4 * j + 2], r3[lane] = o[4 * j + 3];
			}
		}
	}
	uint32_t* dst = Reg(inst.dst);
	if ((image_in_place_ & 1u) || op.kind == ImageOpKind::kWrite) return;
	if (full)
		std::memcpy(dst, image_results_.data(), size_t(lanes) * 4);
	else
		BlendLanes(dst, image_results_.data(), active_.data(), lanes);
}

}  // namespace tessera::shader
