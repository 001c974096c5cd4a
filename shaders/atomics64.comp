#version 450
// 64-bit atomics (Int64Atomics) on a storage buffer and on shared memory.
// Every result is deterministic whatever order invocations run in: final
// values of commutative operations, tickets that form a permutation, and
// exchanged values that form a chain (checked sorted).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counters {
	uint64_t add, sub, umin, umax, and_, or_, xor_, exch, cas, ticket;
	int64_t smin, smax;
} c;
// Per invocation: [0] ticket, [1] exchanged-out value, [2] atomicLoad of [3]
// after an atomicStore to it.
layout(set = 0, binding = 1) buffer PerInvocation { uint64_t per[]; };
// Per workgroup: shared-memory results.
layout(set = 0, binding = 2) buffer PerGroup { uint64_t group[]; };

shared int64_t s_sum;
shared uint64_t s_max, s_min, s_or, s_xor, s_cas;
shared int64_t s_smin;

void main() {
	uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
	uint64_t v = (uint64_t(i * 2654435761u) << 29) ^ uint64_t(i * 40503u) ^ (uint64_t(i & 7u) << 61);
	int64_t sv = int64_t(v) - 0x4000000000000000l;
	if (l == 0u) {
		s_sum = 0l, s_max = 0ul, s_min = ~0ul, s_or = 0ul, s_xor = 0ul, s_cas = 0ul, s_smin = 0x7fffffffffffffffl;
	}
	barrier();
	atomicAdd(c.add, v);
	atomicAdd(c.sub, -v);  // OpAtomicIAdd of the negation; glslang has no atomicSub
	atomicMin(c.umin, v | 1ul);
	atomicMax(c.umax, v);
	atomicAnd(c.and_, ~(1ul << (i & 63u)));
	atomicOr(c.or_, 1ul << ((i * 7u) & 63u));
	atomicXor(c.xor_, v);
	atomicMin(c.smin, sv);
	atomicMax(c.smax, sv);
	per[i * 4u + 0u] = atomicAdd(c.ticket, 1ul);
	per[i * 4u + 1u] = atomicExchange(c.exch, v);
	uint64_t seen = c.cas, old;
	while ((old = atomicCompSwap(c.cas, seen, seen + uint64_t(i) + 0x100000000ul)) != seen) seen = old;
	atomicStore(per[i * 4u + 3u], v ^ 0x5555555555555555ul, gl_ScopeDevice, gl_StorageSemanticsBuffer,
	            gl_SemanticsRelaxed);
	per[i * 4u + 2u] = atomicLoad(per[i * 4u + 3u], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);

	atomicAdd(s_sum, sv >> 4);
	atomicMax(s_max, v);
	atomicMin(s_min, v);
	atomicMin(s_smin, sv);
	atomicOr(s_or, v);
	atomicXor(s_xor, v);
	seen = s_cas;
	while ((old = atomicCompSwap(s_cas, seen, seen + uint64_t(l) * 0x100000001ul)) != seen) seen = old;
	barrier();
	if (l == 0u) {
		uint g = gl_WorkGroupID.x * 7u;
		group[g + 0u] = uint64_t(s_sum);
		group[g + 1u] = s_max;
		group[g + 2u] = s_min;
		group[g + 3u] = uint64_t(s_smin);
		group[g + 4u] = s_or;
		group[g + 5u] = s_xor;
		group[g + 6u] = s_cas;
	}
}
