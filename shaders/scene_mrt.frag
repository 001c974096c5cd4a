#version 450
// Two color attachments: the color, and its channels reversed.
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 out0;
layout(location = 1) out vec4 out1;
void main() {
	out0 = color;
	out1 = color.wzyx;
}
