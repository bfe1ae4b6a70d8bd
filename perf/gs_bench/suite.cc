#include "suite.h"

#include <fstream>
#include <stdexcept>
#include <utility>

namespace gs_bench {

using json = nlohmann::json;

std::vector<Case> LoadSuite(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open suite file " + path);
  json suite = json::parse(in);
  std::vector<Case> cases;
  for (const json& c : suite.at("cases")) {
    Case k;
    k.name = c.at("name").get<std::string>();
    k.spec = c;
    if (c.contains("variants")) {
      k.variants = c.at("variants").get<std::vector<std::string>>();
    } else {
      k.variants = {"default"};
    }
    for (const std::string& v : k.variants) {
      k.total_bytes[v] = c.at("effective_bytes").at(v).at("total").get<uint64_t>();
    }
    cases.push_back(std::move(k));
  }
  return cases;
}

std::string BenchmarkName(const Case& c, const std::string& variant, const std::string& backend,
                          bool checked, int threads) {
  // A case with one variant called "default" keeps the bare case name.
  const bool name_variant = c.variants.size() > 1 || c.variants.at(0) != "default";
  return c.name + (name_variant ? "/" + variant : std::string()) + "/" + backend + "/" +
         (checked ? "checked" : "unchecked") + "/threads:" + std::to_string(threads);
}

}  // namespace gs_bench
