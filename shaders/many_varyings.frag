#version 450
// The interpolated color where all 116 flat components arrived intact,
// magenta (with the count of wrong vec4s in blue) where any did not.
layout(location = 0) in vec4 color;
layout(location = 1) flat in vec4 values[29];
layout(location = 0) out vec4 out_color;
void main() {
	int wrong = 0;
	for (int i = 0; i < 29; ++i)
		if (values[i] != vec4(i, i + 32, i + 64, i + 96)) ++wrong;
	out_color = wrong == 0 ? color : vec4(1.0, 0.0, float(wrong) / 29.0, 1.0);
}
