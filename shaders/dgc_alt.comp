#version 450
// device_generated_commands_test.cpp: the second pipeline of an execution
// set, told apart by the value it writes.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(push_constant) uniform Push { uint base; uint value; uint sequence; } pc;
void main() {
	uint i = pc.base + gl_GlobalInvocationID.x + 4u * gl_NumWorkGroups.x * gl_GlobalInvocationID.y;
	o[i] = 3u * pc.value + 7u + 1000u * pc.sequence;
}
