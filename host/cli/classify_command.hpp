// `perftkit classify`: bulk classification of FEN/EPD lines and PGN games.
#pragma once

#include <CLI/CLI.hpp>

namespace perftkit {

void add_classify_command(CLI::App& app, int& exit_code);

}  // namespace perftkit
