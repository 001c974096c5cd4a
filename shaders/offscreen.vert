#version 450
// Every vertex outside the clip volume, so a huge draw costs vertex shading
// and clipping alone (the scratch-memory test).
void main() { gl_Position = vec4(4.0, 4.0, 0.5, 1.0); }
