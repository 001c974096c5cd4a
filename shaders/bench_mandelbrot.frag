#version 450
// Benchmarks: arithmetic-bound shading. A full-screen Mandelbrot, at most 64
// iterations a pixel (lanes leave the loop at different trips), colored
// with cos.
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 color;
void main() {
	vec2 c = vec2(-2.2, -1.2) + gl_FragCoord.xy * vec2(3.2 / 1920.0, 2.4 / 1080.0);
	vec2 z = vec2(0.0);
	int i = 0;
	for (; i < 64; ++i) {
		z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
		if (dot(z, z) > 4.0) break;
	}
	float t = float(i) / 64.0;
	color = vec4(0.5 + 0.5 * cos(6.2831 * (t + vec3(0.0, 0.33, 0.67))), 1.0);
}
