#version 450
// A storage image written at the fragment's pixel (fragmentStoresAndAtomics)
// with a value made from the varyings; the color output is the same.
layout(set = 0, binding = 3, rgba8) uniform writeonly image2D img;
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 out_color;
void main() {
	vec4 v = vec4(color.rg, fract(gl_FragCoord.x / 7.0), 1.0);
	imageStore(img, ivec2(gl_FragCoord.xy), v);
	out_color = v;
}
