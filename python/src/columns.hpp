// Columns made in C++ and handed to numpy without a copy: a number column's array owns the
// memory through a capsule that frees it with the array; a text column is a numpy object array.
#pragma once

#include <nanobind/ndarray.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace perftkit::python {

template <typename T>
class NumpyColumn {
 public:
  explicit NumpyColumn(std::size_t size) : data_(new T[size]()), size_(size) {}

  T& operator[](std::size_t i) { return data_[i]; }

  // The numpy array; the column is empty afterwards.
  nanobind::object release() {
    T* data = data_.release();
    nanobind::capsule owner(data, [](void* p) noexcept { delete[] static_cast<T*>(p); });
    return nanobind::cast(nanobind::ndarray<nanobind::numpy, T, nanobind::ndim<1>>(data, {size_}, owner));
  }

 private:
  std::unique_ptr<T[]> data_;
  std::size_t size_;
};

// A numpy array of values (bool is stored as one byte, as numpy stores it), without a copy.
template <typename T, typename Stored = T>
nanobind::object numpy_array(std::vector<Stored>&& values) {
  static_assert(sizeof(T) == sizeof(Stored));
  auto* owned = new std::vector<Stored>(std::move(values));
  nanobind::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<Stored>*>(p); });
  return nanobind::cast(nanobind::ndarray<nanobind::numpy, T, nanobind::ndim<1>>(reinterpret_cast<T*>(owned->data()),
                                                                                 {owned->size()}, owner));
}

// A numpy array of Python objects (str or None, for text columns), filled in place: numpy
// makes it with None in every slot, and set() swaps a slot's reference. Needs the GIL.
class ObjectColumn {
 public:
  explicit ObjectColumn(std::size_t size)
      : array_(nanobind::module_::import_("numpy").attr("empty")(size, nanobind::arg("dtype") = "object")),
        items_(reinterpret_cast<PyObject**>(
            nanobind::cast<std::uintptr_t>(array_.attr("__array_interface__")["data"][0]))) {}

  void set(std::size_t i, nanobind::handle value) {
    PyObject* const previous = items_[i];
    items_[i] = value.inc_ref().ptr();
    Py_DECREF(previous);
  }

  nanobind::object release() { return std::move(array_); }

 private:
  nanobind::object array_;
  PyObject** items_;
};

}  // namespace perftkit::python
