#version 450
// VK_KHR_shader_clock: a subgroup clock (clockARB) and a device clock
// (clockRealtimeEXT) around some work; each invocation stores both pairs of
// readings and a result of the work (so it is not removed).
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_ARB_shader_clock : require
#extension GL_EXT_shader_realtime_clock : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out {
	uint64_t subgroup_clock[128][2];
	uvec2 device_clock[128][2];
	uint work[128];
} o;
layout(push_constant) uniform Push { uint iterations; };
void main() {
	uint i = gl_GlobalInvocationID.x;
	uint64_t s0 = clockARB();
	uvec2 d0 = clockRealtime2x32EXT();
	uint h = i;
	for (uint k = 0; k < iterations; ++k) h = h * 1664525u + 1013904223u;
	uvec2 d1 = clockRealtime2x32EXT();
	uint64_t s1 = clockARB();
	o.subgroup_clock[i][0] = s0;
	o.subgroup_clock[i][1] = s1;
	o.device_clock[i][0] = d0;
	o.device_clock[i][1] = d1;
	o.work[i] = h;
}
