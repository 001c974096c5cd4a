#version 450
// Availability and visibility chains of two elements
// (vulkanMemoryModelAvailabilityVisibilityChains): workgroup 0 writes a
// payload, makes it available to the workgroup, then (invocation 0, after a
// control barrier) to the device, and publishes a flag with a device-scope
// release. Workgroup 1 acquires the flag at device scope, makes the payload
// visible to the device and then to its workgroup, and copies it out. If it
// saw the flag, it must see the whole payload.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) nonprivate buffer Shared { uint flag; uint payload[64]; } shared_data;
layout(set = 0, binding = 1) buffer Out { uint seen[64]; uint flags[64]; } o;

void main() {
	uint i = gl_LocalInvocationIndex;
	if (gl_WorkGroupID.x == 0u) {
		shared_data.payload[i] = 3u * i + 1u;
		memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
		controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
		if (i == 0u) {
			memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
			atomicStore(shared_data.flag, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
		}
	} else {
		uint f = atomicLoad(shared_data.flag, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
		memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire | gl_SemanticsMakeVisible);
		memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire | gl_SemanticsMakeVisible);
		o.flags[i] = f;
		o.seen[i] = f == 1u ? shared_data.payload[i] : 0xffffffffu;
	}
}
