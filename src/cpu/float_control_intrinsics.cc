// IeeeFloatScope (cpu/reductions.h): the floating-point control register, which neither the
// C++ library nor xsimd can set whole (<cfenv> reaches the rounding mode and the exception
// flags, but not flush-to-zero, denormals-are-zero or trap enables). Each architecture's
// register is written here; other targets get the rounding mode through <cfenv>.
#include "cpu/reductions.h"

#if defined(__SSE__)
#include <xmmintrin.h>
#else
#include <cfenv>
#endif

namespace gs::cpu {

#if defined(__SSE__)
namespace {
// MXCSR: flush-to-zero, denormals-are-zero, rounding control (00: nearest even), exception masks.
constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040, kRounding = 0x6000,
                   kExceptionMasks = 0x1f80;
}  // namespace
IeeeFloatScope::IeeeFloatScope() : saved_(_mm_getcsr()) {
  _mm_setcsr((saved_ & ~(kFlushToZero | kDenormalsAreZero | kRounding)) | kExceptionMasks);
}
IeeeFloatScope::~IeeeFloatScope() { _mm_setcsr(saved_); }
#elif defined(__aarch64__)
namespace {
// FPCR: flush-to-zero (FZ, and FZ16 for half precision), default NaN, alternative half
// precision (AHP: binary16 without infinities or NaNs in FCVT), rounding mode (RMode, 00:
// nearest even), and the trap enables (IOE..IXE, IDE), all cleared.
constexpr unsigned kFlushToZero = 1u << 24, kFlushToZero16 = 1u << 19, kDefaultNaN = 1u << 25,
                   kAlternativeHalf = 1u << 26, kRounding = 3u << 22, kTrapEnables = 0x9f00;
}  // namespace
IeeeFloatScope::IeeeFloatScope() : saved_(__builtin_aarch64_get_fpcr()) {
  __builtin_aarch64_set_fpcr(saved_ & ~(kFlushToZero | kFlushToZero16 | kDefaultNaN | kAlternativeHalf | kRounding |
                                        kTrapEnables));
}
IeeeFloatScope::~IeeeFloatScope() { __builtin_aarch64_set_fpcr(saved_); }
#else
IeeeFloatScope::IeeeFloatScope() : saved_(static_cast<unsigned>(std::fegetround())) { std::fesetround(FE_TONEAREST); }
IeeeFloatScope::~IeeeFloatScope() { std::fesetround(static_cast<int>(saved_)); }
#endif

}  // namespace gs::cpu
