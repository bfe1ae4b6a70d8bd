#include "dxbc_checksum.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace gs::test {
namespace {

uint32_t Rotate(uint32_t x, uint32_t c) { return (x << c) | (x >> (32 - c)); }

// MD5's compression of one 64-byte block into state (RFC 1321).
void Compress(uint32_t state[4], const uint8_t* block) {
  static const uint32_t kShift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
  uint32_t m[16];
  for (int i = 0; i < 16; ++i) {
    m[i] = uint32_t{block[4 * i]} | uint32_t{block[4 * i + 1]} << 8 | uint32_t{block[4 * i + 2]} << 16 |
           uint32_t{block[4 * i + 3]} << 24;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  for (uint32_t i = 0; i < 64; ++i) {
    uint32_t f, g;
    if (i < 16) f = (b & c) | (~b & d), g = i;
    else if (i < 32) f = (d & b) | (~d & c), g = (5 * i + 1) % 16;
    else if (i < 48) f = b ^ c ^ d, g = (3 * i + 5) % 16;
    else f = c ^ (b | ~d), g = (7 * i) % 16;
    const auto k = static_cast<uint32_t>(std::fabs(std::sin(static_cast<double>(i + 1))) * 4294967296.0);
    f += a + k + m[g];
    a = d, d = c, c = b;
    b += Rotate(f, kShift[i / 16][i % 4]);
  }
  state[0] += a, state[1] += b, state[2] += c, state[3] += d;
}

void PutWord(uint8_t* at, uint32_t w) {
  for (int i = 0; i < 4; ++i) at[i] = static_cast<uint8_t>(w >> (8 * i));
}

}  // namespace

bool DxbcChecksumHolds(const void* data, size_t size) {
  if (size < 20) return false;
  const auto* bytes = static_cast<const uint8_t*>(data);
  const uint8_t* message = bytes + 20;
  const size_t length = size - 20, whole = length / 64 * 64, rest = length - whole;
  uint32_t state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  for (size_t at = 0; at < whole; at += 64) Compress(state, message + at);
  uint8_t block[64] = {};
  const auto bits = static_cast<uint32_t>(length * 8), tail = static_cast<uint32_t>(length * 2 + 1);
  if (rest >= 56) {  // no room for the count: the rest and 0x80 fill one block, the counts the next
    std::memcpy(block, message + whole, rest);
    block[rest] = 0x80;
    Compress(state, block);
    std::memset(block, 0, sizeof block);
    PutWord(block, bits);
  } else {
    PutWord(block, bits);
    std::memcpy(block + 4, message + whole, rest);
    block[4 + rest] = 0x80;
  }
  PutWord(block + 60, tail);
  Compress(state, block);
  uint8_t digest[16];
  for (int i = 0; i < 4; ++i) PutWord(digest + 4 * i, state[i]);
  return std::memcmp(digest, bytes + 4, 16) == 0;
}

}  // namespace gs::test
