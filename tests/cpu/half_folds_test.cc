// float16 reductions as each kernel set runs them (SelectCombine and SelectFoldRow for the set:
// its F16C entries where it has them, else the generic folds), against the spec's rule computed
// here with the reference's bit-by-bit conversions (tests/reference/fp16.h).
#include <iterator>
#include <vector>

#include "cpu/reductions.h"
#include "fp16.h"
#include "kernel_tester.h"

namespace gs_cpu_test {
namespace {

using gs::DataType;
using gs::Reduction;

constexpr Reduction kReductions[] = {Reduction::Add, Reduction::Multiply, Reduction::Min, Reduction::Max};

// ADD and MULTIPLY in binary32, rounded once to nearest even, a NaN result the canonical quiet
// NaN; MIN and MAX keep an accumulated NaN, else take the update's, else the update only when it
// is strictly smaller (larger): ties such as +0/-0 keep the accumulator.
uint16_t Combined(Reduction reduction, uint16_t acc, uint16_t update) {
  const float a = gs_reference::HalfToFloat(acc), b = gs_reference::HalfToFloat(update);
  if (reduction == Reduction::Add || reduction == Reduction::Multiply) {
    const float result = reduction == Reduction::Add ? a + b : a * b;
    return result != result ? uint16_t{0x7e00} : gs_reference::FloatToHalf(result);
  }
  if (gs_reference::HalfIsNan(acc)) return acc;
  if (gs_reference::HalfIsNan(update)) return update;
  return (reduction == Reduction::Min ? b < a : b > a) ? update : acc;
}

uint16_t HalfAt(const uint8_t* bytes, uint64_t i) {
  uint16_t h;
  std::memcpy(&h, bytes + 2 * i, 2);
  return h;
}

void SetHalf(uint8_t* bytes, uint64_t i, uint16_t h) { std::memcpy(bytes + 2 * i, &h, 2); }

// Zeros of both signs, subnormals, the largest finite values, infinities, NaNs with payloads of
// both signs, and ordinary values.
constexpr uint16_t kSpecial[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x7c00,
                                 0xfc00, 0x7c01, 0x7e00, 0xfe00, 0x7dff, 0xffff, 0x3c00, 0xbc00, 0x3555};

class HalfFolds : public KernelSetTest {
 protected:
  // Folds updates into acc (n halves each) with the set's combine, and checks every half and the
  // guards against Combined.
  void ExpectCombined(Reduction reduction, const std::vector<uint16_t>& acc, const std::vector<uint16_t>& updates,
                      size_t shift) {
    const uint64_t n = acc.size();
    GuardedBytes accBytes(n * 2, shift, 0), updateBytes(n * 2, (shift + 2) % 64, 0);
    for (uint64_t i = 0; i < n; ++i) {
      SetHalf(accBytes.data(), i, acc[i]);
      SetHalf(updateBytes.data(), i, updates[i]);
    }
    gs::cpu::SelectCombine(GetParam(), DataType::Float16, reduction, n)(accBytes.data(), updateBytes.data(), n);
    ASSERT_TRUE(accBytes.GuardsIntact() && updateBytes.GuardsIntact()) << "n " << n;
    for (uint64_t i = 0; i < n; ++i) {
      ASSERT_EQ(HalfAt(accBytes.data(), i), Combined(reduction, acc[i], updates[i]))
          << gs::ReductionName(reduction) << " n " << n << " i " << i << std::hex << " acc " << acc[i]
          << " update " << updates[i];
    }
  }
};

TEST_P(HalfFolds, ArraysCombineEveryHalfWithShuffledHalvesAndSpecialPairs) {
  for (const Reduction reduction : kReductions) {
    std::vector<uint16_t> acc(65536), updates(65536);
    for (uint32_t k = 0; k < 4; ++k) {
      for (uint32_t h = 0; h < 65536; ++h) {
        acc[h] = static_cast<uint16_t>(h);
        updates[h] = static_cast<uint16_t>(h * 40503u + k * 7919u);
      }
      ExpectCombined(reduction, acc, updates, 0);
    }
    acc.clear();
    updates.clear();
    for (const uint16_t a : kSpecial) {
      for (const uint16_t b : kSpecial) {
        acc.push_back(a);
        updates.push_back(b);
      }
    }
    ExpectCombined(reduction, acc, updates, 6);
  }
}

TEST_P(HalfFolds, ArraysOfEveryLengthAtEveryShift) {
  Rng rng(7);
  for (const Reduction reduction : kReductions) {
    for (const uint64_t n : TestLengths()) {
      std::vector<uint16_t> acc(n), updates(n);
      for (uint64_t i = 0; i < n; ++i) {
        acc[i] = static_cast<uint16_t>(rng.Next());
        updates[i] = static_cast<uint16_t>(rng.Next());
      }
      ExpectCombined(reduction, acc, updates, rng.Below(32) * 2);
    }
  }
}

// A row fold: update j into element p * stride + j * step, in order of j (repeated positions
// fold in turn), out-of-bounds indices dropped.
TEST_P(HalfFolds, RowsFoldInOrderWithEveryIndexKind) {
  Rng rng(11);
  for (const Reduction reduction : kReductions) {
    for (uint32_t kind = 0; kind < kIndexKinds; ++kind) {
      const DataType indexType = kind == 0 ? DataType::Int32 : kind == 1 ? DataType::Int64
                                 : kind == 2                 ? DataType::UInt32
                                                             : DataType::UInt64;
      const gs::cpu::FoldRowFn fold = gs::cpu::SelectFoldRow(GetParam(), DataType::Float16, reduction, indexType);
      for (const uint64_t n : TestLengths()) {
        for (const auto& [step, stride] : {std::pair<uint64_t, uint64_t>{0, 1}, {1, n + 3}, {3, 2}}) {
          const uint64_t bound = 1 + rng.Below(rng.Below(2) ? 5 : 200);  // few: many repeats
          const uint64_t elements = (n > 0 ? (n - 1) * step : 0) + (bound - 1) * stride + 1;
          GuardedBytes data(elements * 2, rng.Below(32) * 2, 0), updates(n * 2, rng.Below(32) * 2, 0);
          GuardedBytes indices(n * IndexBytes(kind), 0, 0);
          for (uint64_t i = 0; i < elements; ++i) SetHalf(data.data(), i, kSpecial[rng.Below(std::size(kSpecial))]);
          for (uint64_t j = 0; j < n; ++j) {
            SetHalf(updates.data(), j, rng.Below(4) == 0 ? kSpecial[rng.Below(std::size(kSpecial))]
                                                         : static_cast<uint16_t>(rng.Next()));
          }
          std::vector<uint16_t> expected(elements);
          for (uint64_t i = 0; i < elements; ++i) expected[i] = HalfAt(data.data(), i);
          for (uint64_t j = 0; j < n; ++j) {
            const int64_t value = IndexValue(rng, kind, bound, 10);
            StoreIndex(indices.data(), kind, j, value);
            uint64_t p;
            if (!Resolve(value, kind, bound, &p)) continue;
            uint16_t& at = expected[p * stride + j * step];
            at = Combined(reduction, at, HalfAt(updates.data(), j));
          }
          fold(data.data(), step, stride, bound, indices.data(), updates.data(), n);
          ASSERT_TRUE(data.GuardsIntact() && updates.GuardsIntact() && indices.GuardsIntact());
          for (uint64_t i = 0; i < elements; ++i) {
            ASSERT_EQ(HalfAt(data.data(), i), expected[i])
                << gs::ReductionName(reduction) << " kind " << kind << " n " << n << " step " << step << " i " << i;
          }
        }
      }
    }
  }
}

// The sets built with conversion instructions have their own entries (avx2 and avx512: F16C, run
// only where the CPU has it; neon64: FCVT, in every ARMv8-A); the others take the generic folds.
TEST_P(HalfFolds, TheSetsWithConversionInstructionsHaveTheirOwn) {
  const gs::cpu::KernelSet set = GetParam();
  const bool own = set == gs::cpu::KernelSet::Avx2 || set == gs::cpu::KernelSet::Avx512 ||
                   set == gs::cpu::KernelSet::Neon64;
  for (uint32_t r = 0; r < 4; ++r) {
    EXPECT_EQ(table().halfCombine[r] != nullptr, own) << r;
    for (uint32_t kind = 0; kind < kIndexKinds; ++kind) EXPECT_EQ(table().halfFoldRow[r][kind] != nullptr, own) << r;
  }
}

INSTANTIATE_TEST_SUITE_P(KernelSets, HalfFolds, ::testing::ValuesIn(gs::cpu::SupportedKernelSets()), SetName);

}  // namespace
}  // namespace gs_cpu_test
