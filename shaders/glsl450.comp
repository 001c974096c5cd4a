#version 450
// GLSL.std.450 built-in functions, vectors, matrices and a dynamically
// indexed local array (Function memory that survives the optimizer).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 v[]; };
layout(set = 0, binding = 1) uniform Matrices { mat4 m; vec4 bias; } u;
layout(set = 0, binding = 2) writeonly buffer Out { float o[]; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	vec4 x = v[i];
	uint base = i * 24u;
	o[base + 0] = sqrt(abs(x.x));
	o[base + 1] = floor(x.y);
	o[base + 2] = fract(x.z);
	o[base + 3] = clamp(x.w, -1.0, 1.0);
	o[base + 4] = mix(x.x, x.y, 0.25);
	o[base + 5] = length(x.xyz);
	o[base + 6] = dot(x, vec4(1.0, 2.0, 3.0, 4.0));
	vec3 c = cross(x.xyz, vec3(0.0, 0.0, 1.0));
	o[base + 7] = c.x;
	o[base + 8] = c.y;
	vec3 n = normalize(x.xyz + vec3(0.001));
	o[base + 9] = n.z;
	o[base + 10] = sin(x.x);
	o[base + 11] = exp2(x.y * 0.1);
	o[base + 12] = pow(abs(x.z) + 1.0, 1.5);
	o[base + 13] = smoothstep(0.0, 4.0, x.w);
	o[base + 14] = step(1.0, x.x);
	vec4 t = u.m * x + u.bias;
	o[base + 15] = t.x;
	o[base + 16] = t.y;
	o[base + 17] = t.z;
	o[base + 18] = t.w;
	float table[8];
	for (int k = 0; k < 8; ++k) table[k] = float(k * k) + x.x;
	o[base + 19] = table[i % 8u];
	o[base + 20] = atan(x.y, x.x);
	o[base + 21] = max(x.x, x.z);
	o[base + 22] = uintBitsToFloat(packUnorm4x8(vec4(0.0, 0.25, 0.5, 1.0)));
	o[base + 23] = inversesqrt(abs(x.w) + 1.0);
}
