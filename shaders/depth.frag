#version 450
// FragDepth with a depth hint (DepthReplacing + DepthGreater), SampleMask output.
layout(depth_greater) out float gl_FragDepth;
layout(location = 0) out vec4 o;
void main() {
	gl_FragDepth = gl_FragCoord.z + 0.25;
	gl_SampleMask[0] = 5 + gl_SampleMaskIn[0];
	o = vec4(gl_FragCoord.xy, gl_PointCoord);
}
