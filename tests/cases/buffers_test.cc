// View arithmetic and guarded buffers.
#include "buffers.h"

#include <gtest/gtest.h>

namespace gs::cases {
namespace {

std::vector<uint64_t> Offsets(const std::vector<uint32_t>& sizes,
                              const std::vector<uint64_t>& strides) {
  std::vector<uint64_t> offsets;
  EXPECT_TRUE(ForEachElementOffset(sizes, strides, [&](uint64_t offset) {
    offsets.push_back(offset);
    return true;
  }));
  return offsets;
}

TEST(Buffers, ElementCount) {
  uint64_t count = 0;
  EXPECT_TRUE(ElementCount({2, 3, 4}, &count));
  EXPECT_EQ(count, 24u);
  EXPECT_TRUE(ElementCount({5, 0}, &count));
  EXPECT_EQ(count, 0u);
  EXPECT_TRUE(ElementCount({}, &count));
  EXPECT_EQ(count, 1u);
  EXPECT_FALSE(ElementCount({4294967295u, 4294967295u, 4294967295u}, &count));
}

TEST(Buffers, PackedStrides) {
  EXPECT_EQ(PackedStrides({2, 3, 4}), (std::vector<uint64_t>{12, 4, 1}));
  EXPECT_EQ(PackedStrides({7}), (std::vector<uint64_t>{1}));
}

TEST(Buffers, StridedViewOffsetsInRowMajorOrder) {
  EXPECT_EQ(Offsets({2, 3}, {3, 1}), (std::vector<uint64_t>{0, 1, 2, 3, 4, 5}));
  // Transposed: a column-major buffer read row by row.
  EXPECT_EQ(Offsets({2, 3}, {1, 2}), (std::vector<uint64_t>{0, 2, 4, 1, 3, 5}));
  // Padded rows.
  EXPECT_EQ(Offsets({2, 2}, {5, 1}), (std::vector<uint64_t>{0, 1, 5, 6}));
  // Broadcast.
  EXPECT_EQ(Offsets({2, 3}, {0, 1}), (std::vector<uint64_t>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(Offsets({3}, {0}), (std::vector<uint64_t>{0, 0, 0}));
  // Size-1 dimensions with any stride.
  EXPECT_EQ(Offsets({1, 2, 1}, {977, 4, 977}), (std::vector<uint64_t>{0, 4}));
  EXPECT_EQ(Offsets({2, 1, 1, 1, 1, 1, 1, 2}, {10, 0, 0, 0, 0, 0, 0, 3}),
            (std::vector<uint64_t>{0, 3, 10, 13}));
}

TEST(Buffers, EmptyAndScalarViews) {
  EXPECT_EQ(Offsets({}, {}), (std::vector<uint64_t>{0}));
  EXPECT_TRUE(Offsets({3, 0}, {1, 1}).empty());
}

TEST(Buffers, OverflowingViewsAreRefusedBeforeVisiting) {
  bool visited = false;
  EXPECT_FALSE(ForEachElementOffset({4294967295u, 3}, {uint64_t{1} << 40, uint64_t{1} << 62},
                                    [&](uint64_t) { return visited = true; }));
  EXPECT_FALSE(visited);
}

TEST(Buffers, VisitingStopsWhenAsked) {
  int visits = 0;
  EXPECT_TRUE(ForEachElementOffset({10}, {1}, [&](uint64_t) { return ++visits < 3; }));
  EXPECT_EQ(visits, 3);
}

TEST(Buffers, GuardedBufferHoldsTheInitialBytesAligned) {
  const GuardedBuffer buffer(std::vector<uint8_t>{1, 2, 3});
  ASSERT_EQ(buffer.size(), 3u);
  EXPECT_EQ(buffer.data()[2], 3);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer.data()) % 64, 0u);
  EXPECT_TRUE(buffer.GuardsIntact());
}

TEST(Buffers, GuardsCatchWritesOnEitherSide) {
  GuardedBuffer after(std::vector<uint8_t>(5, 0));
  after.data()[5] ^= 1;
  EXPECT_FALSE(after.GuardsIntact());

  GuardedBuffer before(std::vector<uint8_t>(5, 0));
  before.data()[-1] ^= 0xff;
  EXPECT_FALSE(before.GuardsIntact());

  GuardedBuffer far(std::vector<uint8_t>(5, 0));
  far.data()[5 + GuardedBuffer::kGuardBytes - 1] ^= 1;
  EXPECT_FALSE(far.GuardsIntact());

  GuardedBuffer inside(std::vector<uint8_t>(5, 0));
  for (int i = 0; i < 5; ++i) inside.data()[i] = 0xff;
  EXPECT_TRUE(inside.GuardsIntact());
}

TEST(Buffers, EmptyBuffersHaveGuardsToo) {
  GuardedBuffer empty(std::vector<uint8_t>{});
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_TRUE(empty.GuardsIntact());
  empty.data()[0] = static_cast<uint8_t>(~empty.data()[0]);
  EXPECT_FALSE(empty.GuardsIntact());
}

}  // namespace
}  // namespace gs::cases
