#version 450
// Red: the value at the pixel center left [0, 1] (the center is outside the
// triangle in a partly covered pixel); green: the centroid value did (it
// must not: Vulkan 1.3 "Interpolation Decorations"); blue: the centroid value.
layout(location = 0) in float center_value;
layout(location = 1) centroid in float centroid_value;
layout(location = 0) out vec4 o;
void main() {
	const float eps = 1e-6;
	float center_out = (center_value < -eps || center_value > 1.0 + eps) ? 1.0 : 0.0;
	float centroid_out = (centroid_value < -eps || centroid_value > 1.0 + eps) ? 1.0 : 0.0;
	o = vec4(center_out, centroid_out, centroid_value, 1.0);
}
