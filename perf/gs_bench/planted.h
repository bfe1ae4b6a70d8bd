// Hidden, for the regression gate's tests (perf/dashboard/tests): a real slowdown of one
// kernel, made in gs-bench around the library's call (the library is untouched).
//   GS_BENCH_PLANT_SLOWDOWN=WHICH          every call is made twice (2x)
//   GS_BENCH_PLANT_SLOWDOWN=WHICH@PERCENT  PERCENT calls in 100 are made twice: with 20, one
//                                          call in five, +20% work per call on average (exactly
//                                          +20% of the instructions over a multiple of 5 calls)
// WHICH is a case name (all its benchmarks) or one benchmark's full name.
#pragma once

#include <cstdlib>
#include <string>

namespace gs_bench {

class PlantedSlowdown {
 public:
  PlantedSlowdown(const std::string& case_name, const std::string& benchmark_name) {
    const char* env = std::getenv("GS_BENCH_PLANT_SLOWDOWN");
    if (env == nullptr) return;
    const std::string value = env;
    const size_t at = value.rfind('@');
    const std::string which = at == std::string::npos ? value : value.substr(0, at);
    if (which != case_name && which != benchmark_name) return;
    percent_ = at == std::string::npos ? 100 : std::atoi(value.c_str() + at + 1);
    if (percent_ < 0 || percent_ > 100) percent_ = 100;
  }

  // Whether this call is to be made twice.
  bool ExtraCall() {
    if (percent_ == 0) return false;
    credit_ += percent_;
    if (credit_ < 100) return false;
    credit_ -= 100;
    return true;
  }

 private:
  int percent_ = 0;
  int credit_ = 0;
};

}  // namespace gs_bench
