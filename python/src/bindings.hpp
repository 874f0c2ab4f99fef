// The parts of the module perftkit._perftkit, one concept a file, and the conversions they
// share. The Python half of the package is python/perftkit/__init__.py.
#pragma once

#include <nanobind/nanobind.h>

#include <string_view>

#include <string>

#include "common/uint128.hpp"
#include "perft/driver.hpp"

namespace perftkit::python {

void bind_errors(nanobind::module_& m);
void bind_perft(nanobind::module_& m);
void bind_position(nanobind::module_& m);
void bind_classify(nanobind::module_& m);
void bind_verify(nanobind::module_& m);
void bind_classify_file(nanobind::module_& m);

// The backend a `backend=` argument names; UsageError for another name.
Backend backend_named(const std::string& name);

// An exact Python int of a 128-bit count.
nanobind::object to_python_int(u128 value);

}  // namespace perftkit::python
