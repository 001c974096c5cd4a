#version 450
// Compute built-ins for a 2D workgroup in a 3D dispatch.
layout(local_size_x = 3, local_size_y = 2, local_size_z = 1) in;
layout(set = 0, binding = 0) writeonly buffer Out { uvec4 o[]; };

void main() {
	uvec3 g = gl_GlobalInvocationID;
	uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
	uint flat_id = (g.z * size.y + g.y) * size.x + g.x;
	o[flat_id * 2u] = uvec4(g, gl_LocalInvocationIndex);
	o[flat_id * 2u + 1u] = uvec4(gl_WorkGroupID, gl_LocalInvocationID.x + 10u * gl_LocalInvocationID.y);
}
