#version 450
// Quad derivatives (fine, coarse, fwidth) and fragment input decorations.
layout(location = 0) in vec2 uv;
layout(location = 1) flat in int id;
layout(location = 2) noperspective centroid in float np;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out ivec2 o2;
layout(location = 3) out vec2 o3;
void main() {
	float f = uv.x * uv.x + 3.0 * uv.y * uv.x;
	o0 = vec4(dFdxFine(f), dFdyFine(f), dFdxCoarse(f), dFdyCoarse(f));
	o1 = vec4(fwidthFine(f), fwidthCoarse(f), dFdx(gl_FragCoord.x), dFdy(gl_FragCoord.y));
	o2 = ivec2(id, gl_FrontFacing ? 1 : 0);
	o3 = vec2(np, fwidth(np));
}
