#version 450
layout(location = 0) flat in ivec4 ids;
layout(location = 1) flat in int draw_id;
layout(location = 0) out vec4 o;
void main() {
	// Every value in UNORM8 codes k/255, which convert exactly (§3.9.2).
	o = vec4(ids.x & 255, (ids.y & 15) | (draw_id << 4 & 240), ids.z & 255, (ids.w & 255)) / 255.0;
}
