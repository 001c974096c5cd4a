#version 450
// gl_FragDepth from the color's alpha.
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 o;
void main() {
	gl_FragDepth = color.a;
	o = vec4(color.rgb, 1.0);
}
