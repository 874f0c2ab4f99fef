// A minimal streaming JSON writer: objects, arrays, strings, numbers (128-bit exact).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "common/uint128.hpp"

namespace perftkit {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(u128 number);
  JsonWriter& value(double number);
  JsonWriter& value(bool flag);
  JsonWriter& value(int number) { return value_raw(std::to_string(number)); }
  JsonWriter& value(unsigned number) { return value_raw(std::to_string(number)); }
  JsonWriter& value(unsigned long number) { return value_raw(std::to_string(number)); }
  JsonWriter& value(unsigned long long number) { return value_raw(std::to_string(number)); }
  JsonWriter& value(long number) { return value_raw(std::to_string(number)); }
  JsonWriter& null() { return value_raw("null"); }

  template <typename T>
  JsonWriter& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }
  // A count that may exceed 2^53, the largest integer that jq and JavaScript (doubles) hold
  // exactly: the number under name, then the same digits as a string under NAME_string.
  JsonWriter& field(std::string_view name, u128 count);
  // The same for a count that may be absent: null under both names.
  JsonWriter& field(std::string_view name, const std::optional<u128>& count);

 private:
  JsonWriter& open(char bracket);
  JsonWriter& close(char bracket);
  JsonWriter& value_raw(std::string_view text);
  void separate();

  std::ostream& out_;
  std::vector<bool> has_items_;  // per open container: something written already
  bool after_key_ = false;
};

}  // namespace perftkit
