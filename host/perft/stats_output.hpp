// Perft statistics as text tables and as JSON objects.
#pragma once

#include <ostream>
#include <vector>

#include "common/json_writer.hpp"
#include "perft/driver.hpp"

namespace perftkit {

// One table row per root move (dead positions summed in one column) and a total row.
void print_stats_divide(std::ostream& out, const std::vector<DivideEntry>& divide, const StatsTotals& total);

// Every counter of totals, one labelled line each, then a blank line (before "Nodes searched").
void print_stats_summary(std::ostream& out, const StatsTotals& totals);

// How a JSON object of counts writes them: as numbers, or as decimal strings for readers
// whose numbers are doubles (its twin object, "NAME_string", JsonWriter's rule for counts).
enum class CountsAs { NUMBERS, STRINGS };

// totals as a JSON object of counter name -> exact count.
void write_stats_json(JsonWriter& json, const StatsTotals& totals, CountsAs as);

// The fields "stats" (numbers) and "stats_string" (decimal strings) of an object being written.
void write_stats_fields(JsonWriter& json, const StatsTotals& totals);

}  // namespace perftkit
