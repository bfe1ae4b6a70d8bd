// The perf suite (shared/perf/suite.json): its cases, their variants and the bytes each moves.
#pragma once

#include <cstdint>
#include <map>
#include <string>
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

}  // namespace gs_bench
