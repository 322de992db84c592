// SPDX-License-Identifier: BSD-3-Clause
// The module hympi._hympi: hympi.Error, the enums (their members: hympi/names.h), the
// versions, and the classes bound by the other files of python/src/ (bindings.hpp). Python
// users import `hympi` (python/hympi/__init__.py), which re-exports all of it.
#include <nanobind/stl/tuple.h>

#include <cstring>
#include <tuple>

#include "bindings.hpp"
#include "common.hpp"

namespace hympy {

void bind_enums(nb::module_& m) {
  bind_enum<hympi_datatype>(m, "Datatype", "Element types (numpy float64, float32, int32, int64).",
                            {HYMPI_DATATYPES(HYMPY_MEMBER)});
  bind_enum<hympi_op>(m, "Op", "Reduction operations (also by name: 'sum', 'prod', 'min', 'max').",
                      {HYMPI_OPS(HYMPY_MEMBER)});
  bind_enum<hympi_strategy>(m, "Strategy", "Ghost-update strategies (also by name: 'shm', ...; docs/usage.md).",
                            {HYMPI_STRATEGIES(HYMPY_MEMBER)});
  bind_enum<hympi_halo_mode>(m, "HaloMode",
                             "Where a Halo's data comes from: the arrays passed to begin/end, or its own buffers "
                             "(zero copy). Also by name: 'vectors', 'buffers'.",
                             {HYMPI_HALO_MODES(HYMPY_MEMBER)});
  bind_enum<hympi_stencil>(m, "Stencil", "Stencils of CartesianGrid (also by name: 'star5', ...).",
                           {HYMPI_STENCILS(HYMPY_MEMBER)});
}

}  // namespace hympy

NB_MODULE(_hympi, m) {
  namespace nb = nanobind;
  m.doc() = "hympi's C API for Python (import hympi, which re-exports this module).";
  nb::exception<hympy::Error>(m, "Error", PyExc_RuntimeError);
  m.attr("Error").attr("__doc__") =
      "Every error hympi reports. Errors of collective calls (arguments that differ between ranks, bad "
      "input some rank saw) are raised on every rank with the same message.";
  m.def(
      "version",
      [] {
        int major, minor, patch;
        hympi_version(&major, &minor, &patch);
        return std::make_tuple(major, minor, patch);
      },
      "The hympi library's version (major, minor, patch).");
  m.def(
      "configuration", [] { return std::string(hympi_configuration()); },
      "What this hympi is: version, git commit, build type, components, the MPI it was built with and the one it "
      "runs with, the compiler (lines).");
  m.def(
      "mpi_library_version",
      [] {
        char text[MPI_MAX_LIBRARY_VERSION_STRING];
        int length = 0;
        MPI_Get_library_version(text, &length);
        return std::string(text, strnlen(text, static_cast<std::size_t>(length)));  // Open MPI counts the NUL
      },
      "MPI_Get_library_version() of the MPI library hympi was linked with (mpi4py must use the same).");
  hympy::bind_enums(m);
  hympy::bind_options(m);
  hympy::bind_context(m);
  hympy::bind_pattern(m);
  hympy::bind_halo(m);
  hympy::bind_grid(m);
  hympy::bind_node_shared(m);
  hympy::bind_messages(m);
#ifdef HYMPY_MAPPING
  hympy::bind_mapping(m);
#endif
}
