// The lines of a command's output or a file's text, for tests that compare them one by one.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace perftkit::testing_support {

// text split at '\n' (the newlines dropped; a final newline adds no empty line).
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace perftkit::testing_support
