#version 450
#extension GL_EXT_device_group : require
// BuiltIn DeviceIndex: Tessera is one physical device in a group of one, so
// every invocation reads 0.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };

void main() { o[gl_GlobalInvocationID.x] = gl_DeviceIndex + 7u; }
