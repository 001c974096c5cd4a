#version 450
// device_generated_commands_test.cpp: each invocation writes the pushed value
// and sequence index at the pushed base plus its global index.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(push_constant) uniform Push { uint base; uint value; uint sequence; } pc;
void main() {
	uint i = pc.base + gl_GlobalInvocationID.x + 4u * gl_NumWorkGroups.x * gl_GlobalInvocationID.y;
	o[i] = pc.value + 1000u * pc.sequence;
}
