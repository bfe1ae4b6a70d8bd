// gatherRow, gatherRowStreamed and gatherTupleRow, in both forms (RowOffsets; the Fit31 form
// on the geometry RowOffsetsFit31 and TupleOffsetsFit31 admit, as the plan gives it): every
// element size and index kind, every length up to three blocks and odd ones, outputs and data
// off the vector alignment, the row layouts the plan makes (last axis, packed strips) and a
// general one, indices in and out of bounds. The tracked entries' return value says whether
// every index was in bounds; the untracked ones may say true regardless, never false when all
// were.
#include <algorithm>

#include "kernel_tester.h"

namespace gs_cpu_test {
namespace {

struct RowLayout {
  uint64_t dataStep, indexedStride;  // in elements; stride 0 here means "the row length + 3"
};
constexpr RowLayout kLayouts[] = {{0, 1}, {1, 0}, {3, 2}};

using gs::cpu::RowOffsets;
constexpr RowOffsets kForms[] = {RowOffsets::Any, RowOffsets::Fit31};

const char* FormName(RowOffsets form) { return form == RowOffsets::Fit31 ? "fit31" : "any"; }

class GatherRow : public KernelSetTest {
 protected:
  // The gather row entry of one form, element size and index kind.
  gs::cpu::GatherRowFn Row(RowOffsets form, bool streamed, bool tracked, uint32_t log2, uint32_t kind) const {
    return (streamed ? table().gatherRowStreamed : table().gatherRow)[static_cast<uint32_t>(form)][tracked][log2][kind];
  }
};

// One call of a row kernel against the reference; "" or what went wrong. The Fit31 form is
// called only where RowOffsetsFit31 admits the row (*called says whether it was).
std::string CheckGatherRow(gs::cpu::GatherRowFn row, RowOffsets form, bool streamed, bool tracked,
                           const gs::cpu::KernelTable& table, uint32_t e, uint32_t kind, uint64_t n, RowLayout layout,
                           uint64_t shift, Rng& rng, bool* called) {
  const uint64_t x = IndexBytes(kind);
  const uint64_t stride = layout.indexedStride == 0 ? n + 3 : layout.indexedStride;
  const uint64_t bound = 1 + rng.Below(rng.Below(2) ? 9 : 300);
  *called = form == RowOffsets::Any || gs::cpu::RowOffsetsFit31(e, layout.dataStep, stride, bound, n);
  if (!*called) return "";
  const uint64_t dataElements = (n > 0 ? (n - 1) * layout.dataStep : 0) + (bound - 1) * stride + 1;
  GuardedBytes data(dataElements * e, shift * e % 64, 0);
  for (uint64_t b = 0; b < data.size(); ++b) data.data()[b] = static_cast<uint8_t>(rng.Next());
  GuardedBytes indices(n * x, (shift * x) % 64, 0);
  const int bad = rng.Below(2) ? 0 : 10;
  std::vector<uint8_t> expected(n * e, 0);
  bool allInBounds = true;
  for (uint64_t j = 0; j < n; ++j) {
    const int64_t value = IndexValue(rng, kind, bound, bad);
    StoreIndex(indices.data(), kind, j, value);
    uint64_t p;
    if (Resolve(value, kind, bound, &p)) {
      std::memcpy(&expected[j * e], data.data() + (j * layout.dataStep + p * stride) * e, e);
    } else {
      allInBounds = false;
    }
  }
  const std::vector<uint8_t> dataBefore = data.Contents(), indicesBefore = indices.Contents();
  GuardedBytes out(n * e, (shift * e * 3) % 64, 0xcd);
  // Half the calls hint a next row (the data itself), half hint the index stream (on into
  // the same indices as the next row's, or none): hints must not change what comes out.
  gs::cpu::NextRowData next = rng.Below(2) ? gs::cpu::NextRowData{data.data(), data.size()} : gs::cpu::NextRowData{};
  next.hintIndices = rng.Below(2) != 0;
  next.nextIndices = next.hintIndices && rng.Below(2) ? indices.data() : nullptr;
  const bool said = row(data.data(), layout.dataStep, stride, bound, indices.data(), out.data(), n, next);
  if (streamed) table.streamFence();
  if (tracked ? said != allInBounds : (!said && allInBounds)) {
    return "returned " + std::to_string(said) + " for all-in-bounds " + std::to_string(allInBounds);
  }
  if (!out.GuardsIntact() || !data.GuardsIntact() || !indices.GuardsIntact()) return "wrote outside a buffer";
  if (data.Contents() != dataBefore || indices.Contents() != indicesBefore) return "changed an input";
  if (out.Contents() != expected) return "output differs from the reference";
  return "";
}

TEST_P(GatherRow, EveryEntryMatchesTheReference) {
  Rng rng(17);
  uint64_t calls[2] = {0, 0};
  for (const RowOffsets form : kForms) {
    for (uint32_t log2 = 0; log2 < 4; ++log2) {
      for (uint32_t kind = 0; kind < kIndexKinds; ++kind) {
        for (const auto& [streamed, tracked] : {std::pair{false, false}, {false, true}, {true, false}, {true, true}}) {
          const gs::cpu::GatherRowFn row = Row(form, streamed, tracked, log2, kind);
          for (uint64_t n : TestLengths()) {
            for (const RowLayout& layout : kLayouts) {
              const uint64_t shift = rng.Below(8);
              bool called;
              const std::string problem = CheckGatherRow(row, form, streamed, tracked, table(), 1u << log2, kind, n,
                                                         layout, shift, rng, &called);
              calls[static_cast<uint32_t>(form)] += called;
              ASSERT_EQ(problem, "") << FormName(form) << ", element bytes " << (1u << log2) << ", index kind "
                                     << kind << (streamed ? ", streamed" : "") << (tracked ? ", tracked" : "")
                                     << ", n " << n << ", data step " << layout.dataStep << ", shift " << shift;
            }
          }
        }
      }
    }
  }
  // The Fit31 form met many rows of its own (the last-axis and packed layouts of 1 to 4 bytes).
  EXPECT_GT(calls[1], calls[0] / 4);
  RecordProperty("calls", static_cast<int>(calls[0] + calls[1]));
}

// Last-axis rows of 1- and 2-byte elements: a row that ends where an inaccessible page
// begins, indices at its last elements, proves that nothing past the row's end is read (a
// read there is a fault, not a wrong byte); nor for an out-of-bounds index, whose lane the
// AVX-512 and AVX2 kernels gather unmasked (from a word they keep inside the row) and zero.
TEST_P(GatherRow, LastAxisRowsReadNothingPastTheirEnd) {
  const uint64_t page = SystemPages::PageBytes();
  SystemPages pages(2 * page);
  ASSERT_NE(pages.data(), nullptr);
  ASSERT_TRUE(pages.MakeInaccessible(page, page));
  uint8_t* const end = pages.data() + page;
  Rng rng(31);
  for (uint32_t log2 = 0; log2 < 2; ++log2) {
    const uint32_t e = 1u << log2;
    for (uint32_t kind = 0; kind < kIndexKinds; ++kind) {
      const uint64_t x = IndexBytes(kind);
      for (const auto& [streamed, tracked] : {std::pair{false, false}, {false, true}, {true, false}, {true, true}}) {
        for (uint64_t bound = 1; bound <= 40; ++bound) {
         for (const RowOffsets form : kForms) {
          uint8_t* data = end - bound * e;
          for (uint64_t b = 0; b < bound * e; ++b) data[b] = static_cast<uint8_t>(rng.Next());
          const uint64_t n = 64 * 3 + rng.Below(64);
          GuardedBytes indices(n * x, 0, 0);
          std::vector<uint8_t> expected(n * e, 0);
          bool allInBounds = true;
          for (uint64_t j = 0; j < n; ++j) {
            // Mostly the last three elements, as counted from the end when the kind is signed;
            // some out of bounds.
            const uint64_t last = bound - 1 - std::min<uint64_t>(rng.Below(3), bound - 1);
            const uint64_t roll = rng.Below(8);
            const int64_t value = roll == 0 ? IndexValue(rng, kind, bound, 100)
                                  : roll < 3 ? IndexValue(rng, kind, bound, 0)
                                  : IndexSigned(kind) && rng.Below(2) ? static_cast<int64_t>(last) - static_cast<int64_t>(bound)
                                                                      : static_cast<int64_t>(last);
            StoreIndex(indices.data(), kind, j, value);
            uint64_t p;
            if (Resolve(value, kind, bound, &p)) {
              std::memcpy(&expected[j * e], data + p * e, e);
            } else {
              allInBounds = false;
            }
          }
          if (form == RowOffsets::Fit31 && !gs::cpu::RowOffsetsFit31(e, 0, 1, bound, n)) continue;
          GuardedBytes out(n * e, 0, 0xcd);
          const bool said = Row(form, streamed, tracked, log2, kind)(data, 0, 1, bound, indices.data(), out.data(), n,
                                                                     {data, bound * e});
          if (streamed) table().streamFence();
          if (tracked || allInBounds) {  // an untracked row may say true regardless
            ASSERT_EQ(said, allInBounds);
          }
          ASSERT_TRUE(out.GuardsIntact());
          ASSERT_TRUE(out.Contents() == expected) << FormName(form) << ", element bytes " << e << ", index kind "
                                                  << kind << ", bound " << bound << (streamed ? ", streamed" : "");
         }
        }
      }
    }
  }
}

// Long last-axis rows, which kernels take in blocks and vectors and may cut into pieces: one
// bad index anywhere, at the edges of a 64-byte block or a 256- or 512-element piece too, is
// reported by every tracked entry and zeroes its own output element only.
TEST_P(GatherRow, LongRowsReportOneBadIndexWherever) {
  Rng rng(43);
  for (uint32_t log2 = 0; log2 < 4; ++log2) {
    const uint32_t e = 1u << log2;
    for (uint32_t kind = 0; kind < kIndexKinds; ++kind) {
      const uint64_t x = IndexBytes(kind);
      for (const auto& [form, streamed] : {std::pair{RowOffsets::Any, false}, {RowOffsets::Any, true},
                                           {RowOffsets::Fit31, false}, {RowOffsets::Fit31, true}}) {
        const gs::cpu::GatherRowFn row = Row(form, streamed, true, log2, kind);
        const uint64_t n = 2100 + rng.Below(64), bound = 1 + rng.Below(500);
        if (form == RowOffsets::Fit31 && !gs::cpu::RowOffsetsFit31(e, 0, 1, bound, n)) continue;
        GuardedBytes data(bound * e, rng.Below(64), 0);
        for (uint64_t b = 0; b < data.size(); ++b) data.data()[b] = static_cast<uint8_t>(rng.Next());
        for (const uint64_t badAt : {~uint64_t{0}, uint64_t{0}, uint64_t{255}, uint64_t{256}, uint64_t{511},
                                     uint64_t{512}, uint64_t{1023}, uint64_t{1024}, n - 1, rng.Below(n)}) {
          GuardedBytes indices(n * x, rng.Below(8) * x % 64, 0);
          std::vector<uint8_t> expected(n * e, 0);
          for (uint64_t j = 0; j < n; ++j) {
            const int64_t value = j == badAt ? IndexValue(rng, kind, bound, 100) : IndexValue(rng, kind, bound, 0);
            StoreIndex(indices.data(), kind, j, value);
            uint64_t p;
            const bool ok = Resolve(value, kind, bound, &p);
            ASSERT_EQ(ok, j != badAt) << "the test's own index at " << j;
            if (ok) std::memcpy(&expected[j * e], data.data() + p * e, e);
          }
          GuardedBytes out(n * e, rng.Below(64 / e) * e, 0xcd);
          const bool said = row(data.data(), 0, 1, bound, indices.data(), out.data(), n, {});
          if (streamed) table().streamFence();
          const std::string where = std::string(FormName(form)) + ", element bytes " + std::to_string(e) +
                                    ", index kind " + std::to_string(kind) +
                                    (streamed ? ", streamed" : "") + ", bad at " + std::to_string(badAt);
          ASSERT_EQ(said, badAt >= n) << where;
          ASSERT_TRUE(out.GuardsIntact()) << where;
          ASSERT_TRUE(out.Contents() == expected) << where;
        }
      }
    }
  }
}

class GatherTupleRow : public KernelSetTest {};

TEST_P(GatherTupleRow, EveryEntryMatchesTheReference) {
  Rng rng(29);
  for (uint32_t log2 = 0; log2 < 4; ++log2) {
    const uint32_t e = 1u << log2;
    for (uint32_t kind = 0; kind < kIndexKinds; ++kind) {
      const uint64_t x = IndexBytes(kind);
      for (uint64_t tuple : {2, 3}) {
        for (uint64_t n : TestLengths()) {
          uint64_t bounds[3], strides[3], reach = 1;
          for (uint64_t c = tuple; c-- > 0;) {
            bounds[c] = 1 + rng.Below(20);
            strides[c] = reach;
            reach *= bounds[c];
          }
          GuardedBytes data(reach * e, rng.Below(8) * e % 64, 0);
          for (uint64_t b = 0; b < data.size(); ++b) data.data()[b] = static_cast<uint8_t>(rng.Next());
          GuardedBytes indices(n * tuple * x, rng.Below(8) * x % 64, 0);
          std::vector<uint8_t> expected(n * e, 0);
          bool allInBounds = true;
          const int bad = rng.Below(2) ? 0 : 5;
          for (uint64_t j = 0; j < n; ++j) {
            uint64_t offset = 0;
            bool in = true;
            for (uint64_t c = 0; c < tuple; ++c) {
              const int64_t value = IndexValue(rng, kind, bounds[c], bad);
              StoreIndex(indices.data(), kind, j * tuple + c, value);
              uint64_t p = 0;
              in = Resolve(value, kind, bounds[c], &p) && in;
              offset += p * strides[c];
            }
            if (in) std::memcpy(&expected[j * e], data.data() + offset * e, e);
            allInBounds = allInBounds && in;
          }
          for (const RowOffsets form : kForms) {
            if (form == RowOffsets::Fit31 && !gs::cpu::TupleOffsetsFit31(bounds, strides, tuple)) continue;
            GuardedBytes out(n * e, rng.Below(8) * e % 64, 0xcd);
            // Both chunks the machines choose (MachineInfo::hintedOffsets), and the smallest.
            const uint64_t hinted = uint64_t{8} << (2 * rng.Below(3));  // 8, 32 or 128
            const bool said = table().gatherTupleRow[static_cast<uint32_t>(form)][log2][kind](
                data.data(), bounds, strides, tuple, indices.data(), out.data(), n, hinted);
            const std::string where = std::string(FormName(form)) + " e " + std::to_string(e) + " kind " +
                                      std::to_string(kind) + " tuple " + std::to_string(tuple) + " n " + std::to_string(n) +
                                      " hinted " + std::to_string(hinted);
            ASSERT_EQ(said, allInBounds) << where;
            ASSERT_TRUE(out.GuardsIntact() && data.GuardsIntact() && indices.GuardsIntact());
            ASSERT_TRUE(out.Contents() == expected) << where;
          }
        }
      }
    }
  }
}

// The forms' contract at its edges: the plan gives a row the Fit31 form exactly when these hold.
TEST(RowOffsets, Fit31AdmitsOffsetsBelow2To31Only) {
  constexpr uint64_t k30 = uint64_t{1} << 30, k31 = uint64_t{1} << 31;
  EXPECT_TRUE(gs::cpu::RowOffsetsFit31(4, 0, 1, k30, 1024));       // a last-axis row of 2^30 elements
  EXPECT_FALSE(gs::cpu::RowOffsetsFit31(4, 0, 1, k30 + 1, 1024));
  EXPECT_TRUE(gs::cpu::RowOffsetsFit31(4, 1, 2, k30 - 1, 2));       // (bound - 1) * stride + n = 2^31 - 2
  EXPECT_FALSE(gs::cpu::RowOffsetsFit31(4, 1, 2, k30, 2));          // ... = 2^31
  EXPECT_FALSE(gs::cpu::RowOffsetsFit31(4, 2, 1, 10, 10));          // a data step above 1
  EXPECT_FALSE(gs::cpu::RowOffsetsFit31(8, 0, 1, 10, 10));          // no Fit31 path for 8 bytes
  EXPECT_TRUE(gs::cpu::RowOffsetsFit31(1, 0, 1, 4, 64));            // 4 bytes to read: one word
  EXPECT_FALSE(gs::cpu::RowOffsetsFit31(1, 0, 1, 3, 64));
  EXPECT_FALSE(gs::cpu::RowOffsetsFit31(2, 1, k30, 2, 64));         // the stride of 1- and 2-byte rows < 2^30
  EXPECT_FALSE(gs::cpu::RowOffsetsFit31(2, 0, 1, k30, 64));         // 2^31 bytes
  const uint64_t bounds[2] = {4, uint64_t{1} << 28}, fits[2] = {uint64_t{1} << 28, 1}, over[2] = {k31 / 3, 1};
  EXPECT_TRUE(gs::cpu::TupleOffsetsFit31(bounds, fits, 2));
  EXPECT_FALSE(gs::cpu::TupleOffsetsFit31(bounds, over, 2));
  EXPECT_FALSE(gs::cpu::TupleOffsetsFit31(bounds, fits, 3));
}

INSTANTIATE_TEST_SUITE_P(KernelSets, GatherRow, ::testing::ValuesIn(gs::cpu::SupportedKernelSets()), SetName);
INSTANTIATE_TEST_SUITE_P(KernelSets, GatherTupleRow, ::testing::ValuesIn(gs::cpu::SupportedKernelSets()), SetName);

}  // namespace
}  // namespace gs_cpu_test
