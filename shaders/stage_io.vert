#version 460
// Vertex interface coverage: built-ins, Location/Component rules (arrays,
// matrices, structs, blocks, 64-bit), gl_PerVertex outputs.
layout(location = 0) in vec4 a;
layout(location = 1) in ivec2 b[2];
layout(location = 3) in mat3 m;
layout(location = 6, component = 1) in vec2 c;
layout(location = 6, component = 3) in float d;
layout(location = 7) in dvec3 e;
layout(location = 9) in uint f;

out float gl_ClipDistance[2];
out float gl_CullDistance[1];

struct S {
	vec2 p;
	int q;
};
layout(location = 0) flat out S s_out;
layout(location = 2) out vec4 arr[2];
layout(location = 4) flat out dvec2 dout;
layout(location = 5) out Block {
	vec3 x;
	layout(location = 7) float y;
} blk;
layout(location = 8) flat out int idx[3];
layout(location = 11) out float unwritten;

void main() {
	gl_Position = vec4(a.xy, float(gl_VertexIndex), float(gl_InstanceIndex));
	gl_PointSize = float(gl_BaseVertex + 10 * gl_BaseInstance + 100 * gl_DrawID);
	gl_ClipDistance[0] = m[0][0] + m[1][1] + m[2][2];
	gl_ClipDistance[1] = m[2][0];
	gl_CullDistance[0] = -1.0;
	s_out.p = c;
	s_out.q = b[1].y;
	arr[0] = vec4(d, float(f), m[1][2], 0.0);
	arr[1] = a * 2.0;
	dout = e.yz * 2.0;
	blk.x = vec3(b[0], b[1].x);
	blk.y = float(e.x);
	idx[0] = gl_VertexIndex;
	idx[1] = gl_InstanceIndex;
	idx[2] = int(f) * 3;
}
