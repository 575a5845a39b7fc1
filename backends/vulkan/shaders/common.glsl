// Shared by every Ember compute shader: the workgroup size the host assumes
// (vk_builder.h: kWorkgroupSize) and the flat invocation index over a 2-D
// grid of workgroups (the host splits more than 65535 groups into rows).
#extension GL_GOOGLE_include_directive : enable
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

uint ember_index() {
  return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
}
