// Small operators: the fixed cost of one compile-free execute call. 64 elements (8 x 8
// float32, int64 indices): the call's overhead dominates; no thread should be woken.
// Named small/<op>/f32/8x8/.../cpu/<checked|unchecked>/threads:<n>.
#pragma once

#include <vector>

namespace gs_bench {

void RegisterSmallBenchmarks(const std::vector<int>& threads, bool short_mode, bool user_min_time);

}  // namespace gs_bench
