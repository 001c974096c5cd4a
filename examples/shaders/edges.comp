#version 450
// examples/compute_image.cpp's kernel: Sobel edge detection. One invocation
// per pixel reads its 3x3 neighbourhood from the source image and writes the
// gradient magnitude, tinted by its direction, to the destination image.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D source;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D destination;

float Luma(ivec2 p) {
	// Clamp to the edge: imageLoad outside the image would return zero.
	p = clamp(p, ivec2(0), imageSize(source) - 1);
	return dot(imageLoad(source, p).rgb, vec3(0.2126, 0.7152, 0.0722));
}

void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	if (any(greaterThanEqual(p, imageSize(source)))) return;  // partial workgroups at the border
	float tl = Luma(p + ivec2(-1, -1)), t = Luma(p + ivec2(0, -1)), tr = Luma(p + ivec2(1, -1));
	float l = Luma(p + ivec2(-1, 0)), r = Luma(p + ivec2(1, 0));
	float bl = Luma(p + ivec2(-1, 1)), b = Luma(p + ivec2(0, 1)), br = Luma(p + ivec2(1, 1));
	float gx = (tr + 2.0 * r + br) - (tl + 2.0 * l + bl);
	float gy = (bl + 2.0 * b + br) - (tl + 2.0 * t + tr);
	float magnitude = clamp(length(vec2(gx, gy)), 0.0, 1.0);
	vec3 tint = 0.5 + 0.5 * vec3(normalize(vec2(gx, gy) + 1e-6), 0.0).xzy;
	imageStore(destination, p, vec4(magnitude * mix(vec3(1.0), tint, 0.6), 1.0));
}
