#version 450
// device_generated_commands_test.cpp: the vertex stage's color.
layout(location = 0) flat in vec4 color;
layout(location = 0) out vec4 result;
void main() { result = color; }
