// The RGBA16F resolve of texture/resolve.cpp, four components a vector:
// each texel's samples promoted to float, summed in the scalar path's order
// (0 + s0 + s1 + ...), scaled and demoted with round to nearest even, so
// the bits are the scalar path's. Compiled once per SIMD target by Highway
// (foreach_target.h), the best chosen at run time; F16C where the CPU has it.
#include "texture/resolve_simd.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "texture/resolve_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace tessera::texture::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void ResolveHalf4Row(const uint16_t* in, uint16_t* out, size_t texels, uint32_t samples) {
	const hn::CappedTag<float, 4> df;  // 4 lanes, or fewer on targets that have fewer (1 on HWY_SCALAR)
	const hn::Rebind<hwy::float16_t, decltype(df)> dh;
	const size_t lanes = hn::Lanes(df);
	const auto scale = hn::Set(df, 1.0f / float(samples));
	const auto* src = reinterpret_cast<const hwy::float16_t*>(in);
	auto* dst = reinterpret_cast<hwy::float16_t*>(out);
	for (size_t t = 0; t < texels; ++t, src += size_t(samples) * 4, dst += 4)
		for (size_t c = 0; c < 4; c += lanes) {
			auto sum = hn::Zero(df);
			for (uint32_t s = 0; s < samples; ++s)
				sum = hn::Add(sum, hn::PromoteTo(df, hn::LoadU(dh, src + s * 4 + c)));
			hn::StoreU(hn::DemoteTo(dh, hn::Mul(sum, scale)), dh, dst + c);
		}
}

}  // namespace tessera::texture::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tessera::texture {
HWY_EXPORT(ResolveHalf4Row);

void ResolveHalf4Row(const uint16_t* in, uint16_t* out, size_t texels, uint32_t samples) {
	HWY_DYNAMIC_DISPATCH(ResolveHalf4Row)(in, out, texels, samples);
}
}  // namespace tessera::texture
#endif  // HWY_ONCE
