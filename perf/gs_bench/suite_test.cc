// The suite's index law as DrawIndices draws it: a skewed or wrong draw would time another
// case than the one the suite (and the peers, drawing the same law) describe.
#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "suite.h"

namespace gs_bench {
namespace {

Case WithIndices(const nlohmann::json& indices) {
  Case c;
  c.name = "test";
  c.spec = {{"seed", 5}, {"indices", indices}};
  return c;
}

std::vector<uint64_t> Draw(const Case& c, uint64_t count, const std::vector<uint64_t>& bounds) {
  std::vector<uint64_t> values(count, ~uint64_t{0});
  DrawIndices(c, count, bounds, [&](uint64_t i, uint64_t value) { values.at(i) = value; });
  return values;
}

TEST(DrawIndices, UniformStaysInsideEachComponentsBound) {
  const std::vector<uint64_t> values = Draw(WithIndices({{"distribution", "uniform"}}), 30000, {7, 1000});
  for (size_t i = 0; i < values.size(); ++i) ASSERT_LT(values[i], i % 2 ? 1000u : 7u) << i;
  EXPECT_EQ(std::set<uint64_t>(values.begin(), values.end()).size(), 1000u);  // every value met
}

TEST(DrawIndices, UniqueDrawsNoValueTwice) {
  const std::vector<uint64_t> values = Draw(WithIndices({{"distribution", "unique"}}), 900, {1000});
  const std::set<uint64_t> distinct(values.begin(), values.end());
  EXPECT_EQ(distinct.size(), values.size());
  EXPECT_LT(*distinct.rbegin(), 1000u);
}

// Value k's share is (k + 1)^-s over the sum of them all: checked for the hottest values and
// the tail, at the default exponent 1 and at 2, against the law computed here.
TEST(DrawIndices, ZipfFollowsItsLaw) {
  constexpr uint64_t kBound = 1000, kDraws = 400000;
  for (const double exponent : {1.0, 2.0}) {
    const nlohmann::json law = exponent == 1.0 ? nlohmann::json{{"distribution", "zipf"}}
                                               : nlohmann::json{{"distribution", "zipf"}, {"exponent", exponent}};
    const std::vector<uint64_t> values = Draw(WithIndices(law), kDraws, {kBound});
    std::vector<double> share(kBound, 0);
    for (const uint64_t v : values) {
      ASSERT_LT(v, kBound);
      share[v] += 1.0 / kDraws;
    }
    double sum = 0;
    for (uint64_t k = 0; k < kBound; ++k) sum += std::pow(k + 1.0, -exponent);
    for (const uint64_t k : {0, 1, 2, 9}) {
      const double want = std::pow(k + 1.0, -exponent) / sum;
      EXPECT_NEAR(share[k], want, 0.05 * want + 0.002) << "exponent " << exponent << ", value " << k;
    }
    double tail = 0, tailWant = 0;  // the second half of the values, together
    for (uint64_t k = kBound / 2; k < kBound; ++k) {
      tail += share[k];
      tailWant += std::pow(k + 1.0, -exponent) / sum;
    }
    EXPECT_NEAR(tail, tailWant, 0.1 * tailWant + 0.001) << "exponent " << exponent;
  }
}

TEST(DrawIndices, RefusesWhatTheLawCannotDraw) {
  EXPECT_THROW(Draw(WithIndices({{"distribution", "zipf"}}), 10, {10, 10}), std::runtime_error);
  EXPECT_THROW(Draw(WithIndices({{"distribution", "unique"}}), 11, {10}), std::runtime_error);
  EXPECT_THROW(Draw(WithIndices({{"distribution", "normal"}}), 10, {10}), std::runtime_error);
}

}  // namespace
}  // namespace gs_bench
