#version 450
// Cube maps (and a cube array), depth comparison (explicit LOD, gathers),
// 2D arrays, 1D and 3D textures.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { vec4 v[]; } o;
layout(set = 0, binding = 1) uniform samplerCube cube;                // 8x8 RGBA8, 4 levels
layout(set = 0, binding = 2) uniform sampler2DShadow shadow;          // 16x16 D32_SFLOAT
layout(set = 0, binding = 3) uniform sampler2DArray layers;           // 8x8x4 RGBA16F
layout(set = 0, binding = 4) uniform sampler3D volume;                // 8x8x8 RGBA8
layout(set = 0, binding = 5) uniform sampler1D line;                  // 16 R32F
layout(set = 0, binding = 6) uniform samplerCubeArray cubes;          // the cube image as a cube array of 1
layout(push_constant) uniform Params { float lod; } pc;

const int kPerLane = 9;

void main() {
	uint i = gl_GlobalInvocationID.x;  // 256 lanes
	float a = float(i) * 0.173, b = float(i) * 0.0911;
	vec3 dir = vec3(cos(a) * cos(b), sin(b) * 1.3, sin(a) * cos(b) * 0.8 + 0.01);
	vec2 uv = vec2(i % 16u, i / 16u) / 15.0 * 1.1 - 0.05 + 0.0031;
	uint base = i * kPerLane;
	o.v[base + 0] = textureLod(cube, dir, pc.lod);
	float ref = float(i % 7u) / 6.0;
	o.v[base + 1] = vec4(textureLod(shadow, vec3(uv, ref), 0.0), 0.0,
	                     textureGather(shadow, uv, ref).xy);
	o.v[base + 2] = textureGather(shadow, uv.yx, 1.0 - ref);
	o.v[base + 3] = textureLod(layers, vec3(uv, float(i % 5u) - 0.3), 0.0);
	o.v[base + 4] = textureLod(volume, vec3(uv, fract(a)), pc.lod * 0.5);
	o.v[base + 5] = textureLod(line, uv.x, 0.0) + vec4(textureSize(line, 0));
	o.v[base + 6] = textureLod(cubes, vec4(dir.zxy, 0.0), pc.lod);
	o.v[base + 7] = vec4(textureSize(cube, 1), textureSize(layers, 0).z, textureSize(cubes, 0).z);
	o.v[base + 8] = textureGather(cube, dir, 2);
}
