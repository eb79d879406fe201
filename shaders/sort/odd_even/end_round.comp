// Closes a merge-split round: counts it if it ran, and stops every later round (their grid
// becomes empty) when it changed nothing. Reads and writes binding 0 (control).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "control.glsl"

layout(local_size_x = 1) in;
VKC_ODD_EVEN_CONTROL(0)

void main() {
  if (control.args.x != 0u) {
    control.rounds += 1u;
    // The previous round merged the other pairs, so every neighbouring pair of blocks is now in order.
    if (control.changed == 0u) control.args.x = 0u;
  }
  control.changed = 0u;
}
