#version 450
// Transform feedback capture: gl_Position and a vec2 into buffer 0 (32-byte
// records: bytes 24..31 are never written), two ints into buffer 1 (12-byte
// records from byte 4: bytes 0..3 are never written). Each instance moves
// right by 0.1.
layout(location = 0) in vec4 position;
layout(xfb_buffer = 0, xfb_stride = 32) out;
layout(xfb_buffer = 0) out gl_PerVertex {
	layout(xfb_offset = 0) vec4 gl_Position;
};
layout(location = 0, xfb_buffer = 0, xfb_offset = 16) out vec2 uv;
layout(location = 1, xfb_buffer = 1, xfb_offset = 4, xfb_stride = 12) flat out ivec2 ids;

void main() {
	gl_Position = position + vec4(0.1 * float(gl_InstanceIndex), 0.0, 0.0, 0.0);
	uv = position.xy * 0.5 + 0.5;
	ids = ivec2(gl_VertexIndex, gl_InstanceIndex);
}
