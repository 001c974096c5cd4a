// ScratchVector: a std::vector whose growth (resize, emplace_back()) leaves
// new elements of trivial types uninitialized instead of zeroing them. For
// per-draw arrays that are cleared and refilled millions of elements a
// frame, every element written before it is read: the zeroing was a second
// pass over memory (rep stos per set-up triangle, memset per resize).
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera::runtime {

template <class T, class Base = std::allocator<T>>
class DefaultInitAllocator : public Base {
	using Traits = std::allocator_traits<Base>;

public:
	template <class U>
	struct rebind {
		using other = DefaultInitAllocator<U, typename Traits::template rebind_alloc<U>>;
	};
	using Base::Base;

	// Value-initialization (no arguments) becomes default-initialization.
	template <class U>
	void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
		::new (static_cast<void*>(p)) U;
	}
	template <class U, class... Args>
	void construct(U* p, Args&&... args) {
		Traits::construct(static_cast<Base&>(*this), p, std::forward<Args>(args)...);
	}
};

template <class T>
using ScratchVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace tessera::runtime
