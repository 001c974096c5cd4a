#version 450
// device_generated_commands_test.cpp: the second pipeline of an execution
// set, told apart by its inverted color.
layout(location = 0) flat in vec4 color;
layout(location = 0) out vec4 result;
void main() { result = vec4(1.0 - color.rgb, color.a); }
