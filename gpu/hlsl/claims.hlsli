// Overwrite scatters (reduction NONE): each destination unit is claimed by its last update
// unit in row-major order, on the head word of the destination's first Output element.
#include "common.hlsli"

// The thread's update unit and its destination's first Output element: false for a thread past
// the units, after a bad index (checked mode), and for an update that is dropped (unchecked).
bool UnitDestination(uint3 id, out uint unit, out uint destination) {
  unit = ThreadIndex(id);
  destination = 0;
  if (unit >= P_THREADS || BadIndexFound()) return false;
  return IndexedOffset(SeekUnit(unit), destination);
}
