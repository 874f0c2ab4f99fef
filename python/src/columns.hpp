// Columns made in C++ and handed to numpy without a copy: the array owns the memory through
// a capsule that frees it with the array.
#pragma once

#include <nanobind/ndarray.h>

#include <cstddef>
#include <memory>

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

}  // namespace perftkit::python
