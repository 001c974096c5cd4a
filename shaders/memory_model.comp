#version 450
// The Vulkan memory model: explicit scopes and semantics on barriers and atomics.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer B { uint v[]; };
shared uint s[64];

void main() {
	uint i = gl_LocalInvocationIndex;
	s[i] = i;
	controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
	atomicAdd(v[0], s[63u - i], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
	controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
	v[i + 1u] = atomicLoad(v[0], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
}
