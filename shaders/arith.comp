#version 450
// Integer, unsigned and float arithmetic, bit operations, comparisons and
// conversions, one result slot per operation and invocation.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { int a[]; };
layout(set = 0, binding = 1) readonly buffer InB { int b[]; };
layout(set = 0, binding = 2) readonly buffer InF { vec2 f[]; };
layout(set = 0, binding = 3) writeonly buffer Out { uint o[]; };

const uint kSlots = 32;

void main() {
	uint i = gl_GlobalInvocationID.x;
	int x = a[i], y = b[i];
	uint ux = uint(x), uy = uint(y);
	float fx = f[i].x, fy = f[i].y;
	uint base = i * kSlots;
	o[base + 0] = uint(x + y);
	o[base + 1] = uint(x - y);
	o[base + 2] = uint(x * y);
	o[base + 3] = uint(y != 0 ? x / y : 0);
	o[base + 4] = uint(y != 0 ? x % y : 0);
	o[base + 5] = uy != 0u ? ux / uy : 0u;
	o[base + 6] = uy != 0u ? ux % uy : 0u;
	o[base + 7] = ux & uy;
	o[base + 8] = ux | uy;
	o[base + 9] = ux ^ uy;
	o[base + 10] = ~ux;
	o[base + 11] = ux << (uy & 31u);
	o[base + 12] = ux >> (uy & 31u);
	o[base + 13] = uint(x >> (y & 31));
	o[base + 14] = uint(x < y) | (uint(ux < uy) << 1) | (uint(x == y) << 2) | (uint(x >= y) << 3);
	o[base + 15] = floatBitsToUint(fx + fy);
	o[base + 16] = floatBitsToUint(fx - fy);
	o[base + 17] = floatBitsToUint(fx * fy);
	o[base + 18] = floatBitsToUint(fx / fy);
	o[base + 19] = uint(fx < fy) | (uint(fx == fy) << 1) | (uint(fx >= fy) << 2);
	o[base + 20] = uint(int(fx));
	o[base + 21] = floatBitsToUint(float(x));
	o[base + 22] = floatBitsToUint(float(ux));
	o[base + 23] = uint(-x);
	o[base + 24] = floatBitsToUint(-fx);
	o[base + 25] = uint(min(x, y));
	o[base + 26] = max(ux, uy);
	o[base + 27] = uint(abs(x));
	o[base + 28] = bitCount(ux);
	o[base + 29] = uint(findMSB(ux));
	o[base + 30] = bitfieldExtract(ux, 4, 8);
	o[base + 31] = floatBitsToUint(mod(fx, fy));
}
