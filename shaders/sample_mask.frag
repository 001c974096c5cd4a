#version 450
// gl_SampleMask output (coverage ANDed with it, §28.x "Sample Mask") and
// gl_SampleMaskIn: a per-pixel pattern from gl_FragCoord.
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 o;
void main() {
	ivec2 p = ivec2(gl_FragCoord.xy);
	gl_SampleMask[0] = (p.x + 3 * p.y) % 5 == 0 ? 0 : (p.x ^ p.y) | 1;
	o = vec4(color.rgb, float(gl_SampleMaskIn[0] & 15) / 15.0);
}
