#version 450
// gl_FragCoord (x, y scaled to the 64-pixel image, z) and gl_FrontFacing.
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 o;
void main() { o = vec4(gl_FragCoord.xy / 64.0, gl_FragCoord.z, gl_FrontFacing ? 1.0 : 0.25); }
