// The report of a descent: text for people, JSON for machines.
#pragma once

#include <ostream>
#include <string>

#include "common/json_writer.hpp"
#include "enginediff/descent.hpp"

namespace perftkit {

// The verdict, the counts on both sides at each level, the path, the FEN where the
// generators part and the missing, extra and differing moves with their rules. label
// names the position in a suite or a fuzz run ("" for one position).
void print_diff_text(std::ostream& out, const DiffOutcome& outcome, const std::string& label = "");

// The same as one JSON object.
void write_diff_json(JsonWriter& json, const DiffOutcome& outcome, const std::string& label = "");

// "agree", "differ", "engine failed".
const char* verdict_name(DiffVerdict verdict);

}  // namespace perftkit
