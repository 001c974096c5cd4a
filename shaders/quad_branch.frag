#version 450
// Derivatives inside a branch that whole quads take or skip (defined:
// the quad's four lanes all compute the value), and in a partial quad.
layout(location = 0) in float v;
layout(location = 1) flat in int take;
layout(location = 0) out vec2 o;
void main() {
	o = vec2(-1.0);
	if (take != 0) {
		float w = v * v;
		o = vec2(dFdxFine(w), dFdyCoarse(w));
	}
}
