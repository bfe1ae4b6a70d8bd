// The line of an element scatter that ScatterLines and ScatterLineGroups walk: the updates that
// differ only along the one dim with no Output stride (ScatterElements' axis). With no such
// dim, every line is one update.
#include "scatter_status.hlsli"

struct ScatterLine {
  UnitOffsets first;  // the line's first update
  uint length;
  uint iterStep;      // Updates' offset from an update of the line to the next
  uint indexStep;     // Indices' offset, likewise
  uint bound;         // the indexed dim's size and Output stride
  uint stride;
};

ScatterLine SeekLine(uint lineIndex) {
  uint axis = K_RANK;
  for (uint d = 0; d < K_RANK; ++d) {
    if (LOW(kernel.dataStrides, d) == 0) axis = d;
  }
  ScatterLine l;
  l.length = 1;
  l.iterStep = 0;
  l.indexStep = 0;
  uint inner = 1;
  if (axis < K_RANK) {
    l.length = LOW(kernel.sizes, axis);
    l.iterStep = LOW(kernel.iterStrides, axis);
    l.indexStep = LOW(kernel.indexStrides, axis);
    for (uint e = axis + 1; e < K_RANK; ++e) inner *= LOW(kernel.sizes, e);
  }
  l.first = SeekUnit((lineIndex / inner) * l.length * inner + lineIndex % inner);
  l.bound = LOW(kernel.indexedSizes, 0);
  l.stride = LOW(kernel.indexedStrides, 0);
  return l;
}
