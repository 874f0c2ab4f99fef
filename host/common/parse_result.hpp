// The result of reading outside input: a value, or the reason there is none.
#pragma once

#include <optional>
#include <string>

namespace perftkit {

// A parsed value, or an error that names the field and the problem (empty when there is a value).
template <class T>
struct ParseResult {
  std::optional<T> value;
  std::string error;

  explicit operator bool() const { return value.has_value(); }
  const T& operator*() const { return *value; }
  const T* operator->() const { return &*value; }
};

}  // namespace perftkit
