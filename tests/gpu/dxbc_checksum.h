// Test-only: DXBC's container checksum, to verify the embedded kernels (kernel_table_test.cc).
#pragma once

#include <cstddef>

namespace gs::test {

// True when the 16 bytes after "DXBC" are the checksum of the rest of the container past byte
// 20: MD5's rounds over it, with DXBC's own last block (the bit count first, and at its end
// the byte count x 2 + 1, in place of MD5's padding).
bool DxbcChecksumHolds(const void* data, size_t size);

}  // namespace gs::test
