// The perf suite (shared/perf/suite.json): its cases, their variants and the bytes each moves.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gs_bench {

struct Case {
  std::string name;
  nlohmann::json spec;  // the suite's entry, read again when the case is prepared
  std::vector<std::string> variants;
  std::map<std::string, uint64_t> total_bytes;  // per variant: effective_bytes.total
};

// Throws std::runtime_error naming the file when it cannot be read.
std::vector<Case> LoadSuite(const std::string& path);

// <case>[/<variant>]/<backend>/<checked|unchecked>/threads:<n>: the names dashboards track.
std::string BenchmarkName(const Case& c, const std::string& variant, const std::string& backend,
                          bool checked, int threads);

// The suite's index law (its "index_generation"): calls store(i, value) for the case's `count`
// indices, drawn from its seed. "uniform": index i uniform in [0, bounds[i % bounds.size()]);
// "unique": a sample of [0, bounds[0]) without replacement (a partial Fisher-Yates shuffle);
// "zipf": value k of [0, bounds[0]) with probability proportional to 1 / (k + 1)^exponent
// (the entry's "exponent", 1 unless given): the skew of token ids in an embedding's gradient,
// the hot values first. Uniform draws take the high half of a 128-bit product, the same on
// every platform (no std::uniform_int_distribution).
template <class Store>
void DrawIndices(const Case& c, uint64_t count, const std::vector<uint64_t>& bounds, Store store) {
  std::mt19937_64 rng(c.spec.at("seed").get<uint64_t>());
  const auto below = [&rng](uint64_t bound) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(rng()) * bound) >> 64);
  };
  const std::string dist =
      c.spec.contains("indices") ? c.spec.at("indices").value("distribution", "uniform") : "uniform";
  if (dist == "uniform") {
    for (uint64_t i = 0; i < count; ++i) store(i, below(bounds[i % bounds.size()]));
  } else if (dist == "unique") {
    if (bounds.size() != 1) throw std::runtime_error(c.name + ": unique needs tuple size 1");
    if (count > bounds[0]) throw std::runtime_error(c.name + ": more unique indices than the bound");
    std::vector<uint64_t> pool(bounds[0]);
    for (uint64_t i = 0; i < pool.size(); ++i) pool[i] = i;
    for (uint64_t i = 0; i < count; ++i) {
      std::swap(pool[i], pool[i + below(bounds[0] - i)]);
      store(i, pool[i]);
    }
  } else if (dist == "zipf") {
    if (bounds.size() != 1) throw std::runtime_error(c.name + ": zipf needs tuple size 1");
    const double exponent = c.spec.at("indices").value("exponent", 1.0);
    std::vector<double> cumulative(bounds[0]);
    double sum = 0;
    for (uint64_t k = 0; k < bounds[0]; ++k) cumulative[k] = sum += std::pow(static_cast<double>(k + 1), -exponent);
    for (uint64_t i = 0; i < count; ++i) {
      const double u = static_cast<double>(rng() >> 11) * 0x1p-53 * sum;
      const auto at = std::upper_bound(cumulative.begin(), cumulative.end(), u);
      store(i, std::min<uint64_t>(at - cumulative.begin(), bounds[0] - 1));
    }
  } else {
    throw std::runtime_error(c.name + ": unknown index distribution " + dist);
  }
}

}  // namespace gs_bench
