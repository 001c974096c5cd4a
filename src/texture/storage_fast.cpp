// The fast path of Store() (storage.h): a vector of lanes at a time, the
// addresses and StoreGeneric's conversions computed in vectors, then each
// lane's texel written with one copy, in lane order.
//
// Compiled once per SIMD target by Highway (foreach_target.h), the best
// chosen at run time (HWY_DYNAMIC_DISPATCH); no -march flags. Exactness:
// StorePlan (storage.cpp) admits only conversions that give PackTexel's
// bits here; tests/unit/texture/storage_test.cpp compares the two paths
// byte for byte.
#include "texture/storage.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "texture/storage_fast.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstdint>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace tessera::texture::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {

using DF = hn::ScalableTag<float>;
using DI = hn::RebindToSigned<DF>;
using DU = hn::RebindToUnsigned<DF>;
using VF = hn::Vec<DF>;
using VI = hn::Vec<DI>;
using VU = hn::Vec<DU>;

constexpr size_t kMaxVectorLanes = 64;  // 2048-bit vectors

#if HWY_TARGET != HWY_SCALAR
// round(f * scale) in double, to nearest even, as int32 (a float's 24-bit
// significand times an integer below 2^16 is exact in double). Lanes whose
// f is outside the range the caller keeps are left to its selects.
HWY_INLINE VI RoundScaled(VF f, double scale) {
	const DI di;
	const hn::Half<DF> dh;
	const hn::Repartition<double, DF> dd;  // half as many lanes
	const hn::Rebind<int32_t, decltype(dd)> di_half;
	const auto s = hn::Set(dd, scale);
	const auto lo = hn::DemoteTo(di_half, hn::Round(hn::Mul(hn::PromoteTo(dd, hn::LowerHalf(dh, f)), s)));
	const auto hi = hn::DemoteTo(di_half, hn::Round(hn::Mul(hn::PromoteTo(dd, hn::UpperHalf(dh, f)), s)));
	return hn::Combine(di, hi, lo);
}
#endif

// One component's bits (in the low `bits` of each lane), as PackTexel
// converts the lane's word x.
HWY_INLINE VU Convert(const StorePlan::Component& c, VU x) {
	const DF df;
	const DU du;
	const VU mask = hn::Set(du, c.bits == 32 ? ~0u : (1u << c.bits) - 1u);
	if (c.numeric == NumericFormat::UINT || c.numeric == NumericFormat::SINT) return hn::And(x, mask);
	const VF f = hn::BitCast(df, x);
	if (c.numeric == NumericFormat::SFLOAT) {
		if (c.bits == 32) return x;
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
		const hn::Rebind<hwy::float16_t, DF> dh;
		const hn::Rebind<uint16_t, DF> d16;
		return hn::PromoteTo(du, hn::BitCast(d16, hn::DemoteTo(dh, f)));
#else
		(void)f;
		return hn::Zero(du);  // (StoreLanesFast declines halves on these targets)
#endif
	}
#if HWY_TARGET != HWY_SCALAR
	const DI di;
	const double max = double((1u << (c.numeric == NumericFormat::UNORM ? c.bits : c.bits - 1)) - 1u);
	const VI rounded = RoundScaled(f, max);
	const VF one = hn::Set(df, 1.0f);
	if (c.numeric == NumericFormat::UNORM) {  // FloatToUnorm: NaN and f <= 0 give 0
		const VI v = hn::IfThenElse(hn::RebindMask(di, hn::Ge(f, one)), hn::Set(di, int32_t(max)),
		                            hn::IfThenElseZero(hn::RebindMask(di, hn::Gt(f, hn::Zero(df))), rounded));
		return hn::BitCast(du, v);
	}
	// FloatToSnorm: clamped to [-1, 1] (-(2^(b-1) - 1) at -1), NaN gives 0.
	VI v = hn::IfThenElse(hn::RebindMask(di, hn::Ge(f, one)), hn::Set(di, int32_t(max)), rounded);
	v = hn::IfThenElse(hn::RebindMask(di, hn::Le(f, hn::Neg(one))), hn::Set(di, -int32_t(max)), v);
	v = hn::IfThenElseZero(hn::RebindMask(di, hn::Eq(f, f)), v);
	return hn::And(hn::BitCast(du, v), mask);
#else
	(void)mask, (void)f;
	return hn::Zero(du);  // (StoreLanesFast declines normalized formats here)
#endif
}

// The vector of lanes from `lane`: each lane's byte offset from level 0's
// base (StorageTexel's; -1 outside the view) and its texel's 32-bit words.
// Returns whether the vector's texels are 4 bytes each, all inside and
// consecutive in memory from offsets[0] (a row of invocations storing a
// row of texels): then one copy of words[0] stores them all.
HWY_INLINE bool StoreVector(const SampledImage& image, const StorePlan& plan, const StoreLanes& lanes, size_t lane,
                            int32_t* offsets, uint32_t (*words)[kMaxVectorLanes]) {
	const DI di;
	const DU du;
	auto load = [&](const int32_t* p) { return p ? hn::LoadU(di, p + lane) : hn::Zero(di); };
	auto below = [&](VI v, uint32_t bound) {  // 0 <= v < bound
		return hn::RebindMask(di, hn::Lt(hn::BitCast(du, v), hn::Set(du, bound)));
	};
	const PreparedLevel& level = image.levels[0];
	const uint32_t dims = image.dimensions;
	const VI sample = load(lanes.sample);
	auto inside = below(sample, image.samples);
	VI at = hn::Mul(hn::Add(hn::Mul(load(lanes.coord[0]), hn::Set(di, int32_t(image.samples))), sample),
	                hn::Set(di, int32_t(level.element_size)));
	for (uint32_t d = 0; d < dims; ++d)
		inside = hn::And(inside, below(load(lanes.coord[d]), uint32_t(level.extent[d])));
	if (dims >= 2) at = hn::Add(at, hn::Mul(load(lanes.coord[1]), hn::Set(di, int32_t(level.row_pitch))));
	if (dims == 3) at = hn::Add(at, hn::Mul(load(lanes.coord[2]), hn::Set(di, int32_t(level.depth_pitch))));
	if (image.arrayed || image.cube) {
		const VI layer = load(lanes.coord[dims]);
		inside = hn::And(inside, below(layer, image.cube ? image.layer_count * 6 : image.layer_count));
		at = hn::Add(at, hn::Mul(layer, hn::Set(di, int32_t(level.array_pitch))));
	}
	hn::StoreU(hn::IfThenElse(inside, at, hn::Set(di, -1)), di, offsets);
	VU w[4] = {hn::Zero(du), hn::Zero(du), hn::Zero(du), hn::Zero(du)};
	for (uint32_t k = 0; k < plan.count; ++k) {
		const StorePlan::Component& c = plan.components[k];
		const VU x = lanes.texel[c.slot] ? hn::LoadU(du, lanes.texel[c.slot] + lane) : hn::Zero(du);
		w[c.word] = hn::Or(w[c.word], hn::ShiftLeftSame(Convert(c, x), c.shift));
	}
	for (uint32_t q = 0; q * 4 < plan.size || q == 0; ++q) hn::StoreU(w[q], du, words[q]);
	if (plan.size != 4 || !hn::AllTrue(di, inside)) return false;
	const VI row = hn::Add(hn::Set(di, hn::GetLane(at)), hn::ShiftLeft<2>(hn::Iota(di, 0)));
	return hn::AllTrue(di, hn::Eq(at, row));
}

// The usual image store (RowsOfUnorm8): four UNORM bytes a texel (RGBA8,
// BGRA8) into a 1D or 2D view of one sample, not arrayed (imageStore of a
// filter). One loop keeps the view's parameters and the conversion in
// registers, where StoreVector re-decides each component's conversion and
// the view's layout in every vector: the same bytes.
HWY_INLINE bool RowsOfUnorm8(const SampledImage& image, const StorePlan& plan, const StoreLanes& lanes) {
	if (plan.size != 4 || plan.count != 4 || image.dimensions > 2 || image.arrayed || image.cube ||
	    image.samples != 1 || lanes.sample)
		return false;
	for (uint32_t k = 0; k < 4; ++k)
		if (plan.components[k].numeric != NumericFormat::UNORM || plan.components[k].bits != 8 ||
		    plan.components[k].word != 0)
			return false;
	return true;
}

// Stores the whole vectors of lanes.count lanes into a RowsOfUnorm8 view;
// returns how many lanes it did.
HWY_NOINLINE size_t StoreUnorm8Rows(const SampledImage& image, const StorePlan& plan, const StoreLanes& lanes) {
	const DI di;
	const DU du;
	const size_t n = hn::Lanes(di);
	const PreparedLevel& level = image.levels[0];
	uint8_t* const base = const_cast<uint8_t*>(level.base);
	const int32_t* const x = lanes.coord[0];
	const int32_t* const y = image.dimensions == 2 ? lanes.coord[1] : nullptr;
	const VU width = hn::Set(du, uint32_t(level.extent[0])), height = hn::Set(du, uint32_t(level.extent[1]));
	const VI row_pitch = hn::Set(di, int32_t(level.row_pitch)), step = hn::ShiftLeft<2>(hn::Iota(di, 0));
	constexpr StorePlan::Component kUnorm8{0, 0, 0, 8, NumericFormat::UNORM};
	alignas(64) int32_t offsets[kMaxVectorLanes];
	alignas(64) uint32_t words[kMaxVectorLanes];
	size_t lane = 0;
	for (; lane + n <= lanes.count; lane += n) {
		const VI i = x ? hn::LoadU(di, x + lane) : hn::Zero(di), j = y ? hn::LoadU(di, y + lane) : hn::Zero(di);
		const auto inside =
		    hn::RebindMask(di, hn::And(hn::Lt(hn::BitCast(du, i), width), hn::Lt(hn::BitCast(du, j), height)));
		const VI at = hn::Add(hn::Mul(j, row_pitch), hn::ShiftLeft<2>(i));
		VU w = hn::Zero(du);
		for (uint32_t k = 0; k < 4; ++k) {
			const StorePlan::Component& c = plan.components[k];
			const VU value = lanes.texel[c.slot] ? hn::LoadU(du, lanes.texel[c.slot] + lane) : hn::Zero(du);
			w = hn::Or(w, hn::ShiftLeftSame(Convert(kUnorm8, value), c.shift));
		}
		const int32_t first = hn::GetLane(at);
		if (hn::AllTrue(di, inside) && hn::AllTrue(di, hn::Eq(at, hn::Add(hn::Set(di, first), step)))) {
			hn::StoreU(w, du, reinterpret_cast<uint32_t*>(base + first));  // a row of texels
			continue;
		}
		hn::Store(hn::IfThenElse(inside, at, hn::Set(di, -1)), di, offsets);
		hn::Store(w, du, words);
		for (size_t k = 0; k < n; ++k)  // lane after lane
			if (offsets[k] >= 0) std::memcpy(base + offsets[k], &words[k], 4);
	}
	return lane;
}

}  // namespace

bool StoreLanesFast(const SampledImage& image, const StorePlan& plan, const StoreLanes& lanes) {
	for (uint32_t k = 0; k < plan.count; ++k) {
		const NumericFormat numeric = plan.components[k].numeric;
#if !(HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2)
		if (numeric == NumericFormat::SFLOAT && plan.components[k].bits == 16) return false;
#endif
		if (HWY_TARGET == HWY_SCALAR && (numeric == NumericFormat::UNORM || numeric == NumericFormat::SNORM))
			return false;
	}
	const DI di;
	const size_t n = hn::Lanes(di);
	uint8_t* const base = const_cast<uint8_t*>(image.levels[0].base);
	alignas(64) int32_t offsets[kMaxVectorLanes];
	alignas(64) uint32_t words[4][kMaxVectorLanes];
	auto write = [&](size_t count) {
		for (size_t j = 0; j < count; ++j) {
			if (offsets[j] < 0) continue;
			uint8_t* texel = base + offsets[j];
			switch (plan.size) {  // one copy a texel, of a constant size
			case 1: *texel = uint8_t(words[0][j]); break;
			case 2: {
				const uint16_t v = uint16_t(words[0][j]);
				std::memcpy(texel, &v, 2);
				break;
			}
			case 4: std::memcpy(texel, &words[0][j], 4); break;
			case 8: {
				const uint64_t v = uint64_t(words[1][j]) << 32 | words[0][j];
				std::memcpy(texel, &v, 8);
				break;
			}
			default: {
				const uint32_t v[4] = {words[0][j], words[1][j], words[2][j], words[3][j]};
				std::memcpy(texel, v, 16);
				break;
			}
			}
		}
	};
	size_t lane = 0;
	if (RowsOfUnorm8(image, plan, lanes)) lane = StoreUnorm8Rows(image, plan, lanes);
	for (; lane + n <= lanes.count; lane += n) {
		if (StoreVector(image, plan, lanes, lane, offsets, words))
			std::memcpy(base + offsets[0], words[0], 4 * n);
		else
			write(n);
	}
	if (lane == lanes.count) return true;
	// The last lanes: their operands copied into a full vector (0 beyond).
	const size_t rest = lanes.count - lane;
	alignas(64) int32_t operands[9][kMaxVectorLanes] = {};
	StoreLanes last;
	const int32_t* const fields[5] = {lanes.coord[0], lanes.coord[1], lanes.coord[2], lanes.coord[3], lanes.sample};
	const int32_t** const copies[5] = {&last.coord[0], &last.coord[1], &last.coord[2], &last.coord[3], &last.sample};
	for (int k = 0; k < 5; ++k)
		if (fields[k]) {
			std::memcpy(operands[k], fields[k] + lane, rest * sizeof(int32_t));
			*copies[k] = operands[k];
		}
	for (int c = 0; c < 4; ++c)
		if (lanes.texel[c]) {
			std::memcpy(operands[5 + c], lanes.texel[c] + lane, rest * sizeof(uint32_t));
			last.texel[c] = reinterpret_cast<const uint32_t*>(operands[5 + c]);
		}
	last.count = uint32_t(n);
	StoreVector(image, plan, last, 0, offsets, words);
	write(rest);
	return true;
}

}  // namespace tessera::texture::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tessera::texture {
HWY_EXPORT(StoreLanesFast);

bool StoreFast(const SampledImage& image, const StorePlan& plan, const StoreLanes& lanes) {
	const PreparedLevel& level = image.levels[0];
	const uint32_t dims = image.dimensions;
	if (!plan.ok || level.tile_shift != 0 || level.element_size != plan.size || dims < 1 || dims > 3 ||
	    image.samples == 0 || !level.base)
		return false;
	// Every texel's offset (and the arithmetic on lanes outside, which
	// wraps and is discarded) within 32 bits: the last texel of the last
	// layer below 2^31.
	const uint64_t layers = image.arrayed || image.cube ? uint64_t(image.cube ? 6 : 1) * image.layer_count : 1;
	const uint64_t end = (layers - 1) * level.array_pitch + uint64_t(level.extent[2] - 1) * level.depth_pitch +
	                     uint64_t(level.extent[1] - 1) * level.row_pitch +
	                     uint64_t(level.extent[0]) * image.samples * level.element_size;
	if (end > uint64_t(INT32_MAX) || level.row_pitch > uint64_t(INT32_MAX) || level.array_pitch > uint64_t(INT32_MAX) ||
	    level.depth_pitch > uint64_t(INT32_MAX))
		return false;
	return HWY_DYNAMIC_DISPATCH(StoreLanesFast)(image, plan, lanes);
}

}  // namespace tessera::texture
#endif  // HWY_ONCE
