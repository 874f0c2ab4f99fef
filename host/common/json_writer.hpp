// A minimal streaming JSON writer: objects, arrays, strings, numbers (128-bit exact).
#pragma once

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

 private:
  JsonWriter& open(char bracket);
  JsonWriter& close(char bracket);
  JsonWriter& value_raw(std::string_view text);
  void separate();

  std::ostream& out_;
  std::vector<bool> has_items_;  // per open container: something written already
  bool after_key_ = false;
};

// text with JSON string escapes applied (no surrounding quotes).
std::string json_escape(std::string_view text);

}  // namespace perftkit
