// How perftkit's errors reach Python: bad input (UsageError) is a ValueError with the reason
// the CLI prints; a stop requested by Ctrl-C is a KeyboardInterrupt.
#include <Python.h>

#include "bindings.hpp"
#include "common/cancellation.hpp"
#include "common/errors.hpp"

namespace nb = nanobind;

namespace perftkit::python {

nb::object to_python_int(u128 value) {
  const std::string digits = to_string_u128(value);
  return nb::steal(PyLong_FromString(digits.c_str(), nullptr, 10));
}

void bind_errors(nb::module_&) {
  nb::register_exception_translator([](const std::exception_ptr& failure, void*) {
    try {
      std::rethrow_exception(failure);
    } catch (const UsageError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const Cancelled&) {
      PyErr_SetNone(PyExc_KeyboardInterrupt);
    }
  });
}

}  // namespace perftkit::python
