#include "enginediff/command_words.hpp"

#include <cctype>

#include "common/errors.hpp"

namespace perftkit {

std::vector<std::string> split_command_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
    } else if (c == '\'') {
      const std::size_t end = text.find('\'', i + 1);
      if (end == std::string_view::npos) throw UsageError("engine command: unterminated ' quote");
      word.append(text.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      std::size_t j = i + 1;
      for (; j < text.size() && text[j] != '"'; ++j) {
        if (text[j] == '\\' && j + 1 < text.size() && (text[j + 1] == '"' || text[j + 1] == '\\')) ++j;
        word += text[j];
      }
      if (j >= text.size()) throw UsageError("engine command: unterminated \" quote");
      i = j;
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) throw UsageError("engine command is empty");
  return words;
}

namespace {

void replace_all(std::string& text, std::string_view placeholder, const std::string& value) {
  for (std::size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + value.size()))
    text.replace(at, placeholder.size(), value);
}

}  // namespace

std::vector<std::string> fill_placeholders(const std::vector<std::string>& words, const std::string& fen, int depth,
                                           const std::string& moves) {
  std::vector<std::string> filled = words;
  for (std::string& word : filled) {
    replace_all(word, "{fen}", fen);
    replace_all(word, "{depth}", std::to_string(depth));
    replace_all(word, "{moves}", moves);
  }
  return filled;
}

bool has_placeholders(const std::vector<std::string>& words) {
  for (const std::string& word : words)
    if (word.find("{fen}") != std::string::npos || word.find("{depth}") != std::string::npos ||
        word.find("{moves}") != std::string::npos)
      return true;
  return false;
}

}  // namespace perftkit
