#version 450
// An integer color attachment: the output's bits, never blended. Values
// from gl_FragCoord (exact at pixel centers), all within 8 bits for a
// 64x64 target: out-of-range integer outputs are undefined (Vulkan 1.3
// §15.1.x), so tests stay inside every format's range.
layout(location = 0) out uvec4 out_color;
void main() {
	uint x = uint(gl_FragCoord.x), y = uint(gl_FragCoord.y);
	out_color = uvec4(x * 3u + y, y * 2u, 100u + x, 77u);
}
