#include "common/json_writer.hpp"

#include <cmath>
#include <cstdio>

#include "common/json_string.hpp"

namespace perftkit {

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_items_.empty()) {
    if (has_items_.back()) out_ << ',';
    has_items_.back() = true;
  }
}

JsonWriter& JsonWriter::open(char bracket) {
  separate();
  out_ << bracket;
  has_items_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  has_items_.pop_back();
  out_ << bracket;
  if (has_items_.empty()) out_ << '\n';
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  separate();
  out_ << '"' << json_escape(name) << "\":";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value_raw(std::string_view text) {
  separate();
  out_ << text;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) { return value_raw('"' + json_escape(text) + '"'); }
JsonWriter& JsonWriter::value(u128 number) { return value_raw(to_string_u128(number)); }

JsonWriter& JsonWriter::field(std::string_view name, u128 count) {
  const std::string digits = to_string_u128(count);
  key(name).value_raw(digits);
  return key(std::string(name) + "_string").value(std::string_view(digits));
}

JsonWriter& JsonWriter::field(std::string_view name, const std::optional<u128>& count) {
  if (count) return field(name, *count);
  key(name).null();
  return key(std::string(name) + "_string").null();
}
JsonWriter& JsonWriter::value(bool flag) { return value_raw(flag ? "true" : "false"); }

JsonWriter& JsonWriter::value(double number) {
  if (!std::isfinite(number)) return null();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", number);
  return value_raw(buf);
}

}  // namespace perftkit
