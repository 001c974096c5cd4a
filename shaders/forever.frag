#version 450
// A fragment loop that never ends: i steps through even numbers and the push
// constant `stop` is odd. A draw with it must lose the device promptly,
// not keep the queue busy for hours.
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 out_color;
layout(push_constant) uniform Exit {
	uint stop;
};
void main() {
	uint i = 0u;
	while (i != stop) i += 2u;
	out_color = color * float(i);
}
