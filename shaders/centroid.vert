#version 450
// One value, 0 to 1 across the triangle (the vertex color's red), passed
// twice: at the pixel center and with the centroid qualifier.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 in_color;
layout(location = 0) out float center_value;
layout(location = 1) centroid out float centroid_value;
void main() {
	gl_Position = position;
	center_value = in_color.r;
	centroid_value = in_color.r;
}
