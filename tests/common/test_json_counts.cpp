// Counts in JSON output stay exact for readers whose numbers are doubles (jq, JavaScript):
// every count that can exceed 2^53 is followed by the same digits as a string (#16).
#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>

#include "support/cli_runner.hpp"
#include "common/json_writer.hpp"

namespace perftkit {
namespace {

std::string json_of(const auto& write) {
  std::ostringstream out;
  JsonWriter json(out);
  json.begin_object();
  write(json);
  json.end_object();
  std::string text = out.str();
  if (!text.empty() && text.back() == '\n') text.pop_back();  // the writer ends a document with one
  return text;
}

TEST(JsonCounts, ACountIsFollowedByItsDigitsAsAString) {
  // 2^53 + 1: a double rounds it to 9007199254740992.
  const u128 above_doubles = (u128(1) << 53) + 1;
  EXPECT_EQ(json_of([&](JsonWriter& j) { j.field("nodes", above_doubles); }),
            R"({"nodes":9007199254740993,"nodes_string":"9007199254740993"})");
  // A 128-bit total: perft 15 of the start position (published, 2,015,099,950,053,364,471,960).
  const u128 record = u128(2015099950053364471ULL) * 1000 + 960;
  EXPECT_EQ(json_of([&](JsonWriter& j) { j.field("nodes", record); }),
            R"({"nodes":2015099950053364471960,"nodes_string":"2015099950053364471960"})");
  EXPECT_EQ(json_of([&](JsonWriter& j) { j.field("total", std::optional<u128>()); }),
            R"({"total":null,"total_string":null})");
  // Other integers are not counts: no companion.
  EXPECT_EQ(json_of([&](JsonWriter& j) { j.field("depth", 7); }), R"({"depth":7})");
}

TEST(JsonCounts, PerftJsonCarriesEveryCountAsAString) {
  const testing_support::CommandResult r = testing_support::run_perftkit("perft --depth 2 --divide --json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(R"("nodes":400,"nodes_string":"400")"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(R"("divide_string":{"a2a3":"20",)"), std::string::npos) << r.output;
  const testing_support::CommandResult s = testing_support::run_perftkit("perft --depth 1 --stats --json 2>/dev/null");
  ASSERT_EQ(s.exit_code, 0) << s.output;
  EXPECT_NE(s.output.find(R"("stats_string":{"nodes":"20","captures":"0",)"), std::string::npos) << s.output;
}

}  // namespace
}  // namespace perftkit
