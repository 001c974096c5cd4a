#version 450
// discard (OpKill): the lane ends, its discard word is set, its later
// stores never happen.
layout(location = 0) in float v;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) buffer B {
	uint count;
	uint data[];
};
void main() {
	atomicAdd(count, 1u);
	if (v < 0.0) discard;
	data[uint(gl_FragCoord.x)] = 7u;
	o = vec4(v, 1.0, 2.0, 3.0);
}
