#version 450
// Eight inline uniform blocks of 4096 bytes in one set
// (maxDescriptorSetInlineUniformBlocks, maxInlineUniformBlockSize): every
// word of each is copied out, and invocation 0 sums each block.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform Block0 { uvec4 v[256]; } b0;
layout(set = 0, binding = 1) uniform Block1 { uvec4 v[256]; } b1;
layout(set = 0, binding = 2) uniform Block2 { uvec4 v[256]; } b2;
layout(set = 0, binding = 3) uniform Block3 { uvec4 v[256]; } b3;
layout(set = 0, binding = 4) uniform Block4 { uvec4 v[256]; } b4;
layout(set = 0, binding = 5) uniform Block5 { uvec4 v[256]; } b5;
layout(set = 0, binding = 6) uniform Block6 { uvec4 v[256]; } b6;
layout(set = 0, binding = 7) uniform Block7 { uvec4 v[256]; } b7;
layout(set = 0, binding = 8) buffer Out {
	uvec4 copies[8 * 256];
	uint sums[8];
};

uvec4 Word(uint block, uint i) {
	switch (block) {
	case 0u: return b0.v[i];
	case 1u: return b1.v[i];
	case 2u: return b2.v[i];
	case 3u: return b3.v[i];
	case 4u: return b4.v[i];
	case 5u: return b5.v[i];
	case 6u: return b6.v[i];
	default: return b7.v[i];
	}
}

void main() {
	uint i = gl_GlobalInvocationID.x;  // 0..255
	for (uint block = 0u; block < 8u; ++block) copies[block * 256u + i] = Word(block, i);
	if (i == 0u)
		for (uint block = 0u; block < 8u; ++block) {
			uint sum = 0u;
			for (uint k = 0u; k < 256u; ++k) {
				uvec4 w = Word(block, k);
				sum += w.x + w.y + w.z + w.w;
			}
			sums[block] = sum;
		}
}
