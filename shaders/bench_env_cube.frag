#version 450
// BM_EnvironmentCube: a reflection-like lookup of a cube map (RGBA16F, as
// HDR environment maps are) with implicit LOD; the direction sweeps the
// +z face and its four neighbours, seams included, every 4 repeats of the
// plane's (s, t).
layout(set = 0, binding = 2) uniform samplerCube env;
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 out_color;
void main() {
	vec2 p = fract(uv.xy * 0.25) * 2.4 - 1.2;
	out_color = texture(env, vec3(p, 1.0));
}
