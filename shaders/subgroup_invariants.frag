#version 450
// Subgroup operations in a fragment shader: rules that hold whatever the
// subgroup size and whichever invocations share a subgroup (helper
// invocations may count as active or not, consistently). Bit k of the red
// channel is rule k; 255 when all hold. Green passes the color through.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_quad : require
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 out_color;
void main() {
	uint ok = 0u;
	uvec4 ballot = subgroupBallot(true);
	uint lanes = subgroupBallotBitCount(ballot);
	ok |= uint(subgroupAdd(1u) == lanes) << 0;
	ok |= uint(subgroupBallotBitExtract(ballot, gl_SubgroupInvocationID)) << 1;
	ok |= uint(gl_SubgroupInvocationID < gl_SubgroupSize) << 2;
	ok |= uint(subgroupExclusiveAdd(1u) == subgroupBallotExclusiveBitCount(ballot)) << 3;
	uint v = gl_SubgroupInvocationID * 7u + 3u;
	ok |= uint(subgroupShuffle(v, gl_SubgroupInvocationID) == v) << 4;
	// Quads (Vulkan "Quad Group Operations"): index 0 is the top-left
	// fragment of the 2x2 quad, 1 its right neighbour.
	ivec2 p = ivec2(gl_FragCoord.xy);
	ivec2 first = ivec2(subgroupQuadBroadcast(vec2(p), 0u));
	ok |= uint(first == (p & ~1)) << 5;
	ivec2 across = ivec2(subgroupQuadSwapHorizontal(vec2(p)));
	ok |= uint(across == ivec2(p.x ^ 1, p.y)) << 6;
	ok |= uint(subgroupAll(true) && subgroupAdd(subgroupElect() ? 1u : 0u) == 1u) << 7;
	out_color = vec4(float(ok) / 255.0, color.g, 0.0, 1.0);
}
