#version 450
// Reads the interpolated clip distances of clip.vert (Vulkan 1.3 §15.9:
// gl_ClipDistance is a fragment input too): both are positive where the
// fragment survives clipping, at most 1.5 and 1.6 inside the viewport.
layout(location = 0) in vec4 color;
in float gl_ClipDistance[2];
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(gl_ClipDistance[0] / 1.5, gl_ClipDistance[1] / 1.6, color.b, 1.0); }
