// perftkit._perftkit: perft, classification and a small position type at C++ speed.
#include "bindings.hpp"

NB_MODULE(_perftkit, m) {
  m.doc() = "perftkit's C++ core: perft, classification and positions (use the perftkit package)";
  perftkit::python::bind_errors(m);
  perftkit::python::bind_perft(m);
  perftkit::python::bind_position(m);
  perftkit::python::bind_classify(m);
  perftkit::python::bind_verify(m);
  perftkit::python::bind_classify_file(m);
}
