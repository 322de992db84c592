// SPDX-License-Identifier: BSD-3-Clause
// The parts of the module hympi._hympi, each bound by its own file; module.cpp calls them
// in this order (enums and Options first: later signatures use them as defaults).
#pragma once

#include <nanobind/nanobind.h>

namespace hympy {

void bind_enums(nanobind::module_& m);    // module.cpp
void bind_options(nanobind::module_& m);  // options.cpp
void bind_context(nanobind::module_& m);  // context.cpp
void bind_pattern(nanobind::module_& m);  // pattern.cpp
void bind_halo(nanobind::module_& m);     // halo.cpp
void bind_grid(nanobind::module_& m);     // grid.cpp
void bind_node_shared(nanobind::module_& m);  // node_shared.cpp
void bind_messages(nanobind::module_& m);  // messages.cpp
void bind_mapping(nanobind::module_& m);  // mapping.cpp, built with hympi_mapping (HYMPY_MAPPING)

}  // namespace hympy
