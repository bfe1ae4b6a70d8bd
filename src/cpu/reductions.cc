#include "cpu/reductions.h"

#include "cpu/elements.h"
#include "cpu/float16.h"
#include "cpu/folds.h"
#include "cpu/kernel_set.h"

namespace gs::cpu {
namespace {

// Binary16 converted in software (float16.h), picking as P says.
template <Picks P>
struct SoftHalf {
  static float ToFloat(uint16_t h) { return HalfToFloat<P>(h); }
  static uint16_t FromFloatNotNaN(float value) { return FloatToHalfNotNaN<P>(value); }
};

// What SelectCombine and SelectFoldRow make for one data type and reduction.
struct MakeCombine {
  bool lanes;
  template <DataType D, Reduction R>
  CombineFn Make() const {
    // MIN and MAX branch on NaNs: their arrays are no vector loops either way.
    constexpr bool kArithmetic = R == Reduction::Add || R == Reduction::Multiply;
    return lanes && kArithmetic ? CombineArray<D, R, Picks::Lanes, SoftHalf<Picks::Lanes>>
                                : CombineArray<D, R, Picks::OneValue, SoftHalf<Picks::OneValue>>;
  }
};
struct MakeFoldRow {
  DataType indexType;
  template <DataType D, Reduction R>
  FoldRowFn Make() const {
    return WithIndexType(indexType, [](auto tag) -> FoldRowFn {
      return FoldRow<D, R, decltype(tag), SoftHalf<Picks::OneValue>>;
    });
  }
};

template <DataType D, typename Maker>
auto ForReduction(Reduction reduction, const Maker& maker) -> decltype(maker.template Make<D, Reduction::Add>()) {
  switch (reduction) {
    case Reduction::Add: return maker.template Make<D, Reduction::Add>();
    case Reduction::Multiply: return maker.template Make<D, Reduction::Multiply>();
    case Reduction::Min: return maker.template Make<D, Reduction::Min>();
    case Reduction::Max: return maker.template Make<D, Reduction::Max>();
    case Reduction::None: break;
  }
  return nullptr;
}

template <typename Maker>
auto ForType(DataType type, Reduction reduction, const Maker& maker)
    -> decltype(maker.template Make<DataType::Float32, Reduction::Add>()) {
  switch (type) {
    case DataType::Float64: return ForReduction<DataType::Float64>(reduction, maker);
    case DataType::Float32: return ForReduction<DataType::Float32>(reduction, maker);
    case DataType::Float16: return ForReduction<DataType::Float16>(reduction, maker);
    case DataType::Int64: return ForReduction<DataType::Int64>(reduction, maker);
    case DataType::Int32: return ForReduction<DataType::Int32>(reduction, maker);
    case DataType::Int16: return ForReduction<DataType::Int16>(reduction, maker);
    case DataType::Int8: return ForReduction<DataType::Int8>(reduction, maker);
    case DataType::UInt64: return ForReduction<DataType::UInt64>(reduction, maker);
    case DataType::UInt32: return ForReduction<DataType::UInt32>(reduction, maker);
    case DataType::UInt16: return ForReduction<DataType::UInt16>(reduction, maker);
    case DataType::UInt8: return ForReduction<DataType::UInt8>(reduction, maker);
  }
  return nullptr;
}

constexpr uint64_t kLanesFrom = 8;

}  // namespace

CombineFn SelectCombine(KernelSet set, DataType type, Reduction reduction, uint64_t count) {
  if (type == DataType::Float16 && reduction != Reduction::None) {
    const CombineFn own = KernelsOf(set).halfCombine[static_cast<uint32_t>(reduction) - 1];
    if (own != nullptr) return own;
  }
  // A few elements fold faster one value at a time than through a vector loop's setup.
  return ForType(type, reduction, MakeCombine{count >= kLanesFrom});
}

FoldRowFn SelectFoldRow(KernelSet set, DataType type, Reduction reduction, DataType indexType) {
  if (type == DataType::Float16 && reduction != Reduction::None) {
    const FoldRowFn own = KernelsOf(set).halfFoldRow[static_cast<uint32_t>(reduction) - 1][IndexKind(indexType)];
    if (own != nullptr) return own;
  }
  return ForType(type, reduction, MakeFoldRow{indexType});
}

}  // namespace gs::cpu
