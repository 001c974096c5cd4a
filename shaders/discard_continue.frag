#version 450
// A function that may discard, called in a loop's continue construct (the
// for-loop's third clause): the optimizer's inliner will not inline a kill
// there. The lane must end at the kill, before the atomic that follows it.
layout(location = 0) in float v;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) buffer B { uint steps[]; };

void kill_at(int i) {
	if (float(i) >= v) discard;
}

void main() {
	uint lane = uint(gl_FragCoord.x);
	int count = 0;
	for (int i = 0; i < 4; kill_at(i), atomicAdd(steps[lane], 1u), ++i) ++count;
	o = vec4(float(count));
}
